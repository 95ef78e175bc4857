'use strict';
// The wire protocol of lofi-daemon.js: one OSC message in (address + one JSON string), one
// /lofi/reply out (one JSON string) that echoes requestId; malformed input gives clear errors.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createMax } = require('./max-mock.js');

function initialised() {
  const max = createMax();
  const r = max.request('/lofi/init', { requestId: 'init', deviceName: 'Flutter' });
  assert.equal(r.status, 'ok');
  return max;
}

test('every reply is outlet 0, address /lofi/reply and exactly one JSON string', () => {
  const max = initialised();
  max.send('/lofi/create', { requestId: 1, id: 'osc', class: 'cycle~', x: 10, y: 20, args: [440] });
  max.send('/lofi/create', { requestId: 2, id: 'osc', class: 'cycle~', x: 10, y: 20 });
  max.send('/lofi/nope', { requestId: 3 });
  max.sendRaw('/lofi/ping');
  assert.equal(max.world.outlets.length, 5);
  for (const o of max.world.outlets) {
    assert.equal(o.index, 0);
    assert.equal(o.args.length, 2);
    assert.equal(o.args[0], '/lofi/reply');
    assert.equal(typeof o.args[1], 'string');
    const parsed = JSON.parse(o.args[1]);
    assert.ok(parsed.status === 'ok' || parsed.status === 'error');
  }
});

