// The minimiser's lost-update seeds: which transactions they name, and a lost update far apart in a large history shrunk to its own transactions.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { minimizeWitness, SHRINK_STRONG_BUDGET } from '../server/src/engine/witness/violation.ts';
import { lostUpdateSeeds } from '../server/src/engine/witness/seeds.ts';
import { injectConcurrentLostUpdate } from './helpers/inject.ts';

function seedsOf(text: string, max = 8): string[][] {
  const { history: h } = parseHist(text);
  return lostUpdateSeeds(h, computeReadsFrom(h), max).map((s) => [...s].map((t) => h.names.txnName(t)));
}

test('lost-update seeds: two readers of one version that both overwrite it, with the version\'s writer (none for the initial value)', () => {
  const text = `init x = 0
init y = 0
session a
  T1: w(x, 1) w(y, 1)
  T2: r(x, 1) w(x, 2)
session b
  T3: r(x, 1) w(x, 3)
  T4: r(y, 1) r(y, 1)
session c
  T5: r(y, 0) w(y, 5)
  T6: w(y, 6) r(y, 6)
session d
  T7: r(y, 0) w(y, 7)
`;
  // T4 reads y without writing it, T6 writes y before reading it: neither is a read-modify-write.
  assert.deepEqual(seedsOf(text), [['T1', 'T2', 'T3'], ['T5', 'T7']]);
  assert.deepEqual(seedsOf(text, 1), [['T1', 'T2', 'T3']]);
  // Aborted readers are no lost update.
  assert.deepEqual(seedsOf('session a\n  T1: r(x, 0) w(x, 1)\n  T2: r(x, 0) w(x, 2) abort\n'), []);
  // A read of its own earlier write is not a read of the version before it.
  assert.deepEqual(seedsOf('session a\n  T1: w(x, 1) r(x, 1) w(x, 2)\nsession b\n  T2: w(x, 3) r(x, 3) w(x, 4)\n'), []);
});

test('a lost update between transactions 2,500 apart in a 5,000-transaction history shrinks to its three transactions on a work budget the halving alone cannot do it in', () => {
  const g = injectConcurrentLostUpdate(generateHistory({ sessions: 64, transactions: 5_000, opsPerTxn: 8, keys: 500, distribution: 'uniform', zipfS: 0.8,
    readRatio: 0.6, store: 'serial', seed: 1 }));
  assert.ok(g);
  const { history: h } = parseHist(toHistString(g));
  const rf = computeReadsFrom(h);
  // About three passes over the history: the windows and the halving of the old minimiser ended at
  // the whole history here (the two readers are in no window of 256 consecutive transactions).
  const work = 3 * (h.opCount + h.txnCount);
  const budget = { ...SHRINK_STRONG_BUDGET, necessaryOnly: true };
  const min = minimizeWitness(h, rf, { level: 'PSI' }, { work, budget });
  const kept = [...min.txnOrigin].slice(1).map((t) => h.names.txnName(t));
  assert.equal(kept.length, 3, `kept ${kept.length} transactions`);
  const [writer, ...readers] = kept;
  assert.ok(readers.includes(h.names.txnName(h.txnCount - 1)), `the injected reader is kept: ${kept.join(' ')}`);
  assert.ok(writer.startsWith('T'));
  // The same input gives the same part.
  assert.deepEqual(minimizeWitness(h, rf, { level: 'PSI' }, { work, budget }).txnOrigin, min.txnOrigin);
});
