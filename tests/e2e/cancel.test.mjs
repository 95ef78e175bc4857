// Long single operations in the real daemon (`fcpd`, env FCPD_REAL; issue 15): an open of a big
// file (drawio, midi, lofi), a save, an image export (native SVG renderer, librsvg) and an audio
// render (FluidSynth) stop when their call is cancelled (notifications/cancelled, a client that
// disconnects), runs past its kind's time limit or the daemon shuts down; what they leave is what
// was there before (no document opened, no file written, no temporary file left).
// Run: FCPD_REAL=…/fcpd node --test cancel.test.mjs   (CTest: e2e_cancel)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LineClient, makeTempDir, removeDir, sleep, waitFor } from './lib.mjs';
import { callTool, locateFcpd, startTcpFcpd, tcpClient } from './real-daemon.mjs';
import { bigDrawio, bigMaxpat, bigMidi, longSong } from './big_files.mjs';

const FCPD = locateFcpd();
const SOUNDFONT = process.env.FCP_GM_SOUNDFONT ?? '/usr/share/sounds/sf2/TimGM6mb.sf2';
const root = makeTempDir('fcp-e2e-cancel-');
after(() => removeDir(root));

before(() => {
  bigDrawio(path.join(root, 'big.drawio'), 60_000);        // 120 k cells, 19 MB
  bigMidi(path.join(root, 'big.mid'), 32, 30_000);          // 960 k notes, 7.7 MB
  bigMaxpat(path.join(root, 'big.maxpat'), 60_000);         // 60 k boxes, 60 k lines, 21 MB
  longSong(path.join(root, 'long.mid'), 20 * 60);           // 20 minutes of music
});

// The spare workers wait from start-up (drawio.spare_workers at_start), as these tests expect;
// 'the spare workers' below also tests the default, on first use.
const startFcpd = (config = {}) =>
  startTcpFcpd(FCPD, root, { drawio: { spare_workers: 'at_start' }, ...config });
const client = (port) => tcpClient(port);
const call = (c, name, args, timeout = 120_000) => callTool(c, name, args, timeout);

async function timed(c, name, args) {
  const started = Date.now();
  const result = await call(c, name, args);
  return { ...result, took: Date.now() - started };
}

// The files of the root now, temporary files of saves included.
const files = () => fs.readdirSync(root).sort();

let nextId = 5000;
// Sends the call, cancels it after `delay` ms with notifications/cancelled, then asks `then`
// (a call on the same connection, which runs only once the cancelled one has ended). Returns
// how long after the cancel `then` was answered, its reply, and whether the cancelled call was
// answered (a cancelled call is not).
async function cancelAfter(c, name, args, delay, then) {
  const id = nextId++;
  await c.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  await sleep(delay);
  await c.notify('notifications/cancelled', { requestId: id, reason: 'the test cancels it' });
  const cancelled = Date.now();
  const reply = await call(c, then.name, then.args);
  const latency = Date.now() - cancelled;
  return { latency, reply, answered: c.all.some((line) => line.includes(`"id":${id},`)) };
}

// The stop came well before the work would have ended: within a third of the whole work's time
// (which also bounds it on a loaded machine), and in absolute terms.
function assertStoppedEarly(what, latency, whole) {
  console.log(`${what}: the whole work takes ${whole} ms; the next call was answered ` +
    `${latency} ms after the cancel`);
  assert.ok(latency < whole / 3, `${what}: answered ${latency} ms after the cancel (whole: ${whole} ms)`);
  assert.ok(latency < 2000, `${what}: answered ${latency} ms after the cancel`);
}

describe('an open cancelled midway', { timeout: 300_000 }, () => {
  for (const [domain, file] of [['drawio', 'big.drawio'], ['midi', 'big.mid'], ['lofi', 'big.maxpat']]) {
    it(`${domain}: stops at once and opens nothing`, async () => {
      const { daemon, tcpPort } = await startFcpd();
      try {
        const c = await client(tcpPort);
        // Timed on warm opens: the first one reads a cold file and warms the allocator, and
        // cancelling a warm open at a quarter of a cold one's time could come after its end.
        // The quickest of the second and third opens: on a loaded machine one of them can take
        // twice as long, and a quarter of that came after the end of the open cancelled.
        const opened = await call(c, `${domain}_session`, { action: `open ${file}` });
        assert.equal(opened.isError, false, opened.text);
        await call(c, `${domain}_session`, { action: 'close' });
        let whole = null;
        for (let round = 0; round < 2; ++round) {
          const warm = await timed(c, `${domain}_session`, { action: `open ${file}` });
          assert.equal(warm.isError, false, warm.text);
          await call(c, `${domain}_session`, { action: 'close' });
          if (whole === null || warm.took < whole.took) whole = warm;
        }
        const { latency, reply, answered } = await cancelAfter(c, `${domain}_session`,
          { action: `open ${file}` }, Math.floor(whole.took / 4),
          { name: `${domain}_session`, args: { action: 'list' } });
        assert.match(reply.text, new RegExp(`no open ${domain} documents`), 'no document was opened');
        assert.equal(answered, false, 'a cancelled call gets no reply');
        assertStoppedEarly(`${domain} open`, latency, whole.took);
        c.close();
      } finally {
        await daemon.stop();
      }
    });
  }
});

