// Ranges from the byte readers (EDN, plume) and JSON lines count lines and columns as the editor's text does: CR-only lines, byte order marks, non-ASCII and non-UTF-8 bytes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readJepsenEdn } from '../server/src/engine/readers/edn-reader.ts';
import { readJepsenJson } from '../server/src/engine/readers/json-events-reader.ts';
import { readPlume, readPlumeInPieces } from '../server/src/engine/readers/plume-reader.ts';
import { readHistory } from '../server/src/engine/readers/registry.ts';
import { textLineStarts, type LineIndex, type Position } from '../server/src/engine/syntax/line-index.ts';
import type { Finding } from '../server/src/engine/model/diagnostics.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const cat = (...parts: (string | number[])[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc(p)] : p)));

/** Where a byte offset is in the text an editor shows: the decoded prefix's last line and its length. */
function shown(bytes: Uint8Array, offset: number): Position {
  const prefix = new TextDecoder().decode(bytes.subarray(0, offset));
  const starts = textLineStarts(prefix);
  return { line: starts.length - 1, character: prefix.length - starts[starts.length - 1] };
}

/** Whether an offset is inside a (perhaps broken) multi-byte sequence, where a decoded prefix says nothing. */
const inside = (bytes: Uint8Array, o: number): boolean => o > 0 && o < bytes.length && bytes[o - 1] >= 0x80 && bytes[o] >= 0x80 && bytes[o] < 0xc0;

/** Every finding's range where the decoded text puts it (offsets between characters), and never ending before it starts. */
function assertShownAlike(bytes: Uint8Array, r: { findings: Finding[]; lines: LineIndex }, what: string): void {
  assert.ok(r.findings.length > 0, `${what}: an error to place`);
  for (const f of r.findings) {
    const { start, end } = r.lines.range(f.span.start, f.span.end);
    if (!inside(bytes, f.span.start)) assert.deepEqual(start, shown(bytes, f.span.start), `${what}: start of ${f.message}`);
    if (!inside(bytes, f.span.end)) assert.deepEqual(end, shown(bytes, f.span.end), `${what}: end of ${f.message}`);
    assert.ok(start.line < end.line || (start.line === end.line && start.character <= end.character), `${what}: ${JSON.stringify({ start, end })}`);
  }
}

const EDN = [
  '{:type :invoke, :f :txn, :value [[:append :x 1]], :process 0}',
  '{:type :ok, :f :txn, :value [[:append :x 1]], :process 0}',
  '{:type :ok, :f :txn, :value [[:append :x 2]] :process}',
  '; a comment',
  '{:type :invoke, :f :txn, :value [[:r :x nil]], :process 1}',
  '{:type :ok, :f :txn, :value [[:r :x [1]]], :process 1}',
];
const JSONL = [
  '{"type":"invoke","f":"txn","value":[["append",0,1]],"process":0}',
  '{"type":"ok","f":"txn","value":[["append",0,1]],"process":0}',
  '{"type":"ok","f":"txn","value":[["append",0,2]],"process":}',
  '{"type":"invoke","f":"txn","value":[["r",0,null]],"process":1}',
  '{"type":"ok","f":"txn","value":[["r",0,[1]]],"process":1}',
];

test('CR-only EDN and JSON lines: the same history, errors and lines as the LF twin (a lone \\r ends a line, a comment and a skipped event)', () => {
  for (const [name, lines, read] of [
    ['edn', EDN, (b: Uint8Array) => readJepsenEdn(b)],
    ['json', JSONL, (b: Uint8Array) => readJepsenJson(new TextDecoder().decode(b))],
  ] as const) {
    const lf = read(enc(lines.join('\n') + '\n'));
    for (const eol of ['\r', '\r\n']) {
      const bytes = enc(lines.join(eol) + eol);
      const other = read(bytes);
      assert.equal(other.history.txnCount, lf.history.txnCount, `${name} ${JSON.stringify(eol)}: every event read`);
      assert.deepEqual(other.findings.map((f) => f.message), lf.findings.map((f) => f.message), `${name} ${JSON.stringify(eol)}`);
      assert.deepEqual(other.findings.map((f) => other.lines.range(f.span.start, f.span.end)), lf.findings.map((f) => lf.lines.range(f.span.start, f.span.end)));
      assertShownAlike(bytes, other, `${name} ${JSON.stringify(eol)}`);
    }
  }
});

test('a byte order mark is no column: an error at the first character of an EDN or plume file is at character 0', () => {
  const edn = cat([0xef, 0xbb, 0xbf], '{:type :ok, :f :txn, :value [[:r :x nil]]}\n');
  assertShownAlike(edn, readJepsenEdn(edn), 'edn');
  assert.equal(readJepsenEdn(edn).lines.position(3).character, 0);
  const plume = cat([0xef, 0xbb, 0xbf], 'w(1,2,3)\n');
  assertShownAlike(plume, readPlume(plume), 'plume');
});

test('non-ASCII text in a plume line: its error range ends at the line\'s end in UTF-16 code units, read whole or in pieces', () => {
  const bytes = cat('w(1,5,0,1)\n', 'ex', [0xef, 0xbb, 0xbf], 'pect é ✓ 😀\n', 'r(1,5,1,2)\n', 'é\n');
  const whole = readPlume(bytes);
  assertShownAlike(bytes, whole, 'plume');
  assert.deepEqual(whole.lines.range(whole.findings[0].span.start, whole.findings[0].span.end).end, { line: 1, character: 14 });
  for (const size of [4, 7, 16]) {
    let pos = 0;
    const fill = (buf: Uint8Array, at: number): number => {
      const got = Math.min(buf.length - at, bytes.length - pos);
      buf.set(bytes.subarray(pos, pos + got), at);
      pos += got;
      return at + got;
    };
    const buf = new Uint8Array(size);
    const read = readPlumeInPieces(buf, fill(buf, 0), fill, {}, bytes.length, 1 << 20);
    assert.ok(read);
    assertShownAlike(bytes, read.plume, `plume in pieces of ${size}`);
  }
  // From an editor's text (one byte per code unit) the columns are the text's already.
  const text = new TextDecoder().decode(bytes);
  const fromText = readHistory({ text }, { format: 'plume' });
  assert.deepEqual(fromText.lines.range(fromText.findings[0].span.start, fromText.findings[0].span.end).end, { line: 1, character: 14 });
});

test('bytes that are not UTF-8 count as the decoder shows them (one U+FFFD per bad stretch): columns never run backwards', () => {
  // A lone 3-byte lead before ASCII, a lone 0xff, a truncated sequence, a surrogate, a lead past U+10FFFF.
  for (const bad of [[0xef], [0xff], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xf0, 0x9f, 0x98, 0x80]]) {
    const edn = cat('{:type :ok}\n', 'x ', bad, 'nil ', bad, ' y\n');
    const r = readJepsenEdn(edn);
    assertShownAlike(edn, r, `edn ${bad.join(' ')}`);
    const plume = cat('w(1,5,0,1)\n', bad, 'r(1,', bad, ')\n');
    assertShownAlike(plume, readPlume(plume), `plume ${bad.join(' ')}`);
  }
  // A span ending one byte into a 3-byte character (the reader marks a token's first byte): empty at worst, never reversed.
  const arrow = cat('{:type :ok}\n', 'a →co\n');
  assertShownAlike(arrow, readJepsenEdn(arrow), 'edn →');
});
