'use strict';
// A small mock of the Max JavaScript API ([js]/[v8]) that records every call, for running
// lofi-daemon.js under Node. It models what the daemon relies on:
//   Patcher: newdefault, connect, disconnect, remove, getnamed, bringtofront (boxes are in z-order),
//            count, wind{bringtofront,size,visible},
//            message (thispatcher's messages: "script newobject MAXCLASS @text … @attr values …"
//            makes a box as a file describes it: a newobj from its text, any other class with
//            its text and attributes kept in `text` and `created`; any other message is kept as
//            a patcher attribute in `attrs`)
//   Maxobj:  maxclass, varname, rect, valid, message, setboxattr/getboxattr, getattr/setattr,
//            getattrnames, subpatcher, patchcords{inputs,outputs}
//   Task:    interval, repeat(n, initialdelay), cancel, running — time only moves via advance(ms)
//   globals: outlet, post, messagename, and a `Patcher` constructor that records any use.
// Like Max, connect() with an outlet/inlet that does not exist silently makes no cord, and
// newdefault() of an unknown class makes a broken box whose maxclass is "newobj". A p or
// bpatcher has the inlets and outlets of the inlet and outlet boxes inside it (none when
// empty).
// Atoms are typed as Max types them: a JS number crossing the JS bridge becomes an int atom when
// it is whole (100.0 → int 100) and a float otherwise; text Max parses ("/ 100.") keeps a float
// written with a point. Every box keeps its typed arguments in `atoms`.

const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const SCRIPT_PATH = path.join(__dirname, '..', 'lofi-daemon.js');

const PARAM_ATTRS = ['parameter_enable', '_parameter_longname', '_parameter_shortname'];
const LIVE_ATTRS = ['_parameter_longname', '_parameter_shortname', '_parameter_type',
  '_parameter_range', '_parameter_unitstyle', '_parameter_initial', '_parameter_initial_enable'];

// A JS value as the atom Max's JS bridge makes of it.
function bridgeAtom(value) {
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'int' : 'float', value };
  if (typeof value === 'boolean') return { type: 'int', value: value ? 1 : 0 };
  return { type: 'symbol', value: String(value) };
}

// The atoms of a box text as Max parses it: "100." and "2e2" are floats, "100" an int.
function parseAtoms(text) {
  const atoms = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let m;
  while ((m = pattern.exec(text)) !== null) {
    if (m[1] !== undefined) {
      atoms.push({ type: 'symbol', value: m[1] });
    } else if (/^[-+]?\d+$/.test(m[2])) {
      atoms.push({ type: 'int', value: Number(m[2]) });
    } else if (/^[-+]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+)$/.test(m[2])) {
      atoms.push({ type: 'float', value: Number(m[2]) });
    } else {
      atoms.push({ type: 'symbol', value: m[2] });
    }
  }
  return atoms;
}

// Inlet/outlet counts and attribute names of the classes the tests use.
const CLASSES = {
  p: { inlets: 0, outlets: 0, maxclass: 'patcher', attrs: [] },
  bpatcher: { inlets: 0, outlets: 0, attrs: ['name', 'embed'] },
  inlet: { inlets: 0, outlets: 1, attrs: ['comment'] },
  outlet: { inlets: 1, outlets: 0, attrs: ['comment'] },
  '+': { inlets: 2, outlets: 1, attrs: [] },
  loadmess: { inlets: 1, outlets: 1, attrs: [] },
  'live.numbox': { inlets: 1, outlets: 2, attrs: ['bgcolor'].concat(LIVE_ATTRS) },
  'live.comment': { inlets: 1, outlets: 0, attrs: ['textcolor'] },
  textedit: { inlets: 1, outlets: 4, attrs: ['keymode'] },
  'cycle~': { inlets: 2, outlets: 1, attrs: ['frequency', 'phase'] },
  '/': { inlets: 2, outlets: 1, attrs: [] },
  'plugin~': { inlets: 2, outlets: 2, attrs: [] },
  'delay~': { inlets: 2, outlets: 1, attrs: ['maxsize'] },
  panel: { inlets: 1, outlets: 0, attrs: ['bgcolor', 'bordercolor'] },
  'lores~': { inlets: 3, outlets: 1, attrs: [] },
  '*~': { inlets: 2, outlets: 1, attrs: [] },
  'dac~': { inlets: 2, outlets: 0, attrs: [] },
  'plugout~': { inlets: 2, outlets: 0, attrs: [] },
  metro: { inlets: 2, outlets: 1, attrs: ['interval', 'active'] },
  print: { inlets: 1, outlets: 0, attrs: [] },
  message: { inlets: 2, outlets: 1, attrs: ['bgcolor', 'textcolor'] },
  comment: { inlets: 1, outlets: 0, attrs: ['textcolor', 'fontsize'] },
  v8: { inlets: 1, outlets: 1, attrs: ['parameter_enable'] },
  js: { inlets: 1, outlets: 1, attrs: ['parameter_enable'] },
  dial: { inlets: 1, outlets: 1, attrs: ['size', 'bgcolor'].concat(PARAM_ATTRS) },
  toggle: { inlets: 1, outlets: 1, attrs: ['bgcolor'].concat(PARAM_ATTRS) },
  'live.dial': { inlets: 1, outlets: 2, attrs: ['bgcolor', 'activedialcolor'].concat(LIVE_ATTRS) },
  'live.slider': { inlets: 1, outlets: 2, attrs: ['bgcolor'].concat(LIVE_ATTRS) },
  'live.toggle': { inlets: 1, outlets: 1, attrs: ['bgcolor'].concat(LIVE_ATTRS) },
  'live.panel': { inlets: 1, outlets: 0, attrs: ['bgcolor', 'bordercolor'] },
  'live.text': { inlets: 1, outlets: 2, attrs: ['text'].concat(LIVE_ATTRS) },
};

