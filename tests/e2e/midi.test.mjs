// The midi domain end to end: the real `fcpd` (every domain, as users run it) over stdio, driven
// by the official MCP TypeScript SDK client. The Standard MIDI Files it writes are read back by a
// parser that shares no code with it (Python mido, Debian's python3-mido, in midi_check.py) and
// every note is checked at its exact tick; the WAV it renders is parsed here.
// Run: FCPD_REAL=…/fcpd node --test midi.test.mjs   (CTest: e2e_midi)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  assertFails, assertOk, connectStdio, disconnect, locateFcpd, makeTempDir, matchDigest, sourceRoot, textOf,
} from './real-daemon.mjs';

const here = path.join(sourceRoot, 'tests', 'e2e');
const FIXTURES = path.join(sourceRoot, 'fixtures', 'midi');
// The shared corpus beside the repository; optional (its cases are skipped when it is absent).
const CORPUS = process.env.FCP_MIDI_CORPUS ?? path.resolve(sourceRoot, '..', 'shared', 'corpus', 'midi');
const CHECKER = path.join(here, 'midi_check.py');
// Debian's interpreter: the python3 first on PATH may be another one (pyenv) without mido.
const PYTHON = process.env.FCP_MIDO_PYTHON ?? '/usr/bin/python3';
// Debian's timgm6mb-soundfont; fcpd renders with a GM SoundFont found in /usr/share/sounds/sf2.
const SOUNDFONT = process.env.FCP_GM_SOUNDFONT ?? '/usr/share/sounds/sf2/TimGM6mb.sf2';

const FCPD = locateFcpd();
const HAVE_MIDO = spawnSync(PYTHON, ['-c', 'import mido'], { encoding: 'utf8' }).status === 0;
const NO_MIDO = HAVE_MIDO ? false : `${PYTHON} cannot import mido (apt-get install python3-mido)`;
const NO_SOUNDFONT = existsSync(SOUNDFONT) ? false : `no SoundFont at ${SOUNDFONT} (apt-get install timgm6mb-soundfont)`;
const CALL = { timeout: 30_000 };

// ---------------------------------------------------------------------------------------------
// The client

// The digest `[{T}t {E}e tempo:{bpm}[ ({C} changes)] {N}/{D} {key} {M}bars]` that ends every
// mutating reply.
const DIGEST =
  /^\[(\d+)t (\d+)e tempo:(\d+(?:\.\d+)?)(?: \((\d+) changes?\))? (\d+)\/(\d+) (\S+)(?: (\d+)bars)?\]$/;
function digestOf(result) {
  const m = matchDigest(result, DIGEST);
  const last = m[0];
  return {
    line: last, tracks: +m[1], events: +m[2], tempo: +m[3],
    tempoChanges: m[4] === undefined ? 0 : +m[4], meter: `${m[5]}/${m[6]}`, key: m[7],
    bars: m[8] === undefined ? null : +m[8],
  };
}

// `fcpd --stdio --root ROOT` through the SDK.
function connect(root) {
  return connectStdio(FCPD, root, { name: 'fcp-e2e-midi' });
}

function tools(client) {
  const call = (name, args, options = {}) =>
    client.callTool({ name, arguments: args }, undefined, { ...CALL, ...options });
  return {
    ops: (list, options) => call('midi', { ops: list }, options),
    query: (q) => call('midi_query', { q }),
    session: (action, options) => call('midi_session', { action }, options),
    help: () => call('midi_help', {}),
  };
}

// ---------------------------------------------------------------------------------------------
// mido (midi_check.py) and note pairing

