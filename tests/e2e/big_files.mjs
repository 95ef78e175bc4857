// Big documents for the tests of long single operations (cancel.test.mjs): generated, not stored.
import fs from 'node:fs';

// A draw.io file of `count` shapes in a grid, each joined to the one before by an edge.
export function bigDrawio(file, count) {
  const out = fs.openSync(file, 'w');
  const write = (text) => fs.writeSync(out, text);
  write('<mxfile host="fcp-test"><diagram id="p1" name="Page-1"><mxGraphModel><root>' +
    '<mxCell id="0"/><mxCell id="1" parent="0"/>\n');
  let chunk = '';
  for (let i = 0; i < count; ++i) {
    chunk += `<mxCell id="v${i}" value="N${i}" style="rounded=1;whiteSpace=wrap;html=1;" ` +
      `vertex="1" parent="1"><mxGeometry x="${(i % 400) * 120}" y="${Math.floor(i / 400) * 80}" ` +
      'width="80" height="40" as="geometry"/></mxCell>\n';
    if (i > 0) {
      chunk += `<mxCell id="e${i}" style="endArrow=classic;" edge="1" parent="1" source="v${i - 1}" ` +
        `target="v${i}"><mxGeometry relative="1" as="geometry"/></mxCell>\n`;
    }
    if (chunk.length > 1 << 20) { write(chunk); chunk = ''; }
  }
  write(chunk + '</root></mxGraphModel></diagram></mxfile>\n');
  fs.closeSync(out);
}

function vlq(value) {
  const bytes = [value & 0x7f];
  while ((value >>= 7) > 0) bytes.unshift((value & 0x7f) | 0x80);
  return bytes;
}

function chunk(id, body) {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'ascii');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

// A format 1 MIDI file: `tracks` tracks of `notes` notes each (a note every 16th at 480 ppqn).
export function bigMidi(file, tracks, notes) {
  const parts = [chunk('MThd', Buffer.from([0, 1, (tracks + 1) >> 8, (tracks + 1) & 0xff, 0x01, 0xe0]))];
  // The conductor: 120 bpm, then the end of the track.
  parts.push(chunk('MTrk', Buffer.from([0, 0xff, 0x51, 3, 0x07, 0xa1, 0x20, 0, 0xff, 0x2f, 0])));
  for (let t = 0; t < tracks; ++t) {
    const channel = t % 16 === 9 ? 0 : t % 16;
    const body = Buffer.alloc(notes * 8 + 4);
    let at = 0;
    for (let n = 0; n < notes; ++n) {
      const pitch = 36 + ((n * 7 + t) % 48);
      body[at++] = 0; body[at++] = 0x90 | channel; body[at++] = pitch; body[at++] = 80;
      for (const b of vlq(120)) body[at++] = b;
      body[at++] = 0x80 | channel; body[at++] = pitch;
      body[at++] = 0;
    }
    // (a 120-tick delta is one byte: 8 bytes a note)
    body[at++] = 0; body[at++] = 0xff; body[at++] = 0x2f; body[at++] = 0;
    parts.push(chunk('MTrk', body.subarray(0, at)));
  }
  fs.writeFileSync(file, Buffer.concat(parts));
}

// A Max patcher of `count` [+ 1] boxes wired in a chain.
export function bigMaxpat(file, count) {
  const out = fs.openSync(file, 'w');
  const write = (text) => fs.writeSync(out, text);
  write('{\n\t"patcher" : {\n\t\t"fileversion" : 1,\n\t\t"appversion" : {\n\t\t\t"major" : 8,\n' +
    '\t\t\t"minor" : 5,\n\t\t\t"revision" : 0,\n\t\t\t"architecture" : "x64",\n' +
    '\t\t\t"modernui" : 1\n\t\t}\n,\n\t\t"rect" : [ 100.0, 100.0, 640.0, 480.0 ],\n' +
    '\t\t"boxes" : [ ');
  let text = '';
  for (let i = 1; i <= count; ++i) {
    text += `${i > 1 ? ', ' : ''}{\n\t\t\t\t"box" : {\n\t\t\t\t\t"id" : "obj-${i}",\n` +
      '\t\t\t\t\t"maxclass" : "newobj",\n\t\t\t\t\t"numinlets" : 2,\n\t\t\t\t\t"numoutlets" : 1,\n' +
      '\t\t\t\t\t"outlettype" : [ "int" ],\n' +
      `\t\t\t\t\t"patching_rect" : [ ${(i % 300) * 60}.0, ${Math.floor(i / 300) * 30}.0, 40.0, 22.0 ],\n` +
      '\t\t\t\t\t"text" : "+ 1"\n\t\t\t\t}\n\n\t\t\t}\n';
    if (text.length > 1 << 20) { write(text); text = ''; }
  }
  write(text + ' ],\n\t\t"lines" : [ ');
  text = '';
  for (let i = 2; i <= count; ++i) {
    text += `${i > 2 ? ', ' : ''}{\n\t\t\t\t"patchline" : {\n\t\t\t\t\t"destination" : [ "obj-${i}", 0 ],\n` +
      `\t\t\t\t\t"source" : [ "obj-${i - 1}", 0 ]\n\t\t\t\t}\n\n\t\t\t}\n`;
    if (text.length > 1 << 20) { write(text); text = ''; }
  }
  write(text + ' ]\n\t}\n\n}\n');
  fs.closeSync(out);
}

// A one-track MIDI file `seconds` long at 120 bpm: a chord every beat (a render's work grows
// with the song's length).
export function longSong(file, seconds) {
  const beats = seconds * 2;
  const body = [0, 0xc0, 0];  // piano
  for (let b = 0; b < beats; ++b) {
    const root = 48 + (b % 12);
    // The first note-on comes 40 ticks after the last note-off of the beat before.
    body.push(...vlq(b === 0 ? 0 : 40), 0x90, root, 70, 0, 0x90, root + 4, 68, 0, 0x90, root + 7, 66);
    body.push(...vlq(440), 0x80, root, 0, 0, 0x80, root + 4, 0, 0, 0x80, root + 7, 0);
  }
  body.push(0, 0xff, 0x2f, 0);
  fs.writeFileSync(file, Buffer.concat([
    chunk('MThd', Buffer.from([0, 0, 0, 1, 0x01, 0xe0])),
    chunk('MTrk', Buffer.from(body))]));
}
