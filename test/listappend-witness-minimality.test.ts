// List-append cycle witnesses against an exhaustive oracle: for the classes without phases (G0, G1c, G-single, causality), the cycle found is the shortest, session order counted as one edge per run (it is transitive).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cycleInference, findCycles, type CycleEdge } from '../server/src/engine/listappend/cycles.ts';
import { inferListAppend, LK_RW, LK_SO, LK_WR, LK_WW, type ListInference } from '../server/src/engine/listappend/infer.ts';
import { DEFAULT_LIST_GEN, generateListHistory, listHistToString } from '../server/src/engine/gen/list-append-store.ts';
import { Rng } from '../server/src/engine/gen/generate.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';

type Rank = [edges: number, causal: number];
const bit = (k: number): number => 1 << k;

/** Each class as the spec's table reads it (kinds allowed; the count of rw, or of wr, it needs). */
const CLASSES: { cls: 'G0' | 'G1c' | 'G-single'; allowed: number; ok: (rw: number, wr: number, ww: number) => boolean }[] = [
  { cls: 'G0', allowed: bit(LK_WW) | bit(LK_SO), ok: (_rw, _wr, ww) => ww >= 1 },
  { cls: 'G1c', allowed: bit(LK_WW) | bit(LK_WR) | bit(LK_SO), ok: (_rw, wr) => wr >= 1 },
  { cls: 'G-single', allowed: bit(LK_WW) | bit(LK_WR) | bit(LK_SO) | bit(LK_RW), ok: (rw) => rw === 1 },
];

/**
 * The best rank of a simple cycle of a class over the inference's edges, session order made
 * transitive (an so edge from every transaction to each later one of its session): every simple
 * cycle, enumerated from its smallest node.
 */
function oracleRank(inf: ListInference, allowed: number, ok: (rw: number, wr: number, ww: number) => boolean): Rank | null {
  const n = inf.h.txnCount;
  const out: { to: number; kind: number }[][] = Array.from({ length: n }, () => []);
  const soNext: number[][] = Array.from({ length: n }, () => []);
  for (let i = 0; i < inf.edges.length; i++) {
    const [a, b, k] = [inf.edges.from.data[i], inf.edges.to.data[i], inf.edges.kind.data[i]];
    if (k === LK_SO) soNext[a].push(b);
    else if ((allowed & bit(k)) !== 0) out[a].push({ to: b, kind: k });
  }
  // Transitive session order: whatever the so edges reach.
  for (let a = 0; a < n; a++) {
    const seen = new Set<number>();
    const stack = [...soNext[a]];
    while (stack.length > 0) {
      const b = stack.pop()!;
      if (seen.has(b)) continue;
      seen.add(b);
      out[a].push({ to: b, kind: LK_SO });
      stack.push(...soNext[b]);
    }
  }
  let best: Rank | null = null;
  const onPath = new Uint8Array(n);
  const walk = (start: number, v: number, len: number, rw: number, wr: number, ww: number, so: number): void => {
    for (const { to, kind } of out[v]) {
      const r = [rw + (kind === LK_RW ? 1 : 0), wr + (kind === LK_WR ? 1 : 0), ww + (kind === LK_WW ? 1 : 0), so + (kind === LK_SO ? 1 : 0)];
      if (to === start) {
        if (!ok(r[0], r[1], r[2])) continue;
        const rank: Rank = [len + 1, r[1] + r[3]];
        if (!best || rank[0] < best[0] || (rank[0] === best[0] && rank[1] < best[1])) best = rank;
      } else if (to > start && onPath[to] === 0 && len + 1 < n) {
        onPath[to] = 1;
        walk(start, to, len + 1, r[0], r[1], r[2], r[3]);
        onPath[to] = 0;
      }
    }
  };
  for (let s = 0; s < n; s++) {
    onPath[s] = 1;
    walk(s, s, 0, 0, 0, 0, 0);
    onPath[s] = 0;
  }
  return best;
}

function rankOf(c: readonly CycleEdge[]): Rank {
  return [c.length, c.filter((e) => e.kind === LK_SO || e.kind === LK_WR).length];
}

test('the smallest G0, G1c, G-single and causality cycles of 3,000 random list-append histories, a session run counted once: as an exhaustive search finds them', () => {
  let compared = 0;
  let withRuns = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const rng = new Rng(seed * 31 + 7);
    const text = listHistToString(generateListHistory({
      ...DEFAULT_LIST_GEN, seed, transactions: 3 + rng.below(6), sessions: 1 + rng.below(3), keys: 2 + rng.below(2),
      maxAppends: 100, opsPerTxn: 3, readRatio: 0.5, abortRatio: 0, unknownRatio: 0, store: 'permissive', times: false,
    }));
    const inf = cycleInference(inferListAppend(parseHist(text).history));
    const search = findCycles(inf, false, CLASSES.map((c) => c.cls));
    const found = search.found;
    // The causality cycle (so ∪ wr, a read-consistency error) too.
    const causality = oracleRank(inf, bit(LK_WR) | bit(LK_SO), (_rw, wr) => wr >= 1);
    assert.deepEqual(search.causality && rankOf(search.causality)[0], causality && causality[0], `seed ${seed} causality\n${text}`);
    for (const { cls, allowed, ok } of CLASSES) {
      const mine = found.find((f) => f.cls === cls)?.edges ?? null;
      const theirs = oracleRank(inf, allowed, ok);
      // The length (the search breaks ties among one start edge's shortest paths by the first found).
      assert.deepEqual(mine && rankOf(mine)[0], theirs && theirs[0], `seed ${seed} ${cls}\n${text}`);
      if (mine) {
        compared++;
        if (mine.some((e) => e.kind === LK_SO)) withRuns++;
      }
    }
  }
  // Enough cycles, and enough through session order, to mean something.
  assert.ok(compared > 1000 && withRuns > 100, `${compared} cycles compared, ${withRuns} with session order`);
});
