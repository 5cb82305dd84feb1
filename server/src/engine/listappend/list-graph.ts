// The list-append graph's shared CSRs (all edges, edges of one kind) and Kahn's test over a filtered union: built once, read by levels and cycles.

import { buildListCsr, type Csr } from '../util/graph.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { memoByObject } from '../util/memo.ts';
import { lowerBound, upperBound } from '../util/sorted.ts';
import type { ListEdges, ListInference } from './infer.ts';

/** A CSR of list edges with each slot's edge kind beside it (read in slot order, not by edge id). */
export interface KindCsr extends Csr {
  kind: Uint8Array;
}

/**
 * Every edge by source, in edge order within a source (as buildListCsr lays them out); one per
 * inference object (the levels and the cycle search read the same one).
 */
export const allEdgesCsr = memoByObject((inf: ListInference): KindCsr => {
  const c = edgeCsr(inf.h.txnCount, inf.edges, -1, false);
  const kinds = inf.edges.kind.data;
  const kind = new Uint8Array(c.edgeId.length);
  for (let p = 0; p < kind.length; p++) kind[p] = kinds[c.edgeId[p]];
  return { ...c, kind };
});

/** Whether the whole graph (every edge kind, no rt) is acyclic: asked by the SER verdict and the cycle search. */
export const allEdgesAcyclic = memoByObject((inf: ListInference): boolean => {
  const g = allEdgesCsr(inf);
  return unionAcyclic(g, -1, null, g.nodeCount, null);
});

/**
 * Real time as a chain of virtual nodes: the included timed transactions sorted by start
 * (byStart), virtual node n + j reaching byStart[j..] (n + j → byStart[j], n + j → n + j + 1), and
 * u → n + j for the first j that starts after u ended (not from unknown transactions, whose end
 * is not known). Null when fewer than two transactions are timed.
 */
export interface RtChain {
  byStart: Int32Array;
  from: Int32Array;
  to: Int32Array;
  /** The chain's edges alone over n + byStart.length nodes (acyclic). */
  chain: Csr;
}

/** The real-time chain of an inference's included transactions (once per inference), or null. */
export const rtChain = memoByObject((inf: ListInference): RtChain | null => {
  const h = inf.h;
  const n = h.txnCount;
  const timed: number[] = [];
  if (h.txnTimeStart && h.txnTimeEnd) {
    for (let t = 1; t < n; t++) if (inf.included[t] === 1 && !Number.isNaN(h.txnTimeStart[t])) timed.push(t);
  }
  let out: RtChain | null = null;
  if (timed.length > 1) {
    const ts = h.txnTimeStart as Float64Array;
    const te = h.txnTimeEnd as Float64Array;
    const m = timed.length;
    // By start, then by id, without a comparator (1,000,000 calls of one cost 0.3 s): the start
    // times sorted natively, each transaction's rank among them, then a counting sort by rank
    // that keeps ids ascending within a rank.
    const starts = new Float64Array(m);
    for (let i = 0; i < m; i++) starts[i] = ts[timed[i]];
    starts.sort();
    const rankCount = new Int32Array(m + 1);
    const rank = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      rank[i] = lowerBound(starts, ts[timed[i]]);
      rankCount[rank[i] + 1]++;
    }
    for (let r = 0; r < m; r++) rankCount[r + 1] += rankCount[r];
    const byStart = new Int32Array(m);
    for (let i = 0; i < m; i++) byStart[rankCount[rank[i]]++] = timed[i];
    const from = new Int32Vec(3 * m);
    const to = new Int32Vec(3 * m);
    for (let j = 0; j < m; j++) {
      from.push(n + j);
      to.push(byStart[j]);
      if (j + 1 < m) {
        from.push(n + j);
        to.push(n + j + 1);
      }
    }
    for (let i = 0; i < m; i++) {
      const u = byStart[i];
      if (h.txnUnknown?.[u] === 1) continue;
      // firstStartAfter(byStart, ts, te[u]), on the sorted start times themselves.
      const j = upperBound(starts, te[u]);
      if (j < m) {
        from.push(u);
        to.push(n + j);
      }
    }
    out = { byStart, from: from.toArray(), to: to.toArray(), chain: buildListCsr(n + m, from.data, to.data, from.length, 0) };
  }
  return out;
});

/** Whether every edge together with real time (rtChain) is acyclic: the SSER verdict and the realtime cycle search ask it. */
export const allEdgesWithRtAcyclic = memoByObject((inf: ListInference): boolean => {
  const rt = rtChain(inf);
  return rt ? unionAcyclic(allEdgesCsr(inf), -1, null, rt.chain.nodeCount, rt.chain) : allEdgesAcyclic(inf);
});