describe('a save cancelled midway', { timeout: 300_000 }, () => {
  // drawio saves as .drawio.svg (the diagram and its picture): a save long enough to cancel.
  for (const [domain, file, saved, op, op2] of [
    ['drawio', 'big.drawio', 'big.drawio.svg', 'add svc Extra', 'add svc Extra2'],
    ['midi', 'big.mid', 'big.mid', 'note Track1 C4 at:1.1', 'note Track1 D4 at:1.2'],
    ['lofi', 'big.maxpat', 'big.maxpat', 'add cycle~ extra at:20,20', 'add cycle~ extra2 at:40,40']]) {
    it(`${domain}: writes nothing, leaves no temporary file, and the document stays unsaved`, async () => {
      const { daemon, tcpPort } = await startFcpd();
      try {
        const c = await client(tcpPort);
        await call(c, `${domain}_session`, { action: `open ${file}` });
        const edited = await call(c, domain, { ops: [op] });
        assert.equal(edited.isError, false, edited.text);
        const whole = await timed(c, `${domain}_session`, { action: `save as:whole-${saved}` });
        assert.equal(whole.isError, false, whole.text);
        // Another edit: the save to cancel writes the whole document as the one above did.
        assert.equal((await call(c, domain, { ops: [op2] })).isError, false);
        const before = files();
        const { latency, reply } = await cancelAfter(c, `${domain}_session`,
          { action: `save as:cut-${saved}` }, Math.floor(whole.took / 4),
          { name: `${domain}_session`, args: { action: 'list' } });
        assert.deepEqual(files(), before, 'no file and no temporary file was left');
        assert.match(reply.text, /unsaved changes: yes/, 'the document is still unsaved');
        assert.match(reply.text, new RegExp(`file: \\S*whole-${saved.replaceAll('.', '\\.')},`),
          'its path is the one it was saved to last');
        assertStoppedEarly(`${domain} save`, latency, whole.took);
        c.close();
      } finally {
        await daemon.stop();
      }
    });
  }
});

describe('an export cancelled midway', { timeout: 300_000 }, () => {
  it('drawio svg to a file: stops at once and writes no file', async () => {
    const { daemon, tcpPort } = await startFcpd();
    try {
      const c = await client(tcpPort);
      await call(c, 'drawio_session', { action: 'open big.drawio' });
      const whole = await timed(c, 'drawio', { ops: ['export file as:whole.svg'] });
      assert.equal(whole.isError, false, whole.text);
      const before = files();
      const { latency } = await cancelAfter(c, 'drawio', { ops: ['export file as:cut.svg'] },
        Math.floor(whole.took / 4), { name: 'drawio_session', args: { action: 'list' } });
      assert.deepEqual(files(), before, 'no image file was written');
      assertStoppedEarly('drawio export svg', latency, whole.took);
      c.close();
    } finally {
      await daemon.stop();
    }
  });

  it('midi audio (FluidSynth): the render stops at once and writes no file', { skip: !fs.existsSync(SOUNDFONT) && `no SoundFont at ${SOUNDFONT}` }, async () => {
    const { daemon, tcpPort } = await startFcpd();
    try {
      const c = await client(tcpPort);
      await call(c, 'midi_session', { action: 'open long.mid' });
      await call(c, 'midi_session', { action: `load-soundfont ${SOUNDFONT}` });
      const whole = await timed(c, 'midi_session', { action: 'export wav path:whole.wav' });
      assert.equal(whole.isError, false, whole.text);
      const before = files();
      const { latency } = await cancelAfter(c, 'midi_session', { action: 'export wav path:cut.wav' },
        Math.floor(whole.took / 4), { name: 'midi_session', args: { action: 'list' } });
      assert.deepEqual(files(), before, 'no audio file was written');
      assertStoppedEarly('midi render', latency, whole.took);
      c.close();
    } finally {
      await daemon.stop();
    }
  });
});

