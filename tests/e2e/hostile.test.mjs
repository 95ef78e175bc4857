// Hostile input against the real daemon over raw TCP sockets, raw stdio pipes and raw HTTP:
// malformed JSON-RPC, oversized messages, invalid UTF-8, vanishing clients, HTTP header abuse.
// Every case checks the error AND that the daemon (and, where it applies, the connection) keeps
// working afterwards. Run: FCPD=… node --test hostile.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import {
  FCPD, LineClient, PROTOCOL_VERSION, httpInitialize, httpRequest, makeTempDir,
  postMcp, removeDir, startDaemon, textOf, waitFor, withTimeout,
} from './lib.mjs';

const HUNDRED_MB = 100 * 1024 * 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

const root = makeTempDir('fcp-e2e-hostile-');
let shared;

before(async () => {
  shared = await startDaemon({ tcp: true, http: true, root });
});

after(async () => {
  await shared?.daemon.stop();
  removeDir(root);
});

function daemonAlive() {
  assert.equal(shared.daemon.exited, false, `the daemon died:\n${shared.daemon.log.slice(-3000)}`);
}

// The next error reply that has `id: null`.
function nullIdError(client, timeout) {
  return client.next((m) => m.id === null && m.error !== undefined, timeout);
}

async function assertUsable(client) {
  const reply = await client.request('ping');
  assert.deepEqual(reply.result, {}, `the connection still answers: ${JSON.stringify(reply)}`);
}

// Cases shared by TCP and stdio: (send, check) pairs on an initialized line client.
async function malformedJsonCases(client) {
  client.lines.length = 0;  // nothing left over from an earlier case
  await client.send('{"jsonrpc": "2.0", "id": 1, "method": "ping"');
  let reply = await nullIdError(client);
  assert.equal(reply.error.code, PARSE_ERROR);
  assert.equal(reply.jsonrpc, '2.0');
  await assertUsable(client);

  await client.send('not json at all');
  reply = await nullIdError(client);
  assert.equal(reply.error.code, PARSE_ERROR);

  await client.send('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]');
  reply = await nullIdError(client);
  assert.equal(reply.error.code, INVALID_REQUEST);
  await client.send('[]');
  reply = await nullIdError(client);
  assert.equal(reply.error.code, INVALID_REQUEST);
  await assertUsable(client);

  // Invalid UTF-8 inside a string.
  await client.send(Buffer.concat([
    Buffer.from('{"jsonrpc":"2.0","id":77,"method":"ping","params":{"s":"'),
    Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
    Buffer.from('"}}'),
  ]));
  reply = await client.next((m) => m.error !== undefined && (m.id === null || m.id === 77));
  assert.equal(reply.error.code, PARSE_ERROR, JSON.stringify(reply));
  assert.equal(reply.id, null);
  await assertUsable(client);
}

