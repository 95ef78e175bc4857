'use strict';
// /lofi/init, create, remove, wire, unwire, set, move against the mock Max.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createMax } = require('./max-mock.js');

function initialised(name = 'Flutter') {
  const max = createMax();
  const r = max.request('/lofi/init', { requestId: 'init', deviceName: name, width: 800, height: 500 });
  assert.equal(r.status, 'ok', r.message);
  return max;
}

function ok(max, address, payload) {
  const r = max.request(address, payload);
  assert.equal(r.status, 'ok', `${address}: ${r.message}`);
  assert.equal(r.requestId, payload.requestId);
  return r;
}

function err(max, address, payload, pattern) {
  const r = max.request(address, payload);
  assert.equal(r.status, 'error', `${address} should fail: ${JSON.stringify(r)}`);
  assert.equal(r.requestId, payload.requestId);
  assert.equal(r.address, address);
  assert.match(r.message, pattern);
  return r;
}

// ---- init ----------------------------------------------------------------------------------

test('init makes [p NAME] with this.patcher.newdefault(10,10,"p",name), then subpatcher(), sizes and fronts it', () => {
  const max = createMax();
  const r = ok(max, '/lofi/init', { requestId: 'i1', deviceName: 'Flutter', width: 800, height: 500 });
  assert.deepEqual(r, { status: 'ok', requestId: 'i1', device: 'Flutter', width: 800, height: 500, replaced: false });
  const nd = max.world.callsOf('newdefault');
  assert.equal(nd.length, 1);
  assert.deepEqual({ patcher: nd[0].patcher, x: nd[0].x, y: nd[0].y, cls: nd[0].cls, args: nd[0].args },
    { patcher: 'daemon', x: 10, y: 10, cls: 'p', args: ['Flutter'] });
  const ops = max.world.calls.map((c) => c.op);
  assert.ok(ops.indexOf('subpatcher') > ops.indexOf('newdefault'));
  assert.deepEqual(max.world.callsOf('wind.bringtofront').map((c) => c.patcher), ['Flutter']);
  assert.deepEqual(max.world.callsOf('wind.size')[0].value, [800, 500]);
  assert.ok(ops.indexOf('wind.bringtofront') > ops.indexOf('subpatcher'));
  assert.equal(max.world.callsOf('new Patcher').length, 0, 'never new Patcher()');
  assert.equal(max.root.count, 1);
});

test('init defaults to 600 x 400 and refuses a missing name or a bad size', () => {
  const max = createMax();
  const r = ok(max, '/lofi/init', { requestId: 1, deviceName: 'D' });
  assert.equal(r.width, 600);
  assert.equal(r.height, 400);
  err(max, '/lofi/init', { requestId: 2 }, /'deviceName'.*non-empty string/);
  err(max, '/lofi/init', { requestId: 3, deviceName: '' }, /non-empty string/);
  err(max, '/lofi/init', { requestId: 4, deviceName: 'E', width: -5 }, /'width' must be greater than 0/);
  err(max, '/lofi/init', { requestId: 5, deviceName: 'E', height: 'tall' }, /'height' must be a finite number/);
});

test('objects are created in the DEVICE subpatcher, never in the daemon patcher', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 'c', id: 'osc', class: 'cycle~', x: 100, y: 200, args: [440] });
  assert.equal(max.root.count, 1); // only [p Flutter]
  assert.equal(max.device().count, 1);
  const nd = max.world.callsOf('newdefault')[1];
  assert.deepEqual({ patcher: nd.patcher, x: nd.x, y: nd.y, cls: nd.cls, args: nd.args },
    { patcher: 'Flutter', x: 100, y: 200, cls: 'cycle~', args: [440] });
});

test('init again with the same name replaces the device; another name adds one and retargets', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 'c', id: 'osc', class: 'cycle~', x: 0, y: 0 });
  const first = max.device();
  const r = ok(max, '/lofi/init', { requestId: 'again', deviceName: 'Flutter' });
  assert.equal(r.replaced, true);
  assert.equal(first.box.valid, false);
  assert.notEqual(max.device(), first);
  assert.equal(max.root.count, 1);
  ok(max, '/lofi/create', { requestId: 'c2', id: 'osc', class: 'cycle~', x: 0, y: 0 }); // id free again
  ok(max, '/lofi/init', { requestId: 'other', deviceName: 'Echo' });
  assert.equal(max.root.count, 2);
  const p = ok(max, '/lofi/ping', { requestId: 'p' });
  assert.equal(p.device, 'Echo');
  assert.deepEqual(p.devices.sort(), ['Echo', 'Flutter']);
  assert.equal(p.objects, 0);
});

