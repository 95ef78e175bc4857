'use strict';
// Boxes of an opened device as their file saved them: what fcpd's open and sync push (box text,
// the box's own attributes, a subpatcher's contents, the parameter short name the file gives),
// against the mock Max.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createMax } = require('./max-mock.js');

function initialised() {
  const max = createMax();
  const r = max.request('/lofi/init', { requestId: 'init', deviceName: 'CPU', width: 740, height: 170 });
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

const scripts = (max) => max.world.callsOf('patcher.message').filter((c) => c.name === 'script');

// A p as fcpd pushes an opened one (CPU_Reporter's obj-155): an inlet, "+ 1", an outlet.
const P_CONTENTS = {
  boxes: [
    { maxclass: 'inlet', attrs: { comment: '', index: 1, patching_rect: [10, 10, 30, 30] } },
    { maxclass: 'newobj', text: '+ 1', attrs: { patching_rect: [10, 60, 30, 22] } },
    { maxclass: 'outlet', attrs: { comment: '', index: 1, patching_rect: [10, 110, 30, 30] } },
  ],
  lines: [[0, 0, 1, 0], [1, 0, 2, 0]],
};

test('a message box is made with the text its file saved, commas and $1 included', () => {
  const max = initialised();
  const r = ok(max, '/lofi/create', {
    requestId: 'm', id: 'obj-150', class: 'message', maxclass: 'message', x: 40, y: 90,
    args: ['hidden', '0,', 'bang'], text: 'hidden 0, bang', width: 84, height: 22,
  });
  assert.equal(r.text, 'hidden 0, bang');
  const box = max.device().named('obj-150');
  assert.equal(box.text, 'hidden 0, bang', 'Max parses the text: the comma stays a comma');
  assert.deepEqual(box.created.patching_rect, [40, 90, 84, 22]);
  assert.deepEqual(scripts(max)[0].args.slice(0, 4), ['newobject', 'message', '@text', 'hidden 0, bang']);
  assert.equal(box.messages.filter(([name]) => name === 'set').length, 0, 'not set from split atoms');
});

test('a new message box (add message) is made from its text too', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 'm', id: 'on', class: 'message', x: 0, y: 0, args: ['active', '$1'], text: 'active $1' });
  assert.equal(max.device().named('on').text, 'active $1');
  assert.equal(max.device().named('on').cls, 'message');
});

test('the box attributes the file saved are set as Max sets them when it loads the file', () => {
  const max = initialised();
  ok(max, '/lofi/create', {
    requestId: 't', id: 'obj-19', class: 'textedit', maxclass: 'textedit', x: 534, y: 42,
    args: ['scream'], text: 'scream', width: 100, height: 50, box: { keymode: 1, parameter_enable: 0 },
  });
  const box = max.device().named('obj-19');
  assert.deepEqual(box.created.keymode, [1]);
  assert.deepEqual(box.created.parameter_enable, [0]);
  assert.equal(box.text, 'scream');
});

test('a p is made with its contents: the wires into it that the file has work', () => {
  const max = initialised();
  const r = ok(max, '/lofi/create', {
    requestId: 'p', id: 'obj-155', class: 'p', maxclass: 'newobj', x: 374, y: 144, args: [],
    text: 'p', width: 17, height: 20, patcher: P_CONTENTS,
  });
  assert.equal(r.inside, 3);
  const p = max.device().named('obj-155');
  // The file lists the boxes front to back: the last is made first (the mock's boxes run back
  // to front).
  assert.deepEqual(p.sub.boxes.map((b) => b.cls), ['outlet', '+', 'inlet']);
  assert.deepEqual(p.sub.boxes.map((b) => b.varname), ['', '', ''], 'no temporary name is left');
  assert.deepEqual(p.sub.boxes[1].atoms, [{ type: 'int', value: 1 }]);
  assert.equal(p.sub.cords.length, 2);
  ok(max, '/lofi/create', { requestId: 'l', id: 'obj-263', class: 'loadmess', x: 0, y: 0, args: [1], text: 'loadmess 1' });
  ok(max, '/lofi/wire', { requestId: 'w', sourceId: 'obj-263', outlet: 0, destId: 'obj-155', inlet: 0 });
  ok(max, '/lofi/wire', { requestId: 'w2', sourceId: 'obj-155', outlet: 0, destId: 'obj-263', inlet: 0 });
});

test('a p pushed without its contents has no inlet: Max refuses the wire', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 'p', id: 'obj-155', class: 'p', x: 0, y: 0, args: [], text: 'p' });
  ok(max, '/lofi/create', { requestId: 'l', id: 'obj-263', class: 'loadmess', x: 0, y: 0, args: [1], text: 'loadmess 1' });
  err(max, '/lofi/wire', { requestId: 'w', sourceId: 'obj-263', outlet: 0, destId: 'obj-155', inlet: 0 }, /refused the connection/);
});

