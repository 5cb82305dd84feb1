// One time budget for all the strong searches of an analysis (strongTotalMillis, the CLI's default run on large inputs).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { IMPLICIT_STRONG_TOTAL_MILLIS, implicitStrongBudget, LARGE_INPUT_BYTES } from '../server/src/engine/strong/strong-check.ts';
import type { Verdict } from '../server/src/engine/verdicts/verdict.ts';

const history = (store: 'serial' | 'causal'): string => toHistString(generateHistory({
  sessions: 16, transactions: 3000, opsPerTxn: 6, keys: 100, distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store, seed: 3,
}));
const shown = (v: Verdict): string => `${v.level}:${v.consistent}`;

test('the CLI\'s default run shares one budget among the strong levels only on inputs over 2 MB', () => {
  assert.deepEqual(implicitStrongBudget(LARGE_INPUT_BYTES), {});
  assert.deepEqual(implicitStrongBudget(LARGE_INPUT_BYTES + 1), { strongTotalMillis: IMPLICIT_STRONG_TOTAL_MILLIS });
});

test('a spent shared budget leaves the strong searches undecided, saying so the same way every time; never another verdict', () => {
  const text = history('serial');
  const full = analyzeHistText(text).levels;
  assert.deepEqual(full.map(shown), ['RC:true', 'RA:true', 'CC:true', 'PC:true', 'PSI:true', 'SI:true', 'SER:true']);
  const spent = analyzeHistText(text, { strongTotalMillis: 0 }).levels;
  for (const level of ['PC', 'SI', 'SER']) {
    const v = spent.find((x) => x.level === level)!;
    assert.equal(v.consistent, null, level);
    assert.ok(v.basis.kind === 'undecided');
    assert.match(v.basis.reason, /ran out of time \(0 ms for all the strong levels together\)/, level);
  }
  // The weak levels do not use it; a decided strong level agrees with the full run.
  spent.forEach((v, i) => assert.ok(v.consistent === null || v.consistent === full[i].consistent, v.level));
  assert.deepEqual(spent.slice(0, 3).map(shown), ['RC:true', 'RA:true', 'CC:true']);
});

test('with the budget spent, the one-pass conditions still decide: a lost update violates PSI, SI and SER', () => {
  const text = history('causal');
  const full = analyzeHistText(text).levels.map(shown);
  assert.deepEqual(full, ['RC:true', 'RA:true', 'CC:true', 'PC:true', 'PSI:false', 'SI:false', 'SER:false']);
  const spent = analyzeHistText(text, { strongTotalMillis: 0 }).levels;
  assert.deepEqual(spent.filter((v) => ['PSI', 'SI', 'SER'].includes(v.level)).map(shown), ['PSI:false', 'SI:false', 'SER:false']);
  assert.equal(spent.find((v) => v.level === 'PC')!.consistent, null);
});

test('a shared budget that is not spent changes nothing: the same report as per-search budgets', () => {
  for (const store of ['serial', 'causal'] as const) {
    const text = history(store);
    const strip = (a: ReturnType<typeof analyzeHistText>): string => JSON.stringify(a.levels);
    assert.equal(strip(analyzeHistText(text, { strongTotalMillis: 600_000 })), strip(analyzeHistText(text)), store);
  }
});
