// Which unknown writer runs for an ambiguous aborted read: one whose reads can all hold, when there is one (spec: some choice of outcomes).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';

const verdicts = (text: string): Record<string, boolean | null> =>
  Object.fromEntries(analyzeHistText(text, { levels: LEVELS }).levels.map((v) => [v.level, v.consistent]));
const all = (v: boolean): Record<string, boolean> => Object.fromEntries(LEVELS.map((l) => [l, v]));
const codes = (text: string): string[] => analyzeHistText(text).findings.filter((f) => f.severity === 'error').map((f) => f.code);

test('an ambiguous aborted read runs the unknown writer without a thin-air read, even one with more reads', () => {
  // U1 has fewer reads, but its read of y is thin air in every outcome; U2 alone explains A's read.
  const text = 'session s0\n  T0: w(z, 5) w(z2, 6)\nsession s1\n  U1 unknown: r(y, 99) w(x, 1)\n' +
    'session s2\n  U2 unknown: r(z, 5) r(z2, 6) w(x, 1)\nsession s3\n  A aborted: r(x, 1)\n';
  assert.deepEqual(verdicts(text), all(true));
  assert.deepEqual(codes(text), []);
});

test('an unknown writer whose read misses its own write, or reads its own later write, is not the one run', () => {
  // V has more reads than U, all of T0's writes.
  const tail = 'session s0\n  T0: w(z, 5) w(z2, 6) w(y, 2)\nsession s2\n  V unknown: r(z, 5) r(z2, 6) w(x, 1)\nsession s3\n  A aborted: r(x, 1)\n';
  assert.deepEqual(verdicts('session s1\n  U unknown: w(y, 1) r(y, 2) w(x, 1)\n' + tail), all(true));
  assert.deepEqual(verdicts('session s1\n  U unknown: r(y, 7) w(y, 7) w(x, 1)\n' + tail), all(true));
});

test('when every unknown writer has a failing read, one still runs and its error stands', () => {
  const text = 'session s1\n  U unknown: r(y, 99) w(x, 1)\nsession s2\n  V unknown: r(z, 98) w(x, 1)\nsession s3\n  A aborted: r(x, 1)\n';
  assert.deepEqual(verdicts(text), all(false));
  assert.deepEqual(codes(text), ['thin-air']);
});
