// Every appender of a read's elements as a wr predecessor (the spec's wr) where a cycle can use it: the causality check and the cycle classes.

import { OP_APPEND, OP_LIST_READ } from '../model/history.ts';
import { buildListCsr, stronglyConnected, topologicalOrder } from '../util/graph.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { LK_WR, type ListInference } from './infer.ts';
import { allEdgesAcyclic, allEdgesWithRtAcyclic, rtChain } from './list-graph.ts';

/**
 * Calls `add(u, t, o, v)` for every included appender u ≠ t of an element v of the included list
 * read o of t that is not the read's source (the inference's one wr edge per read), once per (u, read).
 * Linear in the lists' elements: only asked once a cycle is known to exist (observedAppendersCycles).
 */
function forEachOtherAppender(inf: ListInference, add: (u: number, t: number, o: number, v: number) => void): void {
  const { h, included, source } = inf;
  const ls = h.opListStart as Int32Array;
  const elems = h.listElems as Int32Array;
  const stamp = new Int32Array(h.txnCount).fill(-1);
  for (let t = 1; t < h.txnCount; t++) {
    if (included[t] === 0) continue;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] !== OP_LIST_READ) continue;
      for (let i = ls[o]; i < ls[o + 1]; i++) {
        const a = inf.appenderOf(h.opKey[o], elems[i]);
        if (a < 0) continue;
        const u = h.opTxn[a];
        if (u === t || included[u] === 0 || u === source[o] || stamp[u] === o) continue;
        stamp[u] = o;
        add(u, t, o, elems[i]);
      }
    }
  }
}

/**
 * Null when the graph of the inference's edges of `kinds` (a bit per LK_ kind), real time too
 * with `withRt`, is acyclic with wr from every appender of a read's elements; else per transaction
 * the id of the cyclic strongly connected component it is in (-1: none). The inference keeps one
 * wr edge per read, from its source: the others would cost an edge per list element, and a ww
 * path stands in for them on reachability but not in a simple cycle (`T1 →wr T4` where the path
 * is `T1 →ww T2 →wr T4` and the cycle already passes T2), nor in so ∪ wr (no ww there). A chain
 * of one node per version of each key stands for them here: the appender of version i enters
 * node i, node i leads to node i + 1, and a read of the first n versions leaves node n − 1, so
 * exactly the appenders of the versions it read reach it; edges linear in transactions, versions
 * and reads. Elements the chain cannot stand for (the reader's own appends inside the list,
 * reads that are no prefix of the version order) get direct edges.
 */
export function observedAppendersCycles(inf: ListInference, kinds: number, withRt: boolean): Int32Array | null {
  // Without findings every read is a prefix of intact version chains (no garbage, aborted or
  // duplicate element breaks a ww path), so each appender reaches the reader through ww and the
  // source's wr: when the graph of every kind is acyclic, so is this one (and its subgraphs).
  if (!inf.inconsistent && allEdgesAcyclic(inf) && (!withRt || allEdgesWithRtAcyclic(inf))) return null;
  const { h, included, edges, verStart, verElems, prefixRead, appendPos } = inf;
  const n = h.txnCount;
  const rt = withRt ? rtChain(inf) : null;
  const base = n + (rt ? rt.byStart.length : 0);
  const ls = h.opListStart as Int32Array;
  const elems = h.listElems as Int32Array;
  const from = new Int32Vec(n + verElems.length);
  const to = new Int32Vec(n + verElems.length);
  const add = (u: number, v: number): void => {
    from.push(u);
    to.push(v);
  };
  for (let i = 0; i < edges.length; i++) if (((kinds >> edges.kind.data[i]) & 1) !== 0) add(edges.from.data[i], edges.to.data[i]);
  if (rt) for (let i = 0; i < rt.from.length; i++) add(rt.from[i], rt.to[i]);
  for (let k = 0; k < h.keyCount; k++) {
    for (let p = verStart[k]; p < verStart[k + 1]; p++) {
      const a = inf.appenderOf(k, verElems[p]);
      if (a >= 0 && included[h.opTxn[a]] === 1) add(h.opTxn[a], base + p);
      if (p + 1 < verStart[k + 1]) add(base + p, base + p + 1);
    }
  }
  const direct = (t: number, k: number, o: number, first: number): void => {
    for (let i = ls[o] + first; i < ls[o + 1]; i++) {
      const a = inf.appenderOf(k, elems[i]);
      if (a >= 0 && h.opTxn[a] !== t && included[h.opTxn[a]] === 1) add(h.opTxn[a], t);
    }
  };
  for (let t = 1; t < n; t++) {
    if (included[t] === 0) continue;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] !== OP_LIST_READ) continue;
      const k = h.opKey[o];
      const len = ls[o + 1] - ls[o];
      if (len === 0) continue;
      if (prefixRead[o] === 0) {
        direct(t, k, o, 0);
        continue;
      }
      // The first version t appended itself: the chain stands for the versions before it only.
      let own = len;
      for (let p = h.txnOpStart[t]; p < h.txnOpStart[t + 1]; p++) {
        if (h.opKind[p] === OP_APPEND && h.opKey[p] === k && appendPos[p] >= 0 && appendPos[p] < own) own = appendPos[p];
      }
      if (own > 0) add(base + verStart[k] + own - 1, t);
      if (own < len) direct(t, k, o, own);
    }
  }
  const g = buildListCsr(base + verElems.length, from.data, to.data, from.length, 0);
  if (topologicalOrder(g).count === g.nodeCount) return null;
  // Cyclic: which transactions share a cycle.
  const { comp, size } = stronglyConnected(g, null);
  const out = new Int32Array(n).fill(-1);
  for (let t = 0; t < n; t++) if (size[comp[t]] > 1) out[t] = comp[t];
  return out;
}

/**
 * The inference with a wr edge from every included appender of each read's elements (besides its
 * source's) inside one cyclic component (`cycles`, from observedAppendersCycles), for the
 * causality cycle's search and its explanation. Only built once a cycle is known; the edges are
 * bounded (a component of long lists could hold one per element), past which the search may find
 * a longer cycle through the one-source edges, or none (then G1c still names it).
 */
export function withObservedAppenders(inf: ListInference, cycles: Int32Array): ListInference {
  const edges = inf.edges.clone();
  const max = 4 * (inf.h.opCount + 1024);
  let added = 0;
  forEachOtherAppender(inf, (u, t, o, v) => {
    if (added >= max || cycles[u] < 0 || cycles[u] !== cycles[t]) return;
    edges.add(u, t, LK_WR, inf.h.opKey[o], o, v, -1);
    added++;
  });
  return { ...inf, edges };
}