test('init finds a device box left over from before a script reload by its varname', () => {
  const max = initialised();
  const stale = max.device().box;
  assert.equal(stale.varname, 'lofi_device_Flutter');
  // a reload loses the script globals but not the boxes: simulate with a fresh script instance
  const { createMax: fresh } = require('./max-mock.js');
  const max2 = fresh();
  max2.root.boxes.push(stale); stale.patcher = max2.root;
  const r = ok(max2, '/lofi/init', { requestId: 'r', deviceName: 'Flutter' });
  assert.equal(r.replaced, true);
  assert.equal(stale.valid, false);
});

// ---- create ----------------------------------------------------------------------------------

test('create remembers the object by id (varname) and answers with its class', () => {
  const max = initialised();
  const r = ok(max, '/lofi/create', { requestId: 'c1', id: 'dial_cutoff', class: 'live.dial', x: 100, y: 200, args: [] });
  assert.deepEqual(r, { status: 'ok', requestId: 'c1', id: 'dial_cutoff', class: 'live.dial', maxclass: 'live.dial' });
  const box = max.device().named('dial_cutoff');
  assert.ok(box);
  assert.equal(box.cls, 'live.dial');
  assert.deepEqual(box.rect, [100, 200, 160, 222]); // no size given: Max's default stays
});

test('newdefault ignores size, so a given width/height is applied as patching_rect afterwards', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 'c', id: 'engine', class: 'v8', x: 30, y: 40, width: 150, height: 22 });
  const box = max.device().named('engine');
  assert.deepEqual(box.boxattrs.patching_rect, [30, 40, 150, 22]);
  assert.deepEqual(box.rect, [30, 40, 180, 62]);
  const order = max.world.calls.map((c) => c.op);
  assert.ok(order.lastIndexOf('setboxattr') > order.lastIndexOf('newdefault'));
  err(max, '/lofi/create', { requestId: 'd', id: 'e2', class: 'v8', x: 0, y: 0, width: 10 }, /'height' must be a finite number/);
});

test('create sets the text of message and comment boxes from args', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 'm', id: 'msg', class: 'message', x: 0, y: 0, args: ['start', 1] });
  assert.deepEqual(max.device().named('msg').messages, [['set', 'start', 1]]);
  ok(max, '/lofi/create', { requestId: 'n', id: 'note', class: 'comment', x: 0, y: 40, args: ['Rate, depth'] });
  assert.deepEqual(max.device().named('note').messages, [['set', 'Rate, depth']]);
});

test('create refuses a duplicate id and leaves the first object alone', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'osc', class: 'cycle~', x: 0, y: 0 });
  err(max, '/lofi/create', { requestId: 2, id: 'osc', class: 'lores~', x: 0, y: 0 }, /duplicate id 'osc'.*already exists \(cycle~\)/);
  assert.equal(max.device().count, 1);
  assert.equal(max.device().named('osc').cls, 'cycle~');
});

test('create refuses an unknown class: Max makes a broken box, the daemon removes it', () => {
  const max = initialised();
  err(max, '/lofi/create', { requestId: 'u', id: 'bad', class: 'cycle', x: 0, y: 0 }, /does not know the class 'cycle'/);
  assert.equal(max.device().count, 0);
  assert.equal(max.world.callsOf('remove').length, 1);
  const p = ok(max, '/lofi/ping', { requestId: 'p' });
  assert.equal(p.objects, 0);
});

test('create validates its payload', () => {
  const max = initialised();
  err(max, '/lofi/create', { requestId: 1, class: 'cycle~', x: 0, y: 0 }, /'id'.*non-empty string/);
  err(max, '/lofi/create', { requestId: 2, id: 'a', x: 0, y: 0 }, /'class'.*non-empty string/);
  err(max, '/lofi/create', { requestId: 3, id: 'a', class: 'cycle~ 440', x: 0, y: 0 }, /without spaces/);
  err(max, '/lofi/create', { requestId: 4, id: 'a', class: 'cycle~', y: 0 }, /'x' must be a finite number/);
  err(max, '/lofi/create', { requestId: 5, id: 'a', class: 'cycle~', x: 0, y: 0, args: 440 }, /'args' must be an array/);
  err(max, '/lofi/create', { requestId: 6, id: 'a', class: 'cycle~', x: 0, y: 0, args: [[1, 2]] }, /'args'\[0\] must be a number, string or boolean/);
  err(max, '/lofi/create', { requestId: 7, id: 'a', class: 'cycle~', x: 0, y: 0, args: [{ f: 1 }] }, /'args'\[0\]/);
  assert.equal(max.device().count, 0);
  ok(max, '/lofi/create', { requestId: 8, id: 'a', class: 'toggle', x: 0, y: 0, args: [true] });
  assert.deepEqual(max.world.callsOf('newdefault').pop().args, [1]);
});

