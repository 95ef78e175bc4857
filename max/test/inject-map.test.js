'use strict';
// /lofi/inject (compile an absolute .js path, never code) and /lofi/map, /lofi/unmap (real Live
// parameters: parameter_enable, _parameter_longname/_shortname, stored and reversible).
const test = require('node:test');
const assert = require('node:assert/strict');
const { createMax } = require('./max-mock.js');

function withObjects() {
  const max = createMax();
  const send = (address, payload) => {
    const r = max.request(address, payload);
    assert.equal(r.status, 'ok', `${address}: ${r.message}`);
    return r;
  };
  send('/lofi/init', { requestId: 0, deviceName: 'Flutter' });
  send('/lofi/create', { requestId: 1, id: 'engine', class: 'v8', x: 0, y: 0 });
  send('/lofi/create', { requestId: 2, id: 'legacy', class: 'js', x: 0, y: 40 });
  send('/lofi/create', { requestId: 3, id: 'osc', class: 'cycle~', x: 0, y: 80 });
  send('/lofi/create', { requestId: 4, id: 'dial_cutoff', class: 'live.dial', x: 100, y: 200 });
  send('/lofi/create', { requestId: 5, id: 'knob', class: 'dial', x: 200, y: 200 });
  return { max, box: (id) => max.device().named(id) };
}

function err(max, address, payload, pattern) {
  const r = max.request(address, payload);
  assert.equal(r.status, 'error', JSON.stringify(r));
  assert.equal(r.requestId, payload.requestId);
  assert.match(r.message, pattern);
}

// ---- inject ------------------------------------------------------------------------------------

test('inject sends compile with the absolute path to the v8 object, and nothing else', () => {
  const { max, box } = withObjects();
  const path = '/Users/me/project/Flutter_Engine.js';
  const r = max.request('/lofi/inject', { requestId: 'inj', targetId: 'engine', filePath: path });
  assert.deepEqual(r, { status: 'ok', requestId: 'inj', targetId: 'engine', file: path });
  assert.deepEqual(box('engine').messages, [['compile', path]]);
  assert.deepEqual(max.world.callsOf('message').map((c) => [c.target, c.name, c.args]), [['engine', 'compile', [path]]]);
});

test('inject works for [js] and accepts Windows and Max-style absolute paths', () => {
  const { max, box } = withObjects();
  for (const p of ['C:\\Users\\me\\engine.js', 'Macintosh HD:/Users/me/engine.js', '/tmp/with space/engine.mjs']) {
    const r = max.request('/lofi/inject', { requestId: p, targetId: 'legacy', filePath: p });
    assert.equal(r.status, 'ok', r.message);
  }
  assert.equal(box('legacy').messages.length, 3);
  assert.ok(box('legacy').messages.every((m) => m[0] === 'compile' && m.length === 2));
});

test('inject refuses code, relative paths, non-.js files, non-script targets and unknown ids', () => {
  const { max, box } = withObjects();
  err(max, '/lofi/inject', { requestId: 1, targetId: 'engine', filePath: 'function f() {\n post(1);\n}' }, /must be a file path, not code/);
  err(max, '/lofi/inject', { requestId: 2, targetId: 'engine', filePath: 'engine.js' }, /must be absolute/);
  err(max, '/lofi/inject', { requestId: 3, targetId: 'engine', filePath: '../engine.js' }, /must be absolute/);
  err(max, '/lofi/inject', { requestId: 4, targetId: 'engine', filePath: '/tmp/engine.txt' }, /must name a \.js file/);
  err(max, '/lofi/inject', { requestId: 5, targetId: 'osc', filePath: '/tmp/engine.js' }, /inject needs a v8 or js object; 'osc' is a cycle~/);
  err(max, '/lofi/inject', { requestId: 6, targetId: 'ghost', filePath: '/tmp/engine.js' }, /unknown target id 'ghost'/);
  err(max, '/lofi/inject', { requestId: 7, targetId: 'engine' }, /'filePath'.*non-empty string/);
  assert.deepEqual(box('engine').messages, []);
  assert.deepEqual(box('osc').messages, []);
});

// ---- map / unmap -------------------------------------------------------------------------------

