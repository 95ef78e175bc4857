// fcpd replicas behind a real nginx, as deploy/ sets them up: what tests/e2e/replicas.test.mjs
// and bench/replicas.mjs share. nginx.conf is rendered by deploy/nginx-conf.sh from
// deploy/nginx.conf.template.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postMcp, waitFor } from './lib.mjs';

const deploy = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy');

export const NGINX = process.env.NGINX ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');
export const VERSION = '2026-07-28';
// The _meta of every 2026-07-28 request.
export const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
};

// A TCP port free on 127.0.0.1 just now (bound, then released).
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// server/discover through `url`: { status, … } as postMcp answers.
export function discover(url) {
  return postMcp(url, { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: META } },
                 { 'MCP-Protocol-Version': VERSION, 'Mcp-Method': 'server/discover' });
}

// Starts nginx in `prefix` in front of `replicas` ({ NAME: HTTP port }) and waits until it
// answers server/discover. Returns { child, exited, log(), url }.
export async function startNginx(prefix, replicas) {
  const port = await freePort();
  const addresses = Object.entries(replicas).map(([name, replicaPort]) => `${name}=127.0.0.1:${replicaPort}`);
  const rendered = spawnSync('bash', [path.join(deploy, 'nginx-conf.sh'), prefix,
                                      `127.0.0.1:${port}`, ...addresses], { encoding: 'utf8' });
  if (rendered.status !== 0) throw new Error(`nginx-conf.sh failed: ${rendered.stderr}`);
  writeFileSync(path.join(prefix, 'nginx.conf'), rendered.stdout);
  const child = spawn(NGINX, ['-p', prefix, '-e', path.join(prefix, 'error.log'),
                              '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'],
                      { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${log}`);
    return (await discover(url)).status === 200;
  }, { what: 'nginx to answer server/discover', timeout: 10_000 });
  return { child, exited, log: () => log, url };
}

// The fields of the lease file of `handle` in the state directory (replica, pid, host, …), null
// when no replica holds the document.
// A replica rewrites its lease in place under flock (truncate, then write) each time it renews
// it; read without the lock, the file can be caught empty between the two: read again then.
export function readLease(state, handle) {
  const file = path.join(state, `${handle.slice(4)}.lease`);
  for (let attempt = 0; attempt < 100; ++attempt) {
    if (!existsSync(file)) return null;
    const lease = Object.fromEntries(readFileSync(file, 'utf8').split('\n').slice(1)
      .filter(Boolean).map((line) => line.split(' ')));
    if (lease.replica !== undefined) return lease;
  }
  return {};
}
