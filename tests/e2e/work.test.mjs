// Fair, bounded, cancellable work in the real daemon (`fcpd`, env FCPD_REAL; issue 15): Graphviz
// layouts run in worker processes, in parallel, and one past its call's time limit is killed and
// rolled back; a client that disconnects cancels its call; other clients stay responsive while
// one runs several large layouts.
// Run: FCPD_REAL=…/fcpd node --test work.test.mjs   (CTest: e2e_work)
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Daemon, LineClient, makeTempDir, removeDir, sleep, waitFor } from './lib.mjs';
import { locateFcpd } from './real-daemon.mjs';

const FCPD = locateFcpd();
const root = makeTempDir('fcp-e2e-work-');
after(() => removeDir(root));

async function startFcpd(config = {}) {
  const file = path.join(root, `config-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(config));
  const child = spawn(FCPD, ['--tcp', '127.0.0.1:0', '--root', root, '--log-level', 'info',
    '--config', file], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const daemon = new Daemon(child, { stdio: false });
  const tcpPort = await daemon.port(/listening for MCP over TCP on 127\.0\.0\.1:(\d+)/, 'the TCP port');
  return { daemon, tcpPort };
}

// The Graphviz workers the daemon runs now (its child processes).
function children(pid) {
  const found = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) found.push(...text.split(/\s+/).map(Number));
  }
  return found;
}

async function client(port) {
  const c = await LineClient.tcp(port);
  await c.initialize();
  return c;
}

async function call(c, name, args, timeout = 60_000) {
  const reply = await c.request('tools/call', { name, arguments: args }, { timeout });
  if (reply.error) throw new Error(JSON.stringify(reply.error));
  return { text: reply.result.content[0].text, isError: reply.result.isError };
}

// A new diagram of `count` shapes in a tree with cross links (about 1.5 edges per shape).
async function bigDiagram(c, count) {
  await call(c, 'drawio_session', { action: `new "Big${count}"` });
  const ops = [];
  for (let i = 0; i < count; ++i) ops.push(`add svc N${i} at:0,0`);
  for (let i = 1; i < count; ++i) {
    ops.push(`connect N${Math.floor((i - 1) / 3)} -> N${i}`);
    if (i % 2 === 0) ops.push(`connect N${i / 2} -> N${i}`);
  }
  const built = await call(c, 'drawio', { ops });
  assert.equal(built.isError, false, built.text.slice(0, 300));
}

async function status(c) {
  return (await call(c, 'drawio_query', { q: 'status' })).text;
}

describe('Graphviz layouts in worker processes', { timeout: 100_000 }, () => {
  it('a layout past its time limit is killed and rolled back with a clear error', async () => {
    const { daemon, tcpPort } = await startFcpd({ limits: { max_call_seconds: 2 } });
    try {
      const c = await client(tcpPort);
      await bigDiagram(c, 2500);
      const before = await status(c);
      const started = Date.now();
      const result = await call(c, 'drawio', { ops: ['layout @all algo:layered'] });
      const took = Date.now() - started;
      assert.equal(result.isError, true, result.text.slice(0, 300));
      assert.match(result.text,
        /^! layout stopped after 2(\.\d)? s: the call ran past its time limit of 2 s \(limits\.max_call_seconds\)/);
      assert.match(result.text, /nothing was changed/);
      assert.ok(took < 4000, `the layout was answered ${took} ms after it started (limit 2 s)`);
      assert.equal(await status(c), before, 'the document is unchanged');
      assert.deepEqual(children(daemon.pid), [], 'no Graphviz worker is left running');
      c.close();
    } finally {
      await daemon.stop();
    }
  });
});
