// Independent readers of draw.io files for the end-to-end tests of the drawio domain:
//   - pagesOf(text): the <mxGraphModel> of every page of a .drawio / .xml / bare model /
//     .drawio.svg file, decompressing draw.io's compressed <diagram> text (base64 of raw DEFLATE
//     of encodeURIComponent(xml)) with node:zlib, independently of the C++ codec;
//   - structuralCheck(model): a DOM-level check (unique ids, parents exist, edge ends exist,
//     numeric geometry);
//   - mxGraphDecode(model): mxGraph's own codec (the `mxgraph` npm package, the library draw.io
//     is built on) run in a jsdom window: new mxCodec(doc).decode(node, model);
//   - drawioTextOf(bytes): the <mxfile> of a .drawio.png as draw.io finds it (PNG chunks parsed
//     and CRC-checked here, the tEXt "mxfile" chunk before the image data, URI-decoded).
// Everything here parses with jsdom's DOMParser, never with the code under test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import { JSDOM } from 'jsdom';

const require = createRequire(import.meta.url);

let windowSingleton;

// One jsdom window shared by the parsers and by mxGraph.
function dom() {
  if (!windowSingleton) {
    windowSingleton = new JSDOM('<!DOCTYPE html><html><head></head><body></body></html>', {
      runScripts: 'outside-only',
      pretendToBeVisual: true,
    }).window;
  }
  return windowSingleton;
}

// Parses XML; throws with the parser's message when it is not well-formed.
export function parseXml(text, what = 'document') {
  const doc = new (dom().DOMParser)().parseFromString(text, 'application/xml');
  const error = doc.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`${what} is not well-formed XML: ${error.textContent.slice(0, 300)}`);
  return doc;
}

const elementChildren = (node) => Array.from(node.childNodes).filter((n) => n.nodeType === 1);

// draw.io's page compression: base64 → raw inflate → decodeURIComponent (draw.io's
// Graph.decompress). Very old files skipped the URI encoding; those are returned as inflated.
export function decompressDiagram(text) {
  const inflated = inflateRawSync(Buffer.from(text.trim(), 'base64')).toString('latin1');
  try {
    return decodeURIComponent(inflated);
  } catch {
    return Buffer.from(inflated, 'latin1').toString('utf8');
  }
}

// ---------------------------------------------------------------------------------------------
// .drawio.png: draw.io keeps the <mxfile> in a PNG text chunk

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function isPng(bytes) {
  return bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE);
}

