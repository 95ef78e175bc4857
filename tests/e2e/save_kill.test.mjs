// Saves of a large draw.io file (1 MB, from the shared corpus) through the real daemon
// (`fcpd --stdio`, env FCPD_REAL), killed with SIGKILL at random moments while it adds a shape and
// saves over and over: after every kill the file is a complete draw.io document (parsed, every
// page's cells checked), and the temporary files the killed saves left are removed by the next
// save once they are older than a minute. Run: FCPD_REAL=… node --test save_kill.test.mjs
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { checkDrawioFile } from './mxgraph-decode.mjs';
import { removeDir } from './lib.mjs';
import { locateFcpd, makeTempDir, sourceRoot } from './real-daemon.mjs';

// The shared corpus beside the repository (as in drawio.test.mjs); skipped when it is absent.
const CORPUS = process.env.FCP_DRAWIO_CORPUS ?? path.resolve(sourceRoot, '..', 'shared', 'corpus', 'drawio');
const corpus = path.join(CORPUS, 'jgraph__drawio-diagrams__infographic-rockpool.drawio');
const root = makeTempDir('fcp-e2e-save-kill-');
const target = path.join(root, 'big.drawio');
const ROUNDS = 12;

after(() => removeDir(root));

function leftovers() {
  return readdirSync(root).filter((name) => name.startsWith('.big.drawio.tmp-'));
}

function request(id, method, params) {
  return `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
}

function toolCall(id, name, args) {
  return request(id, 'tools/call', { name, arguments: args });
}

// fcpd on stdio: opens the file, then adds a shape and saves, again and again. Resolves with the
// number of saves answered once `saves` have been (the kill comes `delay` ms later), or with
// the whole run when `saves` is Infinity and the daemon ends.
function runDaemon({ saves, delay, lines }) {
  return new Promise((resolve, reject) => {
    const child = spawn(locateFcpd(), ['--stdio', '--root', root, '--log-level', 'warn'],
      { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let buffer = '';
    let saved = 0;
    let killed = false;
    let log = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c) => { log += c; });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        const message = JSON.parse(line);
        const text = message.result?.content?.[0]?.text ?? '';
        if (message.error || message.result?.isError) {
          reject(new Error(`fcpd answered an error: ${line}\n${log}`));
        }
        if (/^\+ saved|saved /.test(text)) saved += 1;
        if (!killed && saved >= saves) {
          killed = true;
          setTimeout(() => child.kill('SIGKILL'), delay);
        }
      }
    });
    child.on('exit', (code, signal) => resolve({ code, signal, saved, log }));
    child.stdin.on('error', () => {});  // the daemon may be killed while we write
    child.stdin.write(lines.join(''));
    if (saves === Infinity) child.stdin.end();
  });
}

function saveLoop(round, count) {
  const lines = [
    request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'kill', version: '1' } }),
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    toolCall(2, 'drawio_session', { action: 'open big.drawio' }),
  ];
  for (let i = 0; i < count; ++i) {
    lines.push(toolCall(10 + 2 * i, 'drawio', { ops: [`add box K${round}x${i}`] }));
    lines.push(toolCall(11 + 2 * i, 'drawio_session', { action: 'save' }));
  }
  return lines;
}

function assertWholeFile(what) {
  const text = readFileSync(target, 'utf8');
  const checked = checkDrawioFile(text, what, { mxgraph: false });
  assert.ok(checked.pages > 0, `${what}: no pages`);
  assert.deepEqual(checked.problems, [], `${what}: ${checked.problems.join('; ')}`);
  return checked.cells;
}

describe('SIGKILL during saves of a 1 MB draw.io file', { timeout: 100_000 }, () => {
  it('always leaves a whole file, and the next save removes what killed saves left', { skip: !existsSync(corpus) && `no corpus file ${corpus}` }, async () => {
    copyFileSync(corpus, target);
    chmodSync(target, 0o644);
    let cells = assertWholeFile('the original');
    let withLeftovers = 0;  // kills that hit a save mid-write (a new temporary file)
    let leftBefore = 0;
    let grew = 0;
    for (let round = 0; round < ROUNDS; ++round) {
      const saves = 1 + Math.floor(Math.random() * 3);
      const delay = Math.floor(Math.random() * 40);
      const run = await runDaemon({ saves, delay, lines: saveLoop(round, 50) });
      assert.equal(run.signal, 'SIGKILL', `round ${round}: the daemon ended on its own\n${run.log}`);
      const now = assertWholeFile(`after kill ${round}`);
      assert.ok(now >= cells, `round ${round}: the file lost cells (${now} < ${cells})`);
      if (now > cells) grew += 1;
      cells = now;
      const left = leftovers().length;
      if (left > leftBefore) withLeftovers += 1;
      leftBefore = left;
    }
    console.log(`[ measured ] ${ROUNDS} kills during saves of a ${readFileSync(target).length}-byte file: ` +
      `every file whole; ${grew} rounds saved new work; ${withLeftovers} kills hit a save mid-write`);
    // What killed saves left goes with the next save, once older than a minute.
    const old = new Date(Date.now() - 120_000);
    for (const name of leftovers()) utimesSync(path.join(root, name), old, old);
    const final = await runDaemon({ saves: Infinity, delay: 0, lines: saveLoop('final', 1) });
    assert.equal(final.code, 0, final.log);
    assert.deepEqual(leftovers(), []);
    assertWholeFile('after the last save');
  });
});
