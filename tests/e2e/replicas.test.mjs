// Two fcpd replicas sharing one state directory behind a real nginx (deploy/nginx.conf.template,
// rendered by deploy/nginx-conf.sh): a 2026-07-28 editing session of the drawio domain routed by
// its Mcp-Param-Doc header, the replica holding the document killed with SIGKILL mid-session,
// the session going on through the other replica, and every acknowledged op in the saved file.
// Also: documents made on one replica and routed to the other are handed over; a 2025-era
// session stays on its replica (session ids carry the replica's name).
// Run by tests/e2e/replicas.sh (which installs nginx); env FCPD (the real fcpd), NGINX.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { httpInitialize, makeTempDir, postMcp, removeDir, sleep, startDaemon } from './lib.mjs';
import { META, VERSION, readLease, startNginx } from './replica-setup.mjs';
const HANDLE = /handle: (doc:dw-[0-9a-f]{32})/;
const BEFORE_KILL = 12;
const AFTER_KILL = 12;

let root;
let state;
let prefix;
const replicas = {};  // name → started daemon
let nginx;
let url;
const routed = [];  // documents of the first test, two shapes each

async function startReplica(name) {
  replicas[name] = await startDaemon({
    http: true, root, logLevel: 'info',
    args: ['--state-dir', state, '--replica-id', name],
  });
}

let nextId = 100;
// One 2026-07-28 tools/call as a modern client sends it: the doc argument mirrored into the
// Mcp-Param-Doc header (the tools declare x-mcp-header: Doc), so nginx routes by document.
async function call(name, args) {
  const headers = { 'MCP-Protocol-Version': VERSION, 'Mcp-Method': 'tools/call', 'Mcp-Name': name };
  if (args.doc) headers['Mcp-Param-Doc'] = args.doc;
  const id = nextId++;
  const reply = await postMcp(url, { jsonrpc: '2.0', id, method: 'tools/call',
                                     params: { name, arguments: args, _meta: META } }, headers,
                              { timeout: 20_000 });
  assert.equal(reply.status, 200, `${name}: HTTP ${reply.status}: ${reply.text}`);
  const result = reply.messages.find((m) => m.id === id)?.result;
  assert.ok(result, `${name}: no result in ${reply.text}`);
  const text = result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { isError: result.isError === true, text };
}

async function ok(name, args) {
  const result = await call(name, args);
  assert.equal(result.isError, false, `${name} ${JSON.stringify(args)}: ${result.text}`);
  return result.text;
}

const leaseOf = (handle) => readLease(state, handle);

function labels(file) {
  const xml = readFileSync(file, 'utf8');
  return [...xml.matchAll(/<mxCell\b[^>]*\bvalue="([^"]*)"/g)].map((m) => m[1]);
}

before(async () => {
  root = makeTempDir('fcp-e2e-replicas-');
  state = path.join(root, 'state');
  prefix = makeTempDir('fcp-e2e-nginx-');
  // nginx started by root runs its workers as nobody: they must reach the prefix.
  chmodSync(prefix, 0o755);
  await startReplica('r1');
  await startReplica('r2');
  nginx = await startNginx(prefix, Object.fromEntries(
    Object.entries(replicas).map(([name, r]) => [name, r.httpPort])));
  url = nginx.url;
});

after(async () => {
  if (nginx && nginx.child.exitCode === null) {
    nginx.child.kill('SIGTERM');
    await Promise.race([nginx.exited, sleep(3000)]);
  }
  for (const replica of Object.values(replicas)) await replica.daemon.stop();
  removeDir(root);
  removeDir(prefix);
});

