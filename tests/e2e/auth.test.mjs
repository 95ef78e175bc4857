// Authentication through the real daemon (`fcpd`, env FCPD_REAL) with a token file naming two
// principals: the official MCP TypeScript SDK over Streamable HTTP with `Authorization: Bearer`
// (no token, a wrong token, the right token, another principal's handle), and the `fcp` CLI
// (env FCP) over TCP with FCPD_TOKEN and --token-file.
// Run: FCPD_REAL=… FCP=… node --test auth.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { closeQuietly, connectHttp } from './clients.mjs';
import { Daemon, removeDir, runCli } from './lib.mjs';
import { locateFcpd, makeTempDir, textOf } from './real-daemon.mjs';

const HANDLE = /handle: (doc:dw-[0-9a-f]{32}) /;
const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdef00';
const CALL = { timeout: 20_000 };

const root = makeTempDir('fcp-e2e-auth-');
const tokens = path.join(root, 'tokens');
let daemon;
let url;
let tcpPort;

before(async () => {
  writeFileSync(tokens, `# principals\nalice:${ALICE}\nbob:${BOB}\n`, { mode: 0o600 });
  const env = { ...process.env };
  delete env.FCPD_TOKEN;
  const child = spawn(locateFcpd(), ['--http', '127.0.0.1:0', '--tcp', '127.0.0.1:0', '--root', root,
    '--token-file', tokens, '--log-level', 'info'], { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  daemon = new Daemon(child, { stdio: false });
  const port = await daemon.port(/listening for MCP over HTTP on http:\/\/127\.0\.0\.1:(\d+)\/mcp/, 'the HTTP port');
  url = `http://127.0.0.1:${port}/mcp`;
  tcpPort = await daemon.port(/listening for MCP over TCP on 127\.0\.0\.1:(\d+)/, 'the TCP port');
});

after(async () => {
  await daemon?.stop();
  removeDir(root);
});

function bearer(token) {
  return { headers: { Authorization: `Bearer ${token}` } };
}

describe('Streamable HTTP with bearer tokens (official SDK)', { timeout: 60_000 }, () => {
  it('refuses a client without a token with 401', async () => {
    await assert.rejects(connectHttp(url), (error) => {
      assert.match(String(error), /401|Unauthorized/);
      return true;
    });
  });

  it('refuses a client with a wrong token with 401', async () => {
    await assert.rejects(connectHttp(url, bearer(`${ALICE}x`)), /401|Unauthorized|not valid/);
  });

  it('serves the right token, and one principal never reaches another\'s document', async () => {
    const alice = await connectHttp(url, bearer(ALICE));
    let handle;
    try {
      const made = await alice.client.callTool({ name: 'drawio_session', arguments: { action: 'new "Secret"' } }, undefined, CALL);
      assert.equal(made.isError, false, textOf(made));
      handle = textOf(made).match(HANDLE)[1];
      const added = await alice.client.callTool({ name: 'drawio', arguments: { ops: ['add box Vault'], doc: handle } }, undefined, CALL);
      assert.equal(added.isError, false, textOf(added));
    } finally {
      await closeQuietly(alice);
    }
    const bob = await connectHttp(url, bearer(BOB));
    try {
      const stolen = await bob.client.callTool({ name: 'drawio_query', arguments: { q: 'stats', doc: handle } }, undefined, CALL);
      assert.equal(stolen.isError, true, textOf(stolen));
      assert.doesNotMatch(textOf(stolen), /Vault/);
      const listed = await bob.client.callTool({ name: 'drawio_session', arguments: { action: 'list' } }, undefined, CALL);
      assert.doesNotMatch(textOf(listed), /Secret/);
      assert.ok(!textOf(listed).includes(handle), textOf(listed));
    } finally {
      await closeQuietly(bob);
    }
    // Alice, on a new session, still reaches it.
    const again = await connectHttp(url, bearer(ALICE));
    try {
      const found = await again.client.callTool({ name: 'drawio_query', arguments: { q: 'find Vault', doc: handle } }, undefined, CALL);
      assert.equal(found.isError, false, textOf(found));
      assert.match(textOf(found), /Vault/);
    } finally {
      await closeQuietly(again);
    }
  });
});

describe('TCP with the fcp CLI', { timeout: 60_000 }, () => {
  it('sends FCPD_TOKEN or --token-file, and is refused without one', async () => {
    const connect = ['--connect', `tcp://127.0.0.1:${tcpPort}`];
    const none = await runCli([...connect, 'drawio_session', 'list'], { env: { FCPD_TOKEN: '' } });
    assert.notEqual(none.code, 0);
    assert.match(none.stderr, /needs a token/);
    const wrong = await runCli([...connect, 'drawio_session', 'list'], { env: { FCPD_TOKEN: `${BOB}0` } });
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /token is not valid/);
    const right = await runCli([...connect, 'drawio_session', 'list'], { env: { FCPD_TOKEN: BOB } });
    assert.equal(right.code, 0, right.stderr);
    const bobFile = path.join(root, 'bob.token');
    writeFileSync(bobFile, `${BOB}\n`, { mode: 0o600 });
    const fromFile = await runCli([...connect, '--token-file', bobFile, 'drawio_session', 'list'], { env: { FCPD_TOKEN: '' } });
    assert.equal(fromFile.code, 0, fromFile.stderr);
  });
});
