// The drawio domain end to end: the real `fcpd` (every domain, as users run it) over stdio,
// driven by the official MCP TypeScript SDK client. Files it writes are checked by readers that
// share no code with it: xmllint (libxml2), mxGraph's own codec (npm `mxgraph` in jsdom) and a
// DOM-level structural check (mxgraph-decode.mjs).
// Run: FCPD_REAL=…/fcpd node --test drawio.test.mjs   (CTest: e2e_drawio)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  cellsOf, checkDrawioFile, countCells, diffCells, displayedText, drawioTextOf, mxGraphDecode, pagesOf,
  parseXml, pngChunks,
} from './mxgraph-decode.mjs';
import {
  assertFails, assertOk, connectStdio, disconnect, locateFcpd, makeTempDir, matchDigest, sourceRoot, textOf,
} from './real-daemon.mjs';

const here = path.join(sourceRoot, 'tests', 'e2e');
const FIXTURES = path.join(sourceRoot, 'fixtures', 'drawio');
// The shared corpus beside the repository; optional (its cases are skipped when it is absent).
const CORPUS = process.env.FCP_DRAWIO_CORPUS ?? path.resolve(sourceRoot, '..', 'shared', 'corpus', 'drawio');

const FCPD = locateFcpd();
const HAVE_XMLLINT = spawnSync('xmllint', ['--version']).status === 0;
const CALL = { timeout: 20_000 };

// ---------------------------------------------------------------------------------------------
// The client

// Records every message the daemon sends (to see replies the SDK cannot match to a request).
class RecordingTransport {
  constructor(inner) {
    this.inner = inner;
    this.received = [];
    this.errors = [];  // what the SDK could not take as a message (e.g. a reply with id null)
  }

