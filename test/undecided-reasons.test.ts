// A search cut short by its time budget must still give the same report every run: the reason names budgets, never how far the clock let it get.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { searchStopReason } from '../server/src/engine/strong/strong-check.ts';
import { EventGraph } from '../server/src/engine/strong/event-propagation.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';

test('a search stopped by the clock names its budgets, not the states it reached', () => {
  assert.equal(searchStopReason(508_197, 4_000_000, 2000), searchStopReason(504_101, 4_000_000, 2000));
  assert.equal(searchStopReason(508_197, 4_000_000, 2000), 'the search ran out of time (2000 ms) within its budget of 4000000 states');
  assert.equal(searchStopReason(4_000_001, 4_000_000, 2000), 'the search used its whole budget of 4000000 states');
});

test('strong levels stopped by a 1 ms budget: undecided, with the same reasons on every run', () => {
  // A causal-store history: CC holds, PC needs its search, which 1 ms cannot finish.
  const text = toHistString(generateHistory({ sessions: 16, transactions: 4000, opsPerTxn: 6, keys: 300, distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store: 'causal', seed: 7, abortRatio: 0 }));
  const runs = [1, 2, 3].map(() => new Map(analyzeHistText(text, { levels: ['CC', 'PC', 'SI', 'SER'], strongMillis: 1 }).levels
    .filter((v) => v.basis.kind === 'undecided').map((v) => [v.level, v.basis.kind === 'undecided' ? v.basis.reason : ''])));
  assert.ok(runs[0].has('PC'), 'PC should run out of time');
  for (const run of runs) {
    for (const [level, reason] of run) {
      assert.match(reason, /ran out of time \(1 ms\)/, level);
      // Whether a level finishes within 1 ms may vary; what it says when it does not, may not.
      for (const other of runs) if (other.has(level)) assert.equal(other.get(level), reason, level);
    }
  }
});

test('past its memory bound the event graph says which clock table is too large, for the undecided reason', () => {
  const h = parseHist('session a\n  T1: w(x, 1)\n  T2: r(x, 1)\nsession b\n  T3: w(y, 1)\nsession c\n  T4: r(y, 1) r(z, init)\n').history;
  const rf = computeReadsFrom(h);
  const input = { h, rf, mode: new Uint8Array(h.txnCount), precedence: { from: new Int32Array(0), to: new Int32Array(0), length: 0 } };
  // 5 transactions (⊥ included) are 10 events; 3 sessions; 3 keys.
  assert.deepEqual(EventGraph.build({ ...input, maxEntries: 29 }), { tooLarge: '10 events × 3 sessions is more than their 29 clock entries' });
  assert.ok(EventGraph.build({ ...input, maxEntries: 30 }) instanceof EventGraph, 'exactly at the bound it fits');
  assert.deepEqual(EventGraph.build({ ...input, maxEntries: 8 }), { tooLarge: '10 events × 3 sessions is more than their 8 clock entries' });
});
