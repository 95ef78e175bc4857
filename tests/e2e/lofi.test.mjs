// The lofi domain end to end: the real `fcpd` (every domain) over stdio with the official MCP SDK
// client, talking OSC over real UDP to `fcpd simulate-max` (the Max daemon simulator, with fault
// switches). The simulator logs every message it receives on stderr (`HH:MM:SS.mmm info
// /lofi/VERB {json}`); the tests parse that log to see what reached "Max".
// Run: FCPD_REAL=…/fcpd node --test lofi.test.mjs   (CTest: e2e_lofi)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import {
  assertOk, connectStdio, locateFcpd, matchDigest, sourceRoot, textOf,
} from './real-daemon.mjs';
import { RecordingTransport } from './recording-transport.mjs';

const here = path.join(sourceRoot, 'tests', 'e2e');

const FCPD = locateFcpd();
const TIMEOUT_MS = 1500;
const CALL = { timeout: 20_000 };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check, { timeout = 5000, interval = 20, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(interval);
  }
}

// A free UDP port: bind to 0, read the port, close.
function freeUdpPort() {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket('udp4');
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The simulated Max

class Simulator {
  constructor(port, reply, extra) {
    this.port = port;
    this.log = '';
    this.child = spawn(FCPD, ['simulate-max', '--port', String(port), '--reply', String(reply), ...extra],
      { stdio: ['ignore', 'ignore', 'pipe'] });
    this.exited = false;
    this.exit = new Promise((resolve) => this.child.on('exit', () => { this.exited = true; resolve(); }));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => { this.log += chunk; });
  }

  static async start(port, reply, extra = []) {
    const sim = new Simulator(port, reply, extra);
    await waitFor(() => {
      if (sim.exited) throw new Error(`simulate-max exited:\n${sim.log}`);
      return /simulating the Max lofi daemon/.test(sim.log);
    }, { what: 'the simulator to start' });
    return sim;
  }

  // Every message received so far: [{ address, payload }].
  messages() {
    const out = [];
    for (const line of this.log.split('\n')) {
      const m = line.match(/ info (\/lofi\/\S+) (\{.*\})\s*$/);
      if (m) out.push({ address: m[1], payload: JSON.parse(m[2]) });
    }
    return out;
  }

  addresses(from = 0) {
    return this.messages().slice(from).map((m) => m.address);
  }

  async stop() {
    if (this.exited) return;
    this.child.kill('SIGTERM');
    const done = await Promise.race([this.exit.then(() => true), sleep(3000).then(() => false)]);
    if (!done) {
      this.child.kill('SIGKILL');
      await this.exit;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// fcpd and its clients

// MCP over fcpd's TCP transport with the SDK's own newline framing.
class TcpClientTransport {
  constructor(port) {
    this.port = port;
    this.readBuffer = new ReadBuffer();
  }

  start() {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port: this.port, host: '127.0.0.1' });
      this.socket = socket;
      socket.once('connect', () => resolve());
      socket.once('error', reject);
      socket.on('data', (chunk) => {
        this.readBuffer.append(chunk);
        for (;;) {
          const message = this.readBuffer.readMessage();
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      socket.on('close', () => this.onclose?.());
    });
  }

  send(message) {
    return new Promise((resolve, reject) => {
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close() {
    this.socket?.destroy();
  }
}

// The digest `[No Nui Nw Nm max:STATE]` that ends every mutating reply.
const DIGEST = /^\[(\d+)o (\d+)ui (\d+)w (\d+)m max:(\S+)\]$/;
function digestOf(result) {
  const m = matchDigest(result, DIGEST);
  const last = m[0];
  return { line: last, objects: +m[1], ui: +m[2], wires: +m[3], maps: +m[4], max: m[5] };
}

function tools(client) {
  const call = (name, args) => client.callTool({ name, arguments: args }, undefined, CALL);
  return {
    ops: (list) => call('lofi', { ops: list }),
    query: (q) => call('lofi_query', { q }),
    session: (action) => call('lofi_session', { action }),
  };
}

// One simulator and one fcpd (stdio; optionally also TCP) configured to talk to it.
// `record`: env.recorder keeps every message fcpd sent, in order (RecordingTransport).
async function setup({ simArgs = [], tcp = false, record = false } = {}) {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'fcp-e2e-lofi-')));
  const port = await freeUdpPort();
  const reply = await freeUdpPort();
  const sim = await Simulator.start(port, reply, simArgs);
  const config = path.join(root, 'fcpd-config.json');
  writeFileSync(config, JSON.stringify({
    lofi: { host: '127.0.0.1', port, reply_port: reply, timeout_ms: TIMEOUT_MS, probe_ms: 500 },
  }));
  const extraArgs = ['--config', config, ...(tcp ? ['--tcp', '127.0.0.1:0'] : [])];
  let recorder;
  const wrap = (t) => (record ? (recorder = new RecordingTransport(t)) : t);
  const { client, transport, log } = await connectStdio(FCPD, root, { name: 'fcp-e2e-lofi', extraArgs, wrap });
  const env = {
    recorder,
    root, port, reply, sim, client, lofi: tools(client), log, extra: [],
    async cleanup() {
      for (const c of env.extra) await c.close().catch(() => {});
      await client.close().catch(() => {});
      await env.sim.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
  if (tcp) {
    const m = await waitFor(() => log().match(/listening for MCP over TCP on 127\.0\.0\.1:(\d+)/),
      { timeout: 10_000, what: 'the TCP port in the fcpd log' });
    env.tcpPort = Number(m[1]);
  }
  return env;
}

// Swaps the simulator for a new one on the same ports (e.g. with a fault).
async function restartSimulator(env, simArgs) {
  await env.sim.stop();
  env.sim = await Simulator.start(env.port, env.reply, simArgs);
}

async function withSetup(options, body) {
  const env = await setup(options);
  try {
    await body(env);
  } catch (error) {
    error.message += `\n--- simulator log ---\n${env.sim.log.slice(-4000)}\n--- fcpd log ---\n${env.log().slice(-3000)}`;
    throw error;
  } finally {
    await env.cleanup();
  }
}

// ---------------------------------------------------------------------------------------------
// The device of the tests

// Ten UI layers whose names have numeric prefixes out of order (and two without: prefix 50).
const LAYERS = ['50_x', '00_bg', '30_a', '10_b', 'nopfx', '90_z', '05_d', '30_e', 'plain', '20_c'];
const prefixOf = (name) => { const m = name.match(/^(\d+)_/); return m ? Number(m[1]) : 50; };
// Stable ascending sort by prefix.
const SORTED_LAYERS = LAYERS.map((name, i) => ({ name, i }))
  .sort((a, b) => prefixOf(a.name) - prefixOf(b.name) || a.i - b.i).map((l) => l.name);

const DEVICE_OPS = [
  'add plugin~ in at:40,40',
  'add *~ vol at:40,100 args:0.5',
  'add plugout~ out at:40,160',
  'add v8 brain at:200,40',
  'wire in -> vol -> out',
  'wire in -> vol out:1 in:1',
  ...LAYERS.map((name, i) => `ui ${name} live.dial at:${10 + 50 * i},20 size:44x48`),
  'inject brain path:lfo.js',
  'map Amount 30_a',
];

async function buildDevice(env) {
  writeFileSync(path.join(env.root, 'lfo.js'), 'function bang() { post("lfo\\n"); }\n');
  const created = await env.lofi.session('new "Flutter" width:600 height:170');
  assertOk(created, 'new');
  assert.equal(digestOf(created).max, 'online', textOf(created));
  const built = await env.lofi.ops(DEVICE_OPS);
  assertOk(built, 'device batch');
  const digest = digestOf(built);
  assert.deepEqual([digest.objects, digest.ui, digest.wires, digest.maps, digest.max],
    [4, 10, 3, 1, 'online'], digest.line);
  return built;
}

// Waits until the simulator has received at least `count` messages after index `from`.
async function messagesAfter(sim, from, count, what) {
  return waitFor(() => {
    const all = sim.messages();
    return all.length >= from + count ? all.slice(from) : null;
  }, { what: `${count} simulator messages (${what})` });
}

// ---------------------------------------------------------------------------------------------

describe('lofi over stdio with the SDK client, against simulated Max over UDP (real fcpd)', { timeout: 60_000 }, () => {
  it('offers the four prompts; build-device mentions lofi_session', async () => {
    await withSetup({}, async ({ client }) => {
      const { prompts } = await client.listPrompts();
      const names = prompts.map((p) => p.name);
      for (const name of ['build-device', 'max-constraints', 'object-reference', 'status']) {
        assert.ok(names.includes(name), `prompts/list lacks ${name}: ${names.join(', ')}`);
      }
      const prompt = await client.getPrompt({ name: 'build-device', arguments: { name: 'Flutter' } });
      assert.ok(prompt.messages.length >= 1);
      const user = prompt.messages.find((m) => m.role === 'user');
      assert.ok(user, 'build-device has a user message');
      assert.equal(user.content.type, 'text');
      assert.match(user.content.text, /lofi_session/);
      assert.match(user.content.text, /Flutter/);
    });
  });

  it('lists exactly the four lofi tools', async () => {
    await withSetup({}, async ({ client }) => {
      const { tools: all } = await client.listTools();
      const lofiTools = all.map((t) => t.name).filter((n) => n.startsWith('lofi')).sort();
      assert.deepEqual(lofiTools, ['lofi', 'lofi_help', 'lofi_query', 'lofi_session']);
    });
  });

  it('builds a device in one batch: create, wire, one sorted /lofi/ui, inject, map', async () => {
    await withSetup({}, async (env) => {
      const built = await buildDevice(env);
      const text = textOf(built);
      assert.match(text, new RegExp(`^\\* inject brain ${path.join(env.root, 'lfo.js').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'));
      const msgs = await waitFor(() => {
        const all = env.sim.messages();
        return all.some((m) => m.address === '/lofi/map') ? all : null;
      }, { what: '/lofi/map at the simulator' });
      const of = (address) => msgs.filter((m) => m.address === address);

      assert.equal(of('/lofi/init').length, 1);
      assert.equal(of('/lofi/init')[0].payload.deviceName, 'Flutter');
      assert.equal(of('/lofi/init')[0].payload.width, 600);
      assert.equal(of('/lofi/init')[0].payload.height, 170);

      const creates = of('/lofi/create').map((m) => [m.payload.id, m.payload.class]);
      assert.deepEqual(creates, [['in', 'plugin~'], ['vol', '*~'], ['out', 'plugout~'], ['brain', 'v8']]);

      const wires = of('/lofi/wire').map((m) => [m.payload.sourceId, m.payload.outlet, m.payload.destId, m.payload.inlet]);
      assert.deepEqual(wires, [['in', 0, 'vol', 0], ['vol', 0, 'out', 0], ['in', 1, 'vol', 1]]);

      const ui = of('/lofi/ui');
      assert.equal(ui.length, 1, 'the ten layers arrive as ONE /lofi/ui message');
      const layers = ui[0].payload.layers;
      assert.deepEqual(layers.map((l) => l.name), SORTED_LAYERS);
      assert.deepEqual(SORTED_LAYERS, ['00_bg', '05_d', '10_b', '20_c', '30_a', '30_e', '50_x', 'nopfx', 'plain', '90_z']);
      for (const layer of layers) {
        assert.equal(layer.class, 'live.dial');
        assert.equal(layer.width, 44);
        assert.equal(layer.height, 48);
      }

      const inject = of('/lofi/inject');
      assert.equal(inject.length, 1);
      assert.equal(inject[0].payload.targetId, 'brain');
      assert.ok(path.isAbsolute(inject[0].payload.filePath), inject[0].payload.filePath);
      assert.equal(inject[0].payload.filePath, path.join(env.root, 'lfo.js'));

      const map = of('/lofi/map');
      assert.equal(map.length, 1);
      assert.equal(map[0].payload.parameter, 'Amount');
      assert.equal(map[0].payload.objectId, '30_a');

      // Every request carries a requestId, and the order is the order of the ops.
      for (const m of msgs) assert.ok(m.payload.requestId, `${m.address} has no requestId`);
      const order = msgs.map((m) => m.address).filter((a) => a !== '/lofi/ping');
      assert.deepEqual(order, ['/lofi/init', '/lofi/create', '/lofi/create', '/lofi/create', '/lofi/create',
        '/lofi/wire', '/lofi/wire', '/lofi/wire', '/lofi/ui', '/lofi/inject', '/lofi/map']);
    });
  });

  it('undo and redo send the compensating and forward messages to Max', async () => {
    await withSetup({}, async (env) => {
      await buildDevice(env);
      await messagesAfter(env.sim, 0, 1, 'build');
      await waitFor(() => env.sim.addresses().includes('/lofi/map'), { what: '/lofi/map' });

      let mark = env.sim.messages().length;
      const undone = await env.lofi.session('undo');
      assertOk(undone, 'undo map');
      assert.equal(digestOf(undone).maps, 0);
      let seen = await messagesAfter(env.sim, mark, 1, 'undo of map');
      assert.equal(seen[0].address, '/lofi/unmap');
      assert.equal(seen[0].payload.parameter, 'Amount');

      mark = env.sim.messages().length;
      const redone = await env.lofi.session('redo');
      assertOk(redone, 'redo map');
      assert.equal(digestOf(redone).maps, 1);
      seen = await messagesAfter(env.sim, mark, 1, 'redo of map');
      assert.equal(seen[0].address, '/lofi/map');
      assert.equal(seen[0].payload.objectId, '30_a');

      mark = env.sim.messages().length;
      assertOk(await env.lofi.ops(['add cycle~ osc at:300,40 args:440']), 'add osc');
      seen = await messagesAfter(env.sim, mark, 1, 'create osc');
      assert.equal(seen[0].address, '/lofi/create');

      mark = env.sim.messages().length;
      const undoCreate = await env.lofi.session('undo');
      assertOk(undoCreate, 'undo create');
      assert.equal(digestOf(undoCreate).objects, 4);
      seen = await messagesAfter(env.sim, mark, 1, 'undo of create');
      assert.equal(seen[0].address, '/lofi/remove');
      assert.equal(seen[0].payload.id, 'osc');

      mark = env.sim.messages().length;
      const redoCreate = await env.lofi.session('redo');
      assertOk(redoCreate, 'redo create');
      assert.equal(digestOf(redoCreate).objects, 5);
      seen = await messagesAfter(env.sim, mark, 1, 'redo of create');
      assert.equal(seen[0].address, '/lofi/create');
      assert.equal(seen[0].payload.id, 'osc');
      assert.equal(seen[0].payload.class, 'cycle~');
    });
  });

  it('a batch failing in Max mid-way is rolled back in the model and compensated in Max', async () => {
    await withSetup({ simArgs: ['--fail-on', '/lofi/wire'] }, async (env) => {
      const created = await env.lofi.session('new "Flutter"');
      assertOk(created);
      const before = digestOf(created);
      assert.equal(before.max, 'online');
      const statsBefore = textOf(await env.lofi.query('stats'));

      const mark = env.sim.messages().length;
      const failed = await env.lofi.ops(['add cycle~ A', 'add *~ B', 'wire A -> B']);
      assert.equal(failed.isError, true, `expected the batch to fail: ${textOf(failed)}`);
      assert.equal(digestOf(failed).line, before.line, 'the digest is unchanged');
      assert.equal(textOf(await env.lofi.query('stats')), statsBefore, 'the model is rolled back');

      const seen = await messagesAfter(env.sim, mark, 5, 'the batch and its compensation');
      const wire = seen.findIndex((m) => m.address === '/lofi/wire');
      assert.ok(wire >= 0, 'the wire reached Max');
      assert.deepEqual(seen.slice(0, wire).map((m) => [m.address, m.payload.id]),
        [['/lofi/create', 'A'], ['/lofi/create', 'B']]);
      assert.deepEqual(seen.slice(wire + 1).map((m) => [m.address, m.payload.id]),
        [['/lofi/remove', 'B'], ['/lofi/remove', 'A']]);
    });
  });

  it('a silent Max times out with a clear error while another client keeps working', async () => {
    await withSetup({ tcp: true }, async (env) => {
      const created = await env.lofi.session('new "Flutter"');
      assertOk(created);
      assert.equal(digestOf(created).max, 'online');
      await restartSimulator(env, ['--fault', 'silent']);

      // Client B: a second MCP client on the same fcpd, over TCP.
      const clientB = new Client({ name: 'fcp-e2e-lofi-b', version: '1.0.0' }, { capabilities: {} });
      await clientB.connect(new TcpClientTransport(env.tcpPort), { timeout: 10_000 });
      env.extra.push(clientB);

      const started = Date.now();
      let slowDone = 0;
      const slow = env.lofi.ops(['add cycle~ osc']).then((r) => { slowDone = Date.now(); return r; });
      await waitFor(() => env.sim.addresses().includes('/lofi/create'), { what: '/lofi/create at the silent simulator' });

      const quickStart = Date.now();
      const quick = await clientB.callTool({ name: 'drawio_session', arguments: { action: 'new "X"' } }, undefined, CALL);
      const quickMs = Date.now() - quickStart;
      assert.equal(quick.isError, false, textOf(quick));
      assert.ok(quickMs < 1000, `drawio_session new took ${quickMs} ms while lofi waited for Max`);
      assert.equal(slowDone, 0, 'the drawio call finished before the lofi call timed out');

      const result = await slow;
      const elapsed = Date.now() - started;
      assert.equal(result.isError, true, `expected a timeout error: ${textOf(result)}`);
      assert.match(textOf(result), /did not answer/i);
      assert.match(textOf(result), /\/lofi\/create/);
      assert.ok(elapsed >= TIMEOUT_MS - 100, `the error came after only ${elapsed} ms`);
      assert.equal(digestOf(result).objects, 0, 'the failed add is rolled back');
    });
  });

  // After a timeout the compensating messages go out without waiting, so the call fails within
  // the configured time.
  it('a silent Max fails the call within timeout_ms + 1 s', async () => {
    await withSetup({}, async (env) => {
      assertOk(await env.lofi.session('new "Flutter"'));
      await restartSimulator(env, ['--fault', 'silent']);
      const started = Date.now();
      const result = await env.lofi.ops(['add cycle~ osc']);
      const elapsed = Date.now() - started;
      assert.equal(result.isError, true, textOf(result));
      assert.match(textOf(result), /did not answer/i);
      assert.ok(elapsed < TIMEOUT_MS + 1000, `the timeout took ${elapsed} ms (timeout_ms ${TIMEOUT_MS})`);
    });
  });

  it('sync reports its progress as Max confirms the messages, all before the reply', async () => {
    await withSetup({ record: true }, async (env) => {
      await buildDevice(env);
      const from = env.recorder.received.length;
      const synced = await env.client.callTool({ name: 'lofi_session', arguments: { action: 'sync' } },
        undefined, { ...CALL, onprogress: () => {} });
      assertOk(synced, 'sync');
      const sent = +textOf(synced).match(/sync: (\d+) messages? to Max/)[1];
      assert.equal(env.sim.addresses().filter((a) => a !== '/lofi/init').length >= sent, true);
      // Checked on the wire: the SDK drops progress that arrives in the same read as the reply
      // (modelcontextprotocol/typescript-sdk#2580), which a server cannot prevent.
      const received = env.recorder.received.slice(from);
      const reply = received.findIndex((m) => m.id !== undefined && !m.method);
      assert.equal(reply, received.length - 1, 'the reply comes last');
      const progress = received.slice(0, reply).filter((m) => m.method === 'notifications/progress')
        .map((m) => m.params);
      assert.equal(progress.length, sent, JSON.stringify(progress));
      progress.forEach((p, i) => {
        assert.equal(p.progress, i + 1);
        assert.equal(p.total, sent);
        assert.equal(p.message, `confirmed ${i + 1} of ${sent} external changes`);
      });
    });
  });

  it('a reply without requestId is matched to the one pending request', async () => {
    await withSetup({ simArgs: ['--fault', 'no-id'] }, async (env) => {
      const created = await env.lofi.session('new "Flutter"');
      assertOk(created);
      assert.equal(digestOf(created).max, 'online');
      const added = await env.lofi.ops(['add cycle~ osc args:440']);
      assertOk(added, 'add with a no-id reply');
      assert.equal(digestOf(added).objects, 1);
      assert.equal(digestOf(added).max, 'online');
      await waitFor(() => env.sim.addresses().includes('/lofi/create'), { what: '/lofi/create' });
      assert.match(textOf(await env.lofi.query('list')), /osc cycle~/);
    });
  });

  it('saves .amxd and .maxpat; the .maxpat is patcher JSON with boxes and lines', async () => {
    await withSetup({}, async (env) => {
      await buildDevice(env);
      assertOk(await env.lofi.session('save as:dev.amxd'), 'save amxd');
      assertOk(await env.lofi.session('save as:dev.maxpat'), 'save maxpat');

      const amxd = readFileSync(path.join(env.root, 'dev.amxd'));
      assert.equal(amxd.toString('latin1', 0, 4), 'ampf', 'the .amxd starts with the ampf container');
      assert.ok(amxd.includes('"patcher"'), 'the .amxd embeds the patcher JSON');

      const doc = JSON.parse(readFileSync(path.join(env.root, 'dev.maxpat'), 'utf8'));
      const { boxes, lines } = doc.patcher;
      assert.ok(Array.isArray(boxes) && Array.isArray(lines));
      const byVarname = new Map(boxes.map((b) => [b.box.varname, b.box]));
      for (const id of ['in', 'vol', 'out', 'brain', ...LAYERS]) {
        assert.ok(byVarname.has(id), `no box with varname ${id}: ${[...byVarname.keys()].join(', ')}`);
      }
      assert.equal(byVarname.get('vol').maxclass, 'newobj');
      assert.match(byVarname.get('vol').text, /^\*~ 0\.5/);
      assert.equal(byVarname.get('30_a').maxclass, 'live.dial');
      // Saved where Max keeps it: the mapping is the dial's Live parameter name, the injected
      // script the v8 object's file; no private keys.
      assert.equal(doc.patcher.fcp, undefined, 'no private "fcp" key');
      assert.equal(byVarname.get('30_a').parameter_enable, 1);
      assert.equal(byVarname.get('30_a').saved_attribute_attributes.valueof.parameter_longname, 'Amount');
      assert.match(byVarname.get('brain').text, /^v8 \/.*lfo\.js$/);
      const idToVar = new Map(boxes.map((b) => [b.box.id, b.box.varname]));
      const wires = lines.map((l) => {
        const { source, destination } = l.patchline;
        return `${idToVar.get(source[0])}:${source[1]}->${idToVar.get(destination[0])}:${destination[1]}`;
      }).sort();
      assert.deepEqual(wires, ['in:0->vol:0', 'in:1->vol:1', 'vol:0->out:0']);
    });
  });
});
