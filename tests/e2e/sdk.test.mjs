// The real daemon (fcpd_testing, domain "deck") driven by the official MCP TypeScript SDK
// client over stdio (StdioClientTransport), Streamable HTTP (StreamableHTTPClientTransport) and
// TCP (the SDK's framing over a socket). Run: FCPD=… node --test sdk.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmptyResultSchema, ErrorCode, LoggingMessageNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { closeQuietly, connectHttp, connectStdio, connectTcp } from './clients.mjs';
import {
  FCPD, LineClient, PROTOCOL_VERSION, digestOf, makeTempDir, removeDir, startDaemon, textOf,
  waitFor, withTimeout,
} from './lib.mjs';

const CALL = { timeout: 20_000 };

// Calls a tool and returns the result (never throws for isError results).
function call(client, name, args = {}, options = {}) {
  return client.callTool({ name, arguments: args }, undefined, { ...CALL, ...options });
}

async function ops(client, list, options) {
  return call(client, 'deck', { ops: list }, options);
}

async function session(client, action) {
  return call(client, 'deck_session', { action });
}

async function query(client, q) {
  return call(client, 'deck_query', { q });
}

// A new, empty document (discarding whatever the session had).
async function fresh(client, title) {
  const result = await session(client, `new "${title}" discard:true`);
  assert.equal(result.isError, false, textOf(result));
  assert.match(textOf(result), new RegExp(`^\\+ new deck document "${title}"`));
  return result;
}

function assertOk(result) {
  assert.equal(result.isError, false, `expected success, got: ${textOf(result)}`);
}

const root = makeTempDir('fcp-e2e-sdk-');
let shared;  // one daemon with TCP and HTTP for the tcp/http suites

before(async () => {
  shared = await startDaemon({ tcp: true, http: true, root });
});

after(async () => {
  await shared?.daemon.stop();
  removeDir(root);
});

const transports = {
  stdio: () => connectStdio({ root }),
  tcp: () => connectTcp(shared.tcpPort),
  http: () => connectHttp(shared.url),
};

