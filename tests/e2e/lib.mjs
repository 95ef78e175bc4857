// Shared helpers of the end-to-end tests: locating the binaries, starting fcpd_testing on
// random ports, raw newline-delimited JSON-RPC clients (TCP and stdio), raw HTTP requests, and
// small polling utilities. Every wait here has a deadline; nothing relies on fixed sleeps.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, realpathSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sourceRoot = path.resolve(here, '..', '..');

export const PROTOCOL_VERSION = '2025-11-25';

// A binary named by an environment variable (set by CTest), else the first build directory of
// the source tree that has it, so `node --test` also works by hand after a build.
function locate(envName, relative) {
  const fromEnv = process.env[envName];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`${envName}=${fromEnv} does not exist`);
    return fromEnv;
  }
  for (const dir of ['build/release', 'build-e2e', 'build', 'build-cli', 'build-transport', 'build-core']) {
    const candidate = path.join(sourceRoot, dir, relative);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`set ${envName} to the path of ${path.basename(relative)} (not found in any build directory)`);
}

export const FCPD = locate('FCPD', 'tests/fcpd_testing');
export function fcpBinary() {
  return locate('FCP', 'src/fcp');
}

export function makeTempDir(prefix = 'fcp-e2e-') {
  // realpath: the daemon reports canonical paths (macOS /var → /private/var and the like).
  return realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function removeDir(dir) {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Polls `check` (sync or async) until it returns a truthy value or the deadline passes.
export async function waitFor(check, { timeout = 10_000, interval = 20, what = 'condition' } = {}) {
  const deadline = Date.now() + timeout;
  let lastError;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting for ${what}` +
                      (lastError ? `: ${lastError.message}` : ''));
    }
    await sleep(interval);
  }
}

// Rejects when `promise` does not settle within `ms`.
export function withTimeout(promise, ms, what = 'operation') {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// The daemon

// A running fcpd_testing. Its stderr (the log) is kept for diagnostics and port discovery.
export class Daemon {
  constructor(child, { stdio }) {
    this.child = child;
    this.log = '';
    this.exit = new Promise((resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    this.exited = false;
    this.exit.then(() => { this.exited = true; });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => { this.log += chunk; });
    if (!stdio) child.stdout.resume();
  }

  get pid() {
    return this.child.pid;
  }

  // The port of the first line of the log that matches `pattern` (with one capture group).
  async port(pattern, what) {
    const match = await waitFor(() => {
      if (this.exited) throw new Error(`fcpd_testing exited before ${what}:\n${this.log}`);
      return this.log.match(pattern);
    }, { timeout: 15_000, what: `${what} in the daemon log` });
    return Number(match[1]);
  }

  // Ends the daemon: SIGTERM, then SIGKILL if it has not exited within `grace` ms.
  async stop(grace = 5000) {
    if (this.exited) return this.exit;
    this.child.kill('SIGTERM');
    const outcome = await Promise.race([this.exit, sleep(grace).then(() => null)]);
    if (outcome) return outcome;
    this.child.kill('SIGKILL');
    return this.exit;
  }
}

// Starts fcpd_testing. `tcp` / `http` listen on 127.0.0.1 with a port chosen by the system.
// Returns { daemon, tcpPort?, httpPort?, url? }.
export async function startDaemon({ tcp = false, http: withHttp = false, stdio = false, root,
                                    args = [], logLevel = 'debug', cwd } = {}) {
  const argv = [];
  if (stdio) argv.push('--stdio');
  if (tcp) argv.push('--tcp', '127.0.0.1:0');
  if (withHttp) argv.push('--http', '127.0.0.1:0');
  if (root) argv.push('--root', root);
  argv.push('--log-level', logLevel, ...args);
  const child = spawn(FCPD, argv, { cwd: cwd ?? root ?? os.tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
  const daemon = new Daemon(child, { stdio });
  const started = { daemon };
  try {
    if (tcp) {
      started.tcpPort = await daemon.port(/listening for MCP over TCP on 127\.0\.0\.1:(\d+)/, 'the TCP port');
    }
    if (withHttp) {
      started.httpPort = await daemon.port(/listening for MCP over HTTP on http:\/\/127\.0\.0\.1:(\d+)\/mcp/, 'the HTTP port');
      started.url = `http://127.0.0.1:${started.httpPort}/mcp`;
    }
  } catch (error) {
    await daemon.stop();
    throw error;
  }
  return started;
}

// ---------------------------------------------------------------------------------------------
// Raw newline-delimited JSON-RPC (TCP socket or a child's stdio pipes)

