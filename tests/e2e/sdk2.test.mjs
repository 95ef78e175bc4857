// The official MCP TypeScript SDK v2 client (`@modelcontextprotocol/client`, pinned in
// package.json) against the real `fcpd` (every domain), in both protocol eras it speaks:
//
//   modern  2026-07-28: `server/discover` instead of initialize, no session, the protocol version
//           and client capabilities in every request's _meta (documents reached by handle)
//   legacy  2025-11-25: `initialize` and a session (calls without `doc` work on the session's
//           current document)
//
// each over stdio (the SDK spawns fcpd) and Streamable HTTP (fcpd --http on a port of its own),
// and each in the ways the SDK reaches its era: `versionNegotiation` 'auto' (probe, then adopt),
// `{ pin: '2026-07-28' }`, a cached modern verdict (`connect({ prior: { kind: 'modern',
// discover } })`, zero round trips), the default (plain legacy) and a cached legacy verdict
// (`prior: { kind: 'legacy' }`, no probe). Every case lists the tools, calls the four tools of
// each domain with real work (drawio add/connect/query/save, midi track/note/chord/save, lofi
// against `fcpd simulate-max` over UDP and then offline), checks the replies' text, a failing
// batch (`!` lines, isError), unknown tools and resources (JSON-RPC errors), a resource read and
// a prompt.
//
// Run: FCPD_REAL=…/fcpd node --test sdk2.test.mjs   (CTest: e2e_sdk2_{modern,legacy}_{stdio,http},
// each one era and transport: FCP_SDK2_ERA, FCP_SDK2_TRANSPORT)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, LOG_LEVEL_META_KEY, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { locateFcpd, makeTempDir, matchDigest, textOf } from './real-daemon.mjs';

const FCPD = locateFcpd();
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const CALL = { timeout: 20_000 };
const HANDLE = /handle: (doc:[a-z]{2}-[0-9a-f]{32})/;
const TOOLS = ['drawio', 'drawio_query', 'drawio_session', 'drawio_help',
               'midi', 'midi_query', 'midi_session', 'midi_help',
               'lofi', 'lofi_query', 'lofi_session', 'lofi_help'];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// fcpd renders WAV with a General MIDI SoundFont of /usr/share/sounds/sf2 (or FCP_SOUNDFONT).
const NO_SOUNDFONT = process.env.FCP_SOUNDFONT ||
  ['TimGM6mb.sf2', 'default-GM.sf2'].some((f) => existsSync(`/usr/share/sounds/sf2/${f}`))
  ? false : 'no General MIDI SoundFont (apt-get install timgm6mb-soundfont)';

