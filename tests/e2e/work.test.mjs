// Fair, bounded, cancellable work in the real daemon (`fcpd`, env FCPD_REAL; issue 15): Graphviz
// layouts run in worker processes, in parallel, and one past its call's time limit is killed and
// rolled back; a client that disconnects cancels its call; other clients stay responsive while
// one runs several large layouts.
// Run: FCPD_REAL=…/fcpd node --test work.test.mjs   (CTest: e2e_work)
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTempDir, removeDir, sleep, waitFor } from './lib.mjs';
import { callTool, locateFcpd, startTcpFcpd, tcpClient } from './real-daemon.mjs';

const FCPD = locateFcpd();
const root = makeTempDir('fcp-e2e-work-');
after(() => removeDir(root));

// The spare workers wait from start-up (drawio.spare_workers at_start), as these tests expect.
const startFcpd = (config = {}) =>
  startTcpFcpd(FCPD, root, { drawio: { spare_workers: 'at_start' }, ...config });

// The daemon's child processes now (zombies included).
function allChildren(pid) {
  const found = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) found.push(...text.split(/\s+/).map(Number));
  }
  return found;
}

// What a child runs: 'raster-worker', 'graphviz-worker' ('' for a zombie or one gone).
function workerKind(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1] ?? '';
  } catch {
    return '';
  }
}

// The Graphviz workers the daemon runs now, its idle spare included (and any zombie).
function children(pid) {
  return allChildren(pid).filter((child) => ['graphviz-worker', ''].includes(workerKind(child)));
}

// An idle daemon's only Graphviz child is its spare worker (README): waits for that, returns it.
async function graphvizSpareOnly(pid) {
  await waitFor(() => children(pid).length === 1 && workerKind(children(pid)[0]) === 'graphviz-worker',
    { timeout: 5000, what: 'only the idle spare Graphviz worker' });
  return children(pid)[0];
}

const client = tcpClient;
const call = callTool;

// A new diagram of `count` shapes in a tree with cross links (about 1.5 edges per shape).
async function bigDiagram(c, count) {
  await call(c, 'drawio_session', { action: `new "Big${count}"` });
  const ops = [];
  for (let i = 0; i < count; ++i) ops.push(`add svc N${i} at:0,0`);
  for (let i = 1; i < count; ++i) {
    ops.push(`connect N${Math.floor((i - 1) / 3)} -> N${i}`);
    if (i % 2 === 0) ops.push(`connect N${i / 2} -> N${i}`);
  }
  // Batches of 1 000 ops, each well inside a short call time limit a test may set.
  for (let i = 0; i < ops.length; i += 1000) {
    const built = await call(c, 'drawio', { ops: ops.slice(i, i + 1000) });
    assert.equal(built.isError, false, built.text.slice(0, 300));
  }
}

async function status(c) {
  return (await call(c, 'drawio_query', { q: 'status' })).text;
}

describe('Graphviz layouts in worker processes', { timeout: 100_000 }, () => {
  it('a layout past its time limit is killed and rolled back with a clear error', async () => {
    const { daemon, tcpPort } = await startFcpd({ limits: { max_call_seconds: 2 } });
    try {
      const c = await client(tcpPort);
      await bigDiagram(c, 5000);
      const before = await status(c);
      const spare = await graphvizSpareOnly(daemon.pid);
      const started = Date.now();
      const result = await call(c, 'drawio', { ops: ['layout @all algo:layered'] });
      const took = Date.now() - started;
      assert.equal(result.isError, true, result.text.slice(0, 300));
      // The layout's own run time: a little under the call's 2 s when building the request
      // took part of the call's time, a little over when the kill took a moment.
      assert.match(result.text,
        /^! layout stopped after (1\.[5-9]|2(\.\d)?) s: the call ran past its time limit of 2 s \(limits\.max_call_seconds\)/);
      assert.match(result.text, /nothing was changed/);
      assert.ok(took < 4000, `the layout was answered ${took} ms after it started (limit 2 s)`);
      assert.equal(await status(c), before, 'the document is unchanged');
      assert.ok(!fs.existsSync(`/proc/${spare}`), 'the worker that took the layout was killed and reaped');
      assert.notEqual(await graphvizSpareOnly(daemon.pid), spare, 'a new spare waits, nothing else runs');
      c.close();
    } finally {
      await daemon.stop();
    }
  });
});

