// acyclicByPredecessors (depth-first over predecessors, no CSR) against Kahn's algorithm on the built CSR, on random histories and random extra edges.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acyclicByPredecessors, baseCsr, buildListCsr, inDegrees, unionLeftOver } from '../server/src/engine/util/graph.ts';
import { randomUnion } from './helpers/random-union.ts';

test('acyclicByPredecessors agrees with Kahn on so ∪ wr ∪ random extra edges (3,000 histories, both outcomes common)', () => {
  const seen = { acyclic: 0, cyclic: 0 };
  for (let seed = 1; seed <= 3000; seed++) {
    const { h, wr, soPrev, extra } = randomUnion(seed, 4);
    const g = baseCsr(h.txnCount, h.txnOpStart, h.txnAborted, wr, soPrev);
    const kahn = unionLeftOver(g, inDegrees(g), buildListCsr(h.txnCount, extra.from.data, extra.to.data, extra.length, 0)) === null;
    const dfs = acyclicByPredecessors(h.txnCount, h.txnOpStart, h.txnAborted, wr, soPrev, extra.from.data, extra.to.data, extra.length);
    assert.equal(dfs, kahn, `seed ${seed}`);
    seen[dfs ? 'acyclic' : 'cyclic']++;
  }
  assert.ok(seen.acyclic > 300 && seen.cyclic > 300, JSON.stringify(seen));
});

test('acyclicByPredecessors follows long chains without recursion (100,000 transactions in one session, and back)', () => {
  const n = 100_001;
  const txnOpStart = new Int32Array(n + 1);
  const soPrev = Int32Array.from({ length: n }, (_, t) => t - 1);
  soPrev[0] = -1;
  const none = new Int32Array(0);
  assert.equal(acyclicByPredecessors(n, txnOpStart, new Uint8Array(n), none, soPrev, none, none, 0), true);
  assert.equal(acyclicByPredecessors(n, txnOpStart, new Uint8Array(n), none, soPrev, Int32Array.of(n - 1), Int32Array.of(1), 1), false);
});