for (const [kind, connect] of Object.entries(transports)) {
  describe(`MCP over ${kind} with the official SDK client`, { timeout: 90_000 }, () => {
    let connected;
    let client;
    const transportErrors = [];

    before(async () => {
      connected = await connect();
      client = connected.client;
      client.onerror = (error) => transportErrors.push(error);
    });

    after(async () => {
      await closeQuietly(connected);
    });

    it('initialize: protocol version, serverInfo, instructions, capabilities', () => {
      const init = connected.transport.received.find((m) => m.result?.protocolVersion);
      assert.ok(init, 'the initialize reply was recorded');
      assert.equal(init.result.protocolVersion, PROTOCOL_VERSION);
      const info = client.getServerVersion();
      assert.equal(info.name, 'fcpd');
      assert.match(info.version, /^\d+\.\d+\.\d+/);
      const instructions = client.getInstructions();
      assert.equal(typeof instructions, 'string');
      assert.match(instructions, /_session/);
      assert.match(instructions, /new/);
      assert.match(instructions, /deck/);
      const capabilities = client.getServerCapabilities();
      assert.deepEqual(capabilities.tools, { listChanged: false });
      assert.ok(capabilities.logging, 'logging capability');
      assert.ok(capabilities.resources, 'resources capability');
    });

    it('tools/list: the four deck tools with proper input schemas', async () => {
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      assert.deepEqual(Object.keys(byName).sort(), ['deck', 'deck_help', 'deck_query', 'deck_session']);
      for (const tool of tools) {
        assert.equal(typeof tool.description, 'string');
        assert.ok(tool.description.length > 10, `${tool.name} has a description`);
        assert.equal(tool.inputSchema.type, 'object');
      }
      const deck = byName.deck.inputSchema;
      assert.equal(deck.properties.ops.type, 'array');
      assert.deepEqual(deck.properties.ops.items, { type: 'string' });
      assert.deepEqual(deck.required, ['ops']);
      assert.equal(byName.deck_query.inputSchema.properties.q.type, 'string');
      assert.deepEqual(byName.deck_query.inputSchema.required, ['q']);
      assert.equal(byName.deck_session.inputSchema.properties.action.type, 'string');
      assert.deepEqual(byName.deck_session.inputSchema.required, ['action']);
      assert.deepEqual(Object.keys(byName.deck_help.inputSchema.properties ?? {}), ['doc']);
      for (const tool of tools) assert.equal(tool.inputSchema.properties.doc['x-mcp-header'], 'Doc', tool.name);
      // The mutation tool's description embeds the reference card.
      assert.match(byName.deck.description, /add NAME \[color:C\] \[count:N\]/);
      assert.match(byName.deck.description, /link A -> B/);
    });

    // Every connection without a session name starts with a session of its own, empty.
    it('ops before any document fail with a hint to create one', async () => {
      const result = await ops(client, ['add A']);
      assert.equal(result.isError, true);
      assert.match(textOf(result), /no document/);
      assert.match(textOf(result), /deck_session/);
    });

    it('calls: new, an ops batch, query map, help', async () => {
      const created = await fresh(client, 'Calls');
      assert.equal(textOf(created).split('\n')[0], '+ new deck document "Calls"');
      const batch = await ops(client, ['add A color:red', 'add B color:blue', 'link A -> B']);
      assertOk(batch);
      const lines = textOf(batch).split('\n');
      assert.ok(lines.includes('+ card A red'), textOf(batch));
      assert.ok(lines.includes('+ card B blue'), textOf(batch));
      assert.ok(lines.includes('~ A->B'), textOf(batch));
      assert.equal(digestOf(batch), '[2c 1l]');
      assert.equal(batch.content[0].type, 'text');

      const map = await query(client, 'map');
      assertOk(map);
      assert.equal(textOf(map), 'deck "Calls": 2 cards\n  A red\n  B blue');

      const help = await call(client, 'deck_help', {});
      assertOk(help);
      assert.match(textOf(help), /add NAME \[color:C\] \[count:N\]/);
      assert.match(textOf(help), /@color:C/);
    });

    it('a failing op rolls the whole batch back (isError, digest unchanged)', async () => {
      await fresh(client, 'Atomic');
      assertOk(await ops(client, ['add A color:red', 'add B color:blue', 'link A -> B']));
      const result = await ops(client, ['add C', 'add D', 'link C -> Nowhere']);
      assert.equal(result.isError, true);
      const text = textOf(result);
      assert.match(text, /^! op 3 of 3 failed: link C -> Nowhere/m);
      assert.match(text, /^! batch rolled back: 2 earlier ops undone/m);
      assert.equal(digestOf(result), '[2c 1l]');
      assert.equal(textOf(await query(client, 'map')), 'deck "Atomic": 2 cards\n  A red\n  B blue');
      // An unknown verb fails the same way, with a try: suggestion.
      const unknown = await ops(client, ['add E', 'ad F']);
      assert.equal(unknown.isError, true);
      assert.match(textOf(unknown), /unknown verb "ad"/);
      assert.match(textOf(unknown), /try:/);
      assert.equal(digestOf(unknown), '[2c 1l]');
    });

    it('undo and redo', async () => {
      await fresh(client, 'History');
      assertOk(await ops(client, ['add A']));
      assertOk(await ops(client, ['add B', 'add C']));
      const undone = await session(client, 'undo');
      assertOk(undone);
      assert.match(textOf(undone), /^- undone: add C$/m);
      assert.equal(digestOf(undone), '[2c 0l]');
      const undone2 = await session(client, 'undo 2');
      assert.equal(digestOf(undone2), '[0c 0l]');
      const redone = await session(client, 'redo 3');
      assertOk(redone);
      assert.match(textOf(redone), /^\+ redone: add A$/m);
      assert.equal(digestOf(redone), '[3c 0l]');
      const nothing = await session(client, 'redo');
      assert.match(textOf(nothing), /nothing to redo/);
    });

    it('progress notifications for a batch of 3000 ops', async () => {
      await fresh(client, 'Big');
      const list = Array.from({ length: 3000 }, (_, i) => `add c${i}`);
      const progress = [];
      const result = await ops(client, list, { onprogress: (p) => progress.push(p) });
      assertOk(result);
      assert.equal(digestOf(result), '[3000c 0l]');
      assert.ok(progress.length >= 2, `at least two progress notifications, got ${progress.length}`);
      for (let i = 1; i < progress.length; ++i) {
        assert.ok(progress[i].progress > progress[i - 1].progress,
                  `progress increases: ${JSON.stringify(progress)}`);
      }
      for (const p of progress) {
        assert.ok(p.progress > 0 && p.progress <= 3000, JSON.stringify(p));
        if (p.total !== undefined) assert.equal(p.total, 3000);
      }
    });

    it('cancellation: an aborted slow call rejects at once and the daemon keeps serving', async () => {
      await fresh(client, 'Cancel');
      const controller = new AbortController();
      const sentBefore = connected.transport.sent.length;
      const pending = ops(client, ['sleep 2000'], { signal: controller.signal, timeout: 30_000 });
      // Wait until the request is on the wire, then cancel it.
      await waitFor(() => connected.transport.sent.length > sentBefore, { what: 'the call to be sent' });
      const request = connected.transport.sent.slice(sentBefore).find((m) => m.method === 'tools/call');
      assert.ok(request, 'the tools/call request was sent');
      const abortedAt = Date.now();
      controller.abort('test cancels');
      await assert.rejects(pending, (error) => {
        assert.ok(error === 'test cancels' || /abort|cancel/i.test(String(error?.message ?? error)) ||
                  error?.name === 'AbortError', `abort error, got ${error}`);
        return true;
      });
      assert.ok(Date.now() - abortedAt < 1000, 'the client gets the abort error at once');
      const cancelled = connected.transport.sent.find((m) => m.method === 'notifications/cancelled' &&
                                                         m.params?.requestId === request.id);
      assert.ok(cancelled, 'the SDK sent notifications/cancelled');
      // The daemon still answers at once, and the next call on the same session works.
      const pingStarted = Date.now();
      assert.deepEqual(await client.ping({ timeout: 5000 }), {});
      assert.ok(Date.now() - pingStarted < 1000, 'ping answered promptly while the sleep runs');
      const after = await ops(client, ['add Z'], { timeout: 15_000 });
      assertOk(after);
      assert.equal(digestOf(after), '[1c 0l]');
      // No reply was ever sent for the cancelled request.
      assert.ok(!connected.transport.received.some((m) => m.id === request.id && ('result' in m || 'error' in m)),
                'no reply for the cancelled request');
    });

    it('resources/list and resources/read of fcp://deck/session', async () => {
      await fresh(client, 'Resource');
      assertOk(await ops(client, ['add A color:red']));
      const { resources } = await client.listResources();
      const resource = resources.find((r) => r.uri === 'fcp://deck/session');
      assert.ok(resource, JSON.stringify(resources));
      assert.equal(typeof resource.name, 'string');
      const read = await client.readResource({ uri: 'fcp://deck/session' });
      assert.equal(read.contents.length, 1);
      assert.equal(read.contents[0].uri, 'fcp://deck/session');
      assert.match(read.contents[0].text, /Resource/);
      assert.match(read.contents[0].text, /\[1c 0l\]/);
      // 2025-era resource not found: -32002 with the URI in data (2026-07-28: -32602, SEP-2164).
      await assert.rejects(client.readResource({ uri: 'fcp://nope/session' }), (error) => {
        assert.ok(error instanceof McpError, String(error));
        assert.equal(error.code, -32002, String(error));
        assert.deepEqual(error.data, { uri: 'fcp://nope/session' });
        return true;
      });
    });

    it('logging/setLevel filters notifications/message', async () => {
      const records = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => records.push(n.params));
      try {
        assert.deepEqual(await client.setLoggingLevel('debug'), {});
        await fresh(client, 'Logging');
        assertOk(await ops(client, ['add A']));
        // A failed call logs a warning record (sent before the reply, on the same stream).
        const failed = await ops(client, ['fail "on purpose"']);
        assert.equal(failed.isError, true);
        assert.ok(records.some((r) => r.level === 'warning' && /on purpose/.test(JSON.stringify(r.data))),
                  `a warning record arrives: ${JSON.stringify(records)}`);
        for (const r of records) {
          assert.ok('data' in r);
          assert.ok(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].includes(r.level));
        }

        assert.deepEqual(await client.setLoggingLevel('error'), {});
        records.length = 0;
        assertOk(await ops(client, ['add B']));
        const failedAgain = await ops(client, ['fail "on purpose"']);
        assert.equal(failedAgain.isError, true);
        assert.ok(records.every((r) => ['error', 'critical', 'alert', 'emergency'].includes(r.level)),
                  `only error and above after setLevel error: ${JSON.stringify(records)}`);

        await assert.rejects(client.request({ method: 'logging/setLevel', params: { level: 'loud' } }, EmptyResultSchema),
                             (error) => error instanceof McpError && error.code === ErrorCode.InvalidParams);
      } finally {
        client.removeNotificationHandler('notifications/message');
        await client.setLoggingLevel('emergency');
      }
    });

    it('ping', async () => {
      assert.deepEqual(await client.ping(), {});
    });

    it('an unknown tool is a JSON-RPC error -32602', async () => {
      await assert.rejects(call(client, 'no_such_tool', {}), (error) => {
        assert.ok(error instanceof McpError, `McpError, got ${error}`);
        assert.equal(error.code, ErrorCode.InvalidParams);
        assert.match(error.message, /no_such_tool/);
        return true;
      });
      // Bad arguments to a known tool are a tool error, not a protocol error.
      const bad = await call(client, 'deck', { ops: 5 });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /ops/);
    });

    it('external effects: emit ok, emit fail rolls back, emit slow waits', async () => {
      await fresh(client, 'Effects');
      const ok = await ops(client, ['emit ok']);
      assertOk(ok);
      assert.match(textOf(ok), /^\+ emit ok$/m);
      assert.equal(digestOf(ok), '[1c 0l]');

      const failed = await ops(client, ['add X', 'emit fail']);
      assert.equal(failed.isError, true);
      assert.match(textOf(failed), /external system refused "fail"/);
      assert.match(textOf(failed), /rolled back/);
      assert.equal(digestOf(failed), '[1c 0l]');
      assert.equal(textOf(await query(client, 'map')), 'deck "Effects": 1 cards\n  emitted-ok grey');

      const started = Date.now();
      const slow = await ops(client, ['emit slow']);
      const took = Date.now() - started;
      assertOk(slow);
      assert.ok(took >= 280, `emit slow waits for the external system (${took} ms)`);
      assert.ok(took < 5000, `emit slow does not hang (${took} ms)`);
      assert.equal(digestOf(slow), '[2c 0l]');
    });

    it('save and open round trip inside the root; a save outside the root is refused', async () => {
      const file = `round-${kind}.deck`;
      await fresh(client, 'Round');
      assertOk(await ops(client, ['add X color:red', 'add Y color:blue', 'link X -> Y']));
      const saved = await session(client, `save as:${file}`);
      assertOk(saved);
      assert.match(textOf(saved), /^\* saved ".*round-/m);
      const onDisk = path.join(root, file);
      assert.ok(existsSync(onDisk), `${onDisk} exists`);
      assert.equal(readFileSync(onDisk, 'utf8'), 'X\tred\tY\nY\tblue\t\n');

      await fresh(client, 'Other');
      const opened = await session(client, `open ${file}`);
      assertOk(opened);
      assert.match(textOf(opened), /^\+ opened ".*round-/m);
      assert.equal(digestOf(opened), '[2c 1l]');
      assert.equal(textOf(await query(client, 'map')), `deck "round-${kind}": 2 cards\n  X red\n  Y blue`);

      const outside = path.join(os.tmpdir(), `fcp-e2e-outside-${process.pid}-${kind}.deck`);
      for (const target of [outside, `../fcp-e2e-escape-${process.pid}-${kind}.deck`]) {
        const refused = await session(client, `save as:${target}`);
        assert.equal(refused.isError, true, `save as:${target} is refused: ${textOf(refused)}`);
      }
      assert.ok(!existsSync(outside), 'nothing was written outside the root');
      assert.ok(!existsSync(path.join(path.dirname(root), `fcp-e2e-escape-${process.pid}-${kind}.deck`)));
      const missing = await session(client, 'open missing.deck discard:true');
      assert.equal(missing.isError, true);
    });

    it('one slow call never stalls other clients', { skip: kind === 'stdio' && 'one client per stdio daemon' }, async () => {
      const other = await connect();
      try {
        await fresh(other.client, 'Slow');
        const slow = ops(other.client, ['sleep 1500']);
        // Wait until the sleep is running in the daemon (its request is on the wire).
        await waitFor(() => other.transport.sent.some((m) => m.method === 'tools/call' &&
                                                             m.params?.arguments?.ops?.[0] === 'sleep 1500'));
        const started = Date.now();
        assert.deepEqual(await client.ping(), {});
        await fresh(client, 'Fast');
        assertOk(await ops(client, ['add A']));
        const took = Date.now() - started;
        assert.ok(took < 1000, `the other client's calls took ${took} ms`);
        const slept = await slow;
        assertOk(slept);
        assert.match(textOf(slept), /slept 1500 ms/);
      } finally {
        await closeQuietly(other);
      }
    });

    it('the transport saw no protocol errors', () => {
      assert.deepEqual(transportErrors.map(String), []);
    });
  });
}