class World {
  constructor() {
    this.calls = [];        // every recorded call, in order: {op, ...}
    this.outlets = [];      // every outlet() call: {index, args}
    this.replies = [];      // parsed JSON of every /lofi/reply
    this.posts = [];
    this.tasks = [];
    this.now = 0;
    this.failNewdefault = new Set(); // classes for which newdefault throws (simulates a Max failure)
  }
  record(op, fields) {
    this.calls.push(Object.assign({ op, t: this.now }, fields));
  }
  callsOf(op) {
    return this.calls.filter((c) => c.op === op);
  }
}

class MockWind {
  constructor(world, patcher) {
    this.world = world;
    this.patcher = patcher;
    this._size = [400, 300];
    this._visible = 0;
  }
  get size() { return this._size.slice(); }
  set size(v) { this._size = Array.from(v); this.world.record('wind.size', { patcher: this.patcher.name, value: this.size }); }
  get visible() { return this._visible; }
  set visible(v) { this.world.record('wind.visible', { patcher: this.patcher.name, value: v }); this._visible = v; }
  bringtofront() { this.world.record('wind.bringtofront', { patcher: this.patcher.name }); }
}

class MockMaxobj {
  constructor(world, patcher, x, y, cls, args) {
    const spec = CLASSES[cls];
    this.world = world;
    this.patcher = patcher;
    this.cls = cls;
    this.args = args;
    this.atoms = args.map(bridgeAtom);
    this.maxclass = spec ? (spec.maxclass || cls) : 'newobj';
    this.inletsOfClass = spec ? spec.inlets : 0; // Max's Maxobj exposes no counts: kept private
    this.outletsOfClass = spec ? spec.outlets : 0;
    this.attrNames = spec ? spec.attrs.slice() : [];
    this.rect = [x, y, x + 60, y + 22]; // newdefault's own default size, not the requested one
    this.valid = true;
    this._varname = '';
    this.messages = [];   // [name, ...args] for every message()
    this.boxattrs = {};
    this.attrs = cls.startsWith('live.') && this.attrNames.includes('_parameter_range')
      ? { _parameter_range: [0, 127] } : {};
    this.sub = cls === 'p' || cls === 'bpatcher' ? new MockPatcher(world, args.join(' ')) : null;
    if (this.sub) this.sub.box = this;
  }
  get numinletsHidden() {
    return this.sub ? this.sub.boxes.filter((b) => b.cls === 'inlet').length : this.inletsOfClass;
  }
  get numoutletsHidden() {
    return this.sub ? this.sub.boxes.filter((b) => b.cls === 'outlet').length : this.outletsOfClass;
  }
  get varname() { return this._varname; }
  set varname(v) {
    this.world.record('varname', { cls: this.cls, value: v });
    this._varname = v;
  }
  message(name, ...args) {
    this.world.record('message', { target: this._varname, cls: this.cls, name, args, atoms: args.map(bridgeAtom) });
    this.messages.push([name, ...args]);
    if (name === 'patching_rect' && args.length === 4) this.applyRect(args);
    this.attrs[name] = args.length === 1 ? args[0] : args;
  }
  setboxattr(name, ...args) {
    this.world.record('setboxattr', { target: this._varname, cls: this.cls, name, args });
    this.boxattrs[name] = args.length === 1 ? args[0] : args;
    if (name === 'patching_rect' && args.length === 4) this.applyRect(args);
  }
  getboxattr(name) {
    if (name === 'patching_rect') return [this.rect[0], this.rect[1], this.rect[2] - this.rect[0], this.rect[3] - this.rect[1]];
    return this.boxattrs[name];
  }
  getattr(name) { return this.attrs[name]; }
  setattr(name, ...args) {
    this.world.record('setattr', { target: this._varname, name, args });
    this.attrs[name] = args.length === 1 ? args[0] : args;
  }
  getattrnames() { return this.attrNames.slice(); }
  applyRect([x, y, w, h]) { this.rect = [x, y, x + w, y + h]; }
  subpatcher(index) {
    this.world.record('subpatcher', { cls: this.cls, index });
    return this.sub;
  }
  get patchcords() {
    const conn = (c) => ({ srcobject: c.src, srcoutlet: c.outlet, dstobject: c.dst, dstinlet: c.inlet });
    return {
      inputs: this.patcher.cords.filter((c) => c.dst === this).map(conn),
      outputs: this.patcher.cords.filter((c) => c.src === this).map(conn),
    };
  }
}

