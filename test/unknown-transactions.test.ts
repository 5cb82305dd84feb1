// Unknown transactions in register histories: counted as committed when a counted transaction read from them, else never run (spec).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';

const verdicts = (text: string): Record<string, boolean | null> =>
  Object.fromEntries(analyzeHistText(text, { levels: LEVELS }).levels.map((v) => [v.level, v.consistent]));
const all = (v: boolean, levels = LEVELS): Record<string, boolean> => Object.fromEntries(levels.map((l) => [l, v]));

test('an unknown transaction nobody read never ran: its reads, its place in its session and its times constrain nothing', () => {
  // Its own reads would break every level (a fractured read) if it had committed.
  assert.deepEqual(verdicts('session s0\n  T0: w(x, 1) w(y, 1)\nsession s1\n  T1 unknown: r(x, 1) r(y, init)\n'), all(true));
  // Between T0 and T2 in session order it would make T2's read of the initial x a causality violation.
  assert.deepEqual(verdicts('session s0\n  T0: w(x, 1)\nsession s1\n  T1 unknown: r(x, 1) w(y, 1)\n  T2: r(x, init)\n'), all(true));
  // Its interval would put it before T2 in real time, and T2 missed its write.
  assert.deepEqual(verdicts('session s1\n  T1 unknown @ 1..2: w(x, 1)\nsession s2\n  T2 @ 5..6: r(x, init)\n'), all(true));
  // A value nobody wrote, read by a transaction that never ran: no thin-air error.
  const a = analyzeHistText('session s1\n  T1 unknown: r(x, 9)\n');
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error'), []);
});

test('an unknown transaction a committed one read from counts as committed, and so do the unknown ones it read from', () => {
  const chain = 'session s0\n  T0: w(x, 1) w(y, 1)\nsession s1\n  T1 info: r(x, 1) r(y, init) w(z, 1)\nsession s2\n  T2: r(z, 1)\n';
  assert.deepEqual(verdicts(chain), all(false), 'T2 read T1, so T1\'s fractured read counts');
  const twice = 'session s0\n  T0: w(x, 1)\nsession s1\n  T1 unknown: r(x, 1) w(y, 1)\nsession s2\n  T2 unknown: r(y, 1) w(z, 1)\nsession s3\n  T3: r(z, 1) r(x, init)\n';
  // T3 read T2, which read T1, which read T0: T0 happens before T3, which missed its x.
  assert.equal(verdicts(twice).CC, false);
  const older = 'session s0\n  T0: w(x, 1)\n  T1 unknown: w(x, 2)\nsession s1\n  T2: r(x, 2)\n  T3: r(x, 1)\n';
  assert.deepEqual(verdicts(older), { ...all(false), RC: true, RA: true });
});

test('an unknown transaction read only by an aborted one ran and counts as aborted: not committed, its own reads checked', () => {
  assert.deepEqual(verdicts('session s0\n  T0 unknown: w(x, 1)\n  T2: r(x, init)\nsession s1\n  T1 aborted: r(x, 1)\n'), all(true));
  // Never run, T1's read of x = 1 would be thin air; run (committed or aborted), U's read of z = 99 is:
  // every outcome has an error, so no level holds (it used to hold: U never ran for its own reads only).
  const both = analyzeHistText('session s1\n  U unknown: r(z, 99) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n', { levels: LEVELS });
  assert.deepEqual(both.findings.filter((f) => f.severity === 'error').map((f) => f.code), ['thin-air']);
  assert.deepEqual(Object.fromEntries(both.levels.map((v) => [v.level, v.consistent])), all(false));
  // Through another unknown one that the aborted transaction read from, too.
  assert.deepEqual(verdicts('session s1\n  U unknown: r(z, 99) w(x, 1)\nsession s2\n  V unknown: r(x, 1) w(y, 1)\nsession s3\n  A aborted: r(y, 1)\n'), all(false));
});

test('an aborted read whose value a transaction that ran also wrote (or the initial value) runs none of its unknown writers', () => {
  // A may have read T0's x = 1: U need not have run, and never run its read of z = 99 is no error.
  const committedWriter = 'session s0\n  T0: w(x, 1)\nsession s1\n  U unknown: r(z, 99) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n';
  assert.deepEqual(verdicts(committedWriter), all(true));
  assert.deepEqual(analyzeHistText(committedWriter).findings.filter((f) => f.code === 'thin-air'), []);
  // The same with an aborted writer, and with the initial value (U writes it; A may have read ⊥'s).
  assert.deepEqual(verdicts('session s0\n  T0 aborted: w(x, 1)\nsession s1\n  U unknown: r(z, 99) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n'), all(true));
  assert.deepEqual(verdicts('init x = 1\nsession s1\n  U unknown: r(z, 99) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n'), all(true));
  // Its only writers unknown: one of them ran, the one with the fewest reads (V: U and its thin-air
  // read of z need not have run; both ran before, and every level was violated).
  assert.deepEqual(verdicts('session s0\n  V unknown: w(x, 1)\nsession s1\n  U unknown: r(z, 99) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n'), all(true));
  assert.deepEqual(verdicts('session s1\n  U unknown: r(z, 99) w(x, 1)\nsession s0\n  V unknown: w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n'), all(true));
  // Reads of the initial value do not count against a writer; a read that fails in every outcome
  // (U's thin air) counts before the number of reads: V runs, its read of T0's y explained.
  assert.deepEqual(verdicts('session s1\n  U unknown: r(z, 99) w(x, 1)\nsession s0\n  V unknown: r(z, init) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n'), all(true));
  assert.deepEqual(verdicts('session s1\n  U unknown: r(z, 99) w(x, 1)\nsession s0\n  T0: w(y, 5)\n  V unknown: r(y, 5) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n'), all(true));
  // Only one writer can run: it does.
  assert.deepEqual(verdicts('session s1\n  U unknown: r(z, 99) w(x, 1)\nsession s2\n  A aborted: r(x, 1)\n'), all(false));
});

test('a read whose writer is ambiguous counts every unknown writer of its value: the unknown one may be what it read', () => {
  const text = 'level RA\nsession s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  U unknown: w(x, 1)\nsession s3\n  T2: r(x, 1) r(y, init)\n';
  assert.deepEqual(verdicts(text), all(true));
  const codes = analyzeHistText(text).findings.map((f) => f.code).sort();
  assert.deepEqual(codes, ['ambiguous-read', 'duplicate-write', 'duplicate-write']);
});

test('an unknown transaction with list operations nobody read never ran either: its register reads constrain nothing', () => {
  assert.deepEqual(verdicts('session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  U unknown: a(l, 1) r(x, init) r(y, 1)\n'), all(true));
});