// { file: { type, ticks_per_beat, tracks: [{ name, events }] } | { error } } for the files.
function mido(...files) {
  const run = spawnSync(PYTHON, [CHECKER, ...files], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(run.status, 0, `midi_check.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function midoOk(file) {
  const read = mido(file)[file];
  assert.ok(!read.error, `mido cannot read ${path.basename(file)}: ${read.error}`);
  return read;
}

const isNoteOn = (e) => e[1] === 'note_on' && e[4] > 0;
const isNoteOff = (e) => e[1] === 'note_off' || (e[1] === 'note_on' && e[4] === 0);

// Notes of one track as { tick, dur, ch, pitch, vel }: on/off pairs matched first in, first out.
function notesOf(track) {
  const open = new Map();
  const notes = [];
  for (const e of track.events) {
    const key = `${e[2]}:${e[3]}`;
    if (isNoteOn(e)) {
      const note = { tick: e[0], dur: null, ch: e[2], pitch: e[3], vel: e[4] };
      notes.push(note);
      if (!open.has(key)) open.set(key, []);
      open.get(key).push(note);
    } else if (isNoteOff(e)) {
      const note = open.get(key)?.shift();
      assert.ok(note, `a note-off without a note-on: ${JSON.stringify(e)} on track "${track.name}"`);
      note.dur = e[0] - note.tick;
    }
  }
  const dangling = notes.filter((n) => n.dur === null);
  assert.deepEqual(dangling, [], `notes never switched off on track "${track.name}"`);
  return notes;
}

const byTime = (a, b) => a.tick - b.tick || a.ch - b.ch || a.pitch - b.pitch || a.dur - b.dur || a.vel - b.vel;
const ofType = (track, ...types) => track.events.filter((e) => types.includes(e[1]));

// ---------------------------------------------------------------------------------------------
// Musical time, computed here (not by the daemon): ppqn 480, 4/4 for bars 1-4, 3/4 from bar 5;
// 120 BPM until 3.1, 140 BPM from there.

const PPQN = 480;
const METERS = [{ bar: 1, beats: 4 }, { bar: 5, beats: 3 }];  // quarter-note beats per bar
const TEMPI = [{ tick: 0, bpm: 120 }, { tick: 2 * 4 * PPQN, bpm: 140 }];
const DUR = { '8n': 240, quarter: 480, half: 960, 'dotted-half': 1440, whole: 1920 };

function beatsInBar(bar) {
  return METERS.filter((m) => m.bar <= bar).at(-1).beats;
}

// M.B[.T] → absolute tick.
function tickOf(bar, beat = 1, sub = 0) {
  assert.ok(beat >= 1 && beat <= beatsInBar(bar), `beat ${beat} inside bar ${bar}`);
  let tick = 0;
  for (let b = 1; b < bar; ++b) tick += beatsInBar(b) * PPQN;
  return tick + (beat - 1) * PPQN + sub;
}

function posText(bar, beat, sub = 0) {
  return sub ? `${bar}.${beat}.${sub}` : `${bar}.${beat}`;
}

function secondsAt(tick) {
  let seconds = 0;
  for (let i = 0; i < TEMPI.length; ++i) {
    const start = TEMPI[i].tick;
    if (tick <= start) break;
    const end = Math.min(tick, TEMPI[i + 1]?.tick ?? Infinity);
    seconds += ((end - start) / PPQN) * (60 / TEMPI[i].bpm);
  }
  return seconds;
}

// ---------------------------------------------------------------------------------------------
// The song

const TITLE = 'E2E Title';
const GM_DRUMS = { kick: 36, snare: 38, 'closed-hat': 42 };
// One bar of drums, written on bar 1 and tiled over bars 2-4 by `repeat`: [name, beat, tick].
const DRUM_BAR = [['kick', 1, 0], ['closed-hat', 1, 0], ['closed-hat', 1, 240], ['snare', 2, 0],
                  ['closed-hat', 2, 240], ['kick', 3, 0], ['snare', 4, 0]];
// [pitch name, MIDI number, bar, beat, duration, velocity word, velocity]
const BASS = [
  ['A1', 33, 1, 1, 'quarter', null, 80], ['A1', 33, 1, 3, '8n', null, 80], ['E2', 40, 1, 4, '8n', 'f', 96],
  ['F1', 29, 2, 1, 'half', null, 80], ['C2', 36, 3, 1, 'half', null, 80], ['G1', 31, 4, 1, 'half', null, 80],
];
// [op options, bar, MIDI pitches the chord must sound]
const CHORDS = [
  ['Am7', '', 1, [69, 72, 76, 79]],                 // A4 C5 E5 G5
  ['Fmaj7', ' octave:3', 2, [53, 57, 60, 64]],      // F3 A3 C4 E4
  ['C', ' inv:1', 3, [64, 67, 72]],                 // E4 G4 C5
  ['G7', ' octave:3 inv:2', 4, [62, 65, 67, 71]],   // D4 F4 G4 B4
];
// After the meter change to 3/4 at bar 5: [track, pitches (names), MIDI numbers, bar, beat, dur, vel word, vel]
const IN_THREE = [
  ['Keys', 'C4 E4 G4', [60, 64, 67], 5, 1, 'dotted-half', null, 80],
  ['Keys', 'D4', [62], 6, 1, 'quarter', null, 80],
  ['Keys', 'E4', [64], 6, 2, 'quarter', null, 80],
  ['Keys', 'F4', [65], 6, 3, 'quarter', 'ff', 112],
  ['Drums', 'kick', [36], 5, 1, '8n', null, 80],
  ['Drums', 'snare', [38], 5, 3, '8n', null, 80],
  ['Bass', 'C2', [36], 5, 1, 'dotted-half', null, 80],
];

const TRACK_OPS = ['track add Drums instrument:drums', 'track add Bass instrument:electric-bass-finger',
                   'track add Keys instrument:acoustic-grand-piano'];
const DRUM_OPS = [
  ...DRUM_BAR.map(([name, beat, sub]) => `note Drums ${name} at:${posText(1, beat, sub)} dur:8n`),
  'repeat @track:Drums count:3',
];
const BASS_OPS = BASS.map(([name, , bar, beat, dur, velWord]) =>
  `note Bass ${name} at:${posText(bar, beat)} dur:${dur}${velWord ? ` vel:${velWord}` : ''}`);
const CHORD_OPS = CHORDS.map(([symbol, options, bar]) => `chord Keys ${symbol} at:${bar}.1 dur:whole${options}`);
const CONDUCTOR_OPS = [
  'cc Keys volume 40->110 from:1.1 to:4.4',
  'tempo 140 at:3.1',
  'time-sig 3/4 at:5.1',
  'key-sig C at:5.1',
  'marker "Verse 2" at:5.1',
  `title "${TITLE}"`,
  'bend Bass 4096 at:2.2',
  'bend Bass center at:2.4',
  'program Keys electric-piano-1 at:5.1',
];
const IN_THREE_OPS = IN_THREE.map(([track, pitches, , bar, beat, dur, velWord]) =>
  `note ${track} ${pitches} at:${posText(bar, beat)} dur:${dur}${velWord ? ` vel:${velWord}` : ''}`);

// Every note of the song with its exact tick; channels are mido's 0-15.
function expectedNotes(channel) {
  const notes = [];
  for (let bar = 1; bar <= 4; ++bar) {
    for (const [name, beat, sub] of DRUM_BAR) {
      notes.push({ tick: tickOf(bar, beat, sub), dur: 240, ch: channel.Drums, pitch: GM_DRUMS[name], vel: 80 });
    }
  }
  for (const [, pitch, bar, beat, dur, , vel] of BASS) {
    notes.push({ tick: tickOf(bar, beat), dur: DUR[dur], ch: channel.Bass, pitch, vel });
  }
  for (const [, , bar, pitches] of CHORDS) {
    for (const pitch of pitches) notes.push({ tick: tickOf(bar, 1), dur: DUR.whole, ch: channel.Keys, pitch, vel: 80 });
  }
  for (const [track, , pitches, bar, beat, dur, , vel] of IN_THREE) {
    for (const pitch of pitches) notes.push({ tick: tickOf(bar, beat), dur: DUR[dur], ch: channel[track], pitch, vel });
  }
  return notes.sort(byTime);
}

const SONG_END_TICK = tickOf(6, 3) + DUR.quarter;            // the last notes end with bar 6
const SONG_SECONDS = secondsAt(SONG_END_TICK);               // 4 s at 120 + 6 s at 140 = 10 s
const TAIL_SECONDS = 2;

// ---------------------------------------------------------------------------------------------
// WAV

function parseWav(bytes) {
  assert.ok(bytes.length >= 44, 'the WAV is too short');
  assert.equal(bytes.toString('latin1', 0, 4), 'RIFF');
  assert.equal(bytes.readUInt32LE(4), bytes.length - 8, 'RIFF size');
  assert.equal(bytes.toString('latin1', 8, 12), 'WAVE');
  let fmt = null;
  let data = null;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = bytes.subarray(at + 8, at + 8 + size);
    assert.equal(body.length, size, `chunk ${id} is complete`);
    if (id === 'fmt ') {
      fmt = {
        format: body.readUInt16LE(0), channels: body.readUInt16LE(2), rate: body.readUInt32LE(4),
        byteRate: body.readUInt32LE(8), blockAlign: body.readUInt16LE(12), bits: body.readUInt16LE(14),
      };
    } else if (id === 'data') {
      data = body;
    }
    at += 8 + size + (size & 1);
  }
  assert.ok(fmt, 'a fmt chunk');
  assert.ok(data, 'a data chunk');
  return { fmt, data };
}

function rms(samples, from, to) {
  let sum = 0;
  for (let i = from; i < to; ++i) sum += samples[i] * samples[i];
  return Math.sqrt(sum / Math.max(1, to - from));
}

// ---------------------------------------------------------------------------------------------
// 1-5. tools, a song composed through the tools, the saved file under mido, reopen, export

describe('midi over stdio with the official SDK client (real fcpd)', { timeout: 60_000 }, () => {
  let root;
  let connected;
  let midi;
  let channel;        // mido channel (0-15) of each track, from the track add replies
  let ccSteps;        // steps the CC ramp reply announced
  let digest;         // digest after composing (and after undo + redo)
  let stats;          // midi_query stats text of the finished song
  let saved = false;

  before(async () => {
    root = makeTempDir('fcp-e2e-midi-');
    connected = await connect(root);
    midi = tools(connected.client);
  });

  after(async () => {
    await disconnect(connected);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('tools/list: exactly the four midi tools with input schemas; the card is embedded', async () => {
    const { tools: all } = await connected.client.listTools();
    // Other domains (drawio, …) add their own tools; these are midi's.
    const list = all.filter((t) => t.name === 'midi' || t.name.startsWith('midi_'));
    const byName = Object.fromEntries(list.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(byName).sort(), ['midi', 'midi_help', 'midi_query', 'midi_session']);
    for (const tool of list) {
      assert.equal(typeof tool.description, 'string');
      assert.ok(tool.description.length > 10, `${tool.name} has a description`);
      assert.equal(tool.inputSchema.type, 'object', `${tool.name} input schema`);
    }
    const mutation = byName.midi.inputSchema;
    assert.equal(mutation.properties.ops.type, 'array');
    assert.deepEqual(mutation.properties.ops.items, { type: 'string' });
    assert.deepEqual(mutation.required, ['ops']);
    assert.equal(byName.midi_query.inputSchema.properties.q.type, 'string');
    assert.deepEqual(byName.midi_query.inputSchema.required, ['q']);
    assert.equal(byName.midi_session.inputSchema.properties.action.type, 'string');
    assert.deepEqual(byName.midi_session.inputSchema.required, ['action']);
    assert.deepEqual(Object.keys(byName.midi_help.inputSchema.properties ?? {}), ['doc']);
    // The mutation tool's description embeds the reference card.
    const card = byName.midi.description;
    assert.match(card, /# midi — FCP reference card/);
    assert.match(card, /note TRACK PITCH… \[at:POS\] \[dur:DUR\]/);
    assert.match(card, /chord TRACK SYMBOL/);
    assert.match(card, /SELECTORS/);
    assert.match(card, /export wav path:/);
  });

  it('the midi_query description names only queries that midi has (those of the card)', async () => {
    const { tools: all } = await connected.client.listTools();
    const description = all.find((t) => t.name === 'midi_query').description;
    const card = textOf(await midi.help());
    const section = card.slice(card.indexOf('## Queries (midi_query)'), card.indexOf('## Session'));
    const known = new Set([...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]));
    assert.ok(known.has('map') && known.has('stats'), `queries of the card: ${[...known]}`);
    const listed = description.match(/\(read-only\)\. Queries: (.*?)\. See /);
    assert.ok(listed, description);
    const named = listed[1].split('; ').map((entry) => entry.split(' ')[0]);
    assert.deepEqual(named.filter((q) => !known.has(q)), [],
                     `midi_query's description "${description}" names queries midi does not have`);
  });

  it('midi_help returns the reference card', async () => {
    const result = await midi.help();
    assertOk(result);
    const card = textOf(result);
    assert.match(card, /# midi — FCP reference card/);
    for (const verb of ['note', 'chord', 'cc', 'bend', 'tempo', 'time-sig', 'key-sig', 'marker', 'title', 'repeat']) {
      assert.match(card, new RegExp(`^ {2}${verb} `, 'm'), `the card lists ${verb}`);
    }
    for (const q of ['map', 'tracks', 'events', 'stats', 'history']) assert.match(card, new RegExp(`^ {2}${q}\\b`, 'm'));
  });

  describe('composing a song', () => {
    it('midi_session new "E2E Song" tempo:120 time-sig:4/4 key:Am', async () => {
      const result = await midi.session('new "E2E Song" tempo:120 time-sig:4/4 key:Am');
      assertOk(result);
      assert.match(textOf(result), /^\+ new midi document "E2E Song"/);
      assert.equal(digestOf(result).line, '[0t 0e tempo:120 4/4 A-minor]');
    });

    it('three tracks: drums on channel 10, the others on their own channels', async () => {
      const result = await midi.ops(TRACK_OPS);
      assertOk(result);
      const text = textOf(result);
      channel = {};
      for (const [, name, ch, instrument] of text.matchAll(/^\+ Track '(\w+)' added \(ch:(\d+), ([\w-]+)\)$/gm)) {
        channel[name] = +ch - 1;
        assert.ok(instrument, name);
      }
      assert.deepEqual(Object.keys(channel).sort(), ['Bass', 'Drums', 'Keys'], text);
      assert.equal(channel.Drums, 9, 'drums on channel 10 (9 in mido numbering)');
      assert.equal(new Set(Object.values(channel)).size, 3, `three different channels: ${JSON.stringify(channel)}`);
      assert.match(text, /^\+ Track 'Bass' added \(ch:\d+, electric-bass-finger\)$/m);
      assert.match(text, /^\+ Track 'Keys' added \(ch:\d+, acoustic-grand-piano\)$/m);
      const d = digestOf(result);
      assert.equal(d.tracks, 3);
      assert.equal(d.line.replace(/^\[3t \d+e /, ''), 'tempo:120 4/4 A-minor]');
    });

    it('drums by name for one bar, tiled over four bars by repeat', async () => {
      const result = await midi.ops(DRUM_OPS);
      assertOk(result);
      const text = textOf(result);
      const added = text.split('\n').filter((l) => l.startsWith('+ Note '));
      assert.equal(added.length, DRUM_BAR.length, text);
      assert.match(text, /^\+ Note kick at 1\.1 on Drums \(vel:80 dur:eighth\)$/m);
      assert.match(text, /^\+ Note snare at 1\.2 on Drums/m);
      assert.match(text, /^\+ Note closed-hat at 1\.2\.240 on Drums/m);
      assert.match(text, new RegExp(`^\\+ Repeated ${DRUM_BAR.length} notes x3 \\(${3 * DRUM_BAR.length} added\\)$`, 'm'));
      assert.equal(digestOf(result).bars, 4);
    });

    it('a bass line and chords with octave: and inv:', async () => {
      const result = await midi.ops([...BASS_OPS, ...CHORD_OPS]);
      assertOk(result);
      const text = textOf(result);
      assert.match(text, /^\+ Note E2 at 1\.4 on Bass \(vel:96 dur:eighth\)$/m);
      assert.match(text, /^\+ Note F1 at 2\.1 on Bass \(vel:80 dur:half\)$/m);
      assert.match(text, /^\+ Chord Am7 \(4 notes: A4 C5 E5 G5\) at 1\.1 on Keys$/m);
      assert.match(text, /^\+ Chord Fmaj7 \(4 notes: F3 A3 C4 E4\) at 2\.1 on Keys$/m);
      assert.match(text, /^\+ Chord C \(3 notes: E4 G4 C5\) at 3\.1 on Keys$/m);
      assert.match(text, /^\+ Chord G7 \(4 notes: D4 F4 G4 B4\) at 4\.1 on Keys$/m);
    });

    it('a CC ramp, tempo / time-sig / key-sig changes, a marker, the title, bends, a program change', async () => {
      const result = await midi.ops(CONDUCTOR_OPS);
      assertOk(result);
      const text = textOf(result);
      const ramp = text.match(/^\+ CC volume 40->110 from 1\.1 to 4\.4 on Keys \((\d+) steps\)$/m);
      assert.ok(ramp, text);
      ccSteps = +ramp[1];
      assert.ok(ccSteps >= 2, `a ramp has steps: ${ccSteps}`);
      assert.match(text, /^\+ Tempo 140 BPM at 3\.1$/m);
      assert.match(text, /^\+ Time signature 3\/4 at bar 5$/m);
      assert.match(text, /^\+ Key signature C at 5\.1$/m);
      assert.match(text, /^\+ Marker 'Verse 2' at 5\.1$/m);
      assert.match(text, new RegExp(`^\\* Title set to '${TITLE}'$`, 'm'));
      assert.match(text, /^\+ Pitch bend=4096 at 2\.2 on Bass$/m);
      assert.match(text, /^\+ Pitch bend=0 at 2\.4 on Bass$/m);
      assert.match(text, /^\+ Program electric-piano-1 \(program:4\) at 5\.1 on Keys$/m);
    });

    it('notes in 3/4 after the meter change (bars 5 and 6)', async () => {
      const result = await midi.ops(IN_THREE_OPS);
      assertOk(result);
      const text = textOf(result);
      assert.match(text, /^\+ Note F4 at 6\.3 on Keys \(vel:112 dur:quarter\)$/m);
      assert.match(text, /^\+ Note snare at 5\.3 on Drums/m);
      digest = digestOf(result);
      const notes = expectedNotes(channel).length;
      // Events: notes + CCs + bends + programs (one per track and the mid-track one).
      const events = notes + ccSteps + 2 + 3 + 1;
      assert.equal(digest.line, `[3t ${events}e tempo:120 (1 change) 4/4 A-minor 6bars]`);
    });

    it('a beat outside a 3/4 bar is refused', async () => {
      const result = await midi.ops(['note Keys C4 at:5.4']);
      assertFails(result, /beat 4 is outside bar 5 \(3\/4 has 3 beats\)/);
      assert.equal(digestOf(result).line, digest.line);
    });
  });

  describe('queries', () => {
    it('map: title, tempo|meter|key|ppqn, the changes, the marker, the tracks', async () => {
      const result = await midi.query('map');
      assertOk(result);
      const text = textOf(result);
      assert.match(text, new RegExp(`^Song: ${TITLE}$`, 'm'));
      assert.match(text, /^tempo:120 \| 4\/4 \| A minor \| ppqn:480$/m);
      assert.match(text, /^Tempo changes: 140@3\.1$/m);
      assert.match(text, /^Meter changes: 3\/4@5\.1$/m);
      assert.match(text, /^Key changes: C major@5\.1$/m);
      assert.match(text, /^Markers: Verse 2@5\.1$/m);
      assert.match(text, /^Tracks \(3\):$/m);
      assert.match(text, /^ {2}1\. Drums ch:10 drums \(30 notes\)$/m);
      assert.match(text, new RegExp(`^ {2}2\\. Bass ch:${channel.Bass + 1} electric-bass-finger \\(7 notes\\)$`, 'm'));
      assert.match(text, new RegExp(`^ {2}3\\. Keys ch:${channel.Keys + 1} acoustic-grand-piano \\(21 notes\\)$`, 'm'));
      assert.equal(digestOf(result).line, digest.line);
    });

    it('tracks: notes, CCs, bends, program changes per track', async () => {
      const result = await midi.query('tracks');
      assertOk(result);
      const text = textOf(result);
      assert.match(text, /^ {2}1\. Drums \(ch:10\) drums \| 30 notes, 0 cc, 0 bends$/m);
      assert.match(text, /^ {2}2\. Bass \(ch:\d+\) electric-bass-finger \| 7 notes, 0 cc, 2 bends$/m);
      assert.match(text, new RegExp(`^ {2}3\\. Keys \\(ch:\\d+\\) acoustic-grand-piano \\| 21 notes, ${ccSteps} cc, 0 bends, 1 program change$`, 'm'));
    });

    it('events Drums: every hit at its position, by the drum name every view shows', async () => {
      const result = await midi.query('events Drums');
      assertOk(result);
      const lines = textOf(result).split('\n').slice(1).map((l) => l.trim().split(/\s+/));
      const hits = lines.filter((l) => /vel:/.test(l.join(' '))).map((l) => `${l[0]} ${l[1]}`);
      const expected = [];
      for (let bar = 1; bar <= 4; ++bar) {
        for (const [name, beat, sub] of DRUM_BAR) expected.push(`${posText(bar, beat, sub)} ${name}`);
      }
      expected.push('5.1 kick', '5.3 snare');
      assert.deepEqual([...hits].sort(), [...expected].sort());
    });

    it('stats: counts, the changes, duration over the tempo map, measures', async () => {
      const result = await midi.query('stats');
      assertOk(result);
      stats = textOf(result);
      assert.match(stats, new RegExp(`^Song: ${TITLE}$`, 'm'));
      assert.match(stats, /^Tempo: 120 BPM \(1 change\)$/m);
      assert.match(stats, /^Time sig: 4\/4 \(1 change\)$/m);
      assert.match(stats, /^Key: A minor \(1 change\)$/m);
      assert.match(stats, /^PPQN: 480$/m);
      assert.match(stats, /^Tracks: 3$/m);
      assert.match(stats, new RegExp(`^Notes: ${expectedNotes(channel).length}$`, 'm'));
      assert.match(stats, new RegExp(`^CCs: ${ccSteps}$`, 'm'));
      assert.match(stats, /^Pitch bends: 2$/m);
      assert.match(stats, /^Markers: 1$/m);
      assert.match(stats, new RegExp(`^Total events: ${digest.events}$`, 'm'));
      const seconds = SONG_SECONDS.toFixed(2).padStart(5, '0');
      assert.match(stats, new RegExp(`^Duration: 0:${seconds.replace('.', '\\.')}$`, 'm'));
      assert.match(stats, /^Measures: 6$/m);
    });
  });

  describe('undo, redo, atomic batches', () => {
    it('undo takes back one op, redo restores the digest', async () => {
      const last = IN_THREE_OPS.at(-1);
      const undone = await midi.session('undo');
      assertOk(undone);
      assert.match(textOf(undone), new RegExp(`^- undone: ${last.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
      assert.equal(digestOf(undone).events, digest.events - 1);
      assert.doesNotMatch(textOf(await midi.query('events Bass')), /^ {2}5\.1 +C2/m);
      const redone = await midi.session('redo');
      assertOk(redone);
      assert.match(textOf(redone), /^\+ redone: /m);
      assert.equal(digestOf(redone).line, digest.line);
      assert.match(textOf(await midi.query('events Bass')), /^ {2}5\.1 +C2 +vel:80 dur:dotted-half$/m);
    });

    it('a batch with a failing op changes nothing', async () => {
      const historyBefore = textOf(await midi.query('history 3'));
      const batches = [
        { ops: ['note Keys C4 at:6.1 dur:8n', 'chord Keys Dm at:6.2', 'frobnicate Keys'], failed: /op 3 of 3 failed: frobnicate Keys/, outcome: /nothing was applied/ },
        { ops: ['note Keys C4 at:6.1 dur:8n', 'note Nope C4 at:6.2', 'track remove Drums'], failed: /op 2 of 3 failed: note Nope C4/, outcome: /rolled back/ },
        { ops: ['tempo 90 at:1.1', 'key-sig H'], failed: /op 2 of 2 failed: key-sig H/, outcome: /rolled back/ },
      ];
      for (const batch of batches) {
        const result = await midi.ops(batch.ops);
        assertFails(result, batch.failed, batch.ops.join(' | '));
        assert.match(textOf(result), batch.outcome);
        assert.equal(digestOf(result).line, digest.line, 'the digest is unchanged');
      }
      assert.equal(textOf(await midi.query('history 3')), historyBefore);
      assert.equal(textOf(await midi.query('stats')), stats);
    });
  });

  describe('the saved file, read by mido', () => {
    let read;
    it('midi_session save as:song.mid', async () => {
      const result = await midi.session('save as:song.mid');
      assertOk(result);
      assert.match(textOf(result), /^\* saved ".*song\.mid" \(3 tracks, 58 notes(, \d+ (controller changes?|program changes?|pitch bends?|aftertouch))+\)/);
      assert.equal(digestOf(result).line, digest.line);
      assert.ok(existsSync(path.join(root, 'song.mid')));
      saved = true;
    });

    it('mido reads it: format 1, ppqn 480, a conductor track and three named tracks', { skip: NO_MIDO }, () => {
      assert.ok(saved, 'the song was saved');
      read = midoOk(path.join(root, 'song.mid'));
      assert.equal(read.type, 1);
      assert.equal(read.ticks_per_beat, PPQN);
      assert.deepEqual(read.tracks.map((t) => t.name), [TITLE, 'Drums', 'Bass', 'Keys']);
      const conductorChannelMessages = read.tracks[0].events.filter((e) => e.length === 5);
      assert.deepEqual(conductorChannelMessages, [], 'track 0 holds no channel messages');
    });

    it('every note at its exact tick, with its duration, channel and velocity', { skip: NO_MIDO }, () => {
      assert.ok(read, 'mido read the file');
      const notes = read.tracks.slice(1).flatMap((t) => notesOf(t)).sort(byTime);
      assert.deepEqual(notes, expectedNotes(channel));
      // Each track holds only its own channel.
      read.tracks.slice(1).forEach((track) => {
        const channels = new Set(track.events.filter((e) => e.length === 5).map((e) => e[2]));
        assert.deepEqual([...channels], [channel[track.name]], `channels on track ${track.name}`);
      });
    });

    it('conductor: tempo change at 3.1 (tick 3840), 3/4 and C major at 5.1 (tick 7680), the marker, the title', { skip: NO_MIDO }, () => {
      assert.ok(read, 'mido read the file');
      const conductor = read.tracks[0];
      assert.deepEqual(ofType(conductor, 'set_tempo'),
                       TEMPI.map((t) => [t.tick, 'set_tempo', Math.round(60e6 / t.bpm)]));
      assert.deepEqual(ofType(conductor, 'time_signature'),
                       [[0, 'time_signature', 4, 4], [tickOf(5, 1), 'time_signature', 3, 4]]);
      assert.deepEqual(ofType(conductor, 'key_signature'),
                       [[0, 'key_signature', 'Am'], [tickOf(5, 1), 'key_signature', 'C']]);
      assert.deepEqual(ofType(conductor, 'marker'), [[tickOf(5, 1), 'marker', 'Verse 2']]);
      assert.deepEqual(ofType(conductor, 'track_name'), [[0, 'track_name', TITLE]]);
      // Nothing of these kinds is on the other tracks.
      for (const track of read.tracks.slice(1)) {
        assert.deepEqual(ofType(track, 'set_tempo', 'time_signature', 'key_signature', 'marker'), [], track.name);
      }
    });

    it('program changes, the CC ramp and the pitch bends at their ticks', { skip: NO_MIDO }, () => {
      assert.ok(read, 'mido read the file');
      const [, drums, bass, keys] = read.tracks;
      assert.deepEqual(ofType(drums, 'program_change'), [[0, 'program_change', 9, 0, null]]);
      assert.deepEqual(ofType(bass, 'program_change'), [[0, 'program_change', channel.Bass, 33, null]]);
      assert.deepEqual(ofType(keys, 'program_change'),
                       [[0, 'program_change', channel.Keys, 0, null], [tickOf(5, 1), 'program_change', channel.Keys, 4, null]]);
      assert.deepEqual(ofType(bass, 'pitchwheel'),
                       [[tickOf(2, 2), 'pitchwheel', channel.Bass, null, 4096], [tickOf(2, 4), 'pitchwheel', channel.Bass, null, 0]]);
      const ccs = ofType(keys, 'control_change');
      assert.equal(ccs.length, ccSteps);
      assert.ok(ccs.every((e) => e[2] === channel.Keys && e[3] === 7), 'volume (CC 7) on the Keys channel');
      assert.deepEqual(ccs[0].slice(0, 1).concat(ccs[0][4]), [0, 40], 'the ramp starts with 40 at 1.1');
      assert.deepEqual(ccs.at(-1).slice(0, 1).concat(ccs.at(-1)[4]), [tickOf(4, 4), 110], 'and ends with 110 at 4.4');
      for (let i = 1; i < ccs.length; ++i) {
        assert.ok(ccs[i][0] > ccs[i - 1][0] && ccs[i][4] >= ccs[i - 1][4], `the ramp rises: ${JSON.stringify(ccs.slice(i - 1, i + 1))}`);
      }
      assert.deepEqual(ofType(drums, 'control_change', 'pitchwheel'), []);
    });
  });

  describe('reopen and save again', () => {
    it('open song.mid: the same stats; save as:song2.mid', async () => {
      assert.ok(saved, 'the song was saved');
      const opened = await midi.session('open song.mid');
      assertOk(opened);
      assert.match(textOf(opened), /^\+ opened ".*song\.mid" \(3 tracks, 58 notes(, \d+ (controller changes?|program changes?|pitch bends?|aftertouch))+\)/);
      assert.equal(digestOf(opened).line, digest.line);
      assert.equal(textOf(await midi.query('stats')), stats);
      const again = await midi.session('save as:song2.mid');
      assertOk(again);
      assert.equal(digestOf(again).line, digest.line);
    });

    it('mido reads both files with identical event lists (open → save is lossless)', { skip: NO_MIDO }, () => {
      const files = [path.join(root, 'song.mid'), path.join(root, 'song2.mid')];
      const both = mido(...files);
      assert.ok(!both[files[0]].error && !both[files[1]].error, JSON.stringify(both).slice(0, 500));
      assert.deepEqual(both[files[1]], both[files[0]]);
    });
  });

  describe('export wav', () => {
    it('export wav path:song.wav: progress notifications, PCM 16-bit stereo 44.1 kHz, song length + tail, not silent',
       { skip: NO_SOUNDFONT }, async () => {
         const progress = [];
         const result = await midi.session('export wav path:song.wav', { onprogress: (p) => progress.push(p), timeout: 60_000 });
         assertOk(result);
         assert.match(textOf(result), /^\+ exported .*song\.wav/m);
         assert.equal(digestOf(result).line, digest.line, 'export changes nothing');

         assert.ok(progress.length >= 2, `at least two progress notifications, got ${JSON.stringify(progress)}`);
         for (let i = 1; i < progress.length; ++i) {
           assert.ok(progress[i].progress > progress[i - 1].progress, `progress increases: ${JSON.stringify(progress)}`);
         }
         const total = progress.at(-1).total;
         if (total !== undefined) {
           for (const p of progress) assert.ok(p.progress <= total, JSON.stringify(p));
         }

         const file = path.join(root, 'song.wav');
         assert.ok(existsSync(file), textOf(result));
         const { fmt, data } = parseWav(readFileSync(file));
         assert.deepEqual(fmt, { format: 1, channels: 2, rate: 44100, byteRate: 44100 * 4, blockAlign: 4, bits: 16 });
         const frames = data.length / 4;
         const seconds = frames / 44100;
         const expected = SONG_SECONDS + TAIL_SECONDS;
         assert.ok(Math.abs(seconds - expected) < 0.25,
                   `the WAV lasts ${seconds.toFixed(3)} s; the song is ${SONG_SECONDS.toFixed(3)} s + ${TAIL_SECONDS} s tail`);
         const samples = new Int16Array(data.buffer, data.byteOffset, data.length / 2);
         const level = rms(samples, 0, samples.length);
         assert.ok(level > 300, `RMS ${level.toFixed(1)} of 32768: the render is not silent`);
         // Every second of the song sounds (each bar has notes), at 120 and at 140 BPM.
         for (let s = 0; s + 1 <= SONG_SECONDS; ++s) {
           const window = rms(samples, s * 44100 * 2, (s + 1) * 44100 * 2);
           assert.ok(window > 100, `second ${s} of the render has RMS ${window.toFixed(1)}`);
         }
       });
  });

  // Audio the client can play: MCP audio content, as drawio's export returns image content.
  describe('audio in the reply (MCP audio content)', () => {
    const audioOf = (result) => {
      const audio = result.content.filter((c) => c.type === 'audio');
      assert.equal(audio.length, 1, JSON.stringify(result.content.map((c) => c.type)));
      return { mimeType: audio[0].mimeType, bytes: Buffer.from(audio[0].data, 'base64') };
    };

    it('export wav without a path: an audio/wav content block, the song length + tail, not silent',
       { skip: NO_SOUNDFONT }, async () => {
         const result = await midi.session('export wav', { timeout: 60_000 });
         assertOk(result);
         assert.match(textOf(result), /^\+ export wav: the audio is in this reply \(.*; up to 4 MB in a reply\)$/m);
         assert.equal(digestOf(result).line, digest.line, 'export changes nothing');
         const { mimeType, bytes } = audioOf(result);
         assert.equal(mimeType, 'audio/wav');
         const { fmt, data } = parseWav(bytes);
         assert.deepEqual(fmt, { format: 1, channels: 2, rate: 44100, byteRate: 44100 * 4, blockAlign: 4, bits: 16 });
         const seconds = data.length / 4 / 44100;
         assert.ok(Math.abs(seconds - (SONG_SECONDS + TAIL_SECONDS)) < 0.25, `${seconds.toFixed(3)} s`);
         const samples = new Int16Array(data.buffer, data.byteOffset, data.length / 2);
         assert.ok(rms(samples, 0, samples.length) > 300, 'the audio is not silent');
       });

    it('export ogg and export flac: audio/ogg (an Ogg Vorbis stream) and audio/flac (fLaC)',
       { skip: NO_SOUNDFONT }, async () => {
         const ogg = await midi.session('export ogg', { timeout: 60_000 });
         assertOk(ogg);
         const oggAudio = audioOf(ogg);
         assert.equal(oggAudio.mimeType, 'audio/ogg');
         assert.equal(oggAudio.bytes.toString('latin1', 0, 4), 'OggS');
         assert.ok(oggAudio.bytes.includes(Buffer.from('\x01vorbis', 'latin1')), 'a Vorbis stream');
         const flac = await midi.session('export flac rate:22050', { timeout: 60_000 });
         assertOk(flac);
         const flacAudio = audioOf(flac);
         assert.equal(flacAudio.mimeType, 'audio/flac');
         assert.equal(flacAudio.bytes.toString('latin1', 0, 4), 'fLaC');
         // STREAMINFO: 20 bits of sample rate after 10 bytes of block sizes.
         const info = flacAudio.bytes.subarray(8);
         assert.equal((info.readUInt32BE(10) >>> 12), 22050);
       });

    it('preview @range:1-2: those two bars as audio/wav at 22050 Hz (4 s at 120 BPM + 1 s), nothing changed',
       { skip: NO_SOUNDFONT }, async () => {
         const result = await midi.ops(['preview @range:1-2']);
         assertOk(result);
         assert.match(textOf(result), /^\+ preview 1\.1-2\.4 \(as heard\): the audio is in this reply \(5\.0 s \(4\.0 s of music, then 1\.0 s of release tail\), .*22050 Hz.*; up to 4 MB in a reply\)$/m);
         assert.equal(digestOf(result).line, digest.line, 'a preview changes nothing');
         const { mimeType, bytes } = audioOf(result);
         assert.equal(mimeType, 'audio/wav');
         const { fmt, data } = parseWav(bytes);
         assert.equal(fmt.rate, 22050);
         assert.ok(Math.abs(data.length / 4 / 22050 - 5) < 0.05, `${data.length / 4 / 22050} s`);
         const samples = new Int16Array(data.buffer, data.byteOffset, data.length / 2);
         assert.ok(rms(samples, 0, samples.length) > 100, 'the preview is not silent');
       });

    it('preview @range:1-2 @track:Drums fmt:ogg: only the drums, as audio/ogg', { skip: NO_SOUNDFONT }, async () => {
      const result = await midi.ops(['preview @range:1-2 @track:Drums fmt:ogg']);
      assertOk(result);
      assert.match(textOf(result), /^\+ preview 1\.1-2\.4 \(Drums\): /m);
      assert.equal(audioOf(result).mimeType, 'audio/ogg');
    });

    it('status names the SoundFont the last render used', { skip: NO_SOUNDFONT }, async () => {
      const result = await midi.query('status');
      assertOk(result);
      assert.doesNotMatch(textOf(result), /none loaded/);
      assert.match(textOf(result), /^ {2}soundfont: \/\S+\.sf2 \(the default GM SoundFont, which the last render, a preview, used/m);
    });
  });

  describe('the tempo map as a whole (scale:, set:, the tempo view), read back by mido', () => {
    const tempoOf = (bpm) => Math.round(60e6 / bpm);
    it('tempo scale:2 doubles every tempo in one op; the tempo view lists them', async () => {
      assert.ok(saved, 'the song was saved');
      const result = await midi.ops(['tempo scale:2']);
      assertOk(result);
      assert.match(textOf(result), /^\* Tempo ×2 over the whole song: 2 tempo events scaled$/m);
      assert.equal(digestOf(result).tempo, 240);
      assert.equal(textOf(await midi.query('tempo')), '2 tempo events:\n  1.1      240 BPM\n  3.1      280 BPM');
      assertOk(await midi.session('save as:scaled.mid'));
    });

    it('mido reads the doubled tempo map at the same ticks, and the notes where they were', { skip: NO_MIDO }, () => {
      const read = midoOk(path.join(root, 'scaled.mid'));
      assert.deepEqual(ofType(read.tracks[0], 'set_tempo'),
                       [[0, 'set_tempo', tempoOf(240)], [tickOf(3, 1), 'set_tempo', tempoOf(280)]]);
      assert.deepEqual(read.tracks.slice(1).flatMap((t) => notesOf(t)).sort(byTime), expectedNotes(channel));
    });

    it('tempo scale:0.5 @range:2-2 halves bar 2 only: a tempo at 2.1, the one at 3.1 stays', async () => {
      const result = await midi.ops(['tempo scale:0.5 @range:2-2']);
      assertOk(result);
      assert.match(textOf(result), /^\* Tempo ×0\.5 over 2\.1-2\.4: 0 tempo events scaled$/m);
      assert.match(textOf(result), /^\+ Tempo 120 BPM at 2\.1 \(240 BPM was in force there\)$/m);
      assertOk(await midi.session('save as:scaled2.mid'));
    });

    it('mido reads 240, 120 from bar 2 and 280 from bar 3', { skip: NO_MIDO }, () => {
      const read = midoOk(path.join(root, 'scaled2.mid'));
      assert.deepEqual(ofType(read.tracks[0], 'set_tempo'), [
        [0, 'set_tempo', tempoOf(240)], [tickOf(2, 1), 'set_tempo', tempoOf(120)],
        [tickOf(3, 1), 'set_tempo', tempoOf(280)],
      ]);
    });

    it('tempo set:90 @range:1-2 makes bars 1-2 one tempo and keeps 280 from bar 3; undo takes each op back', async () => {
      const result = await midi.ops(['tempo set:90 @range:1-2']);
      assertOk(result);
      assert.match(textOf(result), /^\* Tempo 90 BPM over 1\.1-2\.4: 1 tempo event set, 1 removed$/m);
      assert.equal(textOf(await midi.query('tempo')), '2 tempo events:\n  1.1      90 BPM\n  3.1      280 BPM');
      for (const tempo of [240, 240, 120]) {
        assert.equal(digestOf(await midi.session('undo')).tempo, tempo);
      }
      assert.equal(textOf(await midi.query('tempo')), '2 tempo events:\n  1.1      120 BPM\n  3.1      140 BPM');
    });
  });

  describe('dynamics and humanize keep the music (crescendo keeps accents, humanize the length)', () => {
    // Bars 7-8 (3/4): on every beat an accent (C4, vel 110) over a soft note (E4, vel 60).
    const BEATS = [[7, 1], [7, 2], [7, 3], [8, 1], [8, 2], [8, 3]];
    let before;
    it('a track of accents, then crescendo from:p to:f over it (one op)', async () => {
      const ops = ['track add Hits instrument:marimba'];
      for (const [bar, beat] of BEATS) {
        ops.push(`note Hits C4 at:${bar}.${beat} vel:110 dur:8n`, `note Hits E4 at:${bar}.${beat} vel:60 dur:8n`);
      }
      assertOk(await midi.ops(ops));
      before = digestOf(await midi.session('save as:accents.mid'));
      const result = await midi.ops(['crescendo @track:Hits from:p to:f']);
      assertOk(result);
      assert.match(textOf(result), /^\* Crescendo applied to 12 notes \(p -> f, scaled with the ramp, accents kept\)$/m);
      assertOk(await midi.session('save as:crescendo.mid'));
    });

    it('mido: on every beat the accent stays louder, and the level rises', { skip: NO_MIDO }, () => {
      const read = midoOk(path.join(root, 'crescendo.mid'));
      const hits = notesOf(read.tracks.find((t) => t.name === 'Hits'));
      assert.equal(hits.length, 12);
      const byTick = new Map();
      for (const n of hits) byTick.set(n.tick, { ...byTick.get(n.tick), [n.pitch]: n.vel });
      const beats = [...byTick.keys()].sort((a, b) => a - b);
      assert.deepEqual(beats, BEATS.map(([bar, beat]) => tickOf(bar, beat)));
      for (const tick of beats) {
        const { 60: accent, 64: soft } = byTick.get(tick);
        assert.ok(accent > soft, `at tick ${tick} the accent (${accent}) is louder than the soft note (${soft})`);
      }
      const level = (tick) => byTick.get(tick)[60] + byTick.get(tick)[64];
      for (let i = 1; i < beats.length; ++i) assert.ok(level(beats[i]) >= level(beats[i - 1]), 'the level rises');
      assert.ok(byTick.get(beats[0])[64] < 60 && byTick.get(beats.at(-1))[60] > 110, 'from p to f');
    });

    it('humanize @all keeps the bar count and the end of the song', async () => {
      const result = await midi.ops(['humanize @all timing:60 seed:9']);
      assertOk(result);
      assert.equal(digestOf(result).bars, before.bars);
      assert.doesNotMatch(textOf(result), /^\? .*overlap/m, 'no overlap warning');
      assertOk(await midi.session('save as:humanized.mid'));
    });

    it('mido: the same last note-off, no two notes of one pitch sounding at once on a track', { skip: NO_MIDO }, () => {
      const files = [path.join(root, 'crescendo.mid'), path.join(root, 'humanized.mid')];
      const both = mido(...files);
      const lastOff = (read) => Math.max(...read.tracks.flatMap((t) => notesOf(t).map((n) => n.tick + n.dur)));
      assert.equal(lastOff(both[files[1]]), lastOff(both[files[0]]));
      for (const track of both[files[1]].tracks) {
        const lines = new Map();
        for (const n of notesOf(track).sort(byTime)) {
          const key = `${n.ch}:${n.pitch}`;
          assert.ok(n.tick >= (lines.get(key) ?? 0), `${track.name}: pitch ${n.pitch} at ${n.tick} overlaps the one before`);
          lines.set(key, n.tick + n.dur);
        }
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 6. Fixtures and corpus: open → stats → save as copy → mido reads it exactly as the original

const MIDI_EXT = /\.(mid|midi|rmi|kar)$/i;
function midiFilesUnder(dir, rel = '') {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const r = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return midiFilesUnder(path.join(dir, entry.name), r);
    return MIDI_EXT.test(entry.name) ? [r] : [];
  }).sort();
}
const FIXTURE_FILES = midiFilesUnder(FIXTURES);
const CORPUS_FILES = midiFilesUnder(CORPUS);

describe('MIDI files: open → stats → save → open, mido reads the copy', { timeout: 90_000 }, () => {
  let root;
  let connected;
  let midi;

  before(async () => {
    root = makeTempDir('fcp-e2e-midi-files-');
    for (const f of FIXTURE_FILES) {
      mkdirSync(path.dirname(path.join(root, 'fixtures', f)), { recursive: true });
      copyFileSync(path.join(FIXTURES, f), path.join(root, 'fixtures', f));
    }
    mkdirSync(path.join(root, 'corpus'));
    for (const f of CORPUS_FILES) copyFileSync(path.join(CORPUS, f), path.join(root, 'corpus', f));
    connected = await connect(root);
    midi = tools(connected.client);
  });

  after(async () => {
    await disconnect(connected);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const cases = [
    ...FIXTURE_FILES.map((f) => ({ name: `fixture ${f}`, rel: `fixtures/${f}` })),
    ...CORPUS_FILES.map((f) => ({ name: `corpus ${f}`, rel: `corpus/${f}` })),
  ];
  if (!CORPUS_FILES.length) {
    it('corpus files (../shared/corpus/midi)', { skip: `${CORPUS} does not exist or has no MIDI files` }, () => {});
  }
  if (!FIXTURE_FILES.length) {
    it('fixture files (fixtures/midi)', { skip: `no MIDI files under ${FIXTURES}` }, () => {});
  }

  for (const { name, rel } of cases) {
    describe(name, () => {
      const copyRel = `${rel}.copy.mid`;
      const copy2Rel = `${rel}.copy2.mid`;
      let stats;
      let saved = false;

      it('opens, midi_query stats works, save as:copy; mido reads the copy exactly as the original', async () => {
        const opened = await midi.session(`open "${rel}" discard:true`);
        assertOk(opened, `open ${rel}`);
        assert.match(textOf(opened), /^\+ opened "/);
        const result = await midi.query('stats');
        assertOk(result, 'stats');
        stats = textOf(result);
        assert.match(stats, /^Notes: \d+$/m);
        const save = await midi.session(`save as:"${copyRel}"`);
        assertOk(save, `save as:${copyRel}`);
        assert.match(textOf(save), /^\* saved "/);
        saved = true;

        if (!HAVE_MIDO) return;  // reported once by the test below
        const original = path.join(root, rel);
        const copy = path.join(root, copyRel);
        const both = mido(original, copy);
        if (both[original].error) {
          // Beyond mido (e.g. F7 escapes carrying real-time bytes): the copy keeps those bytes, so
          // mido may refuse it for the same reason, but for no other.
          if (both[copy].error) {
            assert.equal(both[copy].error, both[original].error, 'mido refuses the copy as it refuses the original');
          }
          return;
        }
        assert.ok(!both[copy].error, `mido cannot read the copy: ${both[copy].error}`);
        // Open → save with no edit gives the file back: format, tracks and their names, every
        // event at its tick in its order, nothing added (no default tempo, meter or key).
        assert.deepEqual(both[copy], both[original], 'mido reads the copy exactly as the original');
      });

      it('open → save → open keeps every event: the copy reopens with the same stats and saves the same file', async () => {
        assert.ok(saved, 'the copy was saved');
        const reopened = await midi.session(`open "${copyRel}"`);
        assertOk(reopened, `open ${copyRel}`);
        // (Without a title the song is named after the file: the "Song:" line differs.)
        const body = (text) => text.replace(/^Song: .*\n/, '');
        assert.equal(body(textOf(await midi.query('stats'))), body(stats), 'stats of the copy after reopening');
        assertOk(await midi.session(`save as:"${copy2Rel}"`), `save as:${copy2Rel}`);
        if (!HAVE_MIDO) return;
        const files = [path.join(root, copyRel), path.join(root, copy2Rel)];
        const both = mido(...files);
        if (both[files[0]].error) return;  // beyond mido (see above)
        assert.deepEqual(both[files[1]], both[files[0]], 'mido reads the second save exactly as the first');
      });
    });
  }

  if (NO_MIDO) it('mido reads the copies', { skip: NO_MIDO }, () => {});
});

// ---------------------------------------------------------------------------------------------
// 7. Hostile input: files that are not MIDI, paths outside the root

describe('hostile input', { timeout: 60_000 }, () => {
  let root;
  let outside;
  let connected;
  let midi;
  let baseline;  // digest of the saved "Hostile" song
  let stats;

  before(async () => {
    root = makeTempDir('fcp-e2e-midi-hostile-');
    outside = makeTempDir('fcp-e2e-midi-outside-');
    connected = await connect(root);
    midi = tools(connected.client);
    assertOk(await midi.session('new "Hostile" tempo:100'));
    assertOk(await midi.ops(['track add Piano', 'note Piano C4 E4 G4 at:1.1 dur:half', 'note Piano D4 at:2.1']));
    const saved = await midi.session('save as:hostile.mid');
    assertOk(saved);
    baseline = digestOf(saved).line;
    stats = textOf(await midi.query('stats'));
    const real = readFileSync(path.join(root, 'hostile.mid'));
    assert.ok(real.length > 30);
    writeFileSync(path.join(root, 'truncated.mid'), real.subarray(0, 30));
    writeFileSync(path.join(root, 'notes.txt'), 'hello, this is not a MIDI file\n');
    writeFileSync(path.join(root, 'text.mid'), 'MThd? no: just text pretending to be MIDI\n');
    writeFileSync(path.join(root, 'empty.mid'), '');
    writeFileSync(path.join(outside, 'secret.mid'), real);
  });

  after(async () => {
    await disconnect(connected);
    if (root) rmSync(root, { recursive: true, force: true });
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  async function assertSongKept() {
    const status = textOf(await midi.query('status'));
    assert.match(status, /^midi document "Hostile"/, status);
    assert.match(status, /unsaved changes: no/, status);
    assert.equal(textOf(await midi.query('stats')), stats);
  }

  it('a truncated .mid, a text file, an empty file: clear errors, the song is kept', async () => {
    const attempts = [
      ['truncated.mid', /^! cannot open "truncated\.mid": .*truncated/],
      ['notes.txt', /^! cannot open "notes\.txt": not a MIDI file/],
      ['text.mid', /^! cannot open "text\.mid": /],
      ['empty.mid', /^! cannot open "empty\.mid": /],
      ['missing.mid', /^! cannot open "missing\.mid": /],
    ];
    for (const [file, pattern] of attempts) {
      const result = await midi.session(`open ${file}`);
      assertFails(result, pattern, `open ${file}`);
      assert.equal(digestOf(result).line, baseline, `digest after open ${file}`);
      await assertSongKept();
    }
  });

  it('files outside the root are refused, the song is kept', async () => {
    for (const target of [path.join(outside, 'secret.mid'), path.relative(root, path.join(outside, 'secret.mid')), '/etc/passwd']) {
      const result = await midi.session(`open ${target}`);
      assertFails(result, /outside the allowed roots/, `open ${target}`);
      assert.equal(digestOf(result).line, baseline, `digest after open ${target}`);
      await assertSongKept();
    }
    const save = await midi.session(`save as:${path.join(outside, 'x.mid')}`);
    assertFails(save, /outside the allowed roots/, 'save outside the root');
    assert.ok(!existsSync(path.join(outside, 'x.mid')));
  });

  it('the daemon is still alive and the song intact after all of that', async () => {
    await connected.client.ping({ timeout: 5000 });
    await assertSongKept();
  });
});
