// fcpd replicas behind nginx (deploy/nginx.conf.template), measured from outside:
// - calls/s through nginx with 1 and 2 replicas: C clients (2026-07-28 requests over keep-alive
//   connections, the doc argument mirrored into Mcp-Param-Doc), each on its own drawio document,
//   mixed calls: 60 % ops (`add svc …`), 30 % `stats` queries, 10 % `undo`;
// - take-over time: the first call on a document after kill -9 of the replica holding it
//   (nginx skips the dead replica; the other takes the document over from its journal).
//
//   FCPD=build/release/src/fcpd node bench/replicas.mjs [--clients 8] [--seconds 10]
//       [--replicas 1,2] [--kills 5] [--json FILE] [--config FILE]
//
// --config FILE is passed to every replica (fcpd --config). Behind nginx every client comes from
// nginx's address, so they are one client for limits.max_calls_per_client (default
// max(1, workers / 2) = 2 calls at once per replica): raise it there to measure the replicas
// rather than that limit.
//
// Needs nginx (NGINX=path, default on PATH or /usr/sbin/nginx).
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeDir, sleep, waitFor } from '../tests/e2e/lib.mjs';
import { META, VERSION, freePort, readLease, startNginx } from '../tests/e2e/replica-setup.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const CLIENTS = Number(option('clients', 8));
const SECONDS = Number(option('seconds', 10));
const COUNTS = option('replicas', '1,2').split(',').map(Number);
const KILLS = Number(option('kills', 5));
const JSON_FILE = option('json', null);
const CONFIG = option('config', null);
const FCPD = process.env.FCPD ?? path.resolve(here, '..', 'build', 'release', 'src', 'fcpd');
const HANDLE = /handle: (doc:dw-[0-9a-f]{32})/;

class Setup {
  constructor(count) {
    this.count = count;
    this.root = makeTempDir('fcp-bench-replicas-');
    this.state = path.join(this.root, 'state');
    this.prefix = path.join(this.root, 'nginx');
    this.replicas = {};
  }

  async startReplica(name, port) {
    const child = spawn(FCPD, ['--http', `127.0.0.1:${port}`, '--state-dir', this.state,
                               '--replica-id', name, '--root', this.root, '--log-level', 'info',
                               ...(CONFIG ? ['--config', CONFIG] : [])],
                        { stdio: ['ignore', 'ignore', 'pipe'] });
    const replica = { name, port, child, log: '' };
    child.stderr.on('data', (chunk) => { replica.log += chunk; });
    replica.exit = new Promise((resolve) => child.on('exit', resolve));
    this.replicas[name] = replica;
    await waitFor(() => replica.log.includes('listening for MCP over HTTP'),
                  { what: `replica ${name}`, timeout: 15_000 });
  }

  async start() {
    for (let i = 1; i <= this.count; ++i) await this.startReplica(`r${i}`, await freePort());
    chmodSync(this.root, 0o755);
    this.nginx = await startNginx(this.prefix, Object.fromEntries(
      Object.values(this.replicas).map((r) => [r.name, r.port])));
    this.url = this.nginx.url;
  }

  // nginx forgets that a replica failed (its peers' state) with a reload.
  async reloadNginx() {
    this.nginx.child.kill('SIGHUP');
    await sleep(300);
  }

  lease(handle) {
    return readLease(this.state, handle);
  }

  async stop() {
    this.nginx?.child.kill('SIGTERM');
    for (const replica of Object.values(this.replicas)) {
      replica.child.kill('SIGTERM');
      await replica.exit;
    }
    removeDir(this.root);
  }
}

function headers(method, name, doc) {
  const h = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
              'MCP-Protocol-Version': VERSION, 'Mcp-Method': method };
  if (name) h['Mcp-Name'] = name;
  if (doc) h['Mcp-Param-Doc'] = doc;
  return h;
}