// librsvg needs over a minute for this picture (a wide dilation filter on a large image): a PNG
// of it is made in a raster worker process that the stop kills.
function slowPictureDrawio(file) {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><defs>' +
    '<filter id="f" x="-50%" y="-50%" width="200%" height="200%">' +
    '<feGaussianBlur stdDeviation="60"/><feMorphology radius="30" operator="dilate"/></filter>' +
    '</defs><rect width="1500" height="1500" fill="blue" filter="url(#f)"/>' +
    '<rect x="30" y="30" width="1500" height="1500" fill="red" filter="url(#f)"/></svg>';
  const image = `data:image/svg+xml,${Buffer.from(svg).toString('base64')}`;
  fs.writeFileSync(file, '<mxfile host="fcp-test"><diagram id="p1" name="Page-1"><mxGraphModel>' +
    '<root><mxCell id="0"/><mxCell id="1" parent="0"/>' +
    `<mxCell id="pic" value="" style="shape=image;image=${image};" vertex="1" parent="1">` +
    '<mxGeometry x="0" y="0" width="2000" height="2000" as="geometry"/></mxCell>' +
    '</root></mxGraphModel></diagram></mxfile>\n');
}

// The daemon's child processes (raster and Graphviz workers), zombies included.
function childrenOf(pid) {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return tasks.flatMap((task) =>
    fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));
}

// What a child runs: 'raster-worker', 'graphviz-worker' ('' for a zombie or one gone).
function workerKind(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1] ?? '';
  } catch {
    return '';
  }
}

// An idle daemon's only children are its spare workers, one raster and one Graphviz worker
// waiting for a job (README): waits for that, returns the raster spare.
async function rasterSpareOnly(pid) {
  await waitFor(() => {
    const kinds = childrenOf(pid).map(workerKind).sort();
    return kinds.join() === 'graphviz-worker,raster-worker';
  }, { timeout: 5000, what: 'only the two idle spare workers' });
  return childrenOf(pid).find((child) => workerKind(child) === 'raster-worker');
}

describe('a PNG export (librsvg) that must stop', { timeout: 120_000 }, () => {
  before(() => slowPictureDrawio(path.join(root, 'slow-picture.drawio')));

  it('cancelled: the daemon answers the next call at once, no file, no worker left', async () => {
    const { daemon, tcpPort } = await startFcpd();
    try {
      const c = await client(tcpPort);
      assert.equal((await call(c, 'drawio_session', { action: 'open slow-picture.drawio' })).isError, false);
      const before = files();
      const spare = await rasterSpareOnly(daemon.pid);
      const { latency, answered } = await cancelAfter(c, 'drawio', { ops: ['export file as:cut.png'] },
        1500, { name: 'drawio_session', args: { action: 'list' } });
      console.log(`PNG export cancelled after 1.5 s: the next call was answered ${latency} ms after the cancel`);
      assert.ok(latency < 1000, `answered ${latency} ms after the cancel`);
      assert.equal(answered, false, 'a cancelled call gets no reply');
      assert.deepEqual(files(), before, 'no image file was written');
      assert.ok(!fs.existsSync(`/proc/${spare}`), 'the raster worker was killed and reaped');
      assert.notEqual(await rasterSpareOnly(daemon.pid), spare, 'a new spare waits');
      c.close();
    } finally {
      await daemon.stop();
    }
  });

  it('past limits.max_call_seconds: stopped with an error that names the setting', async () => {
    const { daemon, tcpPort } = await startFcpd({ limits: { max_call_seconds: 1 } });
    try {
      const c = await client(tcpPort);
      assert.equal((await call(c, 'drawio_session', { action: 'open slow-picture.drawio' })).isError, false);
      const before = files();
      const spare = await rasterSpareOnly(daemon.pid);
      const exported = await timed(c, 'drawio', { ops: ['export fmt:png'] });
      assert.equal(exported.isError, true, exported.text);
      assert.match(exported.text, /^! export stopped after 1(\.\d)? s: the call ran past its time limit of 1 s \(limits\.max_call_seconds\); no image was made and no file written/);
      assert.ok(exported.took < 2500, `answered after ${exported.took} ms`);
      assert.deepEqual(files(), before, 'no image file was written');
      assert.ok(!fs.existsSync(`/proc/${spare}`), 'the raster worker was killed and reaped');
      assert.notEqual(await rasterSpareOnly(daemon.pid), spare, 'a new spare waits');
      c.close();
    } finally {
      await daemon.stop();
    }
  });
});

