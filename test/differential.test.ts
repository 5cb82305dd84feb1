// Differential tests: optimised RC/RA/CC (and mixed) against literal transcriptions of the axioms.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { runDifferential, randomOptions } from './helpers/differential.ts';

test('optimised checkers agree with the naive axioms on 2,000 random histories', () => {
  const stats = runDifferential(2000, 1);
  assert.equal(stats.histories, 2000);
  assert.deepEqual(stats.mismatches.slice(0, 3), [], `first mismatches:\n${stats.mismatches.slice(0, 3).map((m) => `seed ${m.seed}: ${m.what}\n${m.text}`).join('\n')}`);
  // The permissive store must make anomalies common, or the comparison proves little.
  for (const rule of ['RC', 'RA', 'CC']) assert.ok(stats.violated[rule] > 200, `${rule} violated only ${stats.violated[rule]} times`);
  assert.ok(stats.violated.RC < stats.histories - 200, 'RC should also hold often');
  assert.ok(stats.violated.mixed > 100);
});

test('verdicts respect the lattice: CC ok ⇒ RA ok ⇒ RC ok', () => {
  for (let seed = 5000; seed < 5500; seed++) {
    const a = analyzeHistText(toHistString(generateHistory(randomOptions(seed))));
    const v = (l: string): boolean | null | undefined => a.levels.find((x) => x.level === l)?.consistent;
    if (v('CC')) assert.ok(v('RA'), `seed ${seed}: CC holds but RA does not`);
    if (v('RA')) assert.ok(v('RC'), `seed ${seed}: RA holds but RC does not`);
  }
});

test('the stores produce what they promise at the weak levels', () => {
  const expectations: [Parameters<typeof randomOptions>[0], string, string[]][] = [];
  void expectations;
  for (let seed = 1; seed <= 30; seed++) {
    const base = { ...randomOptions(seed), sessions: 4, transactions: 40, keys: 6, abortRatio: 0 };
    const serial = analyzeHistText(toHistString(generateHistory({ ...base, store: 'serial' })));
    const causal = analyzeHistText(toHistString(generateHistory({ ...base, store: 'causal' })));
    const rc = analyzeHistText(toHistString(generateHistory({ ...base, store: 'read-committed' })));
    for (const l of ['RC', 'RA', 'CC']) {
      assert.equal(serial.levels.find((v) => v.level === l)?.consistent, true, `serial seed ${seed} ${l}`);
      assert.equal(causal.levels.find((v) => v.level === l)?.consistent, true, `causal seed ${seed} ${l}`);
    }
    assert.equal(rc.levels.find((v) => v.level === 'RC')?.consistent, true, `read-committed seed ${seed}`);
  }
});