let nextId = 10;
async function call(url, name, args) {
  const id = nextId++;
  const response = await fetch(url, {
    method: 'POST', headers: headers('tools/call', name, args.doc),
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call',
                           params: { name, arguments: args, _meta: META } }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}: ${text}`);
  const body = JSON.parse(text);
  const result = body.result;
  const reply = result.content.map((c) => c.text).join('\n');
  if (result.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${reply}`);
  return reply;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function throughput(count) {
  const setup = new Setup(count);
  await setup.start();
  try {
    const docs = [];
    for (let c = 0; c < CLIENTS; ++c) {
      const made = await call(setup.url, 'drawio_session', { action: `new "Client ${c}"` });
      const handle = made.match(HANDLE)[1];
      await call(setup.url, 'drawio', { ops: ['add svc Start'], doc: handle });  // hand-over here
      docs.push(handle);
    }
    const latencies = [];
    let calls = 0;
    const deadline = performance.now() + SECONDS * 1000;
    await Promise.all(docs.map(async (doc, c) => {
      for (let i = 0; performance.now() < deadline; ++i) {
        const started = performance.now();
        const kind = i % 10;
        if (kind < 6) await call(setup.url, 'drawio', { ops: [`add svc C${c}_${i}`], doc });
        else if (kind < 9) await call(setup.url, 'drawio_query', { q: 'stats', doc });
        else await call(setup.url, 'drawio_session', { action: 'undo', doc });
        latencies.push(performance.now() - started);
        ++calls;
      }
    }));
    latencies.sort((a, b) => a - b);
    const holders = {};
    for (const doc of docs) holders[setup.lease(doc).replica] = (holders[setup.lease(doc).replica] ?? 0) + 1;
    return { replicas: count, clients: CLIENTS, seconds: SECONDS, calls,
             calls_per_second: calls / SECONDS, p50_ms: percentile(latencies, 0.5),
             p99_ms: percentile(latencies, 0.99), documents_per_replica: holders };
  } finally {
    await setup.stop();
  }
}

async function takeOvers() {
  const setup = new Setup(2);
  await setup.start();
  const times = [];
  try {
    for (let k = 0; k < KILLS; ++k) {
      const made = await call(setup.url, 'drawio_session', { action: `new "Kill ${k}"` });
      const handle = made.match(HANDLE)[1];
      for (let i = 0; i < 20; ++i) await call(setup.url, 'drawio', { ops: [`add svc K${i}`], doc: handle });
      const holder = setup.lease(handle).replica;
      const victim = setup.replicas[holder];
      victim.child.kill('SIGKILL');
      await victim.exit;
      const killed = performance.now();
      await call(setup.url, 'drawio', { ops: ['add svc After'], doc: handle });
      times.push(performance.now() - killed);
      const stats = await call(setup.url, 'drawio_query', { q: 'stats', doc: handle });
      if (!stats.startsWith('shapes: 21,')) throw new Error(`lost ops: ${stats}`);
      await setup.startReplica(holder, victim.port);
      await setup.reloadNginx();
    }
  } finally {
    await setup.stop();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { kills: KILLS, journal_calls: 21, first_call_ms: times,
           median_ms: percentile(sorted, 0.5), max_ms: sorted[sorted.length - 1] };
}

// The binary as a path in the repository (results are committed: no machine's paths in them).
const results = { fcpd: path.relative(path.resolve(here, '..'), FCPD), config: CONFIG, load_average: os.loadavg(), throughput: [], take_over: null };
for (const count of COUNTS) {
  const measured = await throughput(count);
  results.throughput.push(measured);
  console.log(`${count} replica(s), ${CLIENTS} clients, ${SECONDS} s: ` +
              `${measured.calls_per_second.toFixed(0)} calls/s, p50 ${measured.p50_ms.toFixed(2)} ms, ` +
              `p99 ${measured.p99_ms.toFixed(2)} ms; documents per replica ${JSON.stringify(measured.documents_per_replica)}`);
}
if (KILLS > 0) {
  results.take_over = await takeOvers();
  console.log(`take-over after kill -9 (${KILLS} kills, 2 replicas, 21 journaled calls): first call ` +
              `answered in median ${results.take_over.median_ms.toFixed(1)} ms, max ` +
              `${results.take_over.max_ms.toFixed(1)} ms (${results.take_over.first_call_ms.map((t) => t.toFixed(1)).join(', ')})`);
}
console.log(`load average at start: ${results.load_average.map((l) => l.toFixed(2)).join(' ')}`);
if (JSON_FILE) writeFileSync(JSON_FILE, JSON.stringify(results, null, 2));