describe('Streamable HTTP specifics', { timeout: 60_000 }, () => {
  it('issues a session id and DELETE ends the session', async () => {
    const connected = await connectHttp(shared.url);
    try {
      const id = connected.inner.sessionId;
      assert.equal(typeof id, 'string');
      assert.ok(id.length >= 8);
      assert.deepEqual(await connected.client.ping(), {});
      await connected.inner.terminateSession();
      assert.equal(connected.inner.sessionId, undefined);
    } finally {
      await closeQuietly(connected);
    }
  });

  it('named sessions: sequential clients share the document, concurrent ones are refused', async () => {
    const name = `shared-${process.pid}`;
    const first = await connectHttp(shared.url, { headers: { 'Fcp-Session': name } });
    try {
      await fresh(first.client, 'Shared');
      assertOk(await ops(first.client, ['add A color:red']));

      // While `first` is attached, a second client with the same name is refused.
      await assert.rejects(connectHttp(shared.url, { headers: { 'Fcp-Session': name } }), (error) => {
        assert.match(String(error.message), new RegExp(name));
        return true;
      });
      await first.inner.terminateSession();
    } finally {
      await closeQuietly(first);
    }

    // After the first ended its HTTP session, the next client continues the same document.
    const second = await waitFor(async () => connectHttp(shared.url, { headers: { 'Fcp-Session': name } }),
                                 { timeout: 5000, what: 'the named session to be free again' });
    try {
      assert.equal(textOf(await query(second.client, 'map')), 'deck "Shared": 1 cards\n  A red');
      assertOk(await ops(second.client, ['add B']));
      await second.inner.terminateSession();
    } finally {
      await closeQuietly(second);
    }

    // A different name is a different document.
    const third = await connectHttp(shared.url, { headers: { 'Fcp-Session': `${name}-other` } });
    try {
      const map = await query(third.client, 'map');
      assert.equal(map.isError, true, 'a new named session has no document');
      await third.inner.terminateSession();
    } finally {
      await closeQuietly(third);
    }
  });
});