test('ping answers with version, protocol and counts, echoing a string or numeric requestId', () => {
  const max = createMax();
  let r = max.request('/lofi/ping', { requestId: 'p-1' });
  assert.deepEqual(
    { status: r.status, requestId: r.requestId, device: r.device, objects: r.objects },
    { status: 'ok', requestId: 'p-1', device: null, objects: 0 });
  assert.match(r.version, /^\d+\.\d+\.\d+$/);
  assert.equal(r.protocol, 1);
  max.request('/lofi/init', { requestId: 7, deviceName: 'Flutter' });
  max.request('/lofi/create', { requestId: 8, id: 'a', class: 'cycle~', x: 0, y: 0 });
  max.request('/lofi/create', { requestId: 9, id: 'b', class: 'dac~', x: 0, y: 50 });
  max.request('/lofi/wire', { requestId: 10, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  r = max.request('/lofi/ping', { requestId: 42 });
  assert.equal(r.requestId, 42);
  assert.equal(r.device, 'Flutter');
  assert.deepEqual(r.devices, ['Flutter']);
  assert.equal(r.objects, 2);
  assert.equal(r.wires, 1);
  assert.equal(r.mappings, 0);
  assert.equal(r.uiPending, 0);
});

test('a request without requestId gets a reply without one (LOFI-compatible)', () => {
  const max = createMax();
  const r = max.request('/lofi/ping', {});
  assert.equal(r.status, 'ok');
  assert.equal('requestId' in r, false);
});

test('a bare address without argument is treated as an empty payload', () => {
  const max = createMax();
  max.sendRaw('/lofi/ping');
  assert.equal(max.lastReply.status, 'ok');
});

test('unknown address is an error that lists the known ones', () => {
  const max = createMax();
  const r = max.request('/lofi/explode', { requestId: 'x' });
  assert.equal(r.status, 'error');
  assert.equal(r.requestId, 'x');
  assert.match(r.message, /unknown address \/lofi\/explode/);
  for (const a of ['/lofi/init', '/lofi/create', '/lofi/unwire', '/lofi/unmap', '/lofi/ping']) {
    assert.ok(r.message.includes(a), a);
  }
  const r2 = max.request('/other', { requestId: 'y' });
  assert.equal(r2.status, 'error');
  assert.match(r2.message, /unknown address \/other/);
});

test('invalid JSON is refused, and the requestId is still salvaged when present', () => {
  const max = createMax();
  let r = max.request('/lofi/ping', '{"requestId":"r-9","x":');
  assert.equal(r.status, 'error');
  assert.equal(r.requestId, 'r-9');
  assert.match(r.message, /not valid JSON/);
  r = max.request('/lofi/ping', 'not json at all');
  assert.equal(r.status, 'error');
  assert.equal('requestId' in r, false);
});

test('payload must be a JSON object with a string or numeric requestId', () => {
  const max = createMax();
  let r = max.request('/lofi/ping', '[1,2]');
  assert.equal(r.status, 'error');
  assert.match(r.message, /must be a JSON object, got an array/);
  r = max.request('/lofi/ping', '"text"');
  assert.match(r.message, /must be a JSON object/);
  r = max.request('/lofi/ping', { requestId: { nested: true } });
  assert.equal(r.status, 'error');
  assert.match(r.message, /'requestId' must be a string or a number/);
});

test('the comma trap: several atoms instead of one JSON string is a clear error', () => {
  const max = createMax();
  max.sendRaw('/lofi/create', '{"requestId":"c1"', '"id":"a"}');
  const r = max.lastReply;
  assert.equal(r.status, 'error');
  assert.equal(r.requestId, 'c1');
  assert.match(r.message, /expected ONE string argument/);
  assert.match(r.message, /got 2 atoms/);
});

test('a numeric atom instead of the JSON string is refused', () => {
  const max = createMax();
  max.sendRaw('/lofi/ping', 5);
  assert.equal(max.lastReply.status, 'error');
  assert.match(max.lastReply.message, /must be a JSON string/);
});

test('symbol limit: a payload of 32 767 characters or more was truncated by Max and is refused', () => {
  const max = initialised();
  const filler = 'x'.repeat(32767);
  const payload = JSON.stringify({ requestId: 'big', id: 'm', class: 'message', x: 0, y: 0, args: [filler] });
  const r = max.request('/lofi/create', payload.slice(0, 32767)); // what Max delivers: cut at the limit
  assert.equal(r.status, 'error');
  assert.equal(r.requestId, 'big');
  assert.match(r.message, /32767/);
  assert.match(r.message, /truncated/);
  assert.equal(max.device().count, 0);
});

test('symbol limit: a payload just below the limit is accepted', () => {
  const max = initialised();
  const base = JSON.stringify({ requestId: 'ok', id: 'm', class: 'message', x: 0, y: 0, args: [''] });
  const text = 'y'.repeat(32766 - base.length - 'message '.length);
  const payload = JSON.stringify({ requestId: 'ok', id: 'm', class: 'message', x: 0, y: 0, args: [text] });
  assert.ok(payload.length < 32767);
  const r = max.request('/lofi/create', payload);
  assert.equal(r.status, 'ok', r.message);
  const box = max.device().named('m');
  assert.equal(box.args[0].length, text.length);
});

test('requests before /lofi/init fail with a hint to init first', () => {
  const max = createMax();
  for (const [address, payload] of [
    ['/lofi/create', { id: 'a', class: 'cycle~', x: 0, y: 0 }],
    ['/lofi/remove', { id: 'a' }],
    ['/lofi/wire', { sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 }],
    ['/lofi/ui', { layers: [{ name: 'x', class: 'live.dial', x: 0, y: 0, width: 10, height: 10 }] }],
    ['/lofi/inject', { targetId: 'a', filePath: '/tmp/a.js' }],
    ['/lofi/map', { parameter: 'p', objectId: 'a', property: 'value' }],
    ['/lofi/set', { id: 'a', attr: 'x', value: 1 }],
    ['/lofi/move', { id: 'a', x: 1, y: 1 }],
    ['/lofi/unmap', { parameter: 'p' }],
  ]) {
    const r = max.request(address, Object.assign({ requestId: address }, payload));
    assert.equal(r.status, 'error', address);
    assert.equal(r.requestId, address);
    assert.match(r.message, /send \/lofi\/init/, address);
  }
});

test('helpers are hidden from Max messages (.local = 1), entry points are not', () => {
  const max = createMax();
  const c = max.context;
  for (const name of ['receive', 'execute', 'handleCreate', 'uiTick', 'reply', 'setAttr', 'lookup']) {
    assert.equal(c[name].local, 1, name);
  }
  for (const name of ['anything', 'bang', 'loadbang', 'notifydeleted']) {
    assert.equal(typeof c[name], 'function', name);
    assert.notEqual(c[name].local, 1, name);
  }
  assert.equal(c.inlets, 1);
  assert.equal(c.outlets, 1);
});

test('bang and loadbang post status to the Max console', () => {
  const max = initialised();
  max.context.loadbang();
  max.context.bang();
  assert.match(max.world.posts.join(''), /ready/);
  assert.match(max.world.posts.join(''), /device Flutter, 0 objects/);
});

test('ping carries the hash of the object ids that fcpd compares with its model', () => {
  const max = createMax();
  // FNV-1a over "" (no device): the offset basis.
  assert.equal(max.request('/lofi/ping', { requestId: 'p' }).hash, '811c9dc5');
  max.request('/lofi/init', { requestId: 1, deviceName: 'Flutter' });
  max.request('/lofi/create', { requestId: 2, id: 'vol', class: '*~', x: 0, y: 0 });
  max.request('/lofi/create', { requestId: 3, id: 'in', class: 'plugin~', x: 0, y: 50 });
  max.send('/lofi/ui', { requestId: 4, layers: [{ name: '30_dial', class: 'live.dial',
    x: 0, y: 0, width: 44, height: 48 }] });
  max.advance(1000);
  const r = max.request('/lofi/ping', { requestId: 'q' });
  assert.equal(r.objects, 3);
  // The same value fcpd's ids_hash gives for {"30_dial", "in", "vol"} (lofi_tests checks it).
  assert.equal(r.hash, '69ebb5e9');
  max.request('/lofi/remove', { requestId: 5, id: 'in' });
  assert.notEqual(max.request('/lofi/ping', { requestId: 'r' }).hash, r.hash);
  // Non-ASCII ids are hashed as their UTF-8 bytes, like fcpd does.
  max.request('/lofi/create', { requestId: 6, id: 'gain\u00e9', class: '*~', x: 0, y: 0 });
  assert.match(max.request('/lofi/ping', { requestId: 's' }).hash, /^[0-9a-f]{8}$/);
});
