// What the end-to-end tests of the real `fcpd` (with every domain) share: the domain tests
// (drawio, midi, lofi) an official-SDK client over stdio and helpers for reading replies; the
// work and cancel tests a daemon on TCP with a config of their own and raw line clients.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Daemon, LineClient } from './lib.mjs';

export const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

// The real daemon: FCPD_REAL (set by CTest), else the first build directory that has it.
export function locateFcpd() {
  const fromEnv = process.env.FCPD_REAL;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`FCPD_REAL=${fromEnv} does not exist`);
    return fromEnv;
  }
  for (const dir of ['build/e2e', 'build-e2e', 'build', 'build/release']) {
    const candidate = path.join(sourceRoot, dir, 'src', 'fcpd');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('set FCPD_REAL to the path of fcpd (not found in any build directory)');
}

// `fcpd --tcp 127.0.0.1:0 --root ROOT` with `config` (written to a file in ROOT) and log level
// info. Returns { daemon, tcpPort }.
export async function startTcpFcpd(fcpd, root, config = {}) {
  const file = path.join(root, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(fcpd, ['--tcp', '127.0.0.1:0', '--root', root, '--log-level', 'info',
    '--config', file], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const daemon = new Daemon(child, { stdio: false });
  const tcpPort = await daemon.port(/listening for MCP over TCP on 127\.0\.0\.1:(\d+)/, 'the TCP port');
  return { daemon, tcpPort };
}

// An initialized raw client on the daemon's TCP port; `localAddress` (127.0.0.2, …) makes it
// another client for the daemon's per-client share of call threads.
export async function tcpClient(port, localAddress = undefined) {
  const c = await LineClient.tcp(port, '127.0.0.1', localAddress);
  await c.initialize();
  return c;
}

// tools/call on a raw client: { text (of the first content), isError }; a JSON-RPC error throws.
export async function callTool(c, name, args, timeout = 60_000) {
  const reply = await c.request('tools/call', { name, arguments: args }, { timeout });
  if (reply.error) throw new Error(JSON.stringify(reply.error));
  return { text: reply.result.content[0].text, isError: reply.result.isError };
}

export function makeTempDir(prefix) {
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

// `fcpd --stdio --root ROOT [extraArgs]` through the SDK's StdioClientTransport. `wrap` may wrap
// the transport (to record what arrives). Returns { client, transport, log() }.
export async function connectStdio(fcpd, root, { name, extraArgs = [], wrap = (t) => t } = {}) {
  const inner = new StdioClientTransport({
    command: fcpd,
    args: ['--stdio', '--root', root, '--log-level', 'info', ...extraArgs],
    cwd: root,
    stderr: 'pipe',
  });
  let log = '';
  inner.stderr.setEncoding('utf8');
  inner.stderr.on('data', (chunk) => { log += chunk; });
  const transport = wrap(inner);
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport, { timeout: 10_000 });
  return { client, transport, log: () => log };
}

export async function disconnect(connected) {
  try {
    await connected?.client.close();
  } catch {
    // already gone
  }
}

export function textOf(result) {
  return (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

// The digest line that ends every mutating reply, matched against the domain's `pattern`.
export function matchDigest(result, pattern) {
  const text = typeof result === 'string' ? result : textOf(result);
  const last = text.trimEnd().split('\n').at(-1);
  const m = last.match(pattern);
  assert.ok(m, `the reply does not end with a digest: ${JSON.stringify(text.slice(-300))}`);
  return m;
}

export function assertOk(result, what = '') {
  assert.equal(result.isError, false, `expected success${what ? ` (${what})` : ''}, got: ${textOf(result)}`);
}

export function assertFails(result, pattern, what = '') {
  assert.equal(result.isError, true, `expected an error${what ? ` (${what})` : ''}, got: ${textOf(result)}`);
  if (pattern) assert.match(textOf(result), pattern);
}