describe('the spare workers', { timeout: 60_000 }, () => {
  it('start with the first export by default: an idle daemon has no child process', async () => {
    fs.writeFileSync(path.join(root, 'small.drawio'), '<mxfile host="fcp-test"><diagram id="p1" ' +
      'name="Page-1"><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>' +
      '<mxCell id="a" value="A" vertex="1" parent="1"><mxGeometry x="10" y="10" width="80" ' +
      'height="40" as="geometry"/></mxCell></root></mxGraphModel></diagram></mxfile>\n');
    const { daemon, tcpPort } = await startTcpFcpd(FCPD, root, {});
    try {
      const c = await client(tcpPort);
      assert.equal((await call(c, 'drawio_session', { action: 'open small.drawio' })).isError, false);
      await sleep(500);
      assert.deepEqual(childrenOf(daemon.pid), [], 'no worker before the first export');
      const exported = await call(c, 'drawio', { ops: ['export fmt:png'] });
      assert.equal(exported.isError, false, exported.text);
      // The export's own worker served it and exited; a spare waits for the next one.
      await waitFor(() => childrenOf(daemon.pid).map(workerKind).join() === 'raster-worker',
        { timeout: 5000, what: 'one idle raster spare after the first export' });
      c.close();
    } finally {
      await daemon.stop();
    }
  });

  it('are killed and reaped when the daemon stops', async () => {
    const { daemon } = await startFcpd();
    let spares = [];
    try {
      await rasterSpareOnly(daemon.pid);
      spares = childrenOf(daemon.pid);
      assert.equal(spares.length, 2);
    } finally {
      await daemon.stop();
    }
    for (const spare of spares) assert.ok(!fs.existsSync(`/proc/${spare}`), `spare ${spare} is gone`);
  });
});

describe('a client that disconnects during an export', { timeout: 120_000 }, () => {
  it('cancels it: no file is written and its share of threads is free at once', async () => {
    // One call at a time per client: the next client's call waits for the cancelled one.
    const { daemon, tcpPort } = await startFcpd({ limits: { max_calls_per_client: 1 } });
    try {
      const c = await client(tcpPort);
      await call(c, 'drawio_session', { action: 'open big.drawio' });
      const whole = await timed(c, 'drawio', { ops: ['export file as:whole2.svg'] });
      const before = files();
      await c.send({ jsonrpc: '2.0', id: 77, method: 'tools/call',
        params: { name: 'drawio', arguments: { ops: ['export file as:gone.svg'] } } });
      await sleep(Math.floor(whole.took / 4));
      c.socket.destroy();
      const left = Date.now();
      const other = await client(tcpPort);
      await call(other, 'drawio_session', { action: 'list' });
      const latency = Date.now() - left;
      assert.deepEqual(files(), before, 'no image file was written');
      assertStoppedEarly('drawio export after a disconnect', latency, whole.took);
      other.close();
    } finally {
      await daemon.stop();
    }
  });
});