test('ids such as __proto__ or constructor are ordinary ids', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: '__proto__', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'constructor', class: 'dac~', x: 0, y: 50 });
  ok(max, '/lofi/wire', { requestId: 3, sourceId: '__proto__', outlet: 0, destId: 'constructor', inlet: 1 });
  err(max, '/lofi/remove', { requestId: 4, id: 'hasOwnProperty' }, /unknown object id 'hasOwnProperty'/);
  assert.equal(ok(max, '/lofi/ping', { requestId: 5 }).objects, 2);
});

// ---- remove ----------------------------------------------------------------------------------

test('remove deletes the box in Max, its wires and mappings, and frees the id', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'osc', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'out', class: 'dac~', x: 0, y: 60 });
  ok(max, '/lofi/create', { requestId: 3, id: 'knob', class: 'live.dial', x: 0, y: 120 });
  ok(max, '/lofi/wire', { requestId: 4, sourceId: 'osc', outlet: 0, destId: 'out', inlet: 0 });
  ok(max, '/lofi/wire', { requestId: 5, sourceId: 'osc', outlet: 0, destId: 'out', inlet: 1 });
  ok(max, '/lofi/map', { requestId: 6, parameter: 'live.dial[cutoff]', objectId: 'knob', property: 'value' });
  const box = max.device().named('osc');
  let r = ok(max, '/lofi/remove', { requestId: 7, id: 'osc' });
  assert.deepEqual(r, { status: 'ok', requestId: 7, id: 'osc', wiresRemoved: 2, unmapped: [] });
  assert.equal(box.valid, false);
  assert.deepEqual(max.world.callsOf('remove').map((c) => [c.patcher, c.target]), [['Flutter', 'osc']]);
  r = ok(max, '/lofi/remove', { requestId: 8, id: 'knob' });
  assert.deepEqual(r.unmapped, ['live.dial[cutoff]']);
  const p = ok(max, '/lofi/ping', { requestId: 9 });
  assert.deepEqual([p.objects, p.wires, p.mappings], [1, 0, 0]);
  ok(max, '/lofi/create', { requestId: 10, id: 'osc', class: 'cycle~', x: 0, y: 0 });
});

test('remove of an unknown id is an error that lists the known ids', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'osc', class: 'cycle~', x: 0, y: 0 });
  err(max, '/lofi/remove', { requestId: 2, id: 'ghost' }, /unknown object id 'ghost' in device 'Flutter'; known ids: osc/);
  err(max, '/lofi/remove', { requestId: 3 }, /'id'.*non-empty string/);
  assert.equal(max.world.callsOf('remove').length, 0);
});

test('an object deleted by hand in Max is reported, not silently used', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'osc', class: 'cycle~', x: 0, y: 0 });
  max.device().named('osc').valid = false; // the user deleted it in the patcher
  err(max, '/lofi/set', { requestId: 2, id: 'osc', attr: 'frequency', value: 220 }, /no longer exists in Max/);
  err(max, '/lofi/remove', { requestId: 3, id: 'osc' }, /unknown object id 'osc'/);
});

// ---- wire / unwire ----------------------------------------------------------------------------

test('wire connects outlet to inlet in the device patcher and echoes the wire', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'lfo', class: 'cycle~', x: 0, y: 0, args: [0.5] });
  ok(max, '/lofi/create', { requestId: 2, id: 'filter', class: 'lores~', x: 0, y: 60 });
  const r = ok(max, '/lofi/wire', { requestId: 'w', sourceId: 'lfo', outlet: 0, destId: 'filter', inlet: 1 });
  assert.deepEqual(r, { status: 'ok', requestId: 'w', sourceId: 'lfo', outlet: 0, destId: 'filter', inlet: 1 });
  const c = max.world.callsOf('connect');
  assert.deepEqual(c.map((x) => [x.patcher, x.src, x.outlet, x.dst, x.inlet]), [['Flutter', 'lfo', 0, 'filter', 1]]);
  assert.equal(max.device().cords.length, 1);
});

