// Differential tests for PC, PSI, SI, SER and mixed levels: the engine against brute force.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { bruteForceHomogeneous, bruteForceMixed } from './helpers/brute-force.ts';
import { randomOptions, runStrongDifferential } from './helpers/differential.ts';

test('strong and mixed verdicts agree with brute force on 2,000 random histories', () => {
  const stats = runStrongDifferential(2000, 1);
  assert.deepEqual(stats.mismatches.slice(0, 3), [], stats.mismatches.slice(0, 3).map((m) => `seed ${m.seed}: ${m.what}\n${m.text}`).join('\n'));
  for (const l of ['PC', 'PSI', 'SI', 'SER', 'mixed']) assert.ok(stats.violated[l] > 300, `${l} violated only ${stats.violated[l]} times`);
  assert.ok(stats.violated.SER < 1700, 'SER should also hold often');
});

test('the lattice holds: SER ⇒ SI ⇒ PC, SI ⇒ PSI ⇒ CC', () => {
  for (let seed = 9000; seed < 9400; seed++) {
    const a = analyzeHistText(toHistString(generateHistory({ ...randomOptions(seed), transactions: 6 })));
    const v = (l: string): boolean | null | undefined => a.levels.find((x) => x.level === l)?.consistent;
    for (const [strong, weak] of [['SER', 'SI'], ['SI', 'PC'], ['SI', 'PSI'], ['PSI', 'CC'], ['PC', 'CC']]) {
      if (v(strong) === true) assert.equal(v(weak), true, `seed ${seed}: ${strong} holds but ${weak} does not`);
    }
  }
});

test('on homogeneous histories the commit-order table and MixIso visibility agree', () => {
  for (let seed = 300; seed < 500; seed++) {
    const a = analyzeHistText(toHistString(generateHistory({ ...randomOptions(seed), transactions: 5 })));
    if (a.readsFrom.violations > 0) continue;
    for (const l of LEVELS) {
      assert.equal(bruteForceMixed(a.history, a.readsFrom, () => l), bruteForceHomogeneous(a.history, a.readsFrom, l), `seed ${seed} ${l}`);
    }
  }
});
