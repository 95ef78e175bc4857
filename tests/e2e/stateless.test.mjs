// MCP 2026-07-28 (stateless: no initialize, version and client capabilities in every request's
// _meta) beside 2025-era sessions, through the real daemon on every transport: Streamable HTTP
// (raw requests with the Mcp-Method / Mcp-Name / Mcp-Param-Doc headers), TCP and stdio.
// Run: FCPD=… node --test stateless.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import httpModule from 'node:http';
import { LineClient, httpInitialize, makeTempDir, postMcp, removeDir,
         startDaemon, textOf as toolText, withTimeout } from './lib.mjs';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const HANDLE = /handle: (doc:[a-z]{2}-[0-9a-f]{32})/;

let root;
let started;

before(async () => {
  root = makeTempDir('fcp-e2e-stateless-');
  started = await startDaemon({ tcp: true, http: true, stdio: true, root });
});

after(async () => {
  await started?.daemon.stop();
  removeDir(root);
});

let nextId = 1000;
// One stateless POST: the body's method and name mirrored in headers as a 2026 client does.
function post(method, params = {}, headers = {}) {
  const id = nextId++;
  const name = params.name ?? params.uri;
  const mirrored = { 'MCP-Protocol-Version': VERSION, 'Mcp-Method': method };
  if (name !== undefined) mirrored['Mcp-Name'] = name;
  return postMcp(started.url, { jsonrpc: '2.0', id, method, params: { ...params, _meta: META } },
                 { ...mirrored, ...headers }).then((reply) => ({ ...reply, id, body: reply.messages[0] }));
}

function textOf(body) {
  return body.result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

describe('Streamable HTTP', () => {
  it('answers server/discover without initialize and keeps no session', async () => {
    const reply = await post('server/discover');
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers['mcp-session-id'], undefined);
    assert.equal(reply.body.id, reply.id);
    const result = reply.body.result;
    assert.deepEqual(result.supportedVersions, [VERSION]);
    assert.equal(result.resultType, 'complete');
    assert.ok(Number.isInteger(result.ttlMs) && result.ttlMs >= 0);
    assert.ok(['public', 'private'].includes(result.cacheScope));
    assert.ok(result.capabilities.tools);
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'fcpd');
  });

  it('edits a document through its handle, one request per connection, Mcp-Param-Doc checked', async () => {
    const made = await post('tools/call', { name: 'deck_session', arguments: { action: 'new "S"' } });
    assert.equal(made.status, 200, made.text);
    const handle = textOf(made.body).match(HANDLE)?.[1];
    assert.ok(handle, textOf(made.body));
    const add = (headers) => post('tools/call',
      { name: 'deck', arguments: { ops: ['add Zeta color:red'], doc: handle } }, headers);
    const missing = await add({});
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.error.code, -32020);
    assert.equal(missing.body.id, missing.id);
    const wrong = await add({ 'Mcp-Param-Doc': 'doc:de-0' });
    assert.equal(wrong.body.error.code, -32020);
    const added = await add({ 'Mcp-Param-Doc': `=?base64?${Buffer.from(handle).toString('base64')}?=` });
    assert.equal(added.status, 200, added.text);
    assert.equal(added.body.result.isError, false, textOf(added.body));
    assert.equal(added.body.result.resultType, 'complete');
    // A 2025-era session of the same daemon sees the same document.
    const { sessionId } = await httpInitialize(started.url);
    const legacy = await postMcp(started.url, {
      jsonrpc: '2.0', id: 2, method: 'tools/call',
      params: { name: 'deck_query', arguments: { q: 'list', doc: handle } },
    }, { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' });
    assert.equal(legacy.status, 200, legacy.text);
    assert.match(legacy.messages[0].result.content[0].text, /\bZeta\b/);
    assert.equal(legacy.messages[0].result.resultType, undefined);
  });

  it('answers removed and unknown methods 404 -32601, bad versions 400 -32022, with the id', async () => {
    for (const method of ['initialize', 'ping', 'resources/subscribe', 'unknown/method']) {
      const reply = await post(method);
      assert.equal(reply.status, 404, `${method}: ${reply.text}`);
      assert.equal(reply.body.error.code, -32601);
      assert.equal(reply.body.id, reply.id);
    }
    const id = nextId++;
    const bad = await postMcp(started.url, {
      jsonrpc: '2.0', id, method: 'tools/list',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } },
    }, { 'MCP-Protocol-Version': 'v999.0.0', 'Mcp-Method': 'tools/list' });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.messages[0].id, id);
    assert.equal(bad.messages[0].error.code, -32022);
    assert.deepEqual(bad.messages[0].error.data, { supported: [VERSION], requested: 'v999.0.0' });
  });

  it('refuses a request without _meta with 400 -32602 and a mismatched Mcp-Method with -32020', async () => {
    const bare = await postMcp(started.url, { jsonrpc: '2.0', id: 7, method: 'tools/list' },
                               { 'MCP-Protocol-Version': VERSION, 'Mcp-Method': 'tools/list' });
    assert.equal(bare.status, 400, bare.text);
    assert.equal(bare.messages[0].error.code, -32602);
    assert.equal(bare.messages[0].id, 7);
    const mismatched = await post('tools/list', {}, { 'Mcp-Method': 'prompts/list' });
    assert.equal(mismatched.status, 400);
    assert.equal(mismatched.body.error.code, -32020);
  });
});