// Reads newline-framed messages from a byte stream and lets tests wait for the next ones.
export class LineClient {
  constructor(readable, writable, { onClose } = {}) {
    this.readable = readable;
    this.writable = writable;
    this.buffer = Buffer.alloc(0);
    this.lines = [];     // raw lines not yet taken
    this.all = [];       // every raw line ever received
    this.waiters = [];
    this.closed = false;
    this.nextId = 1;
    readable.on('data', (chunk) => this.#onData(chunk));
    readable.on('end', () => this.#onEnd());
    readable.on('close', () => this.#onEnd());
    readable.on('error', () => this.#onEnd());
    writable.on('error', () => {});  // a peer that went away shows up as 'end'/'close'
    this.onClose = onClose;
  }

  // `localAddress`: another loopback address (127.0.0.2) makes another client for the daemon's
  // per-client share of call threads.
  static async tcp(port, host = '127.0.0.1', localAddress = undefined) {
    const socket = net.connect({ port, host, localAddress });
    await new Promise((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    socket.setNoDelay(true);
    const client = new LineClient(socket, socket);
    client.socket = socket;
    return client;
  }

  #onData(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let index;
    while ((index = this.buffer.indexOf(0x0a)) >= 0) {
      const line = this.buffer.subarray(0, index).toString('utf8');
      this.buffer = this.buffer.subarray(index + 1);
      this.lines.push(line);
      this.all.push(line);
    }
    this.#wake();
  }

  #onEnd() {
    if (this.closed) return;
    this.closed = true;
    this.onClose?.();
    this.#wake();
  }

  #wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  // Sends a message: an object is serialised, a string or Buffer goes out as is; adds '\n'.
  async send(message) {
    let bytes;
    if (Buffer.isBuffer(message)) bytes = Buffer.concat([message, Buffer.from('\n')]);
    else if (typeof message === 'string') bytes = Buffer.from(message + '\n', 'utf8');
    else bytes = Buffer.from(JSON.stringify(message) + '\n', 'utf8');
    await this.write(bytes);
  }

  // Writes raw bytes, honouring back-pressure.
  write(bytes) {
    return new Promise((resolve, reject) => {
      if (this.writable.destroyed || this.writable.writableEnded) {
        reject(new Error('the connection is closed'));
        return;
      }
      const flushed = this.writable.write(bytes, (error) => (error ? reject(error) : undefined));
      if (flushed) resolve();
      else this.writable.once('drain', resolve);
    });
  }

  // Streams `total` bytes made of `head`, filler bytes and `tail` without building them at once.
  async streamLine(head, fillerByte, total, tail) {
    const chunkSize = 1 << 20;
    const filler = Buffer.alloc(chunkSize, fillerByte);
    await this.write(Buffer.from(head));
    let remaining = total - head.length - tail.length;
    while (remaining > 0) {
      const n = Math.min(remaining, chunkSize);
      await this.write(n === chunkSize ? filler : filler.subarray(0, n));
      remaining -= n;
    }
    await this.write(Buffer.from(tail + '\n'));
  }

  // The next message (parsed) for which `predicate` is true; earlier non-matching ones are kept.
  async next(predicate = () => true, timeout = 10_000) {
    const deadline = Date.now() + timeout;
    for (;;) {
      for (let i = 0; i < this.lines.length; ++i) {
        let parsed;
        try {
          parsed = JSON.parse(this.lines[i]);
        } catch {
          throw new Error(`the daemon wrote a line that is not JSON: ${this.lines[i].slice(0, 200)}`);
        }
        if (predicate(parsed)) {
          this.lines.splice(i, 1);
          return parsed;
        }
      }
      if (this.closed) throw new Error('the connection closed before the expected message arrived');
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no matching message within ${timeout} ms; pending: ${this.lines.join(' | ').slice(0, 500)}`);
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  // The reply with this id.
  response(id, timeout) {
    return this.next((m) => m.id === id && ('result' in m || 'error' in m), timeout);
  }

  // Sends a request and returns its reply (the whole message: result or error).
  async request(method, params, { timeout = 10_000 } = {}) {
    const id = this.nextId++;
    const message = { jsonrpc: '2.0', id, method };
    if (params !== undefined) message.params = params;
    await this.send(message);
    return this.response(id, timeout);
  }

  notify(method, params) {
    const message = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    return this.send(message);
  }

  async initialize(extra = {}) {
    const reply = await this.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'fcp-e2e-raw', version: '1.0.0' },
      ...extra,
    });
    if (reply.error) throw new Error(`initialize failed: ${JSON.stringify(reply.error)}`);
    await this.notify('notifications/initialized');
    return reply.result;
  }

  async call(name, args, { timeout } = {}) {
    const reply = await this.request('tools/call', { name, arguments: args }, { timeout });
    if (reply.error) throw new Error(`tools/call ${name} failed: ${JSON.stringify(reply.error)}`);
    return reply.result;
  }

  close() {
    if (this.socket) this.socket.destroy();
    else this.writable.end();
  }
}

// Text of a tools/call result (all text content joined).
export function textOf(result) {
  return (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

// The digest "[Nc Ml]" that ends every mutating reply.
export function digestOf(result) {
  const text = typeof result === 'string' ? result : textOf(result);
  const last = text.trimEnd().split('\n').at(-1);
  const match = last.match(/^\[(\d+)c (\d+)l\]$/);
  if (!match) throw new Error(`the reply does not end with a digest: ${JSON.stringify(text)}`);
  return last;
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP (node:http gives full control over Host, Content-Length and early replies)

// One HTTP request. Resolves { status, headers, text, messages } where `messages` are the
// JSON-RPC messages of the body (a JSON body or the data: events of an SSE stream).
// With `headersOnly` it resolves once the headers arrive, with close() to drop the stream.
export function httpRequest(url, { method = 'POST', headers = {}, body, timeout = 10_000,
                                   headersOnly = false } = {}) {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      method,
      headers,
      agent: false,
    });
    let settled = false;
    const finish = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn(value);
    };
    const timer = setTimeout(() => {
      request.destroy();
      finish(reject, new Error(`${method} ${url} got no answer within ${timeout} ms`));
    }, timeout);
    request.on('response', (response) => {
      if (headersOnly) {
        finish(resolve, { status: response.statusCode, headers: response.headers,
                          close: () => request.destroy() });
        response.resume();
        return;
      }
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      const done = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        finish(resolve, { status: response.statusCode, headers: response.headers, text,
                          messages: parseBody(response.headers['content-type'], text) });
      };
      response.on('end', done);
      response.on('aborted', done);
      response.on('error', done);
    });
    // A server that answers early (413) may reset the connection while the body is still
    // being sent; the answer already received is what counts.
    request.on('error', (error) => finish(reject, error));
    if (body !== undefined) request.end(body);
    else request.end();
  });
}

function parseBody(contentType = '', text) {
  if (contentType.startsWith('application/json')) {
    try {
      const value = JSON.parse(text);
      return Array.isArray(value) ? value : [value];
    } catch {
      return [];
    }
  }
  if (contentType.startsWith('text/event-stream')) {
    const messages = [];
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, '')).join('\n');
      if (data) {
        try {
          messages.push(JSON.parse(data));
        } catch {
          // not JSON: ignore (priming events and the like)
        }
      }
    }
    return messages;
  }
  return [];
}

export const MCP_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

// POSTs one JSON-RPC message with the usual MCP headers (plus `headers`).
export function postMcp(url, message, headers = {}, options = {}) {
  return httpRequest(url, {
    method: 'POST',
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message),
    ...options,
  });
}

// Initializes an HTTP session; returns { sessionId, result, headers }.
export async function httpInitialize(url, headers = {}) {
  const reply = await postMcp(url, {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {},
              clientInfo: { name: 'fcp-e2e-http', version: '1.0.0' } },
  }, headers);
  if (reply.status !== 200) throw new Error(`initialize over HTTP: status ${reply.status}: ${reply.text}`);
  const sessionId = reply.headers['mcp-session-id'];
  if (!sessionId) throw new Error('initialize over HTTP: no Mcp-Session-Id header');
  const initialized = await postMcp(url, { jsonrpc: '2.0', method: 'notifications/initialized' },
                                    { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': PROTOCOL_VERSION });
  if (initialized.status !== 202) throw new Error(`notifications/initialized: status ${initialized.status}`);
  const message = reply.messages.find((m) => m.id === 1);
  return { sessionId, result: message?.result, headers: reply.headers };
}

// ---------------------------------------------------------------------------------------------
// Running the CLI

// Runs `fcp ARGS...`; resolves { code, signal, stdout, stderr }. Kills it after `timeout`.
export function runCli(args, { input, timeout = 20_000, env = {}, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(fcpBinary(), args, {
      cwd: cwd ?? os.tmpdir(),
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (c) => { stdout += c; });
    child.stderr.on('data', (c) => { stderr += c; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fcp ${args.join(' ')} did not finish within ${timeout} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeout);
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => {});
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}
