// Official MCP SDK clients connected to fcpd_testing over each transport.
// stdio and Streamable HTTP use the SDK's own transports unmodified; TCP (newline-delimited
// JSON-RPC, fcp's own transport) uses a tiny Transport built from the SDK's stdio framing.
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { FCPD } from './lib.mjs';
import { RecordingTransport } from './recording-transport.mjs';

export { RecordingTransport };

// MCP over a TCP socket with the same framing as stdio.
export class TcpClientTransport {
  constructor(port, host = '127.0.0.1') {
    this.port = port;
    this.host = host;
    this.readBuffer = new ReadBuffer();
  }

  start() {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ port: this.port, host: this.host });
      this.socket = socket;
      socket.once('connect', () => {
        socket.setNoDelay(true);
        resolve();
      });
      socket.once('error', reject);
      socket.on('data', (chunk) => {
        this.readBuffer.append(chunk);
        for (;;) {
          let message;
          try {
            message = this.readBuffer.readMessage();
          } catch (error) {
            this.onerror?.(error);
            continue;
          }
          if (message === null) break;
          this.onmessage?.(message);
        }
      });
      socket.on('error', (error) => this.onerror?.(error));
      socket.on('close', () => this.onclose?.());
    });
  }

  send(message) {
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.destroyed) {
        reject(new Error('not connected'));
        return;
      }
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close() {
    this.socket?.destroy();
  }
}

export function newClient(name = 'fcp-e2e') {
  return new Client({ name, version: '1.0.0' }, { capabilities: {} });
}

// Connects a Client through `transport` wrapped in a RecordingTransport.
export async function connectClient(transport, name) {
  const client = newClient(name);
  const recording = new RecordingTransport(transport);
  await client.connect(recording, { timeout: 10_000 });
  return { client, transport: recording, inner: transport };
}

// Spawns fcpd_testing --stdio through the SDK's StdioClientTransport.
export async function connectStdio({ root, args = [] } = {}) {
  const transport = new StdioClientTransport({
    command: FCPD,
    args: ['--stdio', '--log-level', 'debug', ...(root ? ['--root', root] : []), ...args],
    cwd: root,
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr.setEncoding('utf8');
  transport.stderr.on('data', (chunk) => { log += chunk; });
  const connected = await connectClient(transport, 'fcp-e2e-stdio');
  connected.log = () => log;
  return connected;
}

export function connectHttp(url, { headers = {} } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  return connectClient(transport, 'fcp-e2e-http');
}

export function connectTcp(port) {
  return connectClient(new TcpClientTransport(port), 'fcp-e2e-tcp');
}

// Closes a client without letting a close error hide the test's own failure. An HTTP client
// ends its session first (DELETE), as a well-behaved client does.
export async function closeQuietly(connected) {
  if (!connected) return;
  try {
    if (typeof connected.inner?.terminateSession === 'function') await connected.inner.terminateSession();
  } catch {
    // the session may already be gone
  }
  try {
    await connected.client.close();
  } catch {
    // already gone
  }
}