class MockPatcher {
  constructor(world, name) {
    this.world = world;
    this.name = name;
    this.boxes = [];
    this.cords = [];
    this.box = null;
    this.attrs = {};
    this.wind = new MockWind(world, this);
  }
  // thispatcher's messages. `script newobject MAXCLASS @text TEXT @varname V @patching_rect X Y W
  // H @attr values …` makes a box as a file describes it: a newobj from TEXT, which Max parses
  // (typed atoms), another class with TEXT as its text; every @attribute is kept in `created`.
  // Other messages set patcher attributes.
  message(name, ...args) {
    this.world.record('patcher.message', { patcher: this.name, name, args });
    if (name === 'script' && args[0] === 'newobject') {
      const maxclass = String(args[1]);
      const created = {};
      let key = null;
      for (const arg of args.slice(2)) {
        if (typeof arg === 'string' && arg.length > 1 && arg.startsWith('@')) {
          key = arg.slice(1);
          created[key] = [];
        } else if (key !== null) {
          created[key].push(arg);
        }
      }
      const text = created.text ? String(created.text[0]) : undefined;
      const atoms = maxclass === 'newobj' ? parseAtoms(text || '') : [];
      const cls = maxclass === 'newobj' ? (atoms.length ? String(atoms[0].value) : '') : maxclass;
      const place = created.patching_rect || created.patching_position || [0, 0];
      const obj = new MockMaxobj(this.world, this, place[0], place[1], cls, atoms.slice(1).map((a) => a.value));
      obj.atoms = atoms.slice(1);
      obj.text = text;
      obj.created = created;
      if (created.patching_rect) obj.applyRect(created.patching_rect);
      if (created.varname) obj._varname = String(created.varname[0]);
      this.boxes.push(obj);
      return;
    }
    this.attrs[name] = args.length === 1 ? args[0] : args;
  }
  get count() { return this.boxes.length; }
  newdefault(x, y, cls, ...args) {
    this.world.record('newdefault', { patcher: this.name, x, y, cls, args, atoms: args.map(bridgeAtom) });
    if (this.world.failNewdefault.has(cls)) throw new Error(`newdefault: ${cls} failed`);
    const obj = new MockMaxobj(this.world, this, x, y, cls, args);
    this.boxes.push(obj);
    return obj;
  }
  connect(src, outlet, dst, inlet) {
    this.world.record('connect', { patcher: this.name, src: src._varname, outlet, dst: dst._varname, inlet });
    if (!this.boxes.includes(src) || !this.boxes.includes(dst)) return;
    if (outlet >= src.numoutletsHidden || inlet >= dst.numinletsHidden) return; // Max: silently no cord
    if (this.cords.some((c) => c.src === src && c.outlet === outlet && c.dst === dst && c.inlet === inlet)) return;
    this.cords.push({ src, outlet, dst, inlet });
  }
  disconnect(src, outlet, dst, inlet) {
    this.world.record('disconnect', { patcher: this.name, src: src._varname, outlet, dst: dst._varname, inlet });
    this.cords = this.cords.filter((c) => !(c.src === src && c.outlet === outlet && c.dst === dst && c.inlet === inlet));
  }
  remove(obj) {
    this.world.record('remove', { patcher: this.name, target: obj._varname, cls: obj.cls });
    obj.valid = false;
    this.boxes = this.boxes.filter((b) => b !== obj);
    this.cords = this.cords.filter((c) => c.src !== obj && c.dst !== obj);
  }
  // Z-order is the order of the boxes: bringtofront moves a box to the end (drawn last, on top).
  bringtofront(obj) {
    this.world.record('bringtofront', { patcher: this.name, target: obj._varname });
    if (!this.boxes.includes(obj)) return;
    this.boxes = this.boxes.filter((b) => b !== obj).concat([obj]);
  }
  getnamed(name) {
    this.world.record('getnamed', { patcher: this.name, name });
    return this.boxes.find((b) => b._varname === name) || null;
  }
  named(name) { return this.boxes.find((b) => b._varname === name) || null; } // test helper, unrecorded
}