test('wire with unknown ids names which end is unknown', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  err(max, '/lofi/wire', { requestId: 2, sourceId: 'nope', outlet: 0, destId: 'a', inlet: 0 }, /unknown source id 'nope'/);
  err(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: 0, destId: 'nope', inlet: 0 }, /unknown destination id 'nope'/);
  err(max, '/lofi/wire', { requestId: 4, outlet: 0, destId: 'a', inlet: 0 }, /source id must be a non-empty string/);
  assert.equal(max.world.callsOf('connect').length, 0);
});

test('wire refuses negative, fractional or missing outlet/inlet numbers before touching Max', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'b', class: 'dac~', x: 0, y: 60 });
  err(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: -1, destId: 'b', inlet: 0 }, /'outlet' must be an integer >= 0/);
  err(max, '/lofi/wire', { requestId: 4, sourceId: 'a', outlet: 0.5, destId: 'b', inlet: 0 }, /'outlet' must be an integer/);
  err(max, '/lofi/wire', { requestId: 5, sourceId: 'a', outlet: 0, destId: 'b' }, /'inlet' must be an integer >= 0.*got undefined/);
  err(max, '/lofi/wire', { requestId: 6, sourceId: 'a', outlet: '0', destId: 'b', inlet: 0 }, /'outlet' must be an integer/);
  assert.equal(max.world.callsOf('connect').length, 0);
});

test('wire to an outlet or inlet that does not exist: Max makes no cord, the daemon says so', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'b', class: 'dac~', x: 0, y: 60 });
  err(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: 3, destId: 'b', inlet: 0 }, /Max refused the connection 'a' outlet 3 -> 'b' inlet 0.*cycle~\) may have no outlet 3/);
  err(max, '/lofi/wire', { requestId: 4, sourceId: 'a', outlet: 0, destId: 'b', inlet: 2 }, /Max refused the connection.*no inlet 2/);
  err(max, '/lofi/wire', { requestId: 5, sourceId: 'b', outlet: 0, destId: 'a', inlet: 0 }, /Max refused/); // dac~ has no outlets
  assert.equal(ok(max, '/lofi/ping', { requestId: 6 }).wires, 0);
});

test('wiring the same cord twice is harmless and says so', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'b', class: 'dac~', x: 0, y: 60 });
  ok(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  const r = ok(max, '/lofi/wire', { requestId: 4, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  assert.equal(r.note, 'already connected');
  assert.equal(max.world.callsOf('connect').length, 1);
  assert.equal(max.device().cords.length, 1);
});

test('a cord deleted by hand in Max is made again by wire', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'b', class: 'dac~', x: 0, y: 60 });
  ok(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  max.device().cords = []; // the user deleted the cord
  const r = ok(max, '/lofi/wire', { requestId: 4, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  assert.equal(r.note, undefined);
  assert.equal(max.device().cords.length, 1);
});

test('unwire disconnects exactly that cord', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'b', class: 'dac~', x: 0, y: 60 });
  ok(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  ok(max, '/lofi/wire', { requestId: 4, sourceId: 'a', outlet: 0, destId: 'b', inlet: 1 });
  const r = ok(max, '/lofi/unwire', { requestId: 5, sourceId: 'a', outlet: 0, destId: 'b', inlet: 1 });
  assert.deepEqual(r, { status: 'ok', requestId: 5, sourceId: 'a', outlet: 0, destId: 'b', inlet: 1 });
  const d = max.world.callsOf('disconnect');
  assert.deepEqual(d.map((x) => [x.patcher, x.src, x.outlet, x.dst, x.inlet]), [['Flutter', 'a', 0, 'b', 1]]);
  assert.deepEqual(max.device().cords.map((c) => c.inlet), [0]);
  assert.equal(ok(max, '/lofi/ping', { requestId: 6 }).wires, 1);
});

test('unwire of a cord that does not exist, or of unknown ids, is an error', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'b', class: 'dac~', x: 0, y: 60 });
  ok(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  err(max, '/lofi/unwire', { requestId: 4, sourceId: 'a', outlet: 0, destId: 'b', inlet: 1 }, /no patch cord 'a' outlet 0 -> 'b' inlet 1; wires from 'a': 0->b:0/);
  err(max, '/lofi/unwire', { requestId: 5, sourceId: 'x', outlet: 0, destId: 'b', inlet: 0 }, /unknown source id 'x'/);
  err(max, '/lofi/unwire', { requestId: 6, sourceId: 'a', outlet: -2, destId: 'b', inlet: 0 }, /'outlet' must be an integer >= 0/);
  assert.equal(max.world.callsOf('disconnect').length, 0);
});

