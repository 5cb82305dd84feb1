// Reading a plume file in pieces (how the CLI reads large ones) gives what reading it whole gives, byte offsets included.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlumeReader, readPlume, readPlumeInPieces, type PlumeFile, type PlumeOptions } from '../server/src/engine/readers/plume-reader.ts';
import { readCheckInput } from '../server/src/cli/inputs.ts';
import { generateHistory, DEFAULT_GEN_OPTIONS } from '../server/src/engine/gen/generate.ts';
import { toPlumeString } from '../server/src/engine/gen/history-writers.ts';

/** Everything a read produces, as plain data. */
function digest(p: PlumeFile): unknown {
  const h = p.history;
  const columns: Record<string, number[]> = {};
  for (const [k, v] of Object.entries(h)) if (ArrayBuffer.isView(v)) columns[k] = Array.from(v as Int32Array);
  const ranges = h.ranges ? Object.fromEntries(Object.entries(h.ranges).map(([k, v]) => [k, Array.from(v as Int32Array)])) : null;
  const names = {
    txns: Array.from({ length: h.txnCount }, (_, t) => h.names.txnName(t)),
    sessions: Array.from({ length: h.sessionCount }, (_, s) => h.names.sessionName(s)),
    keys: Array.from({ length: h.keyCount }, (_, k) => h.names.keyName(k)),
    values: Array.from(h.opValue, (v) => h.names.valueText(v)),
  };
  const n = p.lines.offset({ line: 1e9, character: 0 });
  const positions = [0, 1, 7, n >> 1, n - 1, n].map((o) => p.lines.position(o));
  return { counts: [h.txnCount, h.sessionCount, h.opCount, h.keyCount], columns, ranges, names, findings: p.findings, positions };
}

/** readPlumeInPieces's fill() over bytes in memory: the next bytes into buf from `at`, as far as they go. */
function memoryFill(bytes: Uint8Array): (buf: Uint8Array, at: number) => number {
  let pos = 0;
  return (buf, at) => {
    const got = Math.min(buf.length - at, bytes.length - pos);
    buf.set(bytes.subarray(pos, pos + got), at);
    pos += got;
    return at + got;
  };
}

/** readPlumeInPieces (the CLI's protocol) over bytes in memory, through a buffer of `size` bytes. */
function readInPieces(bytes: Uint8Array, size: number, options: PlumeOptions = {}): PlumeFile {
  const fill = memoryFill(bytes);
  const buf = new Uint8Array(size);
  const result = readPlumeInPieces(buf, fill(buf, 0), fill, options, bytes.length, Infinity);
  assert.ok(result);
  assert.equal(result.size, bytes.length);
  return result.plume;
}

/** A deterministic generator (xorshift). */
function rng(seed: number): () => number {
  let x = seed | 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** Plume text with the oddities the reader accepts or reports: interleaved transactions, aborted writes, spacing, comments, line endings, errors. */
function randomPlume(seed: number, odd: boolean): string {
  const r = rng(seed);
  const lines: string[] = [];
  const sessions = 1 + Math.floor(r() * 5);
  const txnSession = new Map<number, number>();
  let value = 1;
  const count = 5 + Math.floor(r() * 60);
  for (let i = 0; i < count; i++) {
    const s = Math.floor(r() * sessions);
    let t = Math.floor(r() * 12);
    if (!odd && txnSession.has(t) && txnSession.get(t) !== s) t = 100 + i;
    txnSession.set(t, s);
    const key = Math.floor(r() * 6);
    const write = r() < 0.5;
    let v = write ? value++ : Math.floor(r() * value);
    if (odd && r() < 0.05) v = 0;
    let txn = odd && write && r() < 0.08 ? -1 : t;
    let line = `${write ? 'w' : 'r'}(${key},${v},${s},${txn})`;
    if (odd) {
      const roll = r();
      if (roll < 0.04) line = `  ${line.toUpperCase()} `;
      else if (roll < 0.07) line = '# a comment';
      else if (roll < 0.09) line = '';
      else if (roll < 0.11) line = line.replace(',', ', ');
      else if (roll < 0.12) line = `r(${key},${v}`; // malformed
      else if (roll < 0.13) line = `w(99999999999,${value++},${s},${txn})`; // a big key
      else if (roll < 0.14) line = `r(1,2,3,${(txn = -1)})`; // an aborted read: an error
    }
    lines.push(line);
  }
  const eol = odd ? ['\n', '\r\n', '\r'][Math.floor(r() * 3)] : '\n';
  return lines.join(eol) + (r() < 0.7 ? eol : '');
}

test('random texts read in pieces of every size equal the whole read', () => {
  const r = rng(7);
  for (let seed = 1; seed <= 1200; seed++) {
    const text = randomPlume(seed, seed % 3 !== 0);
    const bytes = Buffer.from(text, 'latin1');
    for (const init of ['zero', 'none'] as const) {
      const whole = digest(readPlume(bytes, { init }));
      const size = 1 + Math.floor(r() * 40);
      const pieces = digest(readInPieces(bytes, size, { init }));
      assert.deepEqual(pieces, whole, `seed ${seed} init ${init} buffer ${size}:\n${JSON.stringify(text)}`);
    }
  }
});

test('generated histories read through a small buffer equal the whole read', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const g = generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 1 + (seed % 7), transactions: 50 + seed * 5, keys: 10, seed, store: seed % 2 ? 'causal' : 'permissive', abortRatio: 0.1 });
    const bytes = Buffer.from(toPlumeString(g));
    assert.deepEqual(digest(readInPieces(bytes, 64)), digest(readPlume(bytes)), `seed ${seed}`);
  }
});

