'use strict';
// /lofi/ui: a batch of UI layers built by a global Task, one layer every 20 ms, in z order,
// answered once when the whole message is built; multi-part batches run in order.
const test = require('node:test');
const assert = require('node:assert/strict');
const { createMax } = require('./max-mock.js');

function initialised(options) {
  const max = createMax(options);
  const r = max.request('/lofi/init', { requestId: 'init', deviceName: 'Flutter' });
  assert.equal(r.status, 'ok', r.message);
  return max;
}

const layer = (name, cls, x, y, width, height, extra = {}) => Object.assign({ name, class: cls, x, y, width, height, args: [] }, extra);

// Deliberately unsorted: the daemon creates in ascending prefix order, no prefix = 50, stable.
const SEED_LAYERS = [
  layer('50_rate_dial', 'live.dial', 50, 100, 60, 80),
  layer('00_bg_panel', 'live.panel', 0, 0, 600, 400, { attrs: { bgcolor: [0.2, 0.2, 0.2, 1.0] } }),
  layer('75_label_rate', 'comment', 55, 185, 50, 20, { args: ['Rate'], attrs: { textcolor: [1, 1, 1, 1] } }),
  layer('bypass', 'live.toggle', 300, 20, 20, 20),
  layer('50_depth_dial', 'live.dial', 120, 100, 60, 80),
];
const Z_ORDER = ['00_bg_panel', '50_rate_dial', 'bypass', '50_depth_dial', '75_label_rate'];

function created(max) {
  return max.world.callsOf('newdefault').filter((c) => c.patcher === 'Flutter');
}

test('one layer per 20 ms tick, in z order, and one reply when the batch is complete', () => {
  const max = initialised();
  const immediate = max.send('/lofi/ui', { requestId: 'ui-1', layers: SEED_LAYERS });
  assert.deepEqual(immediate, [], 'no reply before the batch is built');
  assert.equal(created(max).length, 0, 'nothing is created synchronously');
  max.advance(19);
  assert.equal(created(max).length, 0);
  for (let n = 1; n <= SEED_LAYERS.length; n++) {
    max.advance(1);
    assert.equal(created(max).length, n, `after tick ${n}`);
    if (n < SEED_LAYERS.length) {
      assert.equal(max.replies.length, 1, 'still only the init reply');
      max.advance(19);
      assert.equal(created(max).length, n, 'never two layers in one tick');
    }
  }
  assert.deepEqual(created(max).map((c) => c.t), [20, 40, 60, 80, 100]);
  const boxes = max.device().boxes;
  assert.deepEqual(boxes.map((b) => b.varname), Z_ORDER, 'creation order is z order');
  assert.equal(max.replies.length, 2);
  assert.deepEqual(max.lastReply, { status: 'ok', requestId: 'ui-1', created: 5, part: 1, parts: 1, first: '00_bg_panel', last: '75_label_rate' });
  max.advance(1000);
  assert.equal(max.replies.length, 2, 'exactly one reply');
  assert.equal(created(max).length, 5);
});

test('each layer gets its size, presentation 1, presentation_rect and attributes, after newdefault', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'u', layers: SEED_LAYERS });
  max.advance(200);
  const dev = max.device();
  for (const l of SEED_LAYERS) {
    const box = dev.named(l.name);
    assert.ok(box, l.name);
    assert.equal(box.cls, l.class);
    assert.deepEqual(box.boxattrs.patching_rect, [l.x, l.y, l.width, l.height], l.name);
    assert.equal(box.boxattrs.presentation, 1, l.name);
    assert.deepEqual(box.boxattrs.presentation_rect, [l.x, l.y, l.width, l.height], l.name);
  }
  assert.deepEqual(dev.named('00_bg_panel').messages, [['bgcolor', 0.2, 0.2, 0.2, 1]]);
  assert.deepEqual(dev.named('75_label_rate').messages, [['textcolor', 1, 1, 1, 1], ['set', 'Rate']]);
  // the per-layer sequence: newdefault, varname, patching_rect, presentation, presentation_rect
  const seq = max.world.calls.filter((c) => c.t === 20 && c.op !== 'outlet')
    .map((c) => (c.op === 'setboxattr' ? c.name : c.op));
  assert.deepEqual(seq, ['newdefault', 'varname', 'patching_rect', 'presentation', 'presentation_rect', 'message']);
  const ping = max.request('/lofi/ping', { requestId: 'p' });
  assert.equal(ping.objects, 5);
});

