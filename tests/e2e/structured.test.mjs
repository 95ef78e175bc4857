// Structured query answers through the official MCP TypeScript SDK client (v1), which validates
// every structuredContent of a tool with an outputSchema against that schema (with ajv) and
// rejects a successful result without one: the real `fcpd` (every domain) over stdio, the query
// kinds map, stats, describe and list of drawio, midi and lofi, and an `other` query; typed
// fields (numbers, booleans), total and truncated.
// Run: FCPD_REAL=…/fcpd node --test structured.test.mjs   (CTest: e2e_structured)
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { assertFails, assertOk, connectStdio, disconnect, locateFcpd, makeTempDir } from './real-daemon.mjs';

const FCPD = locateFcpd();
const CALL = { timeout: 30_000 };

describe('structuredContent of the query tools, validated by the SDK client', { timeout: 60_000 }, () => {
  let root;
  let connected;
  const call = (name, args) => connected.client.callTool({ name, arguments: args }, undefined, CALL);
  // A query the SDK accepted: its result passed the SDK's own outputSchema validation.
  async function query(domain, q) {
    const result = await call(`${domain}_query`, { q });
    assertOk(result, q);
    assert.ok(result.structuredContent, `${q}: no structuredContent`);
    assert.equal(result.structuredContent.query, q);
    return result.structuredContent;
  }

  before(async () => {
    root = makeTempDir('fcp-e2e-structured-');
    // Offline lofi: no Max to probe.
    const config = path.join(root, 'fcpd.json');
    writeFileSync(config, JSON.stringify({ lofi: { connect_on_new: false } }));
    connected = await connectStdio(FCPD, root, { name: 'fcp-e2e-structured', extraArgs: ['--config', config] });
    // The SDK caches the validators of the tools it listed.
    const { tools } = await connected.client.listTools(undefined, CALL);
    const schemas = tools.filter((t) => t.outputSchema).map((t) => t.name);
    assert.deepEqual(schemas, ['drawio_query', 'midi_query', 'lofi_query']);
  });
  after(async () => {
    await disconnect(connected);
    rmSync(root, { recursive: true, force: true });
  });

  it('drawio: map, stats, describe, list and find', async () => {
    assertOk(await call('drawio_session', { action: 'new "Shop"' }));
    assertOk(await call('drawio', { ops: ['add box Cart', 'add box Pay', 'add db Orders', 'connect Cart -> Pay'] }));
    const map = await query('drawio', 'map');
    assert.equal(map.kind, 'map');
    assert.deepEqual(map.items.map((i) => i.name), ['Cart', 'Pay', 'Orders']);
    assert.equal(map.total, 3);
    assert.equal(map.truncated, false);
    assert.equal(typeof map.items[0].fields.x, 'number');
    assert.equal((await query('drawio', 'stats')).counts.edges, 1);
    assert.deepEqual((await query('drawio', 'describe Pay')).items.map((i) => i.name), ['Pay']);
    assert.deepEqual((await query('drawio', 'list @type:db')).items.map((i) => i.kind), ['db']);
    const edge = await query('drawio', 'describe Cart -> Pay');
    assert.deepEqual(edge.items.map((i) => [i.kind, i.fields.source_name, i.fields.target_name]), [['edge', 'Cart', 'Pay']]);
    assert.equal((await query('drawio', 'find Cart')).kind, 'other');
    assertFails(await call('drawio_query', { q: 'describe Nowhere' }));
  });

  it('midi: map, stats, describe', async () => {
    assertOk(await call('midi_session', { action: 'new "Song"' }));
    assertOk(await call('midi', { ops: ['track add Keys instrument:acoustic-grand-piano', 'note Keys C4 at:1.1 dur:quarter'] }));
    assert.deepEqual((await query('midi', 'map')).items.map((i) => i.id), ['Keys']);
    assert.equal((await query('midi', 'stats')).counts.notes, 1);
    const keys = (await query('midi', 'describe Keys')).items[0];
    assert.equal(keys.fields.notes, 1);
    assert.equal(keys.fields.muted, false);
  });

  it('lofi: map, stats, describe, list', async () => {
    assertOk(await call('lofi_session', { action: 'new "Gain"' }));
    assertOk(await call('lofi', { ops: ['add plugin~ in', 'add *~ vol args:0.5', 'add plugout~ out', 'wire in -> vol -> out'] }));
    // The objects, then the wires, as the text shows them.
    assert.deepEqual((await query('lofi', 'map')).items.map((i) => i.kind), ['plugin~', '*~', 'plugout~', 'wire', 'wire']);
    assert.equal((await query('lofi', 'stats')).counts.wires, 2);
    assert.deepEqual((await query('lofi', 'describe vol')).items.map((i) => i.id), ['vol']);
    assert.deepEqual((await query('lofi', 'list @class:*~')).items.map((i) => i.id), ['vol']);
  });
});