describe('a per-kind time limit', { timeout: 120_000 }, () => {
  // 300 k cells: well over a second to read or draw on any machine this runs on.
  const bigger = path.join(root, 'bigger.drawio');
  before(() => bigDrawio(bigger, 150_000));
  after(() => fs.rmSync(bigger, { force: true }));

  it('stops an open past limits.max_session_seconds: nothing is opened, the error says why', async () => {
    const { daemon, tcpPort } = await startFcpd({ limits: { max_session_seconds: 1 } });
    try {
      const c = await client(tcpPort);
      const opened = await timed(c, 'drawio_session', { action: 'open bigger.drawio' });
      assert.equal(opened.isError, true, opened.text);
      assert.match(opened.text, /^! cannot open "bigger\.drawio": (reading the diagram|reading "[^"]+"|opening "bigger\.drawio") stopped after 1(\.\d)? s: the call ran past its time limit of 1 s \(limits\.max_session_seconds\); no document was opened$/m);
      assert.ok(opened.took < 2500, `answered after ${opened.took} ms`);
      assert.match((await call(c, 'drawio_session', { action: 'list' })).text, /no open drawio documents/);
      c.close();
    } finally {
      await daemon.stop();
    }
  });

  it('stops an export past limits.max_call_seconds: no file, the error says why', async () => {
    const { daemon, tcpPort } = await startFcpd({ limits: { max_call_seconds: 1 } });
    try {
      const c = await client(tcpPort);
      assert.equal((await call(c, 'drawio_session', { action: 'open bigger.drawio' })).isError, false);
      const status = await call(c, 'drawio_query', { q: 'status' });
      const before = files();
      const exported = await timed(c, 'drawio', { ops: ['export file as:bigger.svg'] });
      assert.equal(exported.isError, true, exported.text);
      assert.match(exported.text, /^! (export|writing "[^"]+") stopped after 1(\.\d)? s: the call ran past its time limit of 1 s \(limits\.max_call_seconds\); (no image was made and no file written|nothing was written)/);
      assert.ok(exported.took < 2500, `answered after ${exported.took} ms`);
      assert.deepEqual(files(), before, 'no image file was written');
      assert.equal((await call(c, 'drawio_query', { q: 'status' })).text, status.text);
      c.close();
    } finally {
      await daemon.stop();
    }
  });
});

describe('SIGTERM while a long render and a long export run', { timeout: 120_000 }, () => {
  it('stops both after the grace, journals the unsaved work, logs each step and exits 0', { skip: !fs.existsSync(SOUNDFONT) && `no SoundFont at ${SOUNDFONT}` }, async () => {
    const state = path.join(root, 'state');
    const { daemon, tcpPort } = await startFcpd({ shutdown_grace_seconds: 1, state_dir: state });
    const before = files().filter((f) => f !== 'state');
    const song = await client(tcpPort);
    await call(song, 'midi_session', { action: 'open long.mid' });
    await call(song, 'midi_session', { action: `load-soundfont ${SOUNDFONT}` });
    const edited = await call(song, 'midi', { ops: ['note acoustic-grand-piano C4 at:1.1'] });
    assert.equal(edited.isError, false, edited.text);  // unsaved work
    const diagram = await LineClient.tcp(tcpPort, '127.0.0.1', '127.0.0.2');  // another client
    await diagram.initialize();
    await call(diagram, 'drawio_session', { action: 'open big.drawio' });
    await song.send({ jsonrpc: '2.0', id: 91, method: 'tools/call',
      params: { name: 'midi_session', arguments: { action: 'export wav path:term.wav' } } });
    await diagram.send({ jsonrpc: '2.0', id: 92, method: 'tools/call',
      params: { name: 'drawio', arguments: { ops: ['add svc T', 'export file as:term.svg'] } } });
    await sleep(300);
    const signalled = Date.now();
    daemon.child.kill('SIGTERM');
    const rendered = await song.next((m) => m.id === 91, 10_000);
    const exported = await diagram.next((m) => m.id === 92, 10_000);
    const { code } = await daemon.exit;
    const took = Date.now() - signalled;
    song.close();
    diagram.close();
    console.log(`SIGTERM during a render and an export: exit ${code} after ${took} ms`);
    assert.equal(code, 0, daemon.log);
    assert.ok(took < 3500, `exited ${took} ms after SIGTERM (grace 1 s; the render alone takes ~10 s)`);
    assert.equal(rendered.result.isError, true, JSON.stringify(rendered));
    assert.match(rendered.result.content[0].text,
      /^! export stopped after \d+(\.\d)? s: the daemon is shutting down; no audio was made and no file written/);
    // The export of the big page may end within the grace on a quiet machine (its own stop is
    // tested above): then it answered and wrote its file, and only the render was stopped.
    const exportStopped = exported.result.isError;
    if (exportStopped) {
      assert.match(exported.result.content[0].text, /the daemon is shutting down/);
      assert.deepEqual(files().filter((f) => f !== 'state'), before, 'no audio or image file was written');
    } else {
      assert.match(exported.result.content[0].text, /exported term\.svg/);
      assert.deepEqual(files().filter((f) => f !== 'state'), [...before, 'term.svg'].sort(),
        'no audio file was written');
    }
    assert.match(daemon.log, /shutting down; no new connections; 2 call\(s\) running, waiting up to 1 s/);
    // An export that was still running at the deadline may still finish before it reaches a
    // point where it stops (it then answers and writes its file), so 2 may be named either way.
    assert.match(daemon.log, new RegExp(`${exportStopped ? '2' : '[12]'} call\\(s\\) still running 1 s after the signal: stopping them`));
    assert.match(daemon.log, /the stopped calls have ended: closing the connections/);
    // The song's note, and the diagram's new shape when its batch was not rolled back.
    assert.match(daemon.log, new RegExp(`${exportStopped ? 1 : 2} document\\(s\\) with unsaved work kept in their journals`));
  });
});