async function wrongTypeCases(client) {
  client.lines.length = 0;
  // id must be a string or an integer.
  await client.send('{"jsonrpc":"2.0","id":{},"method":"ping"}');
  let reply = await nullIdError(client);
  assert.equal(reply.error.code, INVALID_REQUEST);
  await client.send('{"jsonrpc":"2.0","id":[1],"method":"ping"}');
  reply = await nullIdError(client);
  assert.equal(reply.error.code, INVALID_REQUEST);
  await client.send('{"jsonrpc":"2.0","id":true,"method":"ping"}');
  reply = await nullIdError(client);
  assert.equal(reply.error.code, INVALID_REQUEST);

  // method must be a string.
  await client.send('{"jsonrpc":"2.0","id":31,"method":5}');
  reply = await client.next((m) => m.error && (m.id === 31 || m.id === null));
  assert.equal(reply.error.code, INVALID_REQUEST);

  // params must be an object.
  await client.send('{"jsonrpc":"2.0","id":32,"method":"ping","params":3}');
  reply = await client.next((m) => m.error && (m.id === 32 || m.id === null));
  assert.ok([INVALID_REQUEST, INVALID_PARAMS].includes(reply.error.code), JSON.stringify(reply));

  // jsonrpc must be "2.0"; a message must be an object.
  await client.send('{"jsonrpc":"1.0","id":33,"method":"ping"}');
  reply = await client.next((m) => m.error && (m.id === 33 || m.id === null));
  assert.equal(reply.error.code, INVALID_REQUEST);
  await client.send('{"id":34,"method":"ping"}');
  reply = await client.next((m) => m.error && (m.id === 34 || m.id === null));
  assert.equal(reply.error.code, INVALID_REQUEST);
  await client.send('"just a string"');
  reply = await nullIdError(client);
  assert.equal(reply.error.code, INVALID_REQUEST);
  await client.send('42');
  reply = await nullIdError(client);
  assert.equal(reply.error.code, INVALID_REQUEST);

  // tools/call with malformed params → -32602.
  for (const [id, params] of [[35, { name: 5 }], [36, { arguments: {} }], [37, { name: 'deck', arguments: 'x' }]]) {
    await client.send({ jsonrpc: '2.0', id, method: 'tools/call', params });
    reply = await client.response(id);
    assert.equal(reply.error?.code, INVALID_PARAMS, JSON.stringify(reply));
  }

  // Unknown methods.
  for (const [id, method] of [[38, 'no/such/method'], [39, 'server/discover'], [40, 'prompts/get']]) {
    await client.send({ jsonrpc: '2.0', id, method });
    reply = await client.response(id);
    assert.equal(reply.error?.code, METHOD_NOT_FOUND, `${method}: ${JSON.stringify(reply)}`);
  }

  // Deep nesting is refused, not a stack overflow.
  await client.send('['.repeat(100_000) + ']'.repeat(100_000));
  reply = await nullIdError(client);
  assert.ok([PARSE_ERROR, INVALID_REQUEST].includes(reply.error.code), JSON.stringify(reply));

  // Blank lines and notifications get no reply; responses to nothing are ignored.
  await client.send('');
  await client.send({ jsonrpc: '2.0', method: 'notifications/whatever', params: {} });
  await client.send({ jsonrpc: '2.0', id: 'no-such-request', result: {} });
  await client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-sent' } });
  const ping = await client.request('ping');
  assert.deepEqual(ping.result, {});
  assert.equal(client.lines.length, 0, `no stray replies: ${client.lines.join(' | ')}`);
}

async function hugeLineCase(client, what) {
  client.lines.length = 0;
  const started = Date.now();
  await client.streamLine('{"jsonrpc":"2.0","id":500,"method":"ping","params":{"pad":"', 0x78, HUNDRED_MB, '"}}');
  const reply = await client.next((m) => m.error !== undefined && (m.id === null || m.id === 500), 60_000);
  assert.ok(reply.error.code === INVALID_REQUEST || reply.error.code === PARSE_ERROR || reply.error.code < 0,
            JSON.stringify(reply));
  assert.match(reply.error.message, /larg|limit|size|big/i);
  const size = reply.error.message.match(/(\d{7,})/);
  if (size) assert.ok(Number(size[1]) >= 4 * 1024 * 1024, `the whole line was measured: ${reply.error.message}`);
  // The connection stays usable.
  await assertUsable(client);
  const result = await client.call('deck_query', { q: 'stats' });
  assert.ok(result.content, `${what}: a tool call still works`);
  return Date.now() - started;
}