async function waitFor(check, { timeout = 10_000, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

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

// A child process whose stderr is kept; `stop` ends it (SIGTERM, then SIGKILL).
class Child {
  constructor(args) {
    this.log = '';
    this.child = spawn(FCPD, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.exited = false;
    this.exit = new Promise((resolve) => this.child.on('exit', () => { this.exited = true; resolve(); }));
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk) => { this.log += chunk; });
  }

  async waitLog(pattern, what) {
    return waitFor(() => {
      if (this.exited) throw new Error(`${what}: the process exited:\n${this.log}`);
      return this.log.match(pattern);
    }, { what });
  }

  async stop() {
    if (this.exited) return;
    this.child.kill('SIGTERM');
    if (!(await Promise.race([this.exit.then(() => true), sleep(3000).then(() => false)]))) {
      this.child.kill('SIGKILL');
      await this.exit;
    }
  }
}

// `fcpd simulate-max` (the Max lofi daemon simulator): every message it receives is logged.
// The ports are free when picked, but a test running beside this one can take one before the
// simulator binds it (CI failed once: "Address already in use"): then it starts on others.
async function startSimulator() {
  for (let attempt = 1; ; ++attempt) {
    const port = await freeUdpPort();
    const reply = await freeUdpPort();
    if (reply === port) continue;  // the system handed the first one out again
    const sim = new Child(['simulate-max', '--port', String(port), '--reply', String(reply)]);
    try {
      await sim.waitLog(/simulating the Max lofi daemon/, 'the simulator to start');
    } catch (error) {
      if (attempt < 5 && /Address already in use/.test(sim.log)) continue;
      throw error;
    }
    return withPorts(sim, port, reply);
  }
}

function withPorts(sim, port, reply) {
  sim.port = port;
  sim.reply = reply;
  sim.addresses = () => [...sim.log.matchAll(/ info (\/lofi\/\S+) \{/g)].map((m) => m[1]);
  return sim;
}

// ---------------------------------------------------------------------------------------------
// The ways the SDK reaches each era

const BEHAVIOURS = {
  modern: {
    auto: { negotiation: { mode: 'auto' } },
    pin: { negotiation: { mode: { pin: MODERN } } },
    'cached verdict': { negotiation: { mode: 'auto' }, prior: 'modern' },
  },
  legacy: {
    default: {},
    'cached verdict': { negotiation: { mode: 'auto' }, prior: 'legacy' },
  },
};

function newClient(behaviour) {
  const options = behaviour.negotiation ? { versionNegotiation: behaviour.negotiation } : {};
  return new Client({ name: 'fcp-e2e-sdk2', version: '1.0.0' }, options);
}

// One fcpd per case: over stdio the SDK spawns it (and, in 'auto', a short-lived sibling for the
// probe); over HTTP it listens on a port the system picks. Both read the same config, which
// points lofi at this case's simulator.
class Setup {
  constructor(transport, behaviour) {
    this.transport = transport;
    this.behaviour = behaviour;
  }

  async start() {
    this.root = makeTempDir('fcp-e2e-sdk2-');
    this.sim = await startSimulator();
    this.config = path.join(this.root, 'fcpd-config.json');
    writeFileSync(this.config, JSON.stringify({
      lofi: { host: '127.0.0.1', port: this.sim.port, reply_port: this.sim.reply, timeout_ms: 2000, probe_ms: 500 },
    }));
    this.args = ['--root', this.root, '--config', this.config, '--log-level', 'info'];
    if (this.transport === 'http') {
      this.daemon = new Child(['--http', '127.0.0.1:0', ...this.args]);
      const m = await this.daemon.waitLog(/listening for MCP over HTTP on (http:\/\/127\.0\.0\.1:\d+\/mcp)/,
        'the HTTP port in the fcpd log');
      this.url = new URL(m[1]);
    }
    this.log = '';
  }

  newTransport() {
    if (this.transport === 'http') return new StreamableHTTPClientTransport(this.url);
    const transport = new StdioClientTransport({
      command: FCPD, args: ['--stdio', ...this.args], cwd: this.root, stderr: 'pipe',
    });
    transport.stderr.setEncoding('utf8');
    transport.stderr.on('data', (chunk) => { this.log += chunk; });
    return transport;
  }

  // The SDK's client connected the way the behaviour says.
  async connect() {
    const client = newClient(this.behaviour);
    let prior;
    if (this.behaviour.prior === 'modern') {
      // A host's cached verdict: the discover result of an earlier probing client.
      const probing = newClient({ negotiation: { mode: 'auto' } });
      await probing.connect(this.newTransport(), CALL);
      prior = { kind: 'modern', discover: probing.getDiscoverResult() };
      assert.ok(prior.discover, 'the probing client kept the server/discover result');
      await probing.close();
    } else if (this.behaviour.prior === 'legacy') {
      prior = { kind: 'legacy' };
    }
    this.clientTransport = this.newTransport();
    await client.connect(this.clientTransport, { ...CALL, ...(prior ? { prior } : {}) });
    this.client = client;
    return client;
  }

  async stop() {
    await this.client?.close().catch(() => {});
    await this.daemon?.stop();
    await this.sim?.stop();
    if (this.root) rmSync(this.root, { recursive: true, force: true });
  }

  diagnostics() {
    return `\n--- fcpd log ---\n${(this.daemon?.log ?? this.log).slice(-3000)}` +
           `\n--- simulator log ---\n${this.sim?.log.slice(-2000) ?? ''}`;
  }
}

// ---------------------------------------------------------------------------------------------

function assertOk(result, what) {
  assert.equal(result.isError, false, `${what}: expected success, got: ${textOf(result)}`);
}

function assertToolError(result, pattern, what) {
  assert.equal(result.isError, true, `${what}: expected isError, got: ${textOf(result)}`);
  assert.match(textOf(result), pattern, what);
}

function handleOf(result) {
  const handle = textOf(result).match(HANDLE)?.[1];
  assert.ok(handle, `no handle in: ${textOf(result)}`);
  return handle;
}

async function rejectsWith(promise, code, pattern) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof ProtocolError, `a ProtocolError, not ${error?.constructor?.name}: ${error}`);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

const DRAWIO_DIGEST = /^\[(\d+)s (\d+)e (\d+)g .*p:1\/1\]$/;
const MIDI_DIGEST = /^\[(\d+)t (\d+)e tempo:120 4\/4 C-major/;
const LOFI_DIGEST = /^\[(\d+)o (\d+)ui (\d+)w (\d+)m max:(\S+)\]$/;

// FCP_SDK2_ERA (modern|legacy) and FCP_SDK2_TRANSPORT (stdio|http) run a part (CTest runs each
// era and transport as a test of its own); unset, every case runs.
const only = (variable, value) => !process.env[variable] || process.env[variable] === value;

for (const transport of ['stdio', 'http'].filter((t) => only('FCP_SDK2_TRANSPORT', t))) {
  for (const [era, behaviours] of Object.entries(BEHAVIOURS).filter(([e]) => only('FCP_SDK2_ERA', e))) {
    for (const [name, behaviour] of Object.entries(behaviours)) {
      const modern = era === 'modern';
      describe(`${era} (${name}) over ${transport}`, { timeout: 60_000 }, () => {
        const setup = new Setup(transport, behaviour);
        let client;
        const call = (tool, args) => client.callTool({ name: tool, arguments: args }, CALL);
        before(async () => {
          await setup.start();
          client = await setup.connect();
        });
        after(() => setup.stop());
        const step = (title, body) => it(title, async () => {
          try {
            await body();
          } catch (error) {
            error.message += setup.diagnostics();
            throw error;
          }
        });

        step(`negotiates ${modern ? MODERN : LEGACY}`, () => {
          assert.equal(client.getProtocolEra(), era);
          assert.equal(client.getNegotiatedProtocolVersion(), modern ? MODERN : LEGACY);
          // The same identity in both eras (2026: the discover result's _meta, which the SDK reads).
          const server = client.getServerVersion();
          assert.deepEqual({ name: server?.name, title: server?.title }, { name: 'fcpd', title: 'FCP daemon' });
          assert.match(server.version, /^\d+\.\d+\.\d+/);
          assert.match(client.getInstructions() ?? '', /Each domain has four tools/);
          assert.ok(client.getServerCapabilities()?.tools, 'tools capability');
          if (modern) assert.deepEqual(client.getDiscoverResult()?.supportedVersions, [MODERN]);
          if (transport === 'http') {
            const { sessionId } = setup.clientTransport;
            assert.equal(typeof sessionId === 'string', !modern,
              `a session id only in the legacy era (got ${sessionId})`);
          }
        });

        step('lists the four tools of each domain', async () => {
          const listed = await client.listTools(undefined, CALL);
          assert.deepEqual(listed.tools.map((t) => t.name), TOOLS);
          for (const tool of listed.tools) {
            assert.equal(tool.inputSchema.type, 'object', tool.name);
            assert.ok(tool.description.length > 20, tool.name);
          }
          const drawio = listed.tools.find((t) => t.name === 'drawio');
          assert.deepEqual(drawio.inputSchema.required, ['ops']);
          assert.ok(drawio.inputSchema.properties.doc, 'the doc argument is declared');
          if (modern) {
            assert.ok(Number.isInteger(listed.ttlMs), `ttlMs on a 2026-07-28 list: ${listed.ttlMs}`);
            assert.ok(['public', 'private'].includes(listed.cacheScope), listed.cacheScope);
          }
        });

        let drawioHandle;
        let drawioDigest;
        step('drawio: new, add and connect in one batch, query map, help, save', async () => {
          const made = await call('drawio_session', { action: 'new "Checkout"' });
          assertOk(made, 'new');
          assert.match(textOf(made), /^\+ new drawio document "Checkout"/);
          drawioHandle = handleOf(made);
          const doc = { doc: drawioHandle };
          const added = await call('drawio', { ops: ['add box Cart', 'add box Pay', 'connect Cart -> Pay label:"next"'], ...doc });
          assertOk(added, 'batch');
          const text = textOf(added);
          assert.match(text, /^\+ box Cart @\(200,200 120x60\)/m);
          assert.match(text, /^\+ box Pay @/m);
          assert.match(text, /^~ Cart->Pay/m);
          drawioDigest = matchDigest(added, DRAWIO_DIGEST)[0];
          assert.deepEqual(matchDigest(added, DRAWIO_DIGEST).slice(1, 4).map(Number), [2, 1, 0]);
          const map = await call('drawio_query', { q: 'map', ...doc });
          assertOk(map, 'map');
          assert.match(textOf(map), /\| 2s 1e 0g/);
          assert.match(textOf(map), /Cart\(box\)/);
          assert.match(textOf(map), /Pay\(box\)/);
          const help = await call('drawio_help', {});
          assertOk(help, 'help');
          assert.match(textOf(help), /^# drawio — FCP reference card/);
          const saved = await call('drawio_session', { action: 'save as:checkout.drawio', ...doc });
          assertOk(saved, 'save');
          const file = path.join(setup.root, 'checkout.drawio');
          assert.match(textOf(saved), /saved/);
          const xml = readFileSync(file, 'utf8');
          assert.match(xml, /<mxfile/);
          assert.match(xml, /value="Cart"/);
          assert.match(xml, /value="next"/);
        });

        step('a batch with an unknown verb fails whole: `!` lines, isError, the document unchanged', async () => {
          const failed = await call('drawio', { ops: ['add box Ship', 'frobnicate Cart'], doc: drawioHandle });
          assertToolError(failed, /^! op 2 of 2 failed: frobnicate Cart$/m, 'bad op');
          assert.match(textOf(failed), /^! unknown verb "frobnicate"/m);
          assert.match(textOf(failed), /^ {2}try: drawio_help$/m);
          assert.equal(matchDigest(failed, DRAWIO_DIGEST)[0], drawioDigest, 'the digest is unchanged');
          const map = await call('drawio_query', { q: 'map', doc: drawioHandle });
          assert.doesNotMatch(textOf(map), /Ship/);
        });

        step(modern ? 'log messages when the request\'s _meta names a level: a failed batch is a warning'
                    : 'log messages after logging/setLevel: a failed batch is a warning', async () => {
          const logs = [];
          client.setNotificationHandler('notifications/message', (n) => { logs.push(n.params); });
          try {
            if (!modern) await client.setLoggingLevel('warning', CALL);
            const params = { name: 'drawio', arguments: { ops: ['add box Ship', 'frobnicate Cart'], doc: drawioHandle } };
            // 2026-07-28 has no logging/setLevel: the level rides in the request's _meta, beside
            // the version and capabilities the SDK adds.
            if (modern) params._meta = { [LOG_LEVEL_META_KEY]: 'warning' };
            assertToolError(await client.callTool(params, CALL), /^! op 2 of 2 failed: frobnicate Cart$/m, 'bad op');
            await waitFor(() => logs.length > 0, { what: 'a notifications/message' });
            assert.deepEqual(logs, [{ level: 'warning', logger: 'fcpd', data: 'drawio: ! op 2 of 2 failed: frobnicate Cart' }]);
          } finally {
            client.removeNotificationHandler('notifications/message');
          }
        });

        step(modern ? 'a call without doc names the handle to pass (2026-07-28 has no current document)'
                    : 'a call without doc works on the session\'s current document', async () => {
          const map = await call('drawio_query', { q: 'map' });
          if (modern) {
            assertToolError(map, /^! a 2026-07-28 request has no current document; 1 open drawio document of yours: pass a handle as the tool's doc argument/, 'no doc');
            assert.ok(textOf(map).includes(drawioHandle), textOf(map));
          } else {
            assertOk(map, 'map without doc');
            assert.match(textOf(map), /Cart\(box\)/);
          }
        });

        step('midi: new, a track, a note and a chord, stats, save', async () => {
          const made = await call('midi_session', { action: 'new "Song"' });
          assertOk(made, 'new');
          const doc = { doc: handleOf(made) };
          const composed = await call('midi', {
            ops: ['track add Keys instrument:acoustic-grand-piano', 'note Keys C4 at:1.1 dur:quarter', 'chord Keys Dm at:1.2'],
            ...doc,
          });
          assertOk(composed, 'ops');
          assert.match(textOf(composed), /^\+ Note C4 at 1\.1 on Keys/m);
          assert.match(textOf(composed), /^\+ Chord Dm \(3 notes: D4 F4 A4\) at 1\.2 on Keys/m);
          assert.equal(Number(matchDigest(composed, MIDI_DIGEST)[1]), 1);
          const stats = await call('midi_query', { q: 'stats', ...doc });
          assertOk(stats, 'stats');
          assert.match(textOf(stats), /^Tracks: 1$/m);
          assert.match(textOf(stats), /^Notes: 4$/m);
          const help = await call('midi_help', {});
          assert.match(textOf(help), /^# midi — FCP reference card/);
          const saved = await call('midi_session', { action: 'save as:song.mid', ...doc });
          assertOk(saved, 'save');
          assert.match(textOf(saved), /saved ".*song\.mid" \(1 track, 4 notes/);
          assert.equal(readFileSync(path.join(setup.root, 'song.mid')).subarray(0, 4).toString('latin1'), 'MThd');
        });

        step('lofi: a device built in Max (the simulator), ping, then offline: the clear not-connected error', async () => {
          const made = await call('lofi_session', { action: 'new "Flutter"' });
          assertOk(made, 'new');
          assert.equal(matchDigest(made, LOFI_DIGEST)[5], 'online', textOf(made));
          const doc = { doc: handleOf(made) };
          const built = await call('lofi', { ops: ['add plugin~ in', 'add *~ vol args:0.5', 'add plugout~ out', 'wire in -> vol -> out'], ...doc });
          assertOk(built, 'device batch');
          assert.deepEqual(matchDigest(built, LOFI_DIGEST).slice(1, 6), ['3', '0', '2', '0', 'online']);
          await waitFor(() => setup.sim.addresses().filter((a) => a === '/lofi/create').length >= 3,
            { what: 'three /lofi/create in the simulator' });
          const listed = await call('lofi_query', { q: 'list', ...doc });
          assertOk(listed, 'list');
          assert.match(textOf(listed), /\bvol \*~/);
          const pong = await call('lofi_query', { q: 'ping', ...doc });
          assertOk(pong, 'ping');
          assert.match(textOf(pong), new RegExp(`^pong from Max at 127\\.0\\.0\\.1:${setup.sim.port}`));
          const help = await call('lofi_help', {});
          assert.match(textOf(help), /^# lofi — FCP reference card/);
          const disconnected = await call('lofi_session', { action: 'disconnect', ...doc });
          assertOk(disconnected, 'disconnect');
          assert.equal(matchDigest(disconnected, LOFI_DIGEST)[5], 'offline');
          const offline = await call('lofi_query', { q: 'ping', ...doc });
          assertToolError(offline, /^! offline: not connected to Max$/m, 'ping offline');
          assert.match(textOf(offline), /^ {2}try: lofi_session connect$/m);
        });

        step('unknown tool and unknown resource: JSON-RPC errors with their codes', async () => {
          await rejectsWith(call('drawio_nope', {}), -32602, /unknown tool "drawio_nope"/);
          // Resource not found carries data.uri: the SDK makes it a ResourceNotFoundError (code
          // -32602) from either wire code, -32602 in 2026-07-28 (SEP-2164) and -32002 before
          // (mcp_tests and sdk.test.mjs check the wire codes).
          const notFound = await client.readResource({ uri: 'fcp://nope/session' }, CALL).then(
            () => assert.fail('read of fcp://nope/session succeeded'), (error) => error);
          assert.equal(notFound.constructor.name, 'ResourceNotFoundError', String(notFound));
          assert.equal(notFound.code, -32602, String(notFound));
          assert.match(notFound.message, /resource not found: "fcp:\/\/nope\/session"/);
          assert.equal(notFound.data?.uri, 'fcp://nope/session');
        });

        step('resources: list and read the drawio session resource', async () => {
          const listed = await client.listResources(undefined, CALL);
          const uris = listed.resources.map((r) => r.uri);
          for (const domain of ['drawio', 'midi', 'lofi']) assert.ok(uris.includes(`fcp://${domain}/session`), uris.join(' '));
          const read = await client.readResource({ uri: 'fcp://drawio/session' }, CALL);
          assert.equal(read.contents.length, 1);
          const [content] = read.contents;
          assert.equal(content.uri, 'fcp://drawio/session');
          assert.equal(content.mimeType, 'text/plain');
          if (modern) {
            // This era has no current document: the resource names the caller's by handle
            // (it said "No drawio document open." while one was).
            assert.match(content.text, /^No current drawio document: 2026-07-28 requests have none; pass a handle as the tools' doc argument\.$/m);
            assert.ok(content.text.includes(`\n  ${drawioHandle} "Checkout" file: ${path.join(setup.root, 'checkout.drawio')}, unsaved changes: no, state: ${drawioDigest}, last use `),
              content.text);
          } else {
            assert.match(content.text, /^Title: Checkout$/m);
            assert.match(content.text, /^File: .*checkout\.drawio$/m);
            assert.ok(content.text.includes(drawioDigest), content.text);
          }
        });

        step('prompts: list and get one', async () => {
          const listed = await client.listPrompts(undefined, CALL);
          assert.ok(listed.prompts.some((p) => p.name === 'build-device'), listed.prompts.map((p) => p.name).join(' '));
          const prompt = await client.getPrompt({ name: 'build-device', arguments: { name: 'Flutter' } }, CALL);
          assert.equal(prompt.messages[0].role, 'user');
          assert.match(prompt.messages[0].content.text, /Flutter/);
        });

        it('midi export wav: progress notifications through onprogress', { skip: NO_SOUNDFONT }, async () => {
          const made = await call('midi_session', { action: 'new "Render"' });
          const doc = { doc: handleOf(made) };
          assertOk(await call('midi', { ops: ['track add Keys instrument:acoustic-grand-piano', 'note Keys C4 at:1.1 dur:whole', 'note Keys E4 at:3.1 dur:whole'], ...doc }), 'ops');
          const progress = [];
          const exported = await client.callTool({ name: 'midi_session', arguments: { action: 'export wav path:render.wav', ...doc } },
            { timeout: 60_000, onprogress: (p) => progress.push(p) });
          assertOk(exported, 'export');
          assert.match(textOf(exported), /^\+ exported render\.wav \(/m);
          assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
          assert.equal(progress[0].progress, 0);
          assert.equal(progress.at(-1).progress, progress.at(-1).total);
          assert.equal(progress[0].message, 'rendering audio');
          assert.equal(readFileSync(path.join(setup.root, 'render.wav')).subarray(0, 4).toString('latin1'), 'RIFF');
        });

        step('a call aborted through its AbortSignal is cancelled in fcpd: the layout is rolled back', async () => {
          const made = await call('drawio_session', { action: 'new "Big"' });
          const doc = { doc: handleOf(made) };
          // A layered layout of 2 500 shapes takes about a second in a release build on these
          // machines, of 1 000 about as long under the sanitizers (FCP_SANITIZE=ON); abort it early.
          const shapes = process.env.FCP_SANITIZE === 'ON' ? 1000 : 2500;
          const ops = [];
          for (let i = 0; i < shapes; ++i) ops.push(`add svc N${i} at:0,0`);
          for (let i = 1; i < shapes; ++i) ops.push(`connect N${Math.floor((i - 1) / 3)} -> N${i}`);
          const built = await client.callTool({ name: 'drawio', arguments: { ops, ...doc } }, { timeout: 60_000 });
          assertOk(built, 'build');
          const before = matchDigest(built, DRAWIO_DIGEST)[0];
          const controller = new AbortController();
          const started = Date.now();
          const layout = client.callTool({ name: 'drawio', arguments: { ops: ['layout @all algo:layered'], ...doc } },
            { timeout: 60_000, signal: controller.signal });
          setTimeout(() => controller.abort('the user gave up'), 150);
          await assert.rejects(layout, (error) => {
            assert.match(String(error.message ?? error), /the user gave up/);
            return true;
          }, `the layout finished before the abort (${Date.now() - started} ms)`);
          // The document's queue runs this query after the cancelled call has ended.
          const stats = await call('drawio_query', { q: 'stats', ...doc });
          assert.match(textOf(stats), /^size: 140x60 at \(0,0\)$/m, 'no shape was moved');
          const after = await call('drawio_query', { q: 'map', ...doc });
          assert.match(textOf(after), /N0\(svc\) @\(0,0\)/);
          assert.equal(before.includes(`${shapes}s ${shapes - 1}e`), true, before);
        });

        if (modern && transport === 'http') {
          step('no MCP session is kept: another plain 2026-07-28 client reaches the document by handle', async () => {
            const other = newClient({ negotiation: { mode: { pin: MODERN } } });
            await other.connect(new StreamableHTTPClientTransport(setup.url), CALL);
            try {
              const map = await other.callTool({ name: 'drawio_query', arguments: { q: 'map', doc: drawioHandle } }, CALL);
              assertOk(map, 'map from another client');
              assert.match(textOf(map), /Cart\(box\)/);
            } finally {
              await other.close();
            }
          });
        }

      });
    }
  }
}