class MockTask {
  constructor(world, fn, obj, args) {
    this.world = world;
    this.fn = fn;
    this.obj = obj;
    this.args = args;
    this.interval = 500;
    this.running = false;
    this.remaining = 0;
    this.nextAt = 0;
    this.generation = 0;
    this.executions = 0;
    world.tasks.push(this);
    world.record('Task.new', {});
  }
  repeat(n, initialdelay) {
    this.world.record('Task.repeat', { n, initialdelay, interval: this.interval });
    this.running = true;
    this.generation++;
    this.remaining = n === undefined || n < 0 ? Infinity : n;
    this.nextAt = this.world.now + (initialdelay === undefined ? this.interval : initialdelay);
  }
  cancel() {
    this.world.record('Task.cancel', {});
    this.running = false;
  }
  execute() { this.fn.apply(this.obj, this.args || []); }
}

// Loads the daemon script in a fresh vm context with the mock globals.
// options.es5: delete ES2015+ built-ins from the context first, so a stray use fails.
function createMax(options = {}) {
  const world = new World();
  const root = new MockPatcher(world, 'daemon');
  const context = {
    patcher: root,
    messagename: undefined,
    jsarguments: ['lofi-daemon.js'],
    outlet(index, ...args) {
      world.outlets.push({ index, args });
      world.record('outlet', { index, args });
      if (args[0] === '/lofi/reply') world.replies.push(JSON.parse(args[1]));
    },
    post(...args) { world.posts.push(args.join(' ')); },
    Task: function Task(fn, obj, ...args) { return new MockTask(world, fn, obj, args); },
    Patcher: function Patcher() { world.record('new Patcher', {}); return new MockPatcher(world, 'detached'); },
  };
  vm.createContext(context);
  if (options.es5) {
    vm.runInContext(`
      delete Array.prototype.includes; delete Array.prototype.find; delete Array.prototype.findIndex;
      delete Array.prototype.fill; delete Array.from; delete Array.of; delete Object.assign;
      delete Object.entries; delete Object.values; delete String.prototype.startsWith;
      delete String.prototype.endsWith; delete String.prototype.includes; delete String.prototype.repeat;
      delete String.prototype.padStart; delete String.prototype.padEnd; delete Number.isInteger;
      delete Number.isFinite; delete globalThis.Map; delete globalThis.Set; delete globalThis.WeakMap;
      delete globalThis.Promise; delete globalThis.Symbol; delete globalThis.Reflect; delete globalThis.Proxy;
    `, context);
  }
  const source = fs.readFileSync(SCRIPT_PATH, 'utf8');
  vm.runInContext(source, context, { filename: SCRIPT_PATH });

  const max = {
    world,
    context,
    root,
    get replies() { return world.replies; },
    get lastReply() { return world.replies[world.replies.length - 1]; },
    // Sends one OSC message as [udpreceive] delivers it: messagename = address, then the atoms.
    sendRaw(address, ...atoms) {
      context.messagename = address;
      context.anything(...atoms);
    },
    // Sends a request with a JSON payload; returns the replies it produced synchronously.
    send(address, payload) {
      const before = world.replies.length;
      max.sendRaw(address, typeof payload === 'string' ? payload : JSON.stringify(payload));
      return world.replies.slice(before);
    },
    // Sends and expects exactly one immediate reply.
    request(address, payload) {
      const got = max.send(address, payload);
      if (got.length !== 1) throw new Error(`${address}: expected one reply, got ${JSON.stringify(got)}`);
      return got[0];
    },
    // Moves scheduler time forward, running due Task callbacks in time order.
    advance(ms) {
      const end = world.now + ms;
      for (;;) {
        const due = world.tasks.filter((t) => t.running && t.nextAt <= end)
          .sort((a, b) => a.nextAt - b.nextAt)[0];
        if (!due) break;
        world.now = due.nextAt;
        const generation = due.generation;
        due.executions++;
        due.execute();
        if (due.running && due.generation === generation) {
          due.remaining--;
          if (due.remaining <= 0) due.running = false;
          else due.nextAt += due.interval;
        }
      }
      world.now = end;
    },
    // The device subpatcher made by /lofi/init (the most recent one).
    device() {
      const boxes = root.boxes.filter((b) => b.cls === 'p');
      return boxes.length ? boxes[boxes.length - 1].sub : null;
    },
  };
  return max;
}