test('unwire of a cord already deleted by hand succeeds with a note', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'a', class: 'cycle~', x: 0, y: 0 });
  ok(max, '/lofi/create', { requestId: 2, id: 'b', class: 'dac~', x: 0, y: 60 });
  ok(max, '/lofi/wire', { requestId: 3, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  max.device().cords = [];
  const r = ok(max, '/lofi/unwire', { requestId: 4, sourceId: 'a', outlet: 0, destId: 'b', inlet: 0 });
  assert.match(r.note, /already gone/);
  assert.equal(ok(max, '/lofi/ping', { requestId: 5 }).wires, 0);
});

// ---- set / move --------------------------------------------------------------------------------

test('set sends object attributes as messages and box attributes through setboxattr', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'panel', class: 'live.panel', x: 0, y: 0 });
  let r = ok(max, '/lofi/set', { requestId: 2, id: 'panel', attr: 'bgcolor', value: [0.2, 0.2, 0.2, 1] });
  assert.deepEqual(r, { status: 'ok', requestId: 2, id: 'panel', attr: 'bgcolor', value: [0.2, 0.2, 0.2, 1] });
  const box = max.device().named('panel');
  assert.deepEqual(box.messages, [['bgcolor', 0.2, 0.2, 0.2, 1]]);
  ok(max, '/lofi/set', { requestId: 3, id: 'panel', attr: 'hidden', value: true });
  assert.equal(box.boxattrs.hidden, 1);
  ok(max, '/lofi/set', { requestId: 4, id: 'panel', attr: 'presentation_rect', value: [5, 6, 70, 80] });
  assert.deepEqual(box.boxattrs.presentation_rect, [5, 6, 70, 80]);
  ok(max, '/lofi/set', { requestId: 5, id: 'panel', attr: 'patching_rect', value: [1, 2, 30, 40] });
  assert.deepEqual(box.rect, [1, 2, 31, 42]);
  r = ok(max, '/lofi/move', { requestId: 6, id: 'panel', x: 100, y: 100 });
  assert.deepEqual(box.boxattrs.patching_rect, [100, 100, 30, 40], 'move keeps the size set earlier');
});

test('set refuses unknown ids, bad attribute names, object values and varname', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'osc', class: 'cycle~', x: 0, y: 0 });
  err(max, '/lofi/set', { requestId: 2, id: 'nope', attr: 'frequency', value: 1 }, /unknown object id 'nope'/);
  err(max, '/lofi/set', { requestId: 3, id: 'osc', attr: 'two words', value: 1 }, /'attr' must be an attribute name/);
  err(max, '/lofi/set', { requestId: 4, id: 'osc', attr: 'frequency' }, /'value' must be a number, string, boolean or list/);
  err(max, '/lofi/set', { requestId: 5, id: 'osc', attr: 'frequency', value: { hz: 1 } }, /'value' must be/);
  err(max, '/lofi/set', { requestId: 6, id: 'osc', attr: 'varname', value: 'x' }, /varname.*managed by the daemon/);
  assert.deepEqual(max.device().named('osc').messages, []);
});

test('move changes patching_rect and keeps the size; unknown ids are errors', () => {
  const max = initialised();
  ok(max, '/lofi/create', { requestId: 1, id: 'osc', class: 'cycle~', x: 10, y: 10 });
  const r = ok(max, '/lofi/move', { requestId: 2, id: 'osc', x: 200, y: 300 });
  assert.deepEqual(r, { status: 'ok', requestId: 2, id: 'osc', x: 200, y: 300, view: 'patching' });
  const box = max.device().named('osc');
  assert.deepEqual(box.boxattrs.patching_rect, [200, 300, 60, 22]);
  assert.equal(box.boxattrs.presentation_rect, undefined);
  err(max, '/lofi/move', { requestId: 3, id: 'ghost', x: 1, y: 1 }, /unknown object id 'ghost'/);
  err(max, '/lofi/move', { requestId: 4, id: 'osc', x: 'left', y: 1 }, /'x' must be a finite number/);
  err(max, '/lofi/move', { requestId: 5, id: 'osc', x: 1, y: 1, view: 'sideways' }, /'view' must be patching, presentation or both/);
  ok(max, '/lofi/move', { requestId: 6, id: 'osc', x: 5, y: 6, view: 'presentation' });
  assert.deepEqual(box.boxattrs.presentation_rect, [5, 6, 60, 22]);
  assert.deepEqual(box.boxattrs.patching_rect, [200, 300, 60, 22]);
});
