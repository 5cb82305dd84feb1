// A weak level's witness found without building the graph: a forced co edge closed by its reverse, or by one so, wr or ⊥ edge.

import { EK_CO, EK_INIT, type EdgeList, type EdgeView } from '../model/edges.ts';
import { BOTTOM, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { buildListCsr, topologicalOrder, type Csr } from '../util/graph.ts';

/**
 * Histories of at least this many operations may take this witness. Below, the full search runs
 * (among equal cycles it prefers the smaller component's). Measured on the bench's 1M-operation
 * permissive file at RC: the merged graph, its components and the cycle search took ~0.18 s of a
 * 0.64 s check, and ended on a cycle of three so ∪ wr edges (its budget spent) where two-edge
 * cycles with one existed.
 */
export const TWO_EDGE_MIN_OPS = 250_000;

/**
 * Relaxations allowed when looking for two forced edges that are each other's reverse: past them
 * the full search runs (a hub with many forced edges could make the scan quadratic).
 */
const PAIR_WORK = 4_000_000;

/** A two-edge cycle (a run of so counts as one edge) and the view its edge ids refer to. */
export interface TwoEdgeCycle {
  cycle: Int32Array;
  view: EdgeView;
}

/**
 * When the forced edges alone have a cycle: two of them that are each other's reverse (`t1 →co t2
 * →co t1`), which ranks first among all cycles (no so ∪ wr edge, two edges; cycle-search.ts), or
 * null; `acyclic` says whether they have none (then closedWitness may look for the next best).
 */
export function reversePairWitness(h: History, base: EdgeView, forced: EdgeList): { witness: TwoEdgeCycle | null; acyclic: boolean } {
  const g = buildListCsr(h.txnCount, forced.from.data, forced.to.data, forced.length, 0);
  const topo = topologicalOrder(g);
  if (topo.count === h.txnCount) return { witness: null, acyclic: true };
  const pair = reversePair(g, forced, topo.leftOver);
  return { witness: pair === null ? null : { cycle: Int32Array.of(base.extraBase + pair[0], base.extraBase + pair[1]), view: base.withExtra(forced) }, acyclic: false };
}

/**
 * For forced edges with no cycle alone: a cycle `t2 →co t1 → t2` whose second edge is a wr edge (t2
 * read from t1), a run of so edges (t1 precedes t2 in its session) or ⊥'s edge (t1 is ⊥); none
 * ranks before it (one so ∪ wr edge, two edges). The first such forced edge in list order is
 * taken, so the same input gives the same witness. Only exact over the edges the full search
 * would see: a forced edge the minimal set leaves out (complete-forced.ts) can close a cycle of co
 * edges alone, which ranks before it.
 */
export function closedWitness(h: History, rf: ReadsFrom, base: EdgeView, soPrev: Int32Array, forced: EdgeList): TwoEdgeCycle | null {
  const { from, to, kind } = forced;
  for (let i = 0; i < forced.length; i++) {
    if (kind.data[i] !== EK_CO) continue;
    const t2 = from.data[i];
    const t1 = to.data[i];
    if (t2 === BOTTOM || t2 === t1 || h.txnAborted[t2] === 1) continue;
    const back = closingPath(h, rf, base, soPrev, t1, t2);
    if (back === null && t1 !== BOTTOM) continue;
    const view = back !== null ? base.withExtra(forced) : withInitEdge(base, forced, t2);
    const second = back ?? Int32Array.of(view.extraBase + forced.length);
    const cycle = new Int32Array(1 + second.length);
    cycle[0] = base.extraBase + i;
    cycle.set(second, 1);
    return { cycle, view };
  }
  return null;
}

/** reversePairWitness, else (the forced edges acyclic alone) closedWitness; null when neither finds one. */
export function twoEdgeWitness(h: History, rf: ReadsFrom, base: EdgeView, soPrev: Int32Array, forced: EdgeList): TwoEdgeCycle | null {
  const pair = reversePairWitness(h, base, forced);
  return pair.witness ?? (pair.acyclic ? closedWitness(h, rf, base, soPrev, forced) : null);
}

/**
 * The first forced edge (list order) whose reverse is forced too, with that reverse's index; null
 * when none is, or past PAIR_WORK. Only edges between nodes on or after a cycle (leftOver) can be.
 */
function reversePair(g: Csr, forced: EdgeList, leftOver: Uint8Array): [number, number] | null {
  const { from, to } = forced;
  let work = 0;
  for (let i = 0; i < forced.length; i++) {
    const u = from.data[i];
    const v = to.data[i];
    if (leftOver[u] === 0 || leftOver[v] === 0 || u === v) continue;
    for (let p = g.start[v]; p < g.start[v + 1]; p++) {
      if (++work > PAIR_WORK) return null;
      if (g.target[p] === u) return [i, g.edgeId[p]];
    }
  }
  return null;
}

/** The edge ids of a path t1 → t2 of one wr edge or one run of so edges, or null (⊥'s own edge is added by the caller). */
function closingPath(h: History, rf: ReadsFrom, base: EdgeView, soPrev: Int32Array, t1: number, t2: number): Int32Array | null {
  for (let o = h.txnOpStart[t2]; o < h.txnOpStart[t2 + 1]; o++) if (rf.wrSource[o] === t1) return Int32Array.of(o);
  if (t1 === BOTTOM || h.txnAborted[t1] === 1 || h.txnSession[t1] !== h.txnSession[t2] || h.txnIndexInSession[t1] >= h.txnIndexInSession[t2]) return null;
  // soPrev links the committed transactions of a session: walk back from t2 to t1.
  let steps = 0;
  for (let t = t2; t !== t1; t = soPrev[t]) steps++;
  const run = new Int32Array(steps);
  for (let t = t2, k = steps - 1; t !== t1; t = soPrev[t], k--) run[k] = base.soBase + t;
  return run;
}

/** forced plus ⊥'s edge into t: ⊥ precedes every transaction (the full search adds all of them). */
function withInitEdge(base: EdgeView, forced: EdgeList, t: number): EdgeView {
  const extra = forced.copy(1);
  extra.add(BOTTOM, t, EK_INIT);
  return base.withExtra(extra);
}
