'use strict';
// lofi-daemon.maxpat: a valid Max patcher wiring [udpreceive 7400] -> [v8 lofi-daemon.js] ->
// [udpsend 127.0.0.1 7401], without [route], with a comment on how to use it. Also checks
// package.json (no dependencies).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const MAX_DIR = path.join(__dirname, '..');
const patch = JSON.parse(fs.readFileSync(path.join(MAX_DIR, 'lofi-daemon.maxpat'), 'utf8'));
const P = patch.patcher;
const boxes = P.boxes.map((b) => b.box);
const byId = new Map(boxes.map((b) => [b.id, b]));
const byText = (text) => boxes.find((b) => b.text === text);
const isRect = (r) => Array.isArray(r) && r.length === 4 && r.every((n) => typeof n === 'number' && Number.isFinite(n));

test('has the top-level structure of a Max patcher file', () => {
  assert.deepEqual(Object.keys(patch), ['patcher']);
  assert.equal(P.fileversion, 1);
  assert.deepEqual(Object.keys(P.appversion).sort(), ['architecture', 'major', 'minor', 'modernui', 'revision']);
  assert.ok(P.appversion.major >= 9, '[v8] needs Max 9');
  assert.equal(P.classnamespace, 'box');
  assert.ok(isRect(P.rect));
  assert.ok(Array.isArray(P.boxes) && Array.isArray(P.lines));
  for (const entry of P.boxes) assert.deepEqual(Object.keys(entry), ['box']);
  for (const entry of P.lines) assert.deepEqual(Object.keys(entry), ['patchline']);
});

test('every box has a unique obj-N id, a class, inlet/outlet counts and a patching_rect', () => {
  assert.equal(byId.size, boxes.length);
  for (const b of boxes) {
    assert.match(b.id, /^obj-\d+$/);
    assert.equal(typeof b.maxclass, 'string');
    assert.ok(Number.isInteger(b.numinlets) && Number.isInteger(b.numoutlets), b.id);
    assert.ok(isRect(b.patching_rect), b.id);
    assert.equal(typeof b.text, 'string', b.id);
    if (b.numoutlets > 0) assert.equal(b.outlettype.length, b.numoutlets, b.id);
  }
});

test('wires udpreceive 7400 -> v8 lofi-daemon.js -> udpsend 127.0.0.1 7401, and nothing else', () => {
  const rx = byText('udpreceive 7400');
  const js = byText('v8 lofi-daemon.js');
  const tx = byText('udpsend 127.0.0.1 7401');
  for (const b of [rx, js, tx]) {
    assert.ok(b);
    assert.equal(b.maxclass, 'newobj');
  }
  assert.deepEqual([rx.numinlets, rx.numoutlets], [1, 1]);
  assert.deepEqual([js.numinlets, js.numoutlets], [1, 1]);
  assert.deepEqual([tx.numinlets, tx.numoutlets], [1, 0]);
  assert.equal(js.saved_object_attributes.filename, 'lofi-daemon.js');
  const lines = P.lines.map((l) => [l.patchline.source, l.patchline.destination]);
  assert.deepEqual(lines, [[[rx.id, 0], [js.id, 0]], [[js.id, 0], [tx.id, 0]]]);
  for (const [[src, outlet], [dst, inlet]] of lines) {
    assert.ok(outlet < byId.get(src).numoutlets);
    assert.ok(inlet < byId.get(dst).numinlets);
  }
  assert.equal(boxes.filter((b) => b.maxclass === 'newobj').length, 3);
});

test('there is no route object: the OSC address reaches the script as messagename', () => {
  assert.equal(boxes.filter((b) => /^(route|routepass|osc-route|OSC-route)\b/.test(b.text)).length, 0);
});

test('a comment explains how to use it (ports, script file, test without Max)', () => {
  const text = boxes.filter((b) => b.maxclass === 'comment').map((b) => b.text).join(' ');
  for (const needle of ['7400', '7401', 'lofi-daemon.js', '/lofi/', 'JSON', 'route', 'js lofi-daemon.js', 'simulate-max']) {
    assert.ok(text.includes(needle), `comment mentions ${needle}`);
  }
  for (const b of boxes.filter((x) => x.maxclass === 'comment')) {
    assert.deepEqual([b.numinlets, b.numoutlets], [1, 0]);
  }
});

test('the script named by the patch ships next to it', () => {
  assert.ok(fs.existsSync(path.join(MAX_DIR, 'lofi-daemon.js')));
});

test('package.json has a node --test script and no dependencies', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(MAX_DIR, 'package.json'), 'utf8'));
  assert.equal(pkg.scripts.test, 'node --test test/');
  for (const key of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    assert.equal(pkg[key] === undefined || Object.keys(pkg[key]).length === 0, true, key);
  }
});