test('boxes inside keep their varname and their Live parameters; subpatchers nest', () => {
  const max = initialised();
  ok(max, '/lofi/create', {
    requestId: 'p', id: 'obj-52', class: 'p', maxclass: 'newobj', x: 0, y: 0, args: ['PushBanks'],
    text: 'p PushBanks',
    patcher: {
      boxes: [
        { maxclass: 'live.numbox', attrs: { varname: 'mmm', patching_rect: [0, 0, 44, 15], parameter_enable: 1,
          parameter_longname: 'Activate Push', parameter_shortname: 'Push', parameter_mmin: 1, parameter_mmax: 8 } },
        { maxclass: 'newobj', text: 'p inner', attrs: {}, patcher: P_CONTENTS },
      ],
      lines: [[0, 0, 1, 0]],
    },
  });
  const outer = max.device().named('obj-52');
  const numbox = outer.sub.named('mmm');
  assert.ok(numbox, 'the box has its own varname back');
  assert.deepEqual(numbox.created.parameter_enable, [1]);
  assert.deepEqual(numbox.messages, [
    ['_parameter_longname', 'Activate Push'], ['_parameter_shortname', 'Push'], ['_parameter_range', 1, 8]]);
  assert.equal(outer.sub.boxes[0].sub.boxes.length, 3, 'the inner p, last in the file, is backmost');
  assert.equal(outer.sub.boxes[1], numbox, 'the numbox, first in the file, is in front');
  assert.equal(outer.sub.cords.length, 1, 'the numbox feeds the inner p through its inlet');
});

test('gen code is filled in without the broken-box check: its boxes are operators', () => {
  const max = initialised();
  const r = ok(max, '/lofi/create', {
    requestId: 'g', id: 'obj-12', class: 'p', maxclass: 'newobj', x: 0, y: 0, args: [], text: 'p',
    patcher: { classnamespace: 'dsp.gen', boxes: [{ maxclass: 'newobj', text: 'history', attrs: {} }], lines: [] },
  });
  assert.equal(r.inside, 1);
});

test('a box the file has that Max cannot make fails the create and leaves nothing', () => {
  const max = initialised();
  err(max, '/lofi/create', {
    requestId: 'a', id: 'obj-6', class: 'MyAbstraction', maxclass: 'newobj', x: 0, y: 0, args: [], text: 'MyAbstraction',
  }, /does not know the class of 'MyAbstraction'.*search path/);
  err(max, '/lofi/create', {
    requestId: 'p', id: 'obj-9', class: 'p', maxclass: 'newobj', x: 0, y: 0, args: [], text: 'p',
    patcher: { boxes: [{ maxclass: 'newobj', text: 'nosuch~', attrs: {} }], lines: [] },
  }, /nosuch~/);
  assert.equal(max.device().count, 0);
  err(max, '/lofi/create', {
    requestId: 'x', id: 'obj-7', class: 'p', maxclass: 'newobj', x: 0, y: 0, args: [], text: 'p',
    patcher: { boxes: [], lines: [[0, 0, 1, 0]] },
  }, /lines\[0\] must be/);
});

test('a UI layer is made as saved: a live.comment with its text and the box attributes', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'ui', layers: [{
    id: 'obj-246', name: 'obj-246', class: 'live.comment', maxclass: 'live.comment', x: 104, y: 38,
    width: 64, height: 18, args: ['Average', 'CPU'], text: 'Average CPU', attrs: { textjustification: 0 },
    box: { fontsize: 9 },
  }] });
  max.advance(100);
  assert.equal(max.lastReply.status, 'ok', max.lastReply.message);
  const box = max.device().named('obj-246');
  assert.equal(box.text, 'Average CPU');
  assert.deepEqual(box.created.fontsize, [9]);
  assert.deepEqual(box.boxattrs.presentation_rect, [104, 38, 64, 18]);
});

test('map keeps the short name the file gives; without one it is derived from the name', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'ui', layers: [
    { name: 'obj-93', class: 'live.numbox', x: 0, y: 0, width: 44, height: 15, args: [] },
    { name: 'rate', class: 'live.dial', x: 50, y: 0, width: 44, height: 48, args: [] }] });
  max.advance(100);
  ok(max, '/lofi/map', { requestId: 1, parameter: 'live.numbox[5]', objectId: 'obj-93', shortname: 'live.numbox[1]' });
  ok(max, '/lofi/map', { requestId: 2, parameter: 'Filter[cut]', objectId: 'rate' });
  const shortnames = max.world.callsOf('message').filter((c) => c.name === '_parameter_shortname')
    .map((c) => [c.target, c.args[0]]);
  assert.deepEqual(shortnames, [['obj-93', 'live.numbox[1]'], ['rate', 'cut']]);
});