module.exports = { createMax, CLASSES, SCRIPT_PATH, MockPatcher, MockMaxobj, MockTask, bridgeAtom, parseAtoms };

// Run as a file by `node --test test/` (every .js under test/ is a test file): check that the
// mock itself behaves like Max where the daemon's tests depend on it.
if (require.main === module) {
  const test = require('node:test');
  const assert = require('node:assert/strict');

  test('mock: connect to a missing outlet/inlet silently makes no cord, like Max', () => {
    const world = new World();
    const p = new MockPatcher(world, 'x');
    const a = p.newdefault(0, 0, 'cycle~');
    const b = p.newdefault(0, 0, 'dac~');
    p.connect(a, 1, b, 0);
    p.connect(a, 0, b, 2);
    p.connect(b, 0, a, 0);
    assert.equal(p.cords.length, 0);
    p.connect(a, 0, b, 1);
    assert.deepEqual(a.patchcords.outputs.map((c) => [c.srcoutlet, c.dstobject === b, c.dstinlet]), [[0, true, 1]]);
    assert.equal(b.patchcords.inputs.length, 1);
    p.remove(b);
    assert.equal(b.valid, false);
    assert.equal(p.cords.length, 0);
  });

  test('mock: an unknown class gives a broken box (maxclass newobj); p has a subpatcher', () => {
    const world = new World();
    const p = new MockPatcher(world, 'x');
    assert.equal(p.newdefault(0, 0, 'nosuch~').maxclass, 'newobj');
    const sub = p.newdefault(10, 10, 'p', 'Dev');
    assert.equal(sub.maxclass, 'patcher');
    assert.equal(sub.subpatcher().name, 'Dev');
    assert.equal(p.newdefault(0, 0, 'cycle~').subpatcher(), null);
  });

  test('mock: numbers cross the JS bridge as Max types them; text keeps a float written with a point', () => {
    assert.deepEqual([100, 100.0, 0.5, 'x', true].map(bridgeAtom).map((a) => a.type), ['int', 'int', 'float', 'symbol', 'int']);
    assert.deepEqual(parseAtoms('/ 100. 2 "two words" 2e2 -3'), [
      { type: 'symbol', value: '/' }, { type: 'float', value: 100 }, { type: 'int', value: 2 },
      { type: 'symbol', value: 'two words' }, { type: 'float', value: 200 }, { type: 'int', value: -3 }]);
    const world = new World();
    const p = new MockPatcher(world, 'x');
    assert.deepEqual(p.newdefault(0, 0, '/', 100.0).atoms, [{ type: 'int', value: 100 }]);
    p.message('script', 'newobject', 'newobj', '@text', '/ 100.', '@varname', 'half', '@patching_position', 5, 6);
    const half = p.getnamed('half');
    assert.deepEqual(half.atoms, [{ type: 'float', value: 100 }]);
    assert.deepEqual([half.cls, half.rect[0], half.rect[1]], ['/', 5, 6]);
  });

  test('mock: Task.repeat(n, initialdelay) runs on time, cancel stops it, time moves only on advance', () => {
    const max = createMax();
    const times = [];
    const task = new max.context.Task(() => times.push(max.world.now), null);
    task.interval = 20;
    task.repeat(3, 5);
    max.advance(4);
    assert.deepEqual(times, []);
    max.advance(100);
    assert.deepEqual(times, [5, 25, 45]);
    assert.equal(task.running, false);
    task.repeat(-1, 0);
    max.advance(40);
    task.cancel();
    max.advance(100);
    assert.deepEqual(times, [5, 25, 45, 104, 124, 144]);
  });
}