describe('named sessions over TCP (initialize param fcp.session)', { timeout: 30_000 }, () => {
  it('a second connection continues the document after the first disconnects', async () => {
    const name = `tcp-${process.pid}`;
    const first = await LineClient.tcp(shared.tcpPort);
    await first.initialize({ fcp: { session: name } });
    assert.equal((await first.call('deck_session', { action: 'new "Named" discard:true' })).isError, false);
    assert.equal((await first.call('deck', { ops: ['add A', 'add B'] })).isError, false);

    const rival = await LineClient.tcp(shared.tcpPort);
    const refused = await rival.request('initialize', {
      protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'rival', version: '1' },
      fcp: { session: name },
    });
    assert.ok(refused.error, 'a concurrent attach is refused');
    assert.match(refused.error.message, new RegExp(name));
    rival.close();
    first.close();

    // The detach happens when the daemon notices the disconnect: retry until it has.
    const second = await waitFor(async () => {
      const candidate = await LineClient.tcp(shared.tcpPort);
      const reply = await candidate.request('initialize', {
        protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'second', version: '1' },
        fcp: { session: name },
      });
      if (reply.error) {
        candidate.close();
        return null;
      }
      await candidate.notify('notifications/initialized');
      return candidate;
    }, { timeout: 5000, what: 'the named session to be released' });
    const map = await second.call('deck_query', { q: 'map' });
    assert.equal(textOf(map), 'deck "Named": 2 cards\n  A \n  B ');
    second.close();
  });
});