test('map makes a live.* object the named Live parameter and stores the mapping', () => {
  const { max, box } = withObjects();
  const r = max.request('/lofi/map', { requestId: 'm', parameter: 'live.dial[cutoff]', objectId: 'dial_cutoff', property: 'value' });
  assert.deepEqual(r, { status: 'ok', requestId: 'm', parameter: 'live.dial[cutoff]', objectId: 'dial_cutoff',
    property: 'value', longname: 'live.dial[cutoff]', shortname: 'cutoff' });
  assert.deepEqual(box('dial_cutoff').messages, [['_parameter_longname', 'live.dial[cutoff]'], ['_parameter_shortname', 'cutoff']]);
  assert.equal(box('dial_cutoff').attrs._parameter_longname, 'live.dial[cutoff]');
  assert.equal(box('dial_cutoff').varname, 'dial_cutoff', 'varname stays the id so getnamed still finds it');
  assert.equal(max.request('/lofi/ping', { requestId: 'p' }).mappings, 1);
});

test('map turns parameter_enable on for a non-live UI object, before naming it', () => {
  const { max, box } = withObjects();
  const r = max.request('/lofi/map', { requestId: 'm', parameter: 'Rate', objectId: 'knob' });
  assert.equal(r.status, 'ok', r.message);
  assert.equal(r.property, 'value', 'property defaults to value');
  assert.deepEqual(box('knob').messages, [['parameter_enable', 1], ['_parameter_longname', 'Rate'], ['_parameter_shortname', 'Rate']]);
});

test('map refuses objects that cannot be parameters, unknown ids and conflicting mappings', () => {
  const { max, box } = withObjects();
  err(max, '/lofi/map', { requestId: 1, parameter: 'Freq', objectId: 'osc', property: 'value' }, /'osc' \(cycle~\) cannot be a Live parameter/);
  err(max, '/lofi/map', { requestId: 2, parameter: 'Freq', objectId: 'ghost', property: 'value' }, /unknown object id 'ghost'/);
  err(max, '/lofi/map', { requestId: 3, objectId: 'knob', property: 'value' }, /'parameter'.*non-empty string/);
  err(max, '/lofi/map', { requestId: 4, parameter: 'Freq', objectId: 'knob', property: 7 }, /'property'.*non-empty string/);
  assert.equal(max.request('/lofi/map', { requestId: 5, parameter: 'Cutoff', objectId: 'dial_cutoff', property: 'value' }).status, 'ok');
  err(max, '/lofi/map', { requestId: 6, parameter: 'Cutoff', objectId: 'knob', property: 'value' }, /'Cutoff' is already mapped to 'dial_cutoff'; send \/lofi\/unmap first/);
  err(max, '/lofi/map', { requestId: 7, parameter: 'Other', objectId: 'dial_cutoff', property: 'value' }, /'dial_cutoff' is already the parameter 'Cutoff'/);
  const again = max.request('/lofi/map', { requestId: 8, parameter: 'Cutoff', objectId: 'dial_cutoff', property: 'value' });
  assert.equal(again.status, 'ok');
  assert.equal(again.note, 'already mapped');
  assert.deepEqual(box('osc').messages, []);
  assert.equal(box('knob').messages.length, 0);
  assert.equal(max.request('/lofi/ping', { requestId: 9 }).mappings, 1);
});

test('unmap restores the previous name and turns off the parameter_enable it turned on', () => {
  const { max, box } = withObjects();
  box('dial_cutoff').attrs._parameter_longname = 'live.dial'; // Max's own default name
  max.request('/lofi/map', { requestId: 1, parameter: 'Cutoff', objectId: 'dial_cutoff', property: 'value' });
  max.request('/lofi/map', { requestId: 2, parameter: 'Rate', objectId: 'knob', property: 'value' });
  let r = max.request('/lofi/unmap', { requestId: 3, parameter: 'Cutoff' });
  assert.deepEqual(r, { status: 'ok', requestId: 3, parameter: 'Cutoff', objectId: 'dial_cutoff' });
  assert.deepEqual(box('dial_cutoff').messages.at(-1), ['_parameter_longname', 'live.dial']);
  r = max.request('/lofi/unmap', { requestId: 4, parameter: 'Rate' });
  assert.equal(r.status, 'ok');
  assert.deepEqual(box('knob').messages.at(-1), ['parameter_enable', 0]);
  assert.equal(max.request('/lofi/ping', { requestId: 5 }).mappings, 0);
  // the object can now take another parameter name
  assert.equal(max.request('/lofi/map', { requestId: 6, parameter: 'Other', objectId: 'dial_cutoff' }).status, 'ok');
});

test('unmap of a parameter that is not mapped is an error listing the mapped ones', () => {
  const { max } = withObjects();
  max.request('/lofi/map', { requestId: 1, parameter: 'Cutoff', objectId: 'dial_cutoff', property: 'value' });
  err(max, '/lofi/unmap', { requestId: 2, parameter: 'Nope' }, /parameter 'Nope' is not mapped; mapped parameters: Cutoff/);
  err(max, '/lofi/unmap', { requestId: 3 }, /'parameter'.*non-empty string/);
});
