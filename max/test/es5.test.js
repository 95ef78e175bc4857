'use strict';
// lofi-daemon.js must run in the legacy [js] object (ES5) as well as in [v8]: no modules, no
// ES2015+ syntax, no ES2015+ built-ins. Checked two ways: a syntax scan of the source with
// comments and literals removed, and a full session in a context whose ES2015+ built-ins
// were deleted.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const vm = require('node:vm');
const { createMax, SCRIPT_PATH } = require('./max-mock.js');

const SOURCE = fs.readFileSync(SCRIPT_PATH, 'utf8');

// Replaces comments, string literals and regular-expression literals by spaces, keeping code.
function codeOnly(src) {
  let out = '';
  let i = 0;
  let lastSignificant = '';
  const regexCanStart = () => lastSignificant === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(lastSignificant) ||
    /\b(return|typeof|case|in|of|new|delete|void|throw)$/.test(lastSignificant);
  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (c === '/' && next === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      assert.notEqual(end, -1, 'unterminated comment');
      i = end + 2;
      out += ' ';
    } else if (c === '"' || c === "'" || c === '`') {
      const quote = c;
      i++;
      while (i < src.length && src[i] !== quote) i += src[i] === '\\' ? 2 : 1;
      i++;
      out += quote === '`' ? '`' : '""'; // keep template literals visible to the scan
      lastSignificant = '"';
    } else if (c === '/' && regexCanStart()) {
      i++;
      let inClass = false;
      while (i < src.length && (inClass || src[i] !== '/')) {
        if (src[i] === '\\') i++;
        else if (src[i] === '[') inClass = true;
        else if (src[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (/[a-z]/.test(src[i] || '')) i++;
      out += '/re/';
      lastSignificant = '/';
    } else {
      out += c;
      if (!/\s/.test(c)) lastSignificant = (lastSignificant + c).slice(-12);
      i++;
    }
  }
  return out;
}

const FORBIDDEN = [
  [/\blet\s+[A-Za-z_$[{]/, 'let'],
  [/\bconst\s+[A-Za-z_$[{]/, 'const'],
  [/=>/, 'arrow function'],
  [/`/, 'template literal'],
  [/\bclass\s+[A-Za-z_$]/, 'class'],
  [/\.\.\./, 'spread/rest'],
  [/\bimport\b/, 'import'],
  [/\bexport\b/, 'export'],
  [/\brequire\s*\(/, 'require'],
  [/\bmodule\.exports\b/, 'module.exports'],
  [/\bfor\s*\([^;)]*\bof\b/, 'for...of'],
  [/\basync\b|\bawait\b|\byield\b/, 'async/generators'],
  [/\bfunction\s*\*/, 'generator'],
  [/\bnew\s+(Map|Set|WeakMap|WeakSet|Promise|Proxy)\b|\bSymbol\s*\(|\bReflect\./, 'ES2015 built-in'],
  // (.repeat is not listed: Task.repeat is Max API; String#repeat is caught by the runtime test)
  [/\.(includes|startsWith|endsWith|padStart|padEnd|find|findIndex|fill)\s*\(/, 'ES2015+ method'],
  [/\b(Object\.(assign|entries|values)|Array\.(from|of)|Number\.(isInteger|isFinite|isNaN))\b/, 'ES2015+ static'],
  [/\bglobalThis\b/, 'globalThis'],
  [/\?\.|\?\?/, 'optional chaining / nullish'],
];

test('the scanner itself sees through comments, strings and regexes', () => {
  const code = codeOnly('var a = "let x = 1"; // const y\n/* => */ var r = /`x`/g; var b = a / 2;');
  assert.doesNotMatch(code, /let|const|=>|`/);
  assert.match(code, /var b = a \/ 2/);
  assert.match(codeOnly('var f = (a) => a;'), /=>/);
});

test('lofi-daemon.js uses ES5 syntax only and no module system', () => {
  const code = codeOnly(SOURCE);
  const found = FORBIDDEN.filter(([re]) => re.test(code)).map(([, what]) => what);
  assert.deepEqual(found, []);
  assert.doesNotMatch(code, /\bnew\s+Patcher\s*\(/, 'devices are subpatchers, never new Patcher()');
});

test('the script runs a whole session where ES2015+ built-ins do not exist', () => {
  const max = createMax({ es5: true });
  assert.equal(vm.runInContext('typeof Object.assign + typeof Map + typeof [].includes', max.context), 'undefinedundefinedundefined');
  const steps = [
    ['/lofi/ping', {}],
    ['/lofi/init', { deviceName: 'Flutter', width: 600, height: 400 }],
    ['/lofi/create', { id: 'engine', class: 'v8', x: 10, y: 10, width: 120, height: 22 }],
    ['/lofi/create', { id: 'osc', class: 'cycle~', x: 10, y: 60, args: [220] }],
    ['/lofi/create', { id: 'out', class: 'plugout~', x: 10, y: 120 }],
    ['/lofi/wire', { sourceId: 'osc', outlet: 0, destId: 'out', inlet: 0 }],
    ['/lofi/wire', { sourceId: 'osc', outlet: 0, destId: 'out', inlet: 1 }],
    ['/lofi/inject', { targetId: 'engine', filePath: '/tmp/engine.js' }],
    ['/lofi/ui', { layers: [{ name: '30_rate', class: 'live.dial', x: 50, y: 50, width: 40, height: 48, attrs: { activedialcolor: [1, 0, 0, 1] } },
      { name: '00_bg', class: 'live.panel', x: 0, y: 0, width: 300, height: 170 }] }],
    ['/lofi/map', { parameter: 'live.dial[rate]', objectId: '30_rate', property: 'value' }],
    ['/lofi/set', { id: '00_bg', attr: 'bgcolor', value: [0.1, 0.1, 0.1, 1] }],
    ['/lofi/move', { id: '30_rate', x: 60, y: 50 }],
    ['/lofi/unmap', { parameter: 'live.dial[rate]' }],
    ['/lofi/unwire', { sourceId: 'osc', outlet: 0, destId: 'out', inlet: 1 }],
    ['/lofi/remove', { id: 'osc' }],
  ];
  steps.forEach(([address, payload], i) => max.send(address, Object.assign({ requestId: `s${i}` }, payload)));
  max.advance(100);
  const byId = new Map(max.replies.map((r) => [r.requestId, r]));
  steps.forEach(([address], i) => {
    const r = byId.get(`s${i}`);
    assert.ok(r, `${address} answered`);
    assert.equal(r.status, 'ok', `${address}: ${r.message}`);
  });
  assert.equal(max.replies.length, steps.length);
  const last = max.request('/lofi/ping', { requestId: 'end' });
  assert.deepEqual([last.objects, last.wires, last.mappings], [4, 0, 0]);
  assert.deepEqual(max.world.posts, [], 'no internal errors posted');
});

test('the UI Task is held by a top-level (global) variable', () => {
  assert.match(SOURCE, /^var uiTask = null;/m);
  assert.match(SOURCE, /uiTask = new Task\(uiTick, self\);/);
  const max = createMax();
  max.send('/lofi/init', { deviceName: 'D' });
  max.send('/lofi/ui', { layers: [{ name: 'a', class: 'live.dial', x: 0, y: 0, width: 5, height: 5 }] });
  assert.equal(Object.getOwnPropertyDescriptor(max.context, 'uiTask').value, max.world.tasks[0]);
});

test('an ES5 parser accepts the script (Node\'s bundled acorn, ecmaVersion 5)', (t) => {
  const { spawnSync } = require('node:child_process');
  const probe = `
    let acorn;
    try { acorn = require('internal/deps/acorn/acorn/dist/acorn'); } catch (e) { process.exit(77); }
    const src = require('fs').readFileSync(process.argv[1], 'utf8');
    try { acorn.parse('let a = 1;', { ecmaVersion: 5 }); process.exit(3); } catch (e) { /* control: ES6 refused */ }
    try { acorn.parse(src, { ecmaVersion: 5, sourceType: 'script' }); } catch (e) { console.log(e.message); process.exit(1); }`;
  const r = spawnSync(process.execPath, ['--expose-internals', '--no-warnings', '-e', probe, SCRIPT_PATH], { encoding: 'utf8' });
  if (r.status === 77) {
    t.skip('this Node does not bundle acorn where expected');
    return;
  }
  assert.equal(r.status, 0, `ES5 parse failed: ${r.stdout}${r.stderr}`);
});