  async start() {
    this.inner.onmessage = (message, extra) => {
      this.received.push(message);
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => {
      this.errors.push(error);
      this.onerror?.(error);
    };
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }

  send(message, options) {
    return this.inner.send(message, options);
  }

  close() {
    return this.inner.close();
  }
}

// The digest `[Ns Me Gg [WxH] p:A/P]` that ends every mutating reply, parsed.
const DIGEST = /^\[(\d+)s (\d+)e (\d+)g(?: (\d+)x(\d+))? p:(\d+)\/(\d+)\]$/;
function digestOf(result) {
  const m = matchDigest(result, DIGEST);
  const last = m[0];
  return {
    line: last, shapes: +m[1], edges: +m[2], groups: +m[3],
    width: m[4] === undefined ? null : +m[4], height: m[5] === undefined ? null : +m[5],
    page: +m[6], pages: +m[7],
  };
}

// `fcpd --stdio --root ROOT` through the SDK, recording every message that arrives.
function connect(root) {
  return connectStdio(FCPD, root, { name: 'fcp-e2e-drawio', wrap: (inner) => new RecordingTransport(inner) });
}

function tools(client) {
  const call = (name, args, options = {}) =>
    client.callTool({ name, arguments: args }, undefined, { ...CALL, ...options });
  return {
    ops: (list, options) => call('drawio', { ops: list }, options),
    query: (q) => call('drawio_query', { q }),
    session: (action) => call('drawio_session', { action }),
    help: () => call('drawio_help', {}),
  };
}

function xmllint(file) {
  const run = spawnSync('xmllint', ['--noout', file], { encoding: 'utf8' });
  return { ok: run.status === 0, errors: (run.stderr ?? '').slice(0, 1500) };
}

// Every check of a saved draw.io file by the independent readers.
function assertValidDrawioFile(file) {
  if (HAVE_XMLLINT) {
    const lint = xmllint(file);
    assert.ok(lint.ok, `xmllint rejects ${path.basename(file)}:\n${lint.errors}`);
  }
  const checked = checkDrawioFile(readFileSync(file, 'utf8'), path.basename(file));
  assert.deepEqual(checked.problems, [], `${path.basename(file)} fails the mxGraph/structural checks`);
  return checked;
}

// `+ TYPE LABEL @(X,Y WxH) …` lines of an add reply, by label.
function placements(text) {
  const out = {};
  for (const m of text.matchAll(/^\+ (\S+) (.+?) @\((-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?) (\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)\)/gm)) {
    out[m[2]] = { type: m[1], x: +m[3], y: +m[4], w: +m[5], h: +m[6] };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// PNG / PDF helpers

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(bytes) {
  assert.ok(bytes.length > 24, 'the PNG is too short');
  assert.deepEqual(bytes.subarray(0, 8), PNG_SIGNATURE, 'PNG signature');
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR', 'the first PNG chunk is IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// ---------------------------------------------------------------------------------------------
// 1–4. tools, a realistic session, the saved file, export

describe('drawio over stdio with the official SDK client (real fcpd)', { timeout: 60_000 }, () => {
  let root;
  let connected;
  let drawio;

  before(async () => {
    root = makeTempDir('fcp-e2e-drawio-');
    connected = await connect(root);
    drawio = tools(connected.client);
  });

  after(async () => {
    await disconnect(connected);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('tools/list: exactly the four drawio tools with input schemas; the card is embedded', async () => {
    const { tools: all } = await connected.client.listTools();
    // Other domains (midi, lofi) add their own four tools; these are drawio's.
    const list = all.filter((t) => t.name === 'drawio' || t.name.startsWith('drawio_'));
    const byName = Object.fromEntries(list.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), ['drawio', 'drawio_help', 'drawio_query', 'drawio_session']);
    for (const tool of list) {
      assert.equal(typeof tool.description, 'string');
      assert.ok(tool.description.length > 10, `${tool.name} has a description`);
      assert.equal(tool.inputSchema.type, 'object', `${tool.name} input schema`);
    }
    const mutation = byName.drawio.inputSchema;
    assert.equal(mutation.properties.ops.type, 'array');
    assert.deepEqual(mutation.properties.ops.items, { type: 'string' });
    assert.deepEqual(mutation.required, ['ops']);
    assert.equal(byName.drawio_query.inputSchema.properties.q.type, 'string');
    assert.deepEqual(byName.drawio_query.inputSchema.required, ['q']);
    assert.equal(byName.drawio_session.inputSchema.properties.action.type, 'string');
    assert.deepEqual(byName.drawio_session.inputSchema.required, ['action']);
    assert.deepEqual(Object.keys(byName.drawio_help.inputSchema.properties ?? {}), ['doc']);
    // The mutation tool's description embeds the reference card.
    assert.match(byName.drawio.description, /NODE TYPES/);
    assert.match(byName.drawio.description, /add \[TYPE\] LABEL \[theme:T\]/);
    assert.match(byName.drawio.description, /connect SRC ->/);
  });

  it('drawio_help returns the reference card', async () => {
    const result = await drawio.help();
    assertOk(result);
    assert.match(textOf(result), /NODE TYPES/);
    assert.match(textOf(result), /drawio_session/);
  });

  describe('a realistic session', () => {
    let built;          // reply of the big batch
    let placed;         // positions reported by the adds
    let digest;         // digest after the batch (and after undo+redo)
    const BATCH = [
      'add actor Customer',
      'add svc Web near:Customer dir:right',
      'add svc Orders near:Web dir:right',
      'add db OrdersDB near:Orders dir:below',
      'add queue Events near:Orders dir:right',
      'add svc Billing near:Events dir:below',
      'add db Ledger near:Billing dir:below',
      'connect Customer -> Web label:"HTTPS"',
      'connect Web -> Orders -> Events -> Billing style:dashed',
      'connect Orders -> OrdersDB label:"SQL" style:thick',
      'connect Billing <-> Ledger label:"post"',
      'group Orders OrdersDB as:"Order Service"',
      'style Billing fill:#fff2cc stroke:#d6b656 bold',
      'layer create "Overlay"',
      'page add "Notes"',
      'page switch "Page-1"',
      'badge Events "async"',
    ];

    it('drawio_session new "Shop"', async () => {
      const result = await drawio.session('new "Shop"');
      assertOk(result);
      assert.match(textOf(result), /^\+ new drawio document "Shop"/);
      assert.deepEqual(digestOf(result).line, '[0s 0e 0g p:1/1]');
    });

    it(`one batch of ${BATCH.length} ops: shapes placed near/dir, edges, group, style, badge, page, layer`, async () => {
      built = await drawio.ops(BATCH);
      assertOk(built, 'the batch');
      const text = textOf(built);
      placed = placements(text);
      assert.deepEqual(Object.keys(placed).sort(),
                       ['Billing', 'Customer', 'Events', 'Ledger', 'Orders', 'OrdersDB', 'Web']);
      assert.equal(placed.Customer.type, 'actor');
      assert.equal(placed.OrdersDB.type, 'db');
      assert.equal(placed.Events.type, 'queue');
      // near:REF dir:right → 60 px to the right, centres aligned; dir:below → 60 px below.
      const right = (a, b) => {
        assert.equal(placed[b].x, placed[a].x + placed[a].w + 60, `${b} is 60 px right of ${a}`);
        assert.equal(placed[b].y + placed[b].h / 2, placed[a].y + placed[a].h / 2, `${b} centred on ${a}`);
      };
      const below = (a, b) => {
        assert.equal(placed[b].y, placed[a].y + placed[a].h + 60, `${b} is 60 px below ${a}`);
        assert.equal(placed[b].x + placed[b].w / 2, placed[a].x + placed[a].w / 2, `${b} centred under ${a}`);
      };
      right('Customer', 'Web');
      right('Web', 'Orders');
      below('Orders', 'OrdersDB');
      right('Orders', 'Events');
      below('Events', 'Billing');
      below('Billing', 'Ledger');
      assert.equal(text.split('\n').filter((l) => l.startsWith('~ ')).length, 6, `six edges:\n${text}`);
      assert.match(text, /^~ Customer->Web "HTTPS"/m);
      assert.match(text, /^~ Billing<->Ledger "post"/m);
      assert.match(text, /^\+ group Order Service \(2 shapes\)/m);
      assert.match(text, /^\+ page Notes/m);
      assert.match(text, /^\+ layer Overlay/m);
      digest = digestOf(built);
      assert.equal(digest.shapes, 7);
      assert.equal(digest.edges, 6);
      assert.equal(digest.groups, 1);
      assert.equal(digest.page, 1);
      assert.equal(digest.pages, 2);
      assert.ok(digest.width > 0 && digest.height > 0, `canvas size in ${digest.line}`);
    });

    it('queries: list, map, describe, connections, stats, status, history', async () => {
      const list = await drawio.query('list');
      assertOk(list);
      for (const entry of ['Customer(actor)', 'Web(svc)', 'Orders(svc)', 'OrdersDB(db)', 'Events(queue)',
                           'Billing(svc)', 'Ledger(db)']) {
        assert.ok(textOf(list).split('\n').includes(entry), `list has ${entry}:\n${textOf(list)}`);
      }

      const map = await drawio.query('map');
      assertOk(map);
      assert.match(textOf(map), /^map: \d+x\d+ flow:(TB|LR|BT|RL) \| 7s 6e 1g/);
      assert.match(textOf(map), /\[Order Service\]/);

      const describeOrders = await drawio.query('describe Orders');
      assertOk(describeOrders);
      assert.match(textOf(describeOrders), /^Orders \(svc\)/);
      assert.match(textOf(describeOrders), /^ {2}group: Order Service$/m);
      const describeBilling = await drawio.query('describe Billing');
      assert.match(textOf(describeBilling), /fill: #fff2cc/);
      const describeEvents = await drawio.query('describe Events');
      assert.match(textOf(describeEvents), /^ {2}badges: async$/m);

      const connections = await drawio.query('connections Orders');
      assertOk(connections);
      assert.match(textOf(connections), /^ {2}out: .*Events/m);
      assert.match(textOf(connections), /^ {2}out: .*OrdersDB\("SQL"\)/m);
      assert.match(textOf(connections), /^ {2}in: Web$/m);

      const stats = await drawio.query('stats');
      assertOk(stats);
      assert.match(textOf(stats), /^shapes: 7, edges: 6, groups: 1, pages: 2$/m);

      const status = await drawio.query('status');
      assertOk(status);
      assert.match(textOf(status), /^drawio document "Shop"/);
      assert.match(textOf(status), /^ {2}log: 17 undoable, 0 redoable$/m);

      const history = await drawio.query('history');
      assertOk(history);
      assert.match(textOf(history), /last 10 of 17 ops/);
      assert.match(textOf(history), /^ {2}17\. badge Events "async"$/m);
    });

    it('grouping keeps the members where they were', async () => {
      for (const label of ['Orders', 'OrdersDB']) {
        const result = await drawio.query(`describe ${label}`);
        const m = textOf(result).match(/^ {2}position: \((-?[\d.]+), (-?[\d.]+)\)$/m);
        assert.ok(m, textOf(result));
        assert.deepEqual([+m[1], +m[2]], [placed[label].x, placed[label].y],
                         `${label} was added at (${placed[label].x}, ${placed[label].y}); after ` +
                         `"group Orders OrdersDB as:…" describe says (${m[1]}, ${m[2]})`);
      }
    });

    it('drawio_session undo takes back one op, redo brings it back', async () => {
      const undone = await drawio.session('undo');
      assertOk(undone);
      assert.match(textOf(undone), /^- undone: badge Events "async"$/m);
      assert.doesNotMatch(textOf(await drawio.query('describe Events')), /badges:/);
      assert.match(textOf(await drawio.query('status')), /^ {2}log: 16 undoable, 1 redoable$/m);

      const redone = await drawio.session('redo');
      assertOk(redone);
      assert.match(textOf(redone), /^\+ redone: badge Events "async"$/m);
      assert.match(textOf(await drawio.query('describe Events')), /^ {2}badges: async$/m);
      assert.equal(digestOf(redone).line, digest.line);
      assert.match(textOf(await drawio.query('status')), /^ {2}log: 17 undoable, 0 redoable$/m);
    });

    it('checkpoint v1', async () => {
      const result = await drawio.session('checkpoint v1');
      assertOk(result);
      assert.match(textOf(result), /^\+ checkpoint "v1" after 17 ops/);
      assert.equal(digestOf(result).line, digest.line);
    });

    it('a batch with one bad op in the middle changes nothing (atomic rollback)', async () => {
      const batches = [
        { ops: ['add svc Extra near:Web dir:below', 'connect Extra -> Ledger', 'frobnicate Web', 'remove Customer'],
          failed: /op 3 of 4 failed: frobnicate Web/, outcome: /nothing was applied/ },
        { ops: ['add svc Extra2', 'connect Extra2 -> NoSuchShape', 'add svc Extra3'],
          failed: /op 2 of 3 failed: connect Extra2 -> NoSuchShape/, outcome: /rolled back/ },
      ];
      for (const batch of batches) {
        const result = await drawio.ops(batch.ops);
        assertFails(result, batch.failed, batch.ops.join(' | '));
        assert.match(textOf(result), batch.outcome);
        assert.equal(digestOf(result).line, digest.line, 'the digest is unchanged');
      }
      const list = textOf(await drawio.query('list'));
      assert.doesNotMatch(list, /Extra/);
      assert.match(list, /^Customer\(actor\)$/m);
      assert.match(textOf(await drawio.query('status')), /^ {2}log: 17 undoable, 0 redoable$/m);
      assert.match(textOf(await drawio.query('history 1')), /badge Events "async"/);
      const undo = await drawio.session('undo to:v1');
      assertOk(undo);
      assert.match(textOf(undo), /nothing to undo/);
    });

    it('save as:shop.drawio', async () => {
      const result = await drawio.session('save as:shop.drawio');
      assertOk(result);
      assert.equal(textOf(result).split('\n')[0],
                   `* saved "${path.join(root, 'shop.drawio')}" (2 pages, 7 shapes, 6 edges, 1 group)`);
      assert.equal(digestOf(result).line, digest.line);
      assert.ok(existsSync(path.join(root, 'shop.drawio')));
      assert.match(textOf(await drawio.query('status')), /unsaved changes: no/);
    });

    it('the saved file: xmllint, mxGraph codec and structure accept it', () => {
      const checked = assertValidDrawioFile(path.join(root, 'shop.drawio'));
      assert.equal(checked.pages, 2);
    });

    it('the saved file has the shapes, edges, group, badge, layer and pages the session made', () => {
      const text = readFileSync(path.join(root, 'shop.drawio'), 'utf8');
      const pages = pagesOf(text, 'shop.drawio');
      assert.deepEqual(pages.map((p) => p.name), ['Page-1', 'Notes']);
      const decoded = mxGraphDecode(pages[0].model, 'Page-1');
      const model = decoded.model;
      const cells = Object.values(model.cells);
      const byLabel = (label) => {
        const found = cells.filter((c) => model.isVertex(c) && c.value === label);
        assert.equal(found.length, 1, `one vertex labelled ${label}`);
        return found[0];
      };
      const edges = cells.filter((c) => model.isEdge(c));
      assert.equal(edges.length, 6);
      const ends = edges.map((e) => `${e.source?.value}->${e.target?.value}`).sort();
      assert.deepEqual(ends, ['Billing->Ledger', 'Customer->Web', 'Events->Billing', 'Orders->Events',
                              'Orders->OrdersDB', 'Web->Orders']);
      const edge = (a, b) => edges.find((e) => e.source?.value === a && e.target?.value === b);
      assert.equal(edge('Customer', 'Web').value, 'HTTPS');
      assert.equal(edge('Orders', 'OrdersDB').value, 'SQL');
      for (const [a, b] of [['Web', 'Orders'], ['Orders', 'Events'], ['Events', 'Billing']]) {
        assert.match(edge(a, b).style, /(^|;)dashed=1(;|$)/, `${a}->${b} is dashed`);
      }
      const thick = edge('Orders', 'OrdersDB').style.match(/(?:^|;)strokeWidth=([\d.]+)/);
      assert.ok(thick && +thick[1] >= 2, `the SQL edge is thick: ${edge('Orders', 'OrdersDB').style}`);
      // <-> has an arrow at both ends; -> only at the target.
      const startArrow = (style) => (style.match(/(?:^|;)startArrow=([^;]*)/)?.[1] ?? 'none');
      assert.notEqual(startArrow(edge('Billing', 'Ledger').style), 'none', 'Billing<->Ledger has a start arrow');
      assert.equal(startArrow(edge('Customer', 'Web').style), 'none', 'Customer->Web is one way');

      assert.match(byLabel('Customer').style, /shape=umlActor/);
      assert.match(byLabel('OrdersDB').style, /shape=cylinder3/);
      assert.match(byLabel('Events').style, /parallelogram/);
      assert.match(byLabel('Billing').style, /fillColor=#fff2cc/);
      assert.match(byLabel('Billing').style, /strokeColor=#d6b656/);
      assert.match(byLabel('Billing').style, /fontStyle=1/);

      const group = byLabel('Order Service');
      assert.match(group.style, /container=1/);
      assert.equal(byLabel('Orders').parent, group);
      assert.equal(byLabel('OrdersDB').parent, group);
      // Ungrouped shapes keep the positions the replies reported.
      for (const label of ['Customer', 'Web', 'Events', 'Billing', 'Ledger']) {
        const g = byLabel(label).geometry;
        assert.deepEqual([g.x, g.y, g.width, g.height],
                         [placed[label].x, placed[label].y, placed[label].w, placed[label].h], label);
      }
      // The badge is saved on Events; the layer "Overlay" is a child of the root cell.
      const events = byLabel('Events');
      const badge = cells.find((c) => c.value === 'async');
      assert.ok(badge, 'the badge "async" is saved');
      assert.equal(badge.parent, events, 'the badge is attached to Events');
      const layers = Array.from({ length: model.getChildCount(model.getRoot()) },
                                (_, i) => model.getChildAt(model.getRoot(), i));
      assert.ok(layers.some((l) => l.value === 'Overlay'), 'layer Overlay saved');
    });

    it('the saved file keeps grouped members at their absolute positions', () => {
      const text = readFileSync(path.join(root, 'shop.drawio'), 'utf8');
      const { model } = mxGraphDecode(pagesOf(text)[0].model);
      const cells = Object.values(model.cells);
      for (const label of ['Orders', 'OrdersDB']) {
        const cell = cells.find((c) => c.value === label);
        let x = cell.geometry.x;
        let y = cell.geometry.y;
        for (let p = cell.parent; p && p.geometry && model.isVertex(p); p = p.parent) {
          x += p.geometry.x;
          y += p.geometry.y;
        }
        assert.deepEqual([x, y], [placed[label].x, placed[label].y],
                         `${label}: added at (${placed[label].x}, ${placed[label].y}), saved at (${x}, ${y})`);
      }
    });

    describe('export', () => {
      it('export fmt:png returns an image content block holding a PNG', async () => {
        const result = await drawio.ops(['export fmt:png']);
        assertOk(result);
        const images = result.content.filter((c) => c.type === 'image');
        assert.equal(images.length, 1, JSON.stringify(result.content.map((c) => c.type)));
        assert.equal(images[0].mimeType, 'image/png');
        const size = pngSize(Buffer.from(images[0].data, 'base64'));
        assert.ok(size.width >= digest.width && size.height >= digest.height,
                  `PNG ${size.width}x${size.height} holds the ${digest.width}x${digest.height} canvas`);
        assert.ok(size.width < 4 * digest.width + 200, `PNG width ${size.width} is sensible`);
        assert.match(textOf(result), /PNG/);
        assert.equal(digestOf(result).line, digest.line, 'export changes nothing');
      });

      it('export fmt:png width:800 gives an 800 px wide PNG', async () => {
        const result = await drawio.ops(['export fmt:png width:800']);
        assertOk(result);
        const image = result.content.find((c) => c.type === 'image');
        assert.ok(image, 'an image block');
        assert.equal(pngSize(Buffer.from(image.data, 'base64')).width, 800);
      });

      it('export fmt:pdf returns an embedded resource with mimeType application/pdf', async () => {
        const result = await drawio.ops(['export fmt:pdf']);
        assertOk(result);
        const resources = result.content.filter((c) => c.type === 'resource');
        assert.equal(resources.length, 1, JSON.stringify(result.content.map((c) => c.type)));
        const { resource } = resources[0];
        assert.equal(resource.mimeType, 'application/pdf');
        assert.equal(typeof resource.uri, 'string');
        const pdf = Buffer.from(resource.blob, 'base64');
        assert.equal(pdf.toString('latin1', 0, 5), '%PDF-');
        assert.match(pdf.toString('latin1', pdf.length - 32), /%%EOF\s*$/);
      });

      it('export file as:shop.svg writes an SVG that xmllint accepts', async () => {
        const result = await drawio.ops(['export file as:shop.svg']);
        assertOk(result);
        const file = path.join(root, 'shop.svg');
        assert.ok(existsSync(file), textOf(result));
        if (HAVE_XMLLINT) {
          const lint = xmllint(file);
          assert.ok(lint.ok, `xmllint rejects shop.svg:\n${lint.errors}`);
        }
        const svg = parseXml(readFileSync(file, 'utf8'), 'shop.svg').documentElement;
        assert.equal(svg.localName, 'svg');
        assert.equal(svg.namespaceURI, 'http://www.w3.org/2000/svg');
        const texts = Array.from(svg.getElementsByTagName('text')).map((t) => t.textContent);
        for (const label of ['Customer', 'Web', 'Orders', 'Ledger', 'HTTPS']) {
          assert.ok(texts.some((t) => t.includes(label)), `the SVG shows "${label}"`);
        }
      });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 5. Fixtures and corpus: open → stats → save as copy → independent readers, same cells

const FIXTURE_FILES = [
  'compressed.drawio', 'bare-model.xml', 'multi-page-layers.drawio', 'compressed.drawio.svg', 'embedded.drawio.png',
];
const CORPUS_FILES = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => !f.startsWith('.')).sort() : [];

describe('draw.io files: open → stats → save → independent readers', { timeout: 60_000 }, () => {
  let root;
  let connected;
  let drawio;

  before(async () => {
    root = makeTempDir('fcp-e2e-drawio-files-');
    mkdirSync(path.join(root, 'corpus'));
    for (const f of FIXTURE_FILES) copyFileSync(path.join(FIXTURES, f), path.join(root, f));
    for (const f of CORPUS_FILES) copyFileSync(path.join(CORPUS, f), path.join(root, 'corpus', f));
    connected = await connect(root);
    drawio = tools(connected.client);
  });

  after(async () => {
    await disconnect(connected);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const cases = [
    ...FIXTURE_FILES.map((f) => ({ name: `fixture ${f}`, rel: f })),
    ...CORPUS_FILES.map((f) => ({ name: `corpus ${f}`, rel: `corpus/${f}` })),
  ];
  if (!CORPUS_FILES.length) {
    it('corpus files (../shared/corpus/drawio)', { skip: `${CORPUS} does not exist` }, () => {});
  }

  for (const { name, rel } of cases) {
    describe(name, () => {
      const copyRel = `${rel.replace(/[^/]*$/, '')}copy-${path.basename(rel)}.drawio`;
      const editRel = `${rel.replace(/[^/]*$/, '')}edit-${path.basename(rel)}.drawio`;
      let originalText;
      let saved = false;

      it('opens, drawio_query stats works, save as:copy', async () => {
        originalText = drawioTextOf(readFileSync(path.join(root, rel)), rel);
        const opened = await drawio.session(`open "${rel}" discard:true`);
        assertOk(opened, `open ${rel}`);
        assert.match(textOf(opened), /^\+ opened "/);
        const stats = await drawio.query('stats');
        assertOk(stats);
        const m = textOf(stats).match(/^shapes: (\d+), edges: (\d+), groups: (\d+), pages: (\d+)$/m);
        assert.ok(m, textOf(stats));
        assert.equal(+m[4], pagesOf(originalText, rel).length, 'stats counts every page of the file');
        const result = await drawio.session(`save as:"${copyRel}"`);
        assertOk(result, `save as:${copyRel}`);
        assert.match(textOf(result), /^\* saved "/);
        saved = true;
      });

      it('the copy passes xmllint, mxGraph and the structural check, with the same mxCell count', () => {
        assert.ok(saved, 'the copy was saved');
        const copyFile = path.join(root, copyRel);
        assertValidDrawioFile(copyFile);
        const copyText = readFileSync(copyFile, 'utf8');
        assert.equal(countCells(copyText, copyRel), countCells(originalText, rel), 'mxCell elements');
        const originalPages = pagesOf(originalText, rel);
        const copyPages = pagesOf(copyText, copyRel);
        assert.equal(copyPages.length, originalPages.length, 'pages');
        if (originalPages[0]?.id !== null) {  // a bare <mxGraphModel> has no page name to keep
          assert.deepEqual(copyPages.map((p) => [p.id, p.name]), originalPages.map((p) => [p.id, p.name]),
                           'page ids, names and order');
        }
      });

      it('the round trip is lossless: every cell keeps its attributes, style and geometry', () => {
        assert.ok(saved, 'the copy was saved');
        const before = pagesOf(originalText, rel);
        const after = pagesOf(readFileSync(path.join(root, copyRel), 'utf8'), copyRel);
        const diffs = before.flatMap((page, i) => diffCells(page.model, after[i]?.model, `page "${page.name}"`));
        assert.deepEqual(diffs, []);
      });

      it('one edit (add a shape) touches nothing else and gets a fresh id', async () => {
        assert.ok(saved, 'the copy was saved');
        const added = await drawio.ops(['add svc "E2E probe"']);
        assertOk(added);
        const result = await drawio.session(`save as:"${editRel}"`);
        assertOk(result);
        const editFile = path.join(root, editRel);
        assertValidDrawioFile(editFile);
        const before = pagesOf(originalText, rel);
        const after = pagesOf(readFileSync(editFile, 'utf8'), editRel);
        assert.equal(after.length, before.length);
        const allIds = new Set(before.flatMap((p) => cellsOf(p.model).map((c) => c.id)));
        const extra = after.flatMap((p, i) => {
          const old = new Set(cellsOf(before[i].model).map((c) => c.id));
          return cellsOf(p.model).filter((c) => !old.has(c.id));
        });
        assert.equal(extra.length, 1, `exactly one new cell: ${extra.map((c) => c.id)}`);
        assert.equal(extra[0].element.getAttribute('value'), 'E2E probe');
        assert.ok(!allIds.has(extra[0].id), `the new id "${extra[0].id}" is not used by any page of the file`);
        const diffs = before.flatMap((page, i) =>
          diffCells(page.model, after[i].model, `page "${page.name}"`, { allowExtra: new Set([extra[0].id]) }));
        assert.deepEqual(diffs, []);
      });
    });
  }
});

// ---------------------------------------------------------------------------------------------
// 5b. .drawio.png: open → save keeps the file; an edit reaches the text chunk draw.io reads

const PNG_FILES = [
  { name: 'fixture embedded.drawio.png', source: path.join(FIXTURES, 'embedded.drawio.png') },
  ...CORPUS_FILES.filter((f) => /\.png$/i.test(f)).map((f) => ({ name: `corpus ${f}`, source: path.join(CORPUS, f) })),
];

describe('.drawio.png: open → save → draw.io\'s text chunk, read independently', { timeout: 60_000 }, () => {
  let root;
  let connected;
  let drawio;

  before(async () => {
    root = makeTempDir('fcp-e2e-drawio-png-');
    PNG_FILES.forEach(({ source }, i) => copyFileSync(source, path.join(root, `in-${i}.drawio.png`)));
    connected = await connect(root);
    drawio = tools(connected.client);
  });

  after(async () => {
    await disconnect(connected);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  PNG_FILES.forEach(({ name, source }, i) => {
    it(`${name}: unchanged it is saved byte for byte; an edit is in the tEXt "mxfile" chunk for mxGraph`, async () => {
      const original = readFileSync(source);
      assertOk(await drawio.session(`open in-${i}.drawio.png discard:true`));
      assertOk(await drawio.session(`save as:same-${i}.drawio.png`));
      assert.ok(readFileSync(path.join(root, `same-${i}.drawio.png`)).equals(original), 'the saved file is the opened file');

      const added = await drawio.ops(['add svc "PNG probe"']);
      assertOk(added);
      assertOk(await drawio.session(`save as:edit-${i}.drawio.png`));
      const edited = readFileSync(path.join(root, `edit-${i}.drawio.png`));
      const chunks = pngChunks(edited, `edit-${i}.drawio.png`);
      assert.equal(chunks[0].type, 'IHDR');
      assert.equal(chunks.at(-1).type, 'IEND');
      const textAt = chunks.findIndex((c) => c.type === 'tEXt' && c.data.toString('latin1', 0, 7) === 'mxfile\0');
      assert.ok(textAt > 0 && textAt < chunks.findIndex((c) => c.type === 'IDAT'), 'tEXt "mxfile" before the image data');
      const after = drawioTextOf(edited, 'edit');
      assert.ok(after.startsWith('<mxfile'), after.slice(0, 80));
      const checked = checkDrawioFile(after, `edit-${i}.drawio.png`);
      assert.deepEqual(checked.problems, [], 'mxGraph and the structural check accept the embedded diagram');
      const before = pagesOf(drawioTextOf(original, name), name);
      const pages = pagesOf(after, 'edit');
      assert.equal(pages.length, before.length);
      const probes = pages.flatMap((p) => cellsOf(p.model)).filter((c) => c.element.getAttribute('value') === 'PNG probe');
      assert.equal(probes.length, 1, 'the added shape is in the saved diagram');
      const diffs = before.flatMap((page, k) =>
        diffCells(page.model, pages[k].model, `page "${page.name}"`, { allowExtra: new Set([probes[0].id]) }));
      assert.deepEqual(diffs, [], 'nothing else changed');
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Hostile input

describe('hostile input', { timeout: 60_000 }, () => {
  let root;
  let outside;
  let connected;
  let drawio;
  let baseline;  // digest of the saved "Hostile" document

  before(async () => {
    root = makeTempDir('fcp-e2e-drawio-hostile-');
    outside = makeTempDir('fcp-e2e-drawio-outside-');
    writeFileSync(path.join(outside, 'secret.drawio'), readFileSync(path.join(FIXTURES, 'bare-model.xml')));
    symlinkSync(path.join(outside, 'secret.drawio'), path.join(root, 'link.drawio'));
    symlinkSync(outside, path.join(root, 'outdir'));
    writeFileSync(path.join(root, 'notes.txt'), 'hello, this is not a diagram\n');
    writeFileSync(path.join(root, 'junk.drawio'), Buffer.concat([PNG_SIGNATURE, Buffer.from([0, 0, 0xff, 0xfe, 0x80])]));
    writeFileSync(path.join(root, 'truncated.drawio'), '<mxfile><diagram name="x"><mxGraphModel><root><mxCell id="0"/>');
    connected = await connect(root);
    drawio = tools(connected.client);
    assertOk(await drawio.session('new "Hostile"'));
    assertOk(await drawio.ops(['add svc Anchor', 'add db Store near:Anchor dir:right', 'connect Anchor -> Store']));
    const saved = await drawio.session('save as:hostile.drawio');
    assertOk(saved);
    baseline = digestOf(saved).line;
  });

  after(async () => {
    await disconnect(connected);
    if (root) rmSync(root, { recursive: true, force: true });
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  // The document is still "Hostile" with its shapes and nothing unsaved.
  async function assertDocumentKept() {
    const status = textOf(await drawio.query('status'));
    assert.match(status, /^drawio document "Hostile"/, status);
    assert.match(status, /unsaved changes: no/, status);
    const stats = textOf(await drawio.query('stats'));
    assert.match(stats, /^shapes: 2, edges: 1, groups: 0, pages: 1$/m);
  }

  it('paths outside the root are refused with a clear error', async () => {
    const attempts = [
      ['session', 'save as:../x.drawio'],
      ['session', `save as:${path.join(outside, 'x.drawio')}`],
      ['session', 'save as:outdir/escaped.drawio'],        // a symlinked directory
      ['session', 'save as:link.drawio'],                  // a symlink to a file outside
      ['session', 'open /etc/passwd'],
      ['session', 'open link.drawio'],
      ['session', 'open outdir/secret.drawio'],
      ['ops', 'export file fmt:svg as:../escape.svg'],
    ];
    for (const [tool, action] of attempts) {
      const result = tool === 'session' ? await drawio.session(action) : await drawio.ops([action]);
      assertFails(result, /outside the allowed roots/, action);
    }
    assert.ok(!existsSync(path.resolve(root, '..', 'x.drawio')));
    assert.ok(!existsSync(path.join(outside, 'x.drawio')));
    assert.ok(!existsSync(path.join(outside, 'escaped.drawio')));
    assert.ok(!existsSync(path.resolve(root, '..', 'escape.svg')));
    assert.equal(readFileSync(path.join(outside, 'secret.drawio'), 'utf8'),
                 readFileSync(path.join(FIXTURES, 'bare-model.xml'), 'utf8'), 'the file behind the symlink is untouched');
    await assertDocumentKept();
  });

  it('a missing path outside the root is refused as outside, not reported missing', async () => {
    // Otherwise the error tells a client which files exist outside its roots.
    const result = await drawio.session(`open ${path.join(outside, 'no-such-file.drawio')}`);
    assertFails(result, /outside the allowed roots/, 'open of a missing file outside the root');
  });

  it('opening files that are not draw.io gives an error and keeps the previous document', async () => {
    for (const file of ['notes.txt', 'junk.drawio', 'truncated.drawio', 'missing.drawio']) {
      const result = await drawio.session(`open ${file}`);
      assertFails(result, /^! cannot open "/, file);
      assert.equal(digestOf(result).line, baseline, `digest after open ${file}`);
      await assertDocumentKept();
    }
  });

  it('a 100 KB label is handled and survives a save', async () => {
    const label = 'L'.repeat(100 * 1024);
    const result = await drawio.ops([`add svc "${label}" at:600,600`]);
    assertOk(result);
    assert.equal(digestOf(result).shapes, 3);
    const saved = await drawio.session('save as:huge.drawio');
    assertOk(saved);
    assertValidDrawioFile(path.join(root, 'huge.drawio'));
    const page = pagesOf(readFileSync(path.join(root, 'huge.drawio'), 'utf8'))[0];
    assert.ok(cellsOf(page.model).some((c) => c.element.getAttribute('value') === label), 'the label is intact');
    assertOk(await drawio.session('undo'));
    assertOk(await drawio.session('save as:hostile.drawio'));
  });

  it('labels with markup characters are saved as the text the user typed', async () => {
    const label = 'a<b & "c" \'d\' </mxCell> ]]> &amp;';
    const op = `add svc "${label.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}" at:900,900`;
    assertOk(await drawio.ops([op]));
    assertOk(await drawio.session('save as:markup.drawio'));
    assertValidDrawioFile(path.join(root, 'markup.drawio'));
    const page = pagesOf(readFileSync(path.join(root, 'markup.drawio'), 'utf8'))[0];
    const cells = cellsOf(page.model).filter((c) => c.vertex);
    const shown = cells.map((c) => displayedText(c.element.getAttribute('value') ?? '', c.cell.getAttribute('style') ?? ''));
    assert.ok(shown.includes(label), `draw.io shows ${JSON.stringify(label)}; the file has ${JSON.stringify(shown)}`);
    assertOk(await drawio.session('undo'));
    assertOk(await drawio.session('save as:hostile.drawio'));
  });

  it('labels with control characters still save as well-formed XML', async () => {
    // XML 1.0 cannot carry U+0000, most C0 controls, U+FFFE/U+FFFF: they must be dropped or
    // replaced, or the op refused, but the saved file must stay readable.
    const ops = ['add svc "nul\u0000x" at:100,900', 'add svc "esc\u001bx" at:300,900',
                 'add svc "vt\u000bx" at:500,900', 'add svc "nonchar\uffffx" at:700,900'];
    const result = await drawio.ops(ops);
    if (result.isError) {
      assert.match(textOf(result), /^! /m);
      assert.equal(digestOf(result).line, baseline);
      return;
    }
    const saved = await drawio.session('save as:controls.drawio');
    try {
      assertOk(saved);
      assertValidDrawioFile(path.join(root, 'controls.drawio'));
    } finally {
      assertOk(await drawio.session(`undo ${ops.length}`));
      assertOk(await drawio.session('save as:hostile.drawio'));
    }
  });

  it('a lone surrogate in an op gets an answer to that request', async () => {
    // JSON.stringify writes "\ud800" as an escape: valid JSON text, not valid Unicode. The
    // server may accept it (U+FFFD) or refuse it, but must answer the request's id.
    const before = connected.transport.received.length;
    const errorsBefore = connected.transport.errors.length;
    let outcome;
    try {
      const result = await connected.client.callTool({ name: 'drawio', arguments: { ops: ['add svc \ud800'] } },
                                                     undefined, { timeout: 5000 });
      outcome = { result };
    } catch (error) {
      outcome = { error };
    }
    const unmatched = [
      ...connected.transport.received.slice(before).filter((m) => m.id === null).map((m) => JSON.stringify(m)),
      ...connected.transport.errors.slice(errorsBefore)
        .map((e) => `a message the SDK rejected: ${e.message.replace(/\s+/g, ' ').slice(0, 160)}…`),
    ];
    assert.ok(!outcome.error || outcome.error.code !== -32001,
              `no reply to the request within 5 s; the client received instead: ${unmatched.join(' | ') || 'nothing'}`);
    if (outcome.result && !outcome.result.isError) {
      // Accepted: undo it so the document is as before.
      assertOk(await drawio.session('undo'));
      assertOk(await drawio.session('save as:hostile.drawio'));
    }
  });

  it('the daemon is still alive and the document intact after all of that', async () => {
    await connected.client.ping({ timeout: 5000 });
    await assertDocumentKept();
    assert.equal(digestOf(await drawio.session('checkpoint end')).line, baseline);
  });
});
