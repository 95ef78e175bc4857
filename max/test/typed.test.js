'use strict';
// Typed atoms, Live parameter attributes, undo of attributes and the device's settings, against
// the mock Max (whose JS bridge turns whole numbers into int atoms, as Max's does).
const test = require('node:test');
const assert = require('node:assert/strict');
const { createMax } = require('./max-mock.js');

function initialised() {
  const max = createMax();
  const r = max.request('/lofi/init', { requestId: 'init', deviceName: 'Wow', width: 600, height: 170 });
  assert.equal(r.status, 'ok', r.message);
  return max;
}

function ok(max, address, payload) {
  const r = max.request(address, payload);
  assert.equal(r.status, 'ok', `${address}: ${r.message}`);
  return r;
}

function err(max, address, payload, pattern) {
  const r = max.request(address, payload);
  assert.equal(r.status, 'error', `${address} should fail: ${JSON.stringify(r)}`);
  assert.match(r.message, pattern);
  return r;
}

// A dial made as fcpd makes UI layers, built at once.
function dial(max, name) {
  max.send('/lofi/ui', { requestId: `ui-${name}`, layers: [{ name, class: 'live.dial', x: 20, y: 20, width: 44, height: 48, args: [] }] });
  max.advance(100);
  assert.equal(max.lastReply.status, 'ok', max.lastReply.message);
  return max.device().named(name);
}

const messagesTo = (max, target) => max.world.callsOf('message').filter((c) => c.target === target);

// ---- typed atoms ---------------------------------------------------------------------------

test('a float written without a fraction reaches Max as a float: the box is made from its text', () => {
  const max = initialised();
  const r = ok(max, '/lofi/create', { requestId: 'c', id: 'half', class: '/', x: 40, y: 100, args: [100], text: '/ 100.' });
  assert.equal(r.text, '/ 100.');
  const box = max.device().named('half');
  assert.ok(box, 'the box has its varname');
  assert.deepEqual(box.atoms, [{ type: 'float', value: 100 }], 'Max divides by the float 100., not the int 100');
  assert.deepEqual([box.cls, box.rect[0], box.rect[1]], ['/', 40, 100]);
  const script = max.world.callsOf('patcher.message').filter((c) => c.name === 'script');
  assert.deepEqual(script.map((c) => c.args.slice(0, 4)), [['newobject', 'newobj', '@text', '/ 100.']]);
  assert.equal(max.world.callsOf('newdefault').filter((c) => c.cls === '/').length, 0);
});

test('other boxes are made with newdefault and keep their atoms: 440 an int, 0.5 a float', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 'a', id: 'osc', class: 'cycle~', x: 0, y: 0, args: [440], text: 'cycle~ 440' });
  ok(max, '/lofi/create', { requestId: 'b', id: 'lfo', class: 'cycle~', x: 0, y: 40, args: [0.5], text: 'cycle~ 0.5' });
  assert.deepEqual(max.device().named('osc').atoms, [{ type: 'int', value: 440 }]);
  assert.deepEqual(max.device().named('lfo').atoms, [{ type: 'float', value: 0.5 }]);
  assert.equal(max.world.callsOf('patcher.message').filter((c) => c.name === 'script').length, 0);
});

test('a text that is not the class and its arguments is refused; a broken box from text is removed', () => {
  const max = initialised();
  err(max, '/lofi/create', { requestId: 'x', id: 'half', class: '/', x: 0, y: 0, args: [100], text: '* 100.' }, /must start with the class '\/'/);
  err(max, '/lofi/create', { requestId: 'y', id: 'bad', class: 'nosuch~', x: 0, y: 0, args: [1], text: 'nosuch~ 1.' }, /does not know the class 'nosuch~'/);
  assert.equal(max.device().count, 0);
});

// ---- Live parameter attributes -------------------------------------------------------------

test('parameter attributes go by their scripting names; mmin and mmax are the ends of _parameter_range', () => {
  const max = initialised();
  dial(max, 'rate');
  ok(max, '/lofi/set', { requestId: 1, id: 'rate', attr: 'parameter_longname', value: 'Wow Rate' });
  ok(max, '/lofi/set', { requestId: 2, id: 'rate', attr: 'parameter_mmax', value: 4 });
  ok(max, '/lofi/set', { requestId: 3, id: 'rate', attr: 'parameter_mmin', value: 0.05 });
  ok(max, '/lofi/set', { requestId: 4, id: 'rate', attr: 'parameter_unitstyle', value: 3 });
  ok(max, '/lofi/set', { requestId: 5, id: 'rate', attr: 'parameter_initial', value: [0.5] });
  const sent = messagesTo(max, 'rate').map((c) => [c.name, ...c.atoms.map((a) => `${a.type} ${a.value}`)]);
  assert.deepEqual(sent, [
    ['_parameter_longname', 'symbol Wow Rate'],
    ['_parameter_range', 'int 0', 'int 4'],
    ['_parameter_range', 'float 0.05', 'int 4'],
    ['_parameter_unitstyle', 'int 3'],
    ['_parameter_initial', 'float 0.5'],
  ]);
  const box = max.device().named('rate');
  assert.deepEqual(box.attrs._parameter_range, [0.05, 4]);
});