describe('fcpd replicas behind nginx', { timeout: 100_000 }, () => {
  it('documents made on either replica are handed to the one nginx routes them to', async () => {
    // Until both cases were seen: a document nginx routes to the replica that made it, and one
    // it routes to the other (hashing decides; 2^-20 that 20 documents show only one case).
    const makers = new Set();
    let moved = 0;
    let stayed = 0;
    for (let i = 0; i < 20 && (moved === 0 || stayed === 0); ++i) {
      const made = await ok('drawio_session', { action: `new "Routed ${i}"` });
      const handle = made.match(HANDLE)[1];
      routed.push(handle);
      const maker = leaseOf(handle).replica;
      makers.add(maker);
      await ok('drawio', { ops: ['add svc Routed'], doc: handle });
      const holder = leaseOf(handle).replica;
      if (holder === maker) ++stayed; else ++moved;
      // Every later call on it stays on that replica: no more hand-overs.
      await ok('drawio', { ops: ['add svc Again'], doc: handle });
      assert.equal(leaseOf(handle).replica, holder);
      const stats = await ok('drawio_query', { q: 'stats', doc: handle });
      assert.match(stats, /^shapes: 2, edges: 0/);
    }
    assert.ok(moved > 0 && stayed > 0, `moved ${moved}, stayed ${stayed}`);
    assert.deepEqual([...makers].sort(), ['r1', 'r2'], 'new went round-robin to both replicas');
    const handed = (replicas.r1.daemon.log + replicas.r2.daemon.log).match(/handed doc:dw-\S+ over/g) ?? [];
    assert.equal(handed.length, moved, 'one hand-over per document that moved');
  });

  it('a 2025-era session stays on the replica that made it', async () => {
    const { sessionId } = await httpInitialize(url);
    assert.match(sessionId, /^r[12]-[0-9a-f]{32}$/);
    const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' };
    for (let i = 0; i < 8; ++i) {
      const reply = await postMcp(url, { jsonrpc: '2.0', id: 10 + i, method: 'tools/list' }, headers);
      assert.equal(reply.status, 200, `call ${i} of the session: ${reply.status} ${reply.text}`);
    }
  });

  it('kill -9 of the replica holding the document mid-session loses no acknowledged op', async () => {
    const made = await ok('drawio_session', { action: 'new "Replicated"' });
    const handle = made.match(HANDLE)[1];
    const acknowledged = [];
    for (let i = 0; i < BEFORE_KILL; ++i) {
      await ok('drawio', { ops: [`add svc A${i}`], doc: handle });
      acknowledged.push(`A${i}`);
    }
    const holder = leaseOf(handle);
    assert.ok(holder, 'the document has a lease');
    const victim = replicas[holder.replica];
    assert.equal(Number(holder.pid), victim.daemon.pid, 'the lease names the holder\'s pid');
    const survivor = holder.replica === 'r1' ? 'r2' : 'r1';

    victim.daemon.child.kill('SIGKILL');
    await victim.daemon.exit;
    const killed = performance.now();
    await ok('drawio', { ops: [`add svc B0`], doc: handle });
    const takeOver = performance.now() - killed;
    acknowledged.push('B0');
    console.log(`take-over after kill -9: first call answered in ${takeOver.toFixed(1)} ms`);
    assert.equal(leaseOf(handle).replica, survivor, 'the survivor holds the lease now');
    assert.match(replicas[survivor].daemon.log, new RegExp(`took ${handle} over from replica ${holder.replica}`));

    for (let i = 1; i < AFTER_KILL; ++i) {
      await ok('drawio', { ops: [`add svc B${i}`], doc: handle });
      acknowledged.push(`B${i}`);
    }
    const stats = await ok('drawio_query', { q: 'stats', doc: handle });
    assert.match(stats, new RegExp(`^shapes: ${BEFORE_KILL + AFTER_KILL}, edges: 0`));
    // Undo reaches back across the take-over (the history came with the journal), and redo.
    for (let i = 0; i <= AFTER_KILL; ++i) await ok('drawio_session', { action: 'undo', doc: handle });
    assert.match(await ok('drawio_query', { q: 'stats', doc: handle }),
                 new RegExp(`^shapes: ${BEFORE_KILL - 1}, edges: 0`));
    for (let i = 0; i <= AFTER_KILL; ++i) await ok('drawio_session', { action: 'redo', doc: handle });
    await ok('drawio_session', { action: 'save as:replicated.drawio', doc: handle });
    const saved = labels(path.join(root, 'replicated.drawio'));
    assert.deepEqual(saved.filter((l) => /^[AB]\d+$/.test(l)).sort(), [...acknowledged].sort());
    // The dead replica's other documents (if hashing gave it any) are taken over on their next
    // call too.
    for (const other of routed) {
      assert.match(await ok('drawio_query', { q: 'stats', doc: other }), /^shapes: 2, edges: 0/);
      assert.equal(leaseOf(other).replica, survivor);
    }
  });
});