test('the Task lives in the global uiTask, runs every 20 ms and stops when idle; it is reused', () => {
  const max = initialised();
  assert.equal(max.context.uiTask, null);
  max.send('/lofi/ui', { requestId: 'a', layers: SEED_LAYERS.slice(0, 2) });
  assert.equal(max.world.tasks.length, 1);
  const task = max.world.tasks[0];
  assert.equal(max.context.uiTask, task, 'kept in a global, so it is not garbage-collected');
  assert.equal(task.interval, 20);
  assert.equal(task.running, true);
  assert.deepEqual(max.world.callsOf('Task.repeat').map((c) => [c.initialdelay, c.interval]), [[20, 20]]);
  max.advance(40);
  assert.equal(max.lastReply.requestId, 'a');
  assert.equal(task.running, false, 'cancelled when there is no more UI work');
  max.send('/lofi/ui', { requestId: 'b', layers: [layer('90_x', 'live.dial', 0, 0, 10, 10)] });
  max.advance(20);
  assert.equal(max.lastReply.requestId, 'b');
  assert.equal(max.world.tasks.length, 1, 'the same Task is reused');
  assert.equal(task.executions, 3);
});

test('multi-part batches are queued and built in order, each part answered when built', () => {
  const max = initialised();
  const sorted = Z_ORDER.map((n) => SEED_LAYERS.find((l) => l.name === n));
  assert.deepEqual(max.send('/lofi/ui', { requestId: 'p1', part: 1, parts: 2, layers: sorted.slice(0, 3) }), []);
  assert.deepEqual(max.send('/lofi/ui', { requestId: 'p2', part: 2, parts: 2, layers: sorted.slice(3) }), []);
  max.advance(60);
  assert.deepEqual(max.replies.slice(1).map((r) => [r.requestId, r.created, r.part, r.parts]), [['p1', 3, 1, 2]]);
  max.advance(40);
  assert.deepEqual(max.replies.slice(1).map((r) => [r.requestId, r.created, r.part, r.parts]), [['p1', 3, 1, 2], ['p2', 2, 2, 2]]);
  assert.deepEqual(max.device().boxes.map((b) => b.varname), Z_ORDER);
  assert.deepEqual(created(max).map((c) => c.t), [20, 40, 60, 80, 100]);
});

test('parts out of order or with bad numbers are refused at once', () => {
  const max = initialised();
  let r = max.request('/lofi/ui', { requestId: 'x', part: 2, parts: 2, layers: [layer('a', 'live.dial', 0, 0, 5, 5)] });
  assert.equal(r.status, 'error');
  assert.match(r.message, /part 2 of 2 arrived out of order; expected part 1 first/);
  max.send('/lofi/ui', { requestId: 'p1', part: 1, parts: 3, layers: [layer('a', 'live.dial', 0, 0, 5, 5)] });
  r = max.request('/lofi/ui', { requestId: 'p3', part: 3, parts: 3, layers: [layer('c', 'live.dial', 0, 0, 5, 5)] });
  assert.match(r.message, /part 3 of 3 arrived out of order; expected part 2 of 3/);
  for (const [part, parts] of [[0, 2], [3, 2], [1.5, 2], ['1', 2], [1, 0]]) {
    r = max.request('/lofi/ui', { requestId: 'bad', part, parts, layers: [layer('z', 'live.dial', 0, 0, 5, 5)] });
    assert.match(r.message, /'part' and 'parts' must be integers with 1 <= part <= parts/, JSON.stringify([part, parts]));
  }
});

