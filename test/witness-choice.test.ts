// The spec's witness preference at RC, RA and CC: among all cycles of so ∪ wr ∪ forced edges, the fewest so ∪ wr edges, then the shortest.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import type { Level } from '../server/src/engine/levels/levels.ts';

/** The level's witness as `from -kind-> to` steps. */
function cycle(text: string, level: Level, options: { maxWitnesses?: number } = {}): string[] {
  const a = analyzeHistText(text, { levels: [level], ...options });
  const v = a.levels.find((x) => x.level === level);
  assert.equal(v?.consistent, false, `${level} should be violated`);
  const name = (t: number): string => (t === 0 ? 'init' : a.history.names.txnName(t));
  return (v?.witness?.edges ?? []).map((e) => `${name(e.from)} -${e.kind}-> ${name(e.to)}`);
}

test('a forced edge the saturation leaves out (implied by a path) still makes the preferred cycle', () => {
  // R reads x from A while C and B, both before R in its session, write x: C →co A and B →co A
  // are both forced. RA's saturation keeps only B →co A (C →so B →co A implies the other), but
  // A →wr C →co A has one so ∪ wr edge where A →wr C →so B →co A has two.
  const text = `session s0
  A: w(x, 1) w(z, 1)
session s
  C: r(z, 1) w(x, 3)
  B: w(x, 2)
  R: r(x, 1)
`;
  for (const level of ['RA', 'CC'] as const) assert.deepEqual(cycle(text, level), ['C -co-> A', 'A -wr-> C'], level);
});

test('the preferred cycle is found in any component, not only the smallest', () => {
  // Two independent violations: {init, T1} (a co edge and the initial state's so edge) and
  // {A, B, C} (two co edges, no so ∪ wr edge), the better one in the larger component.
  const text = `session s1
  T1: w(k, 1)
  T2: r(k, init)
session s2
  A: w(x, 1) w(w, 1) w(z, 1)
  C: w(q, 1)
session s3
  B: w(x, 2) w(y, 2) w(z, 2) r(q, 1)
session s4
  R1: r(x, 1) r(y, 2)
session s5
  R2: r(z, 2) r(w, 1)
`;
  assert.deepEqual(cycle(text, 'RA'), ['A -co-> B', 'B -co-> A']);
  // With more witnesses asked for, the other component's cycle is reported too.
  const a = analyzeHistText(text, { levels: ['RA'], maxWitnesses: 3 });
  const ra = a.findings.filter((f) => f.code === 'RA').map((f) => f.message);
  assert.ok(ra.some((m) => /T1 must commit before the initial state/.test(m)), ra.join('\n'));
  assert.ok(ra.some((m) => /A must commit before B/.test(m)), ra.join('\n'));
});

test('a co edge beside a so ∪ wr path is not taken for a lighter one (monotonic reads)', () => {
  // T1 →co T2 is forced too (T3 read x from T2, T1 happens before T3), but T1 precedes T2 in
  // its session already: the witness shows that so edge, as CC's saturation does.
  const text = `session s1
  T1: w(x, 1)
  T2: w(x, 2)
session s2
  T3: r(x, 2)
  T4: r(x, 1)
`;
  assert.deepEqual(cycle(text, 'CC'), ['T2 -co-> T1', 'T1 -so-> T2']);
});