describe('a client that leaves during a layout', { timeout: 100_000 }, () => {
  it('cancels it: the Graphviz worker is killed at once and nothing is committed', async () => {
    const { daemon, tcpPort } = await startFcpd();
    try {
      const c = await client(tcpPort);
      await bigDiagram(c, 5000);
      const handle = /(doc:dw-[0-9a-f]{32})/.exec(
        (await call(c, 'drawio_session', { action: 'list' })).text)[1];
      const before = await status(c);
      const spare = await graphvizSpareOnly(daemon.pid);
      c.send({ jsonrpc: '2.0', id: 500, method: 'tools/call',
        params: { name: 'drawio', arguments: { ops: ['layout @all algo:layered'] } } });
      // The layout took the spare: its replacement is started at once.
      await waitFor(() => children(daemon.pid).some((child) => child !== spare),
        { what: 'the spare Graphviz worker to take the layout' });
      const left = Date.now();
      c.socket.destroy();
      await waitFor(() => !fs.existsSync(`/proc/${spare}`),
        { timeout: 3000, what: 'the Graphviz worker to be killed' });
      const took = Date.now() - left;
      const other = await client(tcpPort);
      const after = (await call(other, 'drawio_query', { q: 'status', doc: handle })).text;
      assert.equal(after, before, 'the document is unchanged');
      assert.ok(took < 1000, `the worker ran ${took} ms after the client left`);
      other.close();
    } finally {
      await daemon.stop();
    }
  });
});

describe('other clients while one runs six large layouts', { timeout: 100_000 }, () => {
  it('their small calls stay fast and the layouts run in parallel', async () => {
    const { daemon, tcpPort } = await startFcpd();
    try {
      const heavy = [];
      for (let i = 0; i < 6; ++i) {
        const c = await client(tcpPort);
        await bigDiagram(c, 1500);
        heavy.push(c);
      }
      // Another client: another address (the share is per principal and address).
      const other = await client(tcpPort, '127.0.0.2');
      await call(other, 'drawio_session', { action: 'new "Small"' });
      await call(other, 'drawio', { ops: ['add svc A', 'add svc B', 'connect A -> B'] });
      const started = Date.now();
      const layouts = heavy.map((c) => call(c, 'drawio', { ops: ['layout @all algo:layered'] })
        .then((r) => ({ ...r, took: Date.now() - started })));
      let done = false;
      Promise.all(layouts).then(() => { done = true; });
      const latencies = [];
      let workersSeen = 0;
      await sleep(200);
      while (!done) {
        workersSeen = Math.max(workersSeen, children(daemon.pid).length);
        const t = Date.now();
        await call(other, 'drawio_query', { q: 'status' });
        await call(other, 'drawio', { ops: ['move A to:10,10'] });
        latencies.push(Date.now() - t);
        await sleep(50);
      }
      const results = await Promise.all(layouts);
      for (const r of results) assert.equal(r.isError, false, r.text.slice(0, 300));
      const worst = Math.max(...latencies);
      console.log(`layouts finished after ${results.map((r) => r.took).join(', ')} ms; ` +
        `${latencies.length} small call pairs, worst ${worst} ms, median ` +
        `${latencies.sort((a, b) => a - b)[Math.floor(latencies.length / 2)]} ms; ` +
        `at most ${workersSeen} Graphviz workers at once (the spare included)`);
      assert.ok(latencies.length >= 3, `only ${latencies.length} small calls ran during the layouts`);
      assert.ok(worst < 1000, `a small call pair took ${worst} ms while the layouts ran`);
      // Two layouts at once and the idle spare (its replacement is started as one is taken).
      assert.ok(workersSeen >= 3, 'layouts ran in parallel worker processes');
      for (const c of [...heavy, other]) c.close();
    } finally {
      await daemon.stop();
    }
  });
});