test('requests that arrive during a batch wait for it (arrival order); ping is answered at once', () => {
  const max = initialised();
  max.request('/lofi/create', { requestId: 'eng', id: 'engine', class: 'v8', x: 0, y: 300 });
  max.send('/lofi/ui', { requestId: 'ui', layers: [layer('10_dial', 'live.dial', 0, 0, 40, 40), layer('20_dial', 'live.dial', 50, 0, 40, 40)] });
  assert.deepEqual(max.send('/lofi/wire', { requestId: 'w', sourceId: 'engine', outlet: 0, destId: '20_dial', inlet: 0 }), []);
  assert.deepEqual(max.send('/lofi/set', { requestId: 's', id: '10_dial', attr: 'activedialcolor', value: [1, 0, 0, 1] }), []);
  const ping = max.request('/lofi/ping', { requestId: 'ping' });
  assert.equal(ping.uiPending, 2);
  assert.equal(ping.queued, 2);
  max.advance(20);
  assert.equal(max.request('/lofi/ping', { requestId: 'ping2' }).uiPending, 1);
  max.advance(20);
  const order = max.replies.map((r) => [r.requestId, r.status]);
  assert.deepEqual(order.slice(2), [['ping', 'ok'], ['ping2', 'ok'], ['ui', 'ok'], ['w', 'ok'], ['s', 'ok']]);
  assert.equal(max.device().cords.length, 1);
  assert.equal(max.context.uiTask.running, false);
});

test('a batch behind another batch starts on the next tick after the first one ends', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'a', layers: [layer('a1', 'live.dial', 0, 0, 5, 5)] });
  max.send('/lofi/create', { requestId: 'c', id: 'osc', class: 'cycle~', x: 0, y: 0 });
  max.send('/lofi/ui', { requestId: 'b', layers: [layer('b1', 'live.dial', 0, 0, 5, 5), layer('b2', 'live.dial', 0, 0, 5, 5)] });
  max.advance(100);
  assert.deepEqual(max.replies.slice(1).map((r) => r.requestId), ['a', 'c', 'b']);
  assert.deepEqual(created(max).map((c) => [c.cls, c.t]), [['live.dial', 20], ['cycle~', 20], ['live.dial', 40], ['live.dial', 60]]);
});

test('layer validation fails the whole message before anything is created', () => {
  const max = initialised();
  const cases = [
    [{ layers: [] }, /'layers' must be a non-empty array/],
    [{ layers: 'x' }, /'layers' must be a non-empty array/],
    [{ layers: [layer('a', 'live.dial', 0, 0, 5, 5), layer('a', 'live.dial', 0, 0, 5, 5)] }, /layer name 'a' appears twice/],
    [{ layers: [layer('a', 'live.dial', 0, 0, 5, 5), { name: 'b', class: 'live.dial', x: 0, y: 0, height: 5 }] }, /layers\[1\]: 'width' must be a finite number/],
    [{ layers: [layer('a', 'live.dial', 0, 0, 0, 5)] }, /layers\[0\]: 'width' must be greater than 0/],
    [{ layers: [layer('a', 'live.dial', 0, 0, 5, 5, { attrs: [1] })] }, /'attrs' must be an object/],
    [{ layers: [layer('a', 'live.dial', 0, 0, 5, 5, { attrs: { varname: 'x' } })] }, /varname/],
    [{ layers: [layer('a', 'live.dial', 0, 0, 5, 5, { attrs: { bgcolor: { r: 1 } } })] }, /attribute 'bgcolor' needs a number, string or list/],
    [{ layers: [layer('', 'live.dial', 0, 0, 5, 5)] }, /layers\[0\]: 'name'/],
    [{ layers: [7] }, /layers\[0\] must be an object/],
  ];
  cases.forEach(([payload, pattern], i) => {
    const r = max.request('/lofi/ui', Object.assign({ requestId: i }, payload));
    assert.equal(r.status, 'error', String(pattern));
    assert.equal(r.requestId, i);
    assert.match(r.message, pattern);
  });
  max.advance(500);
  assert.equal(created(max).length, 0);
  assert.equal(max.world.tasks.length, 0, 'no Task started for refused batches');
});

test('a layer name that is already an object id is a duplicate-id error; nothing is created', () => {
  const max = initialised();
  max.request('/lofi/create', { requestId: 1, id: '30_dial', class: 'live.dial', x: 0, y: 0 });
  max.send('/lofi/ui', { requestId: 'u', layers: [layer('10_ok', 'live.dial', 0, 0, 5, 5), layer('30_dial', 'live.dial', 0, 0, 5, 5)] });
  assert.equal(max.lastReply.status, 'error');
  assert.equal(max.lastReply.requestId, 'u');
  assert.match(max.lastReply.message, /duplicate id: layer '30_dial' already exists/);
  max.advance(100);
  assert.equal(created(max).length, 1);
});

