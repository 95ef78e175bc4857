// Document handles through the real daemon (`fcpd`, env FCPD_REAL) over Streamable HTTP, where
// every call uses a NEW official-SDK client and MCP session and carries the handle as `doc`;
// and the same through the `fcp` CLI (env FCP) with `--doc` and no `--session`. The saved
// .drawio file is read back with an XML parser and mxGraph's structural check.
// Run: FCPD_REAL=… FCP=… node --test handles.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { closeQuietly, connectHttp } from './clients.mjs';
import { Daemon, removeDir, runCli } from './lib.mjs';
import { cellsOf, pagesOf, structuralCheck } from './mxgraph-decode.mjs';
import { locateFcpd, makeTempDir, textOf } from './real-daemon.mjs';

const HANDLE = /handle: (doc:dw-[0-9a-f]{32}) /;
const SHAPES = 50;

const root = makeTempDir('fcp-e2e-handles-');
let daemon;
let url;
const sessionIds = new Set();

before(async () => {
  const child = spawn(locateFcpd(), ['--http', '127.0.0.1:0', '--root', root, '--log-level', 'info'],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  daemon = new Daemon(child, { stdio: false });
  const port = await daemon.port(/listening for MCP over HTTP on http:\/\/127\.0\.0\.1:(\d+)\/mcp/, 'the HTTP port');
  url = `http://127.0.0.1:${port}/mcp`;
});

after(async () => {
  await daemon?.stop();
  removeDir(root);
});

// One tool call through a brand-new SDK client and MCP session, ended (DELETE) right after.
async function callOnce(name, args) {
  const connected = await connectHttp(url);
  try {
    sessionIds.add(connected.inner.sessionId);
    return await connected.client.callTool({ name, arguments: args }, undefined, { timeout: 20_000 });
  } finally {
    await closeQuietly(connected);
  }
}

function assertOk(result, what) {
  assert.equal(result.isError, false, `${what}: ${textOf(result)}`);
}

// The shapes of the saved file's first page, read with jsdom's DOM parser (not the daemon's code).
function savedShapes(file) {
  const pages = pagesOf(readFileSync(file, 'utf8'), path.basename(file));
  assert.equal(pages.length, 1);
  structuralCheck(pages[0].model, 'Page-1');
  return cellsOf(pages[0].model).filter((c) => c.vertex);
}

describe('handles over Streamable HTTP, a new SDK client and session per call', { timeout: 100_000 }, () => {
  let handle;

  it('new answers with a handle', async () => {
    const created = await callOnce('drawio_session', { action: 'new "Per call"' });
    assertOk(created, 'new');
    handle = textOf(created).match(HANDLE)?.[1];
    assert.ok(handle, textOf(created));
  });

  it(`${SHAPES} ops calls, each in its own session, reach the document`, async () => {
    for (let i = 0; i < SHAPES; ++i) {
      const added = await callOnce('drawio', { ops: [`add svc S${i}`], doc: handle });
      assertOk(added, `add S${i}`);
      assert.match(textOf(added), new RegExp(`\\[${i + 1}s 0e 0g`));
    }
    assert.equal(sessionIds.size, SHAPES + 1, 'every call had its own MCP session');
  });

  it('a query in yet another session sees all of them; without doc there is no document', async () => {
    const stats = await callOnce('drawio_query', { q: 'stats', doc: handle });
    assertOk(stats, 'stats');
    assert.match(textOf(stats), new RegExp(`^shapes: ${SHAPES}, edges: 0`));
    const without = await callOnce('drawio_query', { q: 'stats' });
    assert.equal(without.isError, true);
    assert.match(textOf(without), /no document/);
  });

  it('save writes the file, list names it, close ends the handle', async () => {
    const saved = await callOnce('drawio_session', { action: 'save as:per-call.drawio', doc: handle });
    assertOk(saved, 'save');
    const file = path.join(root, 'per-call.drawio');
    const shapes = savedShapes(file);
    assert.equal(shapes.length, SHAPES);
    assert.deepEqual(shapes.map((c) => c.element.getAttribute('value')).sort(), Array.from({ length: SHAPES }, (_, i) => `S${i}`).sort());
    const listed = textOf(await callOnce('drawio_session', { action: 'list' }));
    assert.ok(listed.includes(`${handle} "Per call" file: ${file}, unsaved changes: no`), listed);
    assertOk(await callOnce('drawio_session', { action: `close ${handle}` }), 'close');
    const gone = await callOnce('drawio_query', { q: 'stats', doc: handle });
    assert.equal(gone.isError, true);
    assert.match(textOf(gone), /was closed; its handle no longer works\n {2}try: drawio_session list/);
  });

  it('a handle that was never issued is refused before anything runs', async () => {
    const forged = await callOnce('drawio', { ops: ['add svc X'], doc: 'doc:dw-00000000000000000000000000000000' });
    assert.equal(forged.isError, true);
    assert.match(textOf(forged), /^! no open drawio document has the handle doc:dw-0{32}/);
  });

  it('tools/list declares doc on all tools with x-mcp-header Doc', async () => {
    const connected = await connectHttp(url);
    try {
      const { tools } = await connected.client.listTools();
      const domainTools = tools.filter((t) => /^(drawio|midi|lofi)(_query|_session|_help)?$/.test(t.name));
      assert.equal(domainTools.length, 12);
      for (const tool of domainTools) {
        assert.equal(tool.inputSchema.properties.doc?.['x-mcp-header'], 'Doc', tool.name);
      }
    } finally {
      await closeQuietly(connected);
    }
  });
});

describe('handles through the fcp CLI without --session', { timeout: 100_000 }, () => {
  const fcp = (args) => runCli(['--connect', url, ...args], { cwd: root, env: { FCPD: '' } });
  let handle;

  it(`new, ${SHAPES} separate invocations with --doc, query, save`, async () => {
    const created = await fcp(['drawio_session', 'new "By CLI"']);
    assert.equal(created.code, 0, created.stderr);
    handle = created.stdout.match(HANDLE)?.[1];
    assert.ok(handle, created.stdout);
    for (let i = 0; i < SHAPES; ++i) {
      const added = await fcp(['--doc', handle, 'drawio', `add svc C${i}`]);
      assert.equal(added.code, 0, `${added.stdout}${added.stderr}`);
    }
    const stats = await fcp(['--doc', handle, 'drawio_query', 'stats']);
    assert.match(stats.stdout, new RegExp(`^shapes: ${SHAPES}, edges: 0`));
    const saved = await fcp(['--doc', handle, 'drawio_session', 'save as:by-cli.drawio']);
    assert.equal(saved.code, 0, saved.stdout);
    assert.ok(existsSync(path.join(root, 'by-cli.drawio')));
    assert.equal(savedShapes(path.join(root, 'by-cli.drawio')).length, SHAPES);
  });

  it('--doc with a closed handle fails with exit status 1 and says so', async () => {
    assert.equal((await fcp(['--doc', handle, 'drawio_session', 'close'])).code, 0);
    const gone = await fcp(['--doc', handle, 'drawio_query', 'stats']);
    assert.equal(gone.code, 1);
    assert.match(gone.stdout + gone.stderr, /was closed/);
  });
});