test('an attribute set for the first time goes back to its earlier value with unset; the reply says it was an undo', () => {
  const max = initialised();
  dial(max, 'rate');
  ok(max, '/lofi/set', { requestId: 1, id: 'rate', attr: 'parameter_mmax', value: 4 });
  ok(max, '/lofi/set', { requestId: 2, id: 'rate', attr: 'bgcolor', value: [0.2, 0.2, 0.2, 1] });
  const back = ok(max, '/lofi/set', { requestId: 3, id: 'rate', attr: 'parameter_mmax', unset: true, undo: true });
  assert.deepEqual(back, { status: 'ok', requestId: 3, id: 'rate', attr: 'parameter_mmax', value: 127, restored: true, undo: true });
  assert.deepEqual(max.device().named('rate').attrs._parameter_range, [0, 127]);
  // A value Max could not tell cannot be restored: an error, not a silent no-op.
  err(max, '/lofi/set', { requestId: 4, id: 'rate', attr: 'bgcolor', unset: true, undo: true }, /cannot restore bgcolor of 'rate'/);
  const undone = ok(max, '/lofi/set', { requestId: 5, id: 'rate', attr: 'parameter_mmax', value: 4, undo: true });
  assert.equal(undone.undo, true);
});

test('UI layers get their attributes the same way', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'u', layers: [{ name: 'mix', class: 'live.dial', x: 0, y: 0, width: 44, height: 48, args: [], attrs: { parameter_longname: 'Mix', parameter_mmax: 1 } }] });
  max.advance(100);
  assert.equal(max.lastReply.status, 'ok', max.lastReply.message);
  const sent = messagesTo(max, 'mix').map((c) => [c.name, ...c.args]);
  assert.deepEqual(sent, [['_parameter_longname', 'Mix'], ['_parameter_range', 0, 1]]);
});

// ---- the device's settings -----------------------------------------------------------------

test('/lofi/device sizes the window and sets openinpresentation and devicewidth on the device patcher', () => {
  const max = initialised();
  const r = ok(max, '/lofi/device', { requestId: 'd', width: 570, height: 169, openinpresentation: 1, devicewidth: 570 });
  assert.deepEqual(r, { status: 'ok', requestId: 'd', device: 'Wow', width: 570, height: 169, openinpresentation: 1, devicewidth: 570 });
  const patcher = max.device();
  assert.deepEqual(patcher.wind.size, [570, 169]);
  assert.equal(patcher.attrs.openinpresentation, 1);
  assert.equal(patcher.attrs.devicewidth, 570);
  assert.equal(patcher.attrs.presentation, 1, 'the window shows the presentation');
  const back = ok(max, '/lofi/device', { requestId: 'u', openinpresentation: 0, undo: true });
  assert.deepEqual(back, { status: 'ok', requestId: 'u', device: 'Wow', openinpresentation: 0, undo: true });
  assert.equal(patcher.attrs.openinpresentation, 0);
  err(max, '/lofi/device', { requestId: 'e', openinpresentation: 2 }, /'openinpresentation' must be 0 or 1/);
  err(max, '/lofi/device', { requestId: 'f', width: 300, height: 100, devicewidth: -1 }, /'devicewidth' must be 0 or more/);
  assert.deepEqual(patcher.wind.size, [570, 169], 'a refused request changes nothing');
});

test('/lofi/init applies the settings it is given, and makes no device for a bad one', () => {
  const max = createMax();
  err(max, '/lofi/init', { requestId: 'bad', deviceName: 'Wow', openinpresentation: 'yes' }, /'openinpresentation' must be a finite number/);
  assert.equal(max.root.count, 0);
  const r = ok(max, '/lofi/init', { requestId: 'i', deviceName: 'Wow', width: 600, height: 170, openinpresentation: 1, devicewidth: 420 });
  assert.equal(r.openinpresentation, 1);
  assert.equal(r.devicewidth, 420);
  assert.equal(max.device().attrs.devicewidth, 420);
});

test('the new paths run without ES2015 built-ins ([js] is ES5)', () => {
  const max = createMax({ es5: true });
  ok(max, '/lofi/init', { requestId: 'i', deviceName: 'Wow', openinpresentation: 1, devicewidth: 300 });
  ok(max, '/lofi/create', { requestId: 'c', id: 'half', class: '/', x: 0, y: 0, args: [100], text: '/ 100.' });
  dial(max, 'rate');
  ok(max, '/lofi/set', { requestId: 's', id: 'rate', attr: 'parameter_mmin', value: 0.5 });
  ok(max, '/lofi/set', { requestId: 'u', id: 'rate', attr: 'parameter_mmin', unset: true, undo: true });
  ok(max, '/lofi/device', { requestId: 'd', devicewidth: 0 });
  assert.deepEqual(max.device().named('half').atoms, [{ type: 'float', value: 100 }]);
});