test('a layer that fails mid-batch rolls back that message and skips the later parts', () => {
  const max = initialised();
  max.world.failNewdefault.add('live.slider');
  max.send('/lofi/ui', { requestId: 'p1', part: 1, parts: 2, layers: [
    layer('00_bg', 'live.panel', 0, 0, 100, 100), layer('10_a', 'live.dial', 0, 0, 5, 5),
    layer('20_bad', 'live.slider', 0, 0, 5, 50), layer('30_never', 'live.dial', 0, 0, 5, 5)] });
  max.send('/lofi/ui', { requestId: 'p2', part: 2, parts: 2, layers: [layer('40_b', 'live.dial', 0, 0, 5, 5)] });
  max.advance(60);
  const [r1, r2] = max.replies.slice(1);
  assert.equal(r1.status, 'error');
  assert.equal(r1.requestId, 'p1');
  assert.match(r1.message, /layer '20_bad' \(3 of 4\) failed: internal error: Error: newdefault: live.slider failed; the 2 layer\(s\) already created by this message were removed/);
  assert.equal(r2.status, 'error');
  assert.equal(r2.requestId, 'p2');
  assert.match(r2.message, /skipped: part 1 of this \/lofi\/ui batch failed/);
  assert.equal(max.device().count, 0, 'rolled back in Max');
  assert.deepEqual(max.world.callsOf('remove').map((c) => c.target), ['10_a', '00_bg']);
  assert.equal(max.request('/lofi/ping', { requestId: 'p' }).objects, 0);
  max.advance(200);
  assert.equal(created(max).length, 3, 'the 4th layer and part 2 were never built');
  assert.equal(max.context.uiTask.running, false);
});

test('an unknown class in a layer is reported with the layer name and rolled back', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'u', layers: [layer('10_ok', 'live.dial', 0, 0, 5, 5), layer('20_typo', 'live.dail', 0, 0, 5, 5)] });
  max.advance(40);
  assert.equal(max.lastReply.status, 'error');
  assert.match(max.lastReply.message, /layer '20_typo' \(2 of 2\) failed: Max does not know the class 'live.dail'/);
  assert.equal(max.device().count, 0);
});

test('a UI batch for an init queued behind it targets the new device', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'u1', layers: [layer('a', 'live.dial', 0, 0, 5, 5)] });
  max.send('/lofi/init', { requestId: 'i2', deviceName: 'Echo' });
  max.send('/lofi/ui', { requestId: 'u2', layers: [layer('a', 'live.dial', 0, 0, 5, 5)] });
  max.advance(100);
  assert.deepEqual(max.replies.slice(1).map((r) => [r.requestId, r.status]), [['u1', 'ok'], ['i2', 'ok'], ['u2', 'ok']]);
  const [flutter, echo] = max.root.boxes.map((b) => b.sub);
  assert.deepEqual([flutter.count, echo.count], [1, 1]);
});

test('notifydeleted (box deleted or script recompiled) cancels the Task', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'u', layers: SEED_LAYERS });
  max.advance(20);
  max.context.notifydeleted();
  assert.equal(max.context.uiTask.running, false);
  max.advance(500);
  assert.equal(created(max).length, 1);
});

test('a layer made by a later request lands among the earlier layers by its z prefix', () => {
  const max = initialised();
  max.send('/lofi/ui', { requestId: 'u1', layers: SEED_LAYERS });
  max.advance(200);
  // A second background and a top label, in one later request.
  max.send('/lofi/ui', { requestId: 'u2', layers: [
    layer('01_bg2', 'live.panel', 0, 0, 300, 170),
    layer('80_top', 'comment', 10, 10, 50, 20, { args: ['Top'] }),
  ] });
  max.advance(200);
  assert.equal(max.lastReply.status, 'ok', max.lastReply.message);
  const boxes = max.device().boxes.map((b) => b.varname);
  assert.deepEqual(boxes, ['00_bg_panel', '01_bg2', '50_rate_dial', 'bypass', '50_depth_dial',
    '75_label_rate', '80_top']);
  assert.ok(max.world.callsOf('bringtofront').length > 0, 'restacked with patcher.bringtofront');
  // A layer above every existing one restacks nothing.
  const before = max.world.callsOf('bringtofront').length;
  max.send('/lofi/ui', { requestId: 'u3', layers: [layer('90_last', 'comment', 0, 0, 10, 10)] });
  max.advance(100);
  assert.equal(max.world.callsOf('bringtofront').length, before);
});
