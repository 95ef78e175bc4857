// The fcp CLI against a running fcpd_testing over TCP (and HTTP), and in spawn-stdio mode.
// Run: FCPD=… FCP=… node --test cli.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { FCPD, makeTempDir, removeDir, runCli, startDaemon } from './lib.mjs';

const root = makeTempDir('fcp-e2e-cli-');
let shared;
let tcp;
let httpUrl;

before(async () => {
  shared = await startDaemon({ tcp: true, http: true, root });
  tcp = `tcp://127.0.0.1:${shared.tcpPort}`;
  httpUrl = shared.url;
});

after(async () => {
  await shared?.daemon.stop();
  removeDir(root);
});

// fcp over TCP with the given arguments; FCPD is removed from the environment so that a
// connect-mode run can never fall back to spawning a daemon.
function fcp(args, options = {}) {
  return runCli(['--connect', tcp, ...args], { cwd: root, env: { FCPD: '' }, ...options });
}

function lastLine(text) {
  return text.trimEnd().split('\n').at(-1);
}

let sessionCounter = 0;
function sessionName(tag) {
  return `cli-${tag}-${process.pid}-${++sessionCounter}`;
}

// A port nothing listens on (bound, then released).
async function closedPort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('fcp CLI over TCP', { timeout: 90_000 }, () => {
  it('tools lists the four deck tools; --json gives the raw result', async () => {
    const plain = await fcp(['tools']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.deepEqual(plain.stdout.trim().split('\n').sort(), ['deck', 'deck_help', 'deck_query', 'deck_session']);
    const json = await fcp(['--json', 'tools']);
    assert.equal(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout);
    assert.equal(result.tools.length, 4);
    assert.deepEqual(result.tools.find((t) => t.name === 'deck').inputSchema.required, ['ops']);
  });

  it('shortcuts: session, a batch, a query, help', async () => {
    const s = sessionName('shortcuts');
    const created = await fcp(['--session', s, 'deck_session', 'new "CLI"']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout.trim(), /^\+ new deck document "CLI"\n  handle: doc:de-[0-9a-f]{32} \(pass it as doc to work on this document from any session\)\n\[0c 0l\]$/);

    const batch = await fcp(['--session', s, 'deck', 'add A color:red', 'add B', 'link A -> B']);
    assert.equal(batch.code, 0, batch.stderr);
    assert.match(batch.stdout, /^\+ card A red$/m);
    assert.match(batch.stdout, /^~ A->B$/m);
    assert.equal(lastLine(batch.stdout), '[2c 1l]');

    const map = await fcp(['--session', s, 'deck_query', 'map']);
    assert.equal(map.code, 0, map.stderr);
    assert.equal(map.stdout.trim(), 'deck "CLI": 2 cards\n  A red\n  B');

    // Query words are joined by spaces.
    const describeA = await fcp(['--session', s, 'deck_query', 'describe', 'A']);
    assert.equal(describeA.code, 0, describeA.stderr);
    assert.match(describeA.stdout, /card A color:red links: B/);

    const help = await fcp(['deck_help']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /add NAME \[color:C\] \[count:N\]/);

    const called = await fcp(['--session', s, 'call', 'deck_query', '{"q":"stats"}']);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(called.stdout.trim(), 'cards:2');
  });

  it('--session continues a document across separate invocations', async () => {
    const s = sessionName('continue');
    assert.equal((await fcp(['--session', s, 'deck_session', 'new "Kept"'])).code, 0);
    assert.equal((await fcp(['--session', s, 'deck', 'add One'])).code, 0);
    const second = await fcp(['--session', s, 'deck', 'add Two']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(lastLine(second.stdout), '[2c 0l]');
    // Without --session each invocation is a fresh, empty session.
    const anonymous = await fcp(['deck_query', 'map']);
    assert.equal(anonymous.code, 1);
    assert.match(anonymous.stdout + anonymous.stderr, /no document/);
  });

  it('--json prints the raw tools/call result', async () => {
    const s = sessionName('json');
    await fcp(['--session', s, 'deck_session', 'new "J"']);
    const ok = await fcp(['--session', s, '--json', 'deck', 'add A']);
    assert.equal(ok.code, 0, ok.stderr);
    const result = JSON.parse(ok.stdout);
    assert.equal(result.isError, false);
    assert.equal(result.content[0].type, 'text');
    assert.match(result.content[0].text, /\[1c 0l\]$/);
    const failed = await fcp(['--session', s, '--json', 'deck', 'fail boom']);
    assert.equal(failed.code, 1);
    assert.equal(JSON.parse(failed.stdout).isError, true);
  });

  it('exit status 1 for a failed batch, which is rolled back', async () => {
    const s = sessionName('fail');
    await fcp(['--session', s, 'deck_session', 'new "F"']);
    const failed = await fcp(['--session', s, 'deck', 'add A', 'add B', 'fail boom']);
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(failed.stdout, /^! op 3 of 3 failed: fail boom$/m);
    assert.match(failed.stdout, /^! batch rolled back/m);
    assert.equal(lastLine(failed.stdout), '[0c 0l]');
  });

  it('exit status 2 for usage, connection and protocol errors', async () => {
    const none = await runCli([], { env: { FCPD: '' } });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /usage/);
    const bogus = await fcp(['--bogus-flag', 'tools']);
    assert.equal(bogus.code, 2);
    const unknownCommand = await fcp(['no_such_tool', 'x']);
    assert.equal(unknownCommand.code, 2);
    assert.match(unknownCommand.stderr, /deck_query/);
    const badJson = await fcp(['call', 'deck', '{not json']);
    assert.equal(badJson.code, 2);
    const unknownTool = await fcp(['call', 'no_such_tool', '{}']);
    assert.equal(unknownTool.code, 2);
    assert.match(unknownTool.stderr, /no_such_tool/);
    const port = await closedPort();
    const refused = await runCli(['--connect', `tcp://127.0.0.1:${port}`, 'tools'], { env: { FCPD: '' } });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /fcp: error/);
    const badUrl = await runCli(['--connect', 'ftp://nowhere', 'tools'], { env: { FCPD: '' } });
    assert.equal(badUrl.code, 2);
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /usage: fcp/);
  });

  it('--timeout ends a call that takes too long (exit status 2)', async () => {
    const s = sessionName('timeout');
    assert.equal((await fcp(['--session', s, 'deck_session', 'new "Slow"'])).code, 0);
    const started = Date.now();
    const slow = await fcp(['--session', s, '--timeout', '0.3', 'deck', 'sleep 1500']);
    assert.equal(slow.code, 2, slow.stdout + slow.stderr);
    assert.match(slow.stderr, /timed out/);
    assert.ok(Date.now() - started < 1400, 'the CLI did not wait for the call');
  });

  it('run FILE: comments, batching, success', async () => {
    const s = sessionName('run');
    const script = path.join(root, 'ok.fcp');
    writeFileSync(script, [
      '# build a small deck',
      'deck_session new "Script"',
      '',
      'deck add A color:red',
      '   # an indented comment between ops of one batch',
      'deck add B',
      'deck link A -> B',
      'deck_query map',
      '',
    ].join('\n'));
    const run = await fcp(['--session', s, 'run', script]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^\+ new deck document "Script"$/m);
    assert.match(run.stdout, /^\[2c 1l\]$/m);
    assert.match(run.stdout, /deck "Script": 2 cards\n {2}A red\n {2}B/);
    // The three ops ran as one batch: one digest for them (and one for `new`).
    assert.deepEqual(run.stdout.match(/^\[\d+c \d+l\]$/gm), ['[0c 0l]', '[2c 1l]']);
  });

  it('run FILE stops at the first error and names its line', async () => {
    const s = sessionName('run-fail');
    const script = path.join(root, 'fail.fcp');
    writeFileSync(script, [
      'deck_session new "Broken"',   // 1
      '# comment',                    // 2
      'deck add A',                   // 3
      'deck add B',                   // 4
      'deck fail on purpose',         // 5
      'deck add C',                   // 6
      'deck_query map',               // 7
    ].join('\n') + '\n');
    const run = await fcp(['--session', s, 'run', script]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stderr, new RegExp(`${script.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5: error:`));
    assert.match(run.stderr, /on purpose|failed/);
    assert.doesNotMatch(run.stdout, /deck "Broken"/, 'the script stopped before the query');
    const map = await fcp(['--session', s, 'deck_query', 'map']);
    assert.equal(map.stdout.trim(), 'deck "Broken": 0 cards', 'the failed batch was rolled back');

    const unknown = path.join(root, 'unknown.fcp');
    writeFileSync(unknown, 'deck_session new "U"\n\nnosuch thing\n');
    const bad = await fcp(['run', unknown]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /:3: error:.*nosuch/);

    const missing = await fcp(['run', path.join(root, 'does-not-exist.fcp')]);
    assert.equal(missing.code, 2);
  });

  it('run - reads the script from stdin', async () => {
    const run = await fcp(['run', '-'], { input: 'deck_session new "Stdin"\ndeck add A\ndeck add B\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(lastLine(run.stdout), '[2c 0l]');
  });

  it('save through the CLI writes inside the daemon root', async () => {
    const s = sessionName('save');
    await fcp(['--session', s, 'deck_session', 'new "Saved"']);
    await fcp(['--session', s, 'deck', 'add A color:green']);
    const saved = await fcp(['--session', s, 'deck_session', 'save as:cli-saved.deck']);
    assert.equal(saved.code, 0, saved.stderr);
    assert.equal(readFileSync(path.join(root, 'cli-saved.deck'), 'utf8'), 'A\tgreen\t\n');
    const outside = await fcp(['--session', s, 'deck_session', 'save as:/cli-outside.deck']);
    assert.equal(outside.code, 1);
    assert.ok(!existsSync('/cli-outside.deck'));
  });
});

describe('fcp CLI over HTTP', { timeout: 60_000 }, () => {
  it('shortcuts and --session across invocations', async () => {
    const s = sessionName('http');
    const args = ['--connect', httpUrl, '--session', s];
    const created = await runCli([...args, 'deck_session', 'new "Web"'], { env: { FCPD: '' } });
    assert.equal(created.code, 0, created.stderr);
    const added = await runCli([...args, 'deck', 'add A', 'add B'], { env: { FCPD: '' } });
    assert.equal(added.code, 0, added.stderr);
    const map = await runCli([...args, 'deck_query', 'map'], { env: { FCPD: '' } });
    assert.equal(map.code, 0, map.stderr);
    assert.equal(map.stdout.trim(), 'deck "Web": 2 cards\n  A \n  B'.trimEnd());
  });
});

describe('fcp CLI spawning fcpd --stdio', { timeout: 60_000 }, () => {
  it('--fcpd runs the given daemon over pipes', async () => {
    const dir = makeTempDir('fcp-e2e-spawn-');
    try {
      const tools = await runCli(['--fcpd', FCPD, 'tools'], { cwd: dir, env: { FCPD: '' } });
      assert.equal(tools.code, 0, tools.stderr);
      assert.deepEqual(tools.stdout.trim().split('\n').sort(), ['deck', 'deck_help', 'deck_query', 'deck_session']);

      const script = path.join(dir, 'spawn.fcp');
      writeFileSync(script, 'deck_session new "Spawned"\ndeck add A color:red\ndeck add B\n' +
                            'deck_session save as:spawned.deck\n');
      const run = await runCli(['--fcpd', FCPD, 'run', script], { cwd: dir, env: { FCPD: '' } });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(path.join(dir, 'spawned.deck'), 'utf8'), 'A\tred\t\nB\t\t\n');

      const failed = await runCli(['--fcpd', FCPD, 'deck', 'add A'], { cwd: dir, env: { FCPD: '' } });
      assert.equal(failed.code, 1);
      assert.match(failed.stdout, /no document/);
    } finally {
      removeDir(dir);
    }
  });

  it('$FCPD names the daemon when --fcpd is absent', async () => {
    const help = await runCli(['deck_help'], { env: { FCPD } });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /link A -> B/);
  });

  it('a daemon that cannot be spawned is exit status 2', async () => {
    const missing = await runCli(['--fcpd', '/nonexistent/fcpd', 'tools'], { env: { FCPD: '' } });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /fcp: error/);
  });
});