// The chunks of a PNG in file order: [{ type, data }]; throws on broken framing or a bad CRC.
export function pngChunks(bytes, what = 'PNG') {
  if (!isPng(bytes)) throw new Error(`${what}: no PNG signature`);
  const chunks = [];
  for (let at = 8; at < bytes.length;) {
    if (bytes.length - at < 12) throw new Error(`${what}: a chunk header is cut off at byte ${at}`);
    const length = bytes.readUInt32BE(at);
    if (length > bytes.length - at - 12) throw new Error(`${what}: a chunk runs past the end at byte ${at}`);
    const body = bytes.subarray(at + 4, at + 8 + length);
    const type = body.toString('latin1', 0, 4);
    if (crc32(body) !== bytes.readUInt32BE(at + 8 + length)) throw new Error(`${what}: ${type} CRC error`);
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

// What draw.io's Editor.extractGraphModelFromPng reads: the first tEXt chunk "mxfile" (or
// "mxGraphModel") before the image data, decodeURIComponent'ed when it starts with '%'.
export function diagramOfPng(bytes, what = 'PNG') {
  for (const { type, data } of pngChunks(bytes, what)) {
    if (type === 'IDAT') break;
    if (type !== 'tEXt') continue;
    const nul = data.indexOf(0);
    const keyword = data.toString('latin1', 0, nul);
    if (keyword !== 'mxfile' && keyword !== 'mxGraphModel') continue;
    let text = data.toString('latin1', nul + 1);
    for (let round = 0; round < 2 && text.startsWith('%'); ++round) text = decodeURIComponent(text);
    return text;
  }
  throw new Error(`${what}: no tEXt "mxfile" chunk before the image data`);
}

// The draw.io XML of a file's bytes: the file itself, or the diagram of a .drawio.png.
export function drawioTextOf(bytes, what = 'file') {
  return isPng(bytes) ? diagramOfPng(bytes, what) : bytes.toString('utf8');
}

// The pages of a draw.io file: [{ name, id, model }] where `model` is an <mxGraphModel> Element
// (in its own document when the page was compressed). Accepts <mxfile>, a bare <mxGraphModel>
// and an SVG whose `content` attribute holds the <mxfile> (.drawio.svg).
export function pagesOf(text, what = 'file') {
  let doc = parseXml(text, what);
  let root = doc.documentElement;
  if (root.localName === 'svg') {
    let content = root.getAttribute('content');
    if (!content) throw new Error(`${what}: an <svg> without a draw.io content attribute`);
    // Older exports store the <mxfile> base64-encoded.
    if (!content.trimStart().startsWith('<')) content = Buffer.from(content, 'base64').toString('utf8');
    doc = parseXml(content, `${what} (svg content)`);
    root = doc.documentElement;
  }
  if (root.localName === 'mxGraphModel') return [{ name: '(bare model)', id: null, model: root }];
  if (root.localName !== 'mxfile') throw new Error(`${what}: root element <${root.localName}> is not <mxfile>`);
  return Array.from(root.getElementsByTagName('diagram')).map((diagram, index) => {
    const name = diagram.getAttribute('name') ?? `page ${index + 1}`;
    const child = elementChildren(diagram).find((e) => e.localName === 'mxGraphModel');
    if (child) return { name, id: diagram.getAttribute('id'), model: child };
    const packed = diagram.textContent.trim();
    if (!packed) return { name, id: diagram.getAttribute('id'), model: null };  // an empty page
    const xml = decompressDiagram(packed);
    const model = parseXml(xml, `${what}: page "${name}"`).documentElement;
    if (model.localName !== 'mxGraphModel') {
      throw new Error(`${what}: page "${name}" decompresses to <${model.localName}>`);
    }
    return { name, id: diagram.getAttribute('id'), model };
  });
}

// The cells of one <mxGraphModel>: [{ id, element, cell, source, target, parent, vertex, edge }]
// where `element` is the <mxCell> or its <object>/<UserObject> wrapper (which carries the id).
export function cellsOf(model) {
  if (!model) return [];
  return Array.from(model.getElementsByTagName('mxCell')).map((cell) => {
    const wrapper = cell.parentNode?.localName !== 'root' && cell.parentNode?.hasAttribute?.('id')
      ? cell.parentNode : null;
    const element = wrapper ?? cell;
    return {
      id: element.getAttribute('id'),
      element,
      cell,
      parent: cell.getAttribute('parent'),
      source: cell.getAttribute('source'),
      target: cell.getAttribute('target'),
      vertex: cell.getAttribute('vertex') === '1',
      edge: cell.getAttribute('edge') === '1',
    };
  });
}

// Number of <mxCell> elements over every page of a file's text.
export function countCells(text, what) {
  return pagesOf(text, what).reduce((sum, page) => sum + cellsOf(page.model).length, 0);
}

// DOM-level validity of one page. Returns a list of problems (empty when fine).
export function structuralCheck(model, label = 'page') {
  const problems = [];
  const cells = cellsOf(model);
  const ids = new Map();
  for (const c of cells) {
    if (!c.id) problems.push(`${label}: an mxCell without id`);
    else if (ids.has(c.id)) problems.push(`${label}: duplicate id "${c.id}"`);
    else ids.set(c.id, c);
  }
  for (const c of cells) {
    if (c.parent && !ids.has(c.parent)) problems.push(`${label}: "${c.id}" has unknown parent "${c.parent}"`);
    if (c.source && !ids.has(c.source)) problems.push(`${label}: edge "${c.id}" has unknown source "${c.source}"`);
    if (c.target && !ids.has(c.target)) problems.push(`${label}: edge "${c.id}" has unknown target "${c.target}"`);
    for (const geometry of elementChildren(c.cell).filter((e) => e.localName === 'mxGeometry')) {
      for (const key of ['x', 'y', 'width', 'height']) {
        const value = geometry.getAttribute(key);
        if (value !== null && !Number.isFinite(Number(value))) {
          problems.push(`${label}: "${c.id}" geometry ${key}="${value}" is not a number`);
        }
      }
      for (const point of geometry.getElementsByTagName('mxPoint')) {
        for (const key of ['x', 'y']) {
          const value = point.getAttribute(key);
          if (value !== null && !Number.isFinite(Number(value))) {
            problems.push(`${label}: "${c.id}" mxPoint ${key}="${value}" is not a number`);
          }
        }
      }
    }
  }
  // The cell tree must be rooted: exactly the parentless cells are roots.
  if (cells.length && !cells.some((c) => !c.parent)) problems.push(`${label}: no root cell`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// mxGraph's codec

let mxSingleton;

// mxGraph (the npm `mxgraph` bundle) evaluated inside the jsdom window. Its classes are also
// set on the window, because mxCodec.decode finds constructors as window[nodeName].
export function mxGraph() {
  if (mxSingleton) return mxSingleton;
  const window = dom();
  const bundle = require.resolve('mxgraph/javascript/dist/build.js');
  // A UMD wrapper: without `module`/`define` it sets window.mxgraph to the factory.
  window.eval(readFileSync(bundle, 'utf8'));
  const mx = window.mxgraph({
    mxBasePath: '.',
    mxImageBasePath: '.',
    mxLoadResources: false,
    mxLoadStylesheets: false,
    mxForceIncludes: false,
    mxResourceExtension: '.txt',
  });
  for (const [name, value] of Object.entries(mx)) {
    if (value !== undefined) window[name] = value;
  }
  mx.mxLog.consoleName = null;  // never open a log window
  mxSingleton = mx;
  return mx;
}

// Decodes one <mxGraphModel> Element with mxCodec into a fresh mxGraphModel. Returns
// { model, decoded, expected, problems } where `decoded` counts the cells reachable from the
// decoded root and `expected` the page's <mxCell> elements; `problems` lists edges whose
// source/target did not resolve to cells and cells that went missing or changed kind.
export function mxGraphDecode(modelElement, label = 'page') {
  const mx = mxGraph();
  const problems = [];
  const xmlCells = cellsOf(modelElement);
  const model = new mx.mxGraphModel();
  if (!modelElement) return { model, decoded: 0, expected: 0, problems };
  // Decode a copy in a document of mxGraph's own parser, as draw.io does.
  const serialized = new (dom().XMLSerializer)().serializeToString(modelElement);
  const doc = mx.mxUtils.parseXml(serialized);
  const codec = new mx.mxCodec(doc);
  try {
    codec.decode(doc.documentElement, model);
  } catch (error) {
    problems.push(`${label}: mxCodec refused the model: ${error.message}`);
    return { model, decoded: 0, expected: xmlCells.length, problems };
  }

  let decoded = 0;
  const seen = new Set();
  const visit = (cell) => {
    if (!cell || seen.has(cell)) return;
    seen.add(cell);
    ++decoded;
    for (let i = 0; i < model.getChildCount(cell); ++i) visit(model.getChildAt(cell, i));
  };
  visit(model.getRoot());

  for (const c of xmlCells) {
    const cell = model.getCell(c.id);
    if (!cell) {
      problems.push(`${label}: mxGraph has no cell "${c.id}"`);
      continue;
    }
    if (c.vertex && !model.isVertex(cell)) problems.push(`${label}: "${c.id}" is not a vertex for mxGraph`);
    if (c.edge && !model.isEdge(cell)) problems.push(`${label}: "${c.id}" is not an edge for mxGraph`);
    if (c.edge) {
      for (const end of ['source', 'target']) {
        const want = c[end];
        const got = model.getTerminal(cell, end === 'source');
        if (want && (!got || got.id !== want)) {
          problems.push(`${label}: edge "${c.id}" ${end} "${want}" did not resolve (mxGraph: ${got?.id ?? 'none'})`);
        }
      }
    }
  }
  return { model, decoded, expected: xmlCells.length, problems };
}

// Both checks on every page of a file's text. Returns { pages, cells, problems }.
export function checkDrawioFile(text, what = 'file', { mxgraph = true } = {}) {
  const pages = pagesOf(text, what);
  const problems = [];
  let cells = 0;
  for (const page of pages) {
    const label = `${what} page "${page.name}"`;
    problems.push(...structuralCheck(page.model, label));
    const count = cellsOf(page.model).length;
    cells += count;
    if (mxgraph && page.model) {
      const result = mxGraphDecode(page.model, label);
      problems.push(...result.problems);
      if (result.decoded !== result.expected) {
        problems.push(`${label}: mxGraph decoded ${result.decoded} cells, the XML has ${result.expected} <mxCell>`);
      }
    }
  }
  return { pages: pages.length, cells, problems };
}

// ---------------------------------------------------------------------------------------------
// Comparing two saves of a page

function attributesOf(element) {
  if (!element) return null;
  return Object.fromEntries(Array.from(element.attributes).map((a) => [a.name, a.value])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function elementTree(element) {
  return [element.localName, attributesOf(element), elementChildren(element).map(elementTree)];
}

// A canonical JSON form of one cell (from cellsOf): every attribute of the cell and of its
// <object>/<UserObject> wrapper, and the whole <mxGeometry> subtree (points, offsets).
// Attribute order and whitespace do not matter; values, styles and numbers must be identical.
export function canonicalCell(c) {
  const geometry = elementChildren(c.cell).find((e) => e.localName === 'mxGeometry');
  return JSON.stringify({
    element: [c.element.localName, attributesOf(c.element)],
    cell: c.element === c.cell ? null : attributesOf(c.cell),
    geometry: geometry ? elementTree(geometry) : null,
  });
}

// The differences between the cells of two models (original and copy), by id: missing cells,
// extra cells and cells whose canonical form changed. `allowExtra` ids are not reported.
export function diffCells(original, copy, label = 'page', { allowExtra = new Set() } = {}) {
  const before = new Map(cellsOf(original).map((c) => [c.id, c]));
  const after = new Map(cellsOf(copy).map((c) => [c.id, c]));
  const diffs = [];
  for (const [id, c] of before) {
    if (!after.has(id)) diffs.push(`${label}: cell "${id}" is missing`);
    else if (canonicalCell(c) !== canonicalCell(after.get(id))) {
      diffs.push(`${label}: cell "${id}" changed\n    before: ${canonicalCell(c).slice(0, 400)}\n    after:  ${canonicalCell(after.get(id)).slice(0, 400)}`);
    }
  }
  for (const id of after.keys()) {
    if (!before.has(id) && !allowExtra.has(id)) diffs.push(`${label}: extra cell "${id}"`);
  }
  const a = attributesOf(original), b = attributesOf(copy);
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    diffs.push(`${label}: <mxGraphModel> attributes changed: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  }
  return diffs;
}

// What draw.io displays for a cell value: the text of the HTML when the style has html=1,
// else the value itself.
export function displayedText(value, style = '') {
  if (!/(^|;)html=1(;|$)/.test(style)) return value;
  const container = dom().document.createElement('div');
  container.innerHTML = value.replace(/<br\s*\/?>/gi, '\n');
  return container.textContent;
}