describe('protocol version negotiation', { timeout: 30_000 }, () => {
  for (const [asked, answered] of [['2025-11-25', '2025-11-25'], ['2025-06-18', '2025-06-18'],
                                   ['2025-03-26', '2025-03-26'], ['1999-01-01', '2025-11-25']]) {
    it(`client asks ${asked}, server answers ${answered}`, async () => {
      const client = await LineClient.tcp(shared.tcpPort);
      try {
        const reply = await client.request('initialize', {
          protocolVersion: asked, capabilities: {}, clientInfo: { name: 'versions', version: '1' },
        });
        assert.equal(reply.result.protocolVersion, answered);
        const again = await client.request('initialize', {
          protocolVersion: asked, capabilities: {}, clientInfo: { name: 'versions', version: '1' },
        });
        assert.ok(again.error, 'a second initialize is refused');
      } finally {
        client.close();
      }
    });
  }
});

describe('stdio lifecycle', { timeout: 30_000 }, () => {
  it('exits with status 0 when stdin closes, and writes nothing but JSON lines on stdout', async () => {
    const dir = makeTempDir('fcp-e2e-stdio-');
    const child = spawn(FCPD, ['--stdio', '--log-level', 'debug', '--root', dir], {
      cwd: dir, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c) => { stderr += c; });
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      const client = new LineClient(child.stdout, child.stdin);
      await client.initialize();
      assert.deepEqual((await client.request('logging/setLevel', { level: 'debug' })).result, {});
      assert.equal((await client.call('deck_session', { action: 'new "Pipe"' })).isError, false);
      const progress = await client.request('tools/call', {
        name: 'deck', arguments: { ops: Array.from({ length: 2000 }, (_, i) => `add p${i}`) },
        _meta: { progressToken: 'tok' },
      });
      assert.equal(progress.result.isError, false);
      assert.equal((await client.call('deck', { ops: ['fail'] })).isError, true);
      child.stdin.end();
      const { code, signal } = await withTimeout(exited, 5000, 'the daemon exit after EOF');
      assert.equal(signal, null, stderr);
      assert.equal(code, 0, stderr);
      // Every line on stdout is one JSON-RPC message.
      assert.ok(client.all.length >= 6, `messages seen: ${client.all.length}`);
      for (const line of client.all) {
        const message = JSON.parse(line);
        assert.equal(message.jsonrpc, '2.0', line.slice(0, 200));
      }
      assert.ok(client.all.some((l) => l.includes('notifications/progress')), 'progress went to stdout');
      assert.ok(client.all.some((l) => l.includes('notifications/message')), 'log records went to stdout');
      assert.equal(client.buffer.length, 0, 'no unterminated output');
      assert.match(stderr, /stdin closed/);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      removeDir(dir);
    }
  });

  it('exits with status 0 when stdin closes during a call', async () => {
    const child = spawn(FCPD, ['--stdio'], { cwd: os.tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.resume();
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      const client = new LineClient(child.stdout, child.stdin);
      await client.initialize();
      await client.call('deck_session', { action: 'new "Busy"' });
      await client.send({ jsonrpc: '2.0', id: 99, method: 'tools/call',
                          params: { name: 'deck', arguments: { ops: ['sleep 300'] } } });
      child.stdin.end();
      const { code } = await withTimeout(exited, 8000, 'the daemon exit after EOF mid-call');
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});

