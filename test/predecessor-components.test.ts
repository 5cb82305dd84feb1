// componentsByPredecessors (Tarjan over predecessors, no CSR) against stronglyConnected on the merged CSR: the same partition.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EK_INIT } from '../server/src/engine/model/edges.ts';
import { baseCsr, mergeCsr, stronglyConnected } from '../server/src/engine/util/graph.ts';
import { componentsByPredecessors } from '../server/src/engine/util/predecessor-components.ts';
import { randomUnion } from './helpers/random-union.ts';

/** Each node's component named by its smallest member: comparable across numberings. */
function canonical(comp: Int32Array): Int32Array {
  const least = new Map<number, number>();
  for (let v = 0; v < comp.length; v++) if (!least.has(comp[v])) least.set(comp[v], v);
  return comp.map((c) => least.get(c)!);
}

test('componentsByPredecessors partitions so ∪ wr ∪ extra (∪ ⊥\'s edges) as Tarjan on the merged CSR does (3,000 histories)', () => {
  let nontrivial = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const { h, wr, soPrev, extra, rng } = randomUnion(seed, 6);
    const bottomFirst = rng.below(2) === 1;
    const merged = extra.copy(h.txnCount);
    if (bottomFirst) for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0) merged.add(0, t, EK_INIT);
    const g = mergeCsr(baseCsr(h.txnCount, h.txnOpStart, h.txnAborted, wr, soPrev), merged.from.data, merged.to.data, merged.length, 0);
    const expected = stronglyConnected(g, null);
    const got = componentsByPredecessors(h.txnCount, h.txnOpStart, h.txnAborted, wr, soPrev, extra.from.data, extra.to.data, extra.length, bottomFirst);
    assert.equal(got.count, expected.count, `seed ${seed}`);
    assert.deepEqual(canonical(got.comp), canonical(expected.comp), `seed ${seed}`);
    for (let v = 0; v < h.txnCount; v++) assert.equal(got.size[got.comp[v]], expected.size[expected.comp[v]], `seed ${seed}, node ${v}`);
    if (expected.count < h.txnCount) nontrivial++;
  }
  assert.ok(nontrivial > 500, `${nontrivial} histories with a cycle`);
});

test('componentsByPredecessors follows long chains without recursion (100,000 transactions in one session, closed by ⊥)', () => {
  const n = 100_001;
  const txnOpStart = new Int32Array(n + 1);
  const soPrev = Int32Array.from({ length: n }, (_, t) => t - 1);
  soPrev[0] = -1;
  soPrev[1] = -1;
  const none = new Int32Array(0);
  const apart = componentsByPredecessors(n, txnOpStart, new Uint8Array(n), none, soPrev, none, none, 0, true);
  assert.equal(apart.count, n);
  // The last transaction forced before ⊥: ⊥ precedes the first, so every transaction is on the cycle.
  const one = componentsByPredecessors(n, txnOpStart, new Uint8Array(n), none, soPrev, Int32Array.of(n - 1), Int32Array.of(0), 1, true);
  assert.equal(one.count, 1);
  assert.equal(one.size[0], n);
});