describe('hostile input over raw TCP', { timeout: 120_000 }, () => {
  it('a request before initialize gets an error; ping is allowed', async () => {
    const client = await LineClient.tcp(shared.tcpPort);
    try {
      const list = await client.request('tools/list');
      assert.ok(list.error, `tools/list before initialize: ${JSON.stringify(list)}`);
      assert.match(list.error.message, /initialize/);
      const call = await client.request('tools/call', { name: 'deck_help', arguments: {} });
      assert.ok(call.error);
      const ping = await client.request('ping');
      assert.deepEqual(ping.result, {});
      await client.initialize();
      const listed = await client.request('tools/list');
      assert.equal(listed.result.tools.length, 4);
    } finally {
      client.close();
    }
  });

  it('invalid JSON, batches and invalid UTF-8', async () => {
    const client = await LineClient.tcp(shared.tcpPort);
    try {
      await client.initialize();
      await malformedJsonCases(client);
    } finally {
      client.close();
    }
    daemonAlive();
  });

  it('wrong types, unknown methods, deep nesting, stray messages', async () => {
    const client = await LineClient.tcp(shared.tcpPort);
    try {
      await client.initialize();
      await wrongTypeCases(client);
    } finally {
      client.close();
    }
    daemonAlive();
  });

  it('a 100 MB line is refused and the connection stays usable', async () => {
    const client = await LineClient.tcp(shared.tcpPort);
    try {
      await client.initialize();
      await client.call('deck_session', { action: 'new "Huge" discard:true' });
      await hugeLineCase(client, 'tcp');
      // A message just under the limit is still accepted.
      const pad = 'y'.repeat(3 * 1024 * 1024);
      const reply = await client.request('ping', { pad });
      assert.deepEqual(reply.result, {});
    } finally {
      client.close();
    }
    daemonAlive();
  });

  it('a client that disconnects mid-call does not disturb the daemon', async () => {
    const quitter = await LineClient.tcp(shared.tcpPort);
    await quitter.initialize();
    await quitter.call('deck_session', { action: 'new "Quitter" discard:true' });
    const logBefore = shared.daemon.log.length;
    await quitter.send({ jsonrpc: '2.0', id: 900, method: 'tools/call',
                         params: { name: 'deck', arguments: { ops: ['sleep 500', 'add A'] } } });
    quitter.socket.destroy();

    const other = await LineClient.tcp(shared.tcpPort);
    try {
      await other.initialize();
      const started = Date.now();
      const created = await other.call('deck_session', { action: 'new "Stays" discard:true' });
      assert.equal(created.isError, false);
      assert.ok(Date.now() - started < 1000);
      // The daemon noticed the disconnect and outlives the abandoned call.
      await waitFor(() => shared.daemon.log.slice(logBefore).includes('disconnected'),
                    { timeout: 5000, what: 'the disconnect in the log' });
      const done = await other.call('deck', { ops: ['sleep 600', 'add B'] });  // outlasts the sleep 500
      assert.equal(done.isError, false, textOf(done));
      assert.deepEqual((await other.request('ping')).result, {});
    } finally {
      other.close();
    }
    daemonAlive();
  });

  it('half-sent lines, garbage bytes and abrupt closes', async () => {
    for (const payload of ['{"jsonrpc":"2.0","id":1,"meth', '\x00\x01\x02\xff garbage', '\n\n\n{']) {
      const socket = net.connect({ port: shared.tcpPort, host: '127.0.0.1' });
      await new Promise((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      socket.end(Buffer.from(payload, 'latin1'));
      await new Promise((resolve) => {
        socket.on('close', resolve);
        socket.on('error', resolve);
        socket.resume();
      });
    }
    const client = await LineClient.tcp(shared.tcpPort);
    try {
      await client.initialize();
      await assertUsable(client);
    } finally {
      client.close();
    }
    daemonAlive();
  });

  it('many concurrent connections are served', async () => {
    const clients = await Promise.all(Array.from({ length: 40 }, () => LineClient.tcp(shared.tcpPort)));
    try {
      await Promise.all(clients.map(async (client, i) => {
        await client.initialize();
        await client.call('deck_session', { action: `new "C${i}"` });
        const result = await client.call('deck', { ops: [`add card${i}`] });
        assert.equal(result.isError, false);
        assert.match(textOf(result), /\[1c 0l\]$/);
      }));
    } finally {
      for (const client of clients) client.close();
    }
    daemonAlive();
  });
});

describe('hostile input over raw stdio pipes', { timeout: 120_000 }, () => {
  let child;
  let client;
  let exited;
  let stderr = '';

  before(async () => {
    child = spawn(FCPD, ['--stdio', '--root', root], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c) => { stderr += c; });
    exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    client = new LineClient(child.stdout, child.stdin);
    const early = await client.request('tools/list');
    assert.ok(early.error, 'a request before initialize gets an error');
    await client.initialize();
  });

  after(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('invalid JSON, batches and invalid UTF-8', async () => {
    await malformedJsonCases(client);
  });

  it('wrong types, unknown methods, deep nesting, stray messages', async () => {
    await wrongTypeCases(client);
  });

  it('a 100 MB line is refused and the pipe stays usable', async () => {
    await hugeLineCase(client, 'stdio');
  });

  it('still exits with status 0 on EOF, having written only JSON lines', async () => {
    child.stdin.end();
    const { code, signal } = await withTimeout(exited, 8000, 'exit after EOF');
    assert.equal(signal, null, stderr.slice(-2000));
    assert.equal(code, 0, stderr.slice(-2000));
    for (const line of client.all) assert.equal(JSON.parse(line).jsonrpc, '2.0');
  });
});

describe('hostile input over raw HTTP', { timeout: 60_000 }, () => {
  const initialize = {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };

  it('a normal session works with raw requests (sanity check of the helpers)', async () => {
    const { sessionId, result } = await httpInitialize(shared.url);
    assert.equal(result.protocolVersion, PROTOCOL_VERSION);
    const reply = await postMcp(shared.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' },
                                { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': PROTOCOL_VERSION });
    assert.equal(reply.status, 200);
    assert.equal(reply.messages.find((m) => m.id === 2).result.tools.length, 4);
    // Without the MCP-Protocol-Version header the server assumes a version and still answers.
    const bare = await postMcp(shared.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, { 'Mcp-Session-Id': sessionId });
    assert.equal(bare.status, 200);
    assert.deepEqual(bare.messages.find((m) => m.id === 3).result, {});
  });

  it('406 for an Accept header without application/json', async () => {
    const reply = await postMcp(shared.url, initialize, { Accept: 'text/html' });
    assert.equal(reply.status, 406, reply.text);
  });

  it('415 for a Content-Type that is not application/json', async () => {
    const reply = await postMcp(shared.url, initialize, { 'Content-Type': 'text/plain' });
    assert.equal(reply.status, 415, reply.text);
  });

  it('400 without a session id, 404 with an unknown one', async () => {
    const missing = await postMcp(shared.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    assert.equal(missing.status, 400, missing.text);
    const unknown = await postMcp(shared.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' },
                                  { 'Mcp-Session-Id': 'no-such-session-0123456789' });
    assert.equal(unknown.status, 404, unknown.text);
  });

  it('400 for an invalid MCP-Protocol-Version header', async () => {
    const { sessionId } = await httpInitialize(shared.url);
    for (const version of ['1999-01-01', 'banana']) {
      const reply = await postMcp(shared.url, { jsonrpc: '2.0', id: 2, method: 'ping' },
                                  { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': version });
      assert.equal(reply.status, 400, `${version}: ${reply.text}`);
    }
    const ok = await postMcp(shared.url, { jsonrpc: '2.0', id: 3, method: 'ping' },
                             { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': PROTOCOL_VERSION });
    assert.equal(ok.status, 200);
  });

  it('403 for a foreign Origin; localhost origins are accepted', async () => {
    const evil = await postMcp(shared.url, initialize, { Origin: 'http://evil.example.com' });
    assert.equal(evil.status, 403, evil.text);
    const tricky = await postMcp(shared.url, initialize, { Origin: 'http://localhost.evil.example.com' });
    assert.equal(tricky.status, 403, tricky.text);
    for (const origin of [`http://127.0.0.1:${shared.httpPort}`, 'http://localhost:3000']) {
      const fine = await postMcp(shared.url, initialize, { Origin: origin });
      assert.equal(fine.status, 200, `${origin}: ${fine.text}`);
    }
  });

  it('403 for a foreign Host (DNS rebinding); localhost names are accepted', async () => {
    const evil = await postMcp(shared.url, initialize, { Host: 'evil.example.com' });
    assert.equal(evil.status, 403, evil.text);
    const withPort = await postMcp(shared.url, initialize, { Host: `evil.example.com:${shared.httpPort}` });
    assert.equal(withPort.status, 403, withPort.text);
    for (const host of [`localhost:${shared.httpPort}`, `127.0.0.1:${shared.httpPort}`, 'localhost']) {
      const fine = await postMcp(shared.url, initialize, { Host: host });
      assert.equal(fine.status, 200, `${host}: ${fine.text}`);
    }
  });

  it('413 for a body above the size limit', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 0x78);
    const body = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"'),
                                big, Buffer.from('"}}')]);
    const reply = await postMcp(shared.url, body, {}, { timeout: 20_000 });
    assert.equal(reply.status, 413, reply.text.slice(0, 200));
    // The server still works.
    const { sessionId } = await httpInitialize(shared.url);
    assert.ok(sessionId);
  });

  it('invalid JSON and batches are JSON-RPC errors', async () => {
    const broken = await postMcp(shared.url, '{"jsonrpc": "2.0", "id": 1, ');
    assert.ok(broken.status >= 400 && broken.status < 500, `status ${broken.status}`);
    const parseError = broken.messages.find((m) => m.error);
    assert.equal(parseError?.error.code, PARSE_ERROR, broken.text);
    assert.equal(parseError.id, null);

    const batch = await postMcp(shared.url, JSON.stringify([initialize]));
    assert.ok(batch.status >= 400 && batch.status < 500, `status ${batch.status}`);
    assert.equal(batch.messages.find((m) => m.error)?.error.code, INVALID_REQUEST, batch.text);

    const utf8 = await postMcp(shared.url, Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"x":"'),
      Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}}')]));
    assert.ok(utf8.status >= 400 && utf8.status < 500, `status ${utf8.status}`);
    assert.equal(utf8.messages.find((m) => m.error)?.error.code, PARSE_ERROR, utf8.text);
  });

  it('notifications get 202; unknown methods -32601; other paths 404', async () => {
    const { sessionId } = await httpInitialize(shared.url);
    const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': PROTOCOL_VERSION };
    const note = await postMcp(shared.url, { jsonrpc: '2.0', method: 'notifications/whatever' }, headers);
    assert.equal(note.status, 202, note.text);
    const unknown = await postMcp(shared.url, { jsonrpc: '2.0', id: 5, method: 'no/such' }, headers);
    assert.equal(unknown.messages.find((m) => m.id === 5)?.error.code, METHOD_NOT_FOUND, unknown.text);
    const elsewhere = await postMcp(`http://127.0.0.1:${shared.httpPort}/elsewhere`, initialize);
    assert.equal(elsewhere.status, 404, elsewhere.text);
  });

  it('GET is an SSE stream or 405', async () => {
    const { sessionId } = await httpInitialize(shared.url);
    const reply = await httpRequest(shared.url, {
      method: 'GET',
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': PROTOCOL_VERSION },
      headersOnly: true,
    });
    if (reply.status === 200) assert.match(reply.headers['content-type'], /^text\/event-stream/);
    else assert.equal(reply.status, 405);
    reply.close?.();
  });

  it('DELETE ends a session', async () => {
    const { sessionId } = await httpInitialize(shared.url);
    const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': PROTOCOL_VERSION };
    const before = await postMcp(shared.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, headers);
    assert.equal(before.status, 200);
    const deleted = await httpRequest(shared.url, { method: 'DELETE', headers });
    assert.ok(deleted.status === 200 || deleted.status === 204, `DELETE status ${deleted.status}`);
    const afterwards = await postMcp(shared.url, { jsonrpc: '2.0', id: 3, method: 'ping' }, headers);
    assert.equal(afterwards.status, 404, afterwards.text);
    const again = await httpRequest(shared.url, { method: 'DELETE', headers });
    assert.equal(again.status, 404);
  });

  it('a client that drops its POST mid-call does not disturb the daemon', async () => {
    const { sessionId } = await httpInitialize(shared.url);
    const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': PROTOCOL_VERSION };
    const created = await postMcp(shared.url, { jsonrpc: '2.0', id: 2, method: 'tools/call',
                                                params: { name: 'deck_session', arguments: { action: 'new "Drop"' } } }, headers);
    assert.equal(created.status, 200);
    await assert.rejects(postMcp(shared.url, { jsonrpc: '2.0', id: 3, method: 'tools/call',
                                               params: { name: 'deck', arguments: { ops: ['sleep 500'] } } },
                                 headers, { timeout: 100 }));
    const { sessionId: other } = await httpInitialize(shared.url);
    const ping = await postMcp(shared.url, { jsonrpc: '2.0', id: 9, method: 'ping' },
                               { 'Mcp-Session-Id': other, 'MCP-Protocol-Version': PROTOCOL_VERSION });
    assert.equal(ping.status, 200);
    // The same session keeps working once the abandoned call is over.
    const later = await postMcp(shared.url, { jsonrpc: '2.0', id: 4, method: 'tools/call',
                                              params: { name: 'deck_query', arguments: { q: 'stats' } } },
                                headers, { timeout: 10_000 });
    assert.equal(later.status, 200);
    daemonAlive();
  });
});