test('line ends split between pieces: \\r\\n across a boundary is one break, a lone \\r one too', () => {
  for (const text of ['w(1,1,0,1)\r\nr(1,1,0,2)\r\n', 'w(1,1,0,1)\rr(1,1,0,2)\r', '\ufeffw(1,1,0,1)\n', 'w(1,1,0,1)\r\n\r\n  \r', '', '\n', '\r', '# only a comment']) {
    const bytes = Buffer.from(text);
    const whole = digest(readPlume(bytes));
    for (let size = 1; size <= bytes.length + 1; size++) assert.deepEqual(digest(readInPieces(bytes, size)), whole, `${JSON.stringify(text)} buffer ${size}`);
  }
});

test('a reader refuses pieces after the last one, and a history before it', () => {
  const reader = new PlumeReader();
  assert.throws(() => reader.finish(), /before the last piece/);
  assert.equal(reader.push(Buffer.from('w(1,1,0,1)\nw(2'), 0, false), 11);
  reader.push(Buffer.from('w(2,2,0,1)\n'), 11, true);
  assert.throws(() => reader.push(Buffer.from(''), 22, true), /after the last piece/);
  assert.equal(reader.finish().history.opCount, 2);
});

test('readPlumeInPieces refuses a file longer than its limit', () => {
  const fill = memoryFill(Buffer.from('w(1,1,0,1)\n'.repeat(10)));
  const buf = new Uint8Array(16);
  assert.equal(readPlumeInPieces(buf, fill(buf, 0), fill, {}, 0, 50), null);
});

test('check reads a large plume file in pieces, with the whole read\'s result; a large .txt of another format is read whole', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isocheck-pieces-'));
  try {
    // Over the 4 MB threshold: odd lines throughout, a byte order mark, all three line ends, and
    // one malformed line longer than the 1 MB buffer (it must grow).
    const g = generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 16, transactions: 40000, keys: 500, seed: 3, store: 'permissive' });
    const lines = toPlumeString(g).split('\n');
    const odd = lines.map((l, i) => (i % 997 === 5 ? `  ${l.toUpperCase()} ` : i % 1999 === 7 ? `w(${l}` : i === 20000 ? `r(${'9'.repeat(1_500_000)})` : l));
    const text = '\ufeff' + odd.slice(0, 100000).join('\r\n') + '\r\n' + odd.slice(100000, 200000).join('\r') + '\r' + odd.slice(200000).join('\n');
    const file = join(dir, 'big.txt');
    writeFileSync(file, text);
    const bytes = readFileSync(file);
    assert.ok(bytes.length > 5_000_000, `${bytes.length} bytes`);
    for (const plumeInit of ['zero', 'none'] as const) {
      const input = readCheckInput({ file, inDirectory: false }, undefined, { plumeInit });
      assert.ok('source' in input, 'read in pieces');
      assert.equal(input.size, bytes.length);
      const whole = readPlume(bytes, { init: plumeInit });
      assert.deepEqual(digest({ history: input.source.history, lines: input.source.lines, findings: input.source.findings }), digest(whole));
    }
    const other = join(dir, 'notes.txt');
    // dbcop text opens with `[x:=1 ...`: a .txt ending shared with plume, told apart by the head.
    writeFileSync(other, '[x:=1, y==0]\n'.repeat(400000));
    const read = readCheckInput({ file: other, inDirectory: false }, undefined, {});
    assert.ok('bytes' in read && read.bytes.equals(readFileSync(other)), 'another format is read whole');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