// The same requests as newline-delimited JSON-RPC: no headers, no statuses, the same answers.
async function statelessOverLines(client) {
  const discover = await client.request('server/discover', { _meta: META });
  assert.deepEqual(discover.result.supportedVersions, [VERSION]);
  const made = await client.request('tools/call',
    { name: 'deck_session', arguments: { action: 'new "L"' }, _meta: META });
  const handle = made.result.content[0].text.match(HANDLE)?.[1];
  assert.ok(handle, JSON.stringify(made));
  const listed = await client.request('tools/list', { _meta: META });
  assert.equal(listed.result.resultType, 'complete');
  assert.ok(Number.isInteger(listed.result.ttlMs));
  const ping = await client.request('ping', { _meta: META });
  assert.equal(ping.error.code, -32601);
  const stats = await client.request('tools/call',
    { name: 'deck_query', arguments: { q: 'stats', doc: handle }, _meta: META });
  assert.equal(stats.result.isError, false, JSON.stringify(stats));
}

describe('TCP and stdio', () => {
  it('serve 2026-07-28 requests without initialize over TCP', async () => {
    const client = await LineClient.tcp(started.tcpPort);
    try {
      await statelessOverLines(client);
    } finally {
      client.close();
    }
  });

  it('serve 2026-07-28 requests without initialize over stdio', async () => {
    const child = started.daemon.child;
    const client = new LineClient(child.stdout, child.stdin);
    await statelessOverLines(client);
  });

  it('still serve a 2025-era session over TCP', async () => {
    const client = await LineClient.tcp(started.tcpPort);
    try {
      const result = await client.initialize();
      assert.equal(result.protocolVersion, '2025-11-25');
      const listed = await client.request('tools/list');
      assert.equal(listed.result.resultType, undefined);
      assert.ok(listed.result.tools.length > 0);
    } finally {
      client.close();
    }
  });
});

// How a subscriptions/listen stream ends (2026-07-28, Subscriptions: Cancellation): when the
// server shuts down it sends notifications/cancelled naming the listen request on stdio and TCP,
// and closes the event stream on HTTP; a client ends its stream on stdio/TCP with the same
// notification. A daemon of its own: this one is stopped.
describe('listen streams', () => {
  let own;
  let ownRoot;
  before(async () => {
    ownRoot = makeTempDir('fcp-e2e-listen-');
    own = await startDaemon({ tcp: true, http: true, stdio: true, root: ownRoot });
  });
  after(async () => {
    await own?.daemon.stop();
    removeDir(ownRoot);
  });

  const listen = (id, uri) => ({
    jsonrpc: '2.0', id, method: 'subscriptions/listen',
    params: { _meta: META, notifications: { resourceSubscriptions: [uri] } },
  });
  const acknowledged = (id) => (m) => m.method === 'notifications/subscriptions/acknowledged'
    && m.params._meta['io.modelcontextprotocol/subscriptionId'] === id;
  const cancelledOf = (id) => (m) => m.method === 'notifications/cancelled' && m.params.requestId === id;

  it('end with notifications/cancelled (stdio, TCP) or a closed stream (HTTP) when fcpd stops', async () => {
    const stdio = new LineClient(own.daemon.child.stdout, own.daemon.child.stdin);
    const opened = await stdio.request('tools/call', {
      name: 'deck_session', arguments: { action: 'new "Shutdown"' }, _meta: META });
    assert.ok(opened.result, JSON.stringify(opened));
    const uri = `fcp://deck/doc/${toolText(opened.result).match(HANDLE)[1]}`;
    const tcp = await LineClient.tcp(own.tcpPort);
    try {
      // A stream the client ends itself, then the ones the shutdown ends.
      await tcp.send(listen(40, uri));
      await tcp.next(acknowledged(40));
      await tcp.notify('notifications/cancelled', { requestId: 40 });
      await tcp.send(listen(41, uri));
      await tcp.next(acknowledged(41));
      await stdio.send(listen(42, uri));
      await stdio.next(acknowledged(42));

      const body = JSON.stringify(listen(43, uri));
      const http = await new Promise((resolve, reject) => {
        const request = httpModule.request(own.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
                     'MCP-Protocol-Version': VERSION, 'Mcp-Method': 'subscriptions/listen' },
        }, (response) => {
          let text = '';
          let acked;
          const ack = new Promise((done) => { acked = done; });
          const ended = new Promise((done, failed) => {
            response.on('end', () => done(text));
            response.on('aborted', () => failed(new Error(`the stream was aborted after: ${text}`)));
            response.on('error', failed);
          });
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            text += chunk;
            if (text.includes('acknowledged')) acked();
          });
          resolve({ status: response.statusCode, ack, ended });
        });
        request.on('error', reject);
        request.end(body);
      });
      assert.equal(http.status, 200);
      await http.ack;

      own.daemon.child.kill('SIGTERM');
      const tcpEnd = await tcp.next(cancelledOf(41));
      assert.equal(tcpEnd.params.reason, 'fcpd is shutting down');
      assert.equal(tcpEnd.id, undefined);
      const stdioEnd = await stdio.next(cancelledOf(42));
      assert.equal(stdioEnd.params.reason, 'fcpd is shutting down');
      const text = await withTimeout(http.ended, 10_000, 'the end of the HTTP listen stream');
      assert.ok(!text.includes('cancelled'), text);
      assert.deepEqual(await own.daemon.exit, { code: 0, signal: null });
      // Stream 40 was the client's to end: nothing was sent about it.
      assert.ok(!tcp.all.some((line) => line.includes('"requestId":40')), tcp.all.join('\n'));
      assert.match(own.daemon.log, /ended 3 subscription stream\(s\)/);
    } finally {
      tcp.close();
    }
  });
});