/** The first index of `sorted` (transactions by start) whose start is after `time`. */
export function firstStartAfter(sorted: ArrayLike<number>, start: Float64Array, time: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (start[sorted[mid]] > time) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The edges of one kind (kind < 0: all), grouped by source, or by target when `inward` (then
 * `target` holds the source); edgeId is the index into `edges`. Two counting passes, no lists.
 */
export function edgeCsr(nodeCount: number, edges: ListEdges, kind: number, inward: boolean): Csr {
  const m = edges.length;
  const kinds = edges.kind.data;
  const by = inward ? edges.to.data : edges.from.data;
  const other = inward ? edges.from.data : edges.to.data;
  const start = new Int32Array(nodeCount + 1);
  let count = 0;
  for (let i = 0; i < m; i++) {
    if (kind >= 0 && kinds[i] !== kind) continue;
    start[by[i] + 1]++;
    count++;
  }
  for (let v = 0; v < nodeCount; v++) start[v + 1] += start[v];
  const fill = start.slice(0, nodeCount);
  const target = new Int32Array(count);
  const edgeId = new Int32Array(count);
  for (let i = 0; i < m; i++) {
    if (kind >= 0 && kinds[i] !== kind) continue;
    const p = fill[by[i]]++;
    target[p] = other[i];
    edgeId[p] = i;
  }
  return { nodeCount, start, target, edgeId };
}

/**
 * Kahn's algorithm over g's edges (skipping the `skipKind` edges of sources v with keepSkipped[v]
 * = 0; skipKind < 0 keeps all) together with the extra edges (over nodeCount ≥ g.nodeCount
 * nodes): whether their union is acyclic. Nothing is copied.
 */
export function unionAcyclic(g: KindCsr, skipKind: number, keepSkipped: Uint8Array | null, nodeCount: number, extra: Csr | null): boolean {
  const n = g.nodeCount;
  const kind = g.kind;
  const indeg = new Int32Array(nodeCount);
  for (let v = 0; v < n; v++) {
    const all = skipKind < 0 || (keepSkipped !== null && keepSkipped[v] === 1);
    for (let p = g.start[v]; p < g.start[v + 1]; p++) if (all || kind[p] !== skipKind) indeg[g.target[p]]++;
  }
  if (extra) for (let p = 0; p < extra.target.length; p++) indeg[extra.target[p]]++;
  const queue = new Int32Array(nodeCount);
  let head = 0;
  let tail = 0;
  for (let v = 0; v < nodeCount; v++) if (indeg[v] === 0) queue[tail++] = v;
  while (head < tail) {
    const v = queue[head++];
    if (v < n) {
      const all = skipKind < 0 || (keepSkipped !== null && keepSkipped[v] === 1);
      for (let p = g.start[v]; p < g.start[v + 1]; p++) {
        if ((all || kind[p] !== skipKind) && --indeg[g.target[p]] === 0) queue[tail++] = g.target[p];
      }
    }
    if (extra && v < extra.nodeCount) for (let p = extra.start[v]; p < extra.start[v + 1]; p++) if (--indeg[extra.target[p]] === 0) queue[tail++] = extra.target[p];
  }
  return tail === nodeCount;
}

/** g plus extra edges of kind extraKind (from → to, over nodeCount ≥ g.nodeCount nodes), the extra ones after g's per source: one CSR. */
export function withExtraEdges(g: KindCsr, nodeCount: number, from: Int32Array, to: Int32Array, length: number, extraKind: number): KindCsr {
  const start = new Int32Array(nodeCount + 1);
  for (let v = 0; v < g.nodeCount; v++) start[v + 1] = g.start[v + 1] - g.start[v];
  for (let i = 0; i < length; i++) start[from[i] + 1]++;
  for (let v = 0; v < nodeCount; v++) start[v + 1] += start[v];
  const total = start[nodeCount];
  const target = new Int32Array(total);
  const edgeId = new Int32Array(total);
  const fill = start.slice(0, nodeCount);
  const kind = new Uint8Array(total);
  for (let v = 0; v < g.nodeCount; v++) {
    let q = fill[v];
    for (let p = g.start[v]; p < g.start[v + 1]; p++, q++) {
      target[q] = g.target[p];
      edgeId[q] = g.edgeId[p];
      kind[q] = g.kind[p];
    }
    fill[v] = q;
  }
  const m = g.target.length;
  for (let i = 0; i < length; i++) {
    const p = fill[from[i]]++;
    target[p] = to[i];
    edgeId[p] = m + i;
    kind[p] = extraKind;
  }
  return { nodeCount, start, target, edgeId, kind };
}
