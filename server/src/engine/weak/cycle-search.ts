// Finds witness cycles, one per SCC: fewest so ∪ wr edges first, then fewest edges (Dijkstra, no recursion).

import { EK_CO, EK_SO, type EdgeView } from '../model/edges.ts';
import type { Csr } from '../util/graph.ts';
import { Int32Vec } from '../util/int-vec.ts';

export interface CycleSearch {
  /** Edge kinds that may close a cycle; every cycle of the component must contain one. */
  closingKind: number;
  /** Whether so/wr/⊥ edges weigh more than any number of co edges (level witnesses) or the same (causality). */
  preferCo: boolean;
  /** Edge relaxations after which the best cycle found so far is returned. */
  budget: number;
}

export const DEFAULT_SEARCH: CycleSearch = { closingKind: EK_CO, preferCo: true, budget: 300_000 };

/** Min-heap of (distance, node) on typed arrays, with lazy deletion by the caller. */
class Heap {
  private d = new Float64Array(64);
  private v = new Int32Array(64);
  size = 0;
  clear(): void {
    this.size = 0;
  }
  push(dist: number, node: number): void {
    if (this.size === this.d.length) {
      const d = new Float64Array(this.size * 2);
      d.set(this.d);
      this.d = d;
      const v = new Int32Array(this.size * 2);
      v.set(this.v);
      this.v = v;
    }
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.d[p] <= dist) break;
      this.d[i] = this.d[p];
      this.v[i] = this.v[p];
      i = p;
    }
    this.d[i] = dist;
    this.v[i] = node;
  }
  topDist(): number {
    return this.d[0];
  }
  /** Removes the minimum and returns its node. */
  pop(): number {
    const top = this.v[0];
    const lastD = this.d[--this.size];
    const lastV = this.v[this.size];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.size) break;
      if (c + 1 < this.size && this.d[c + 1] < this.d[c]) c++;
      if (this.d[c] >= lastD) break;
      this.d[i] = this.d[c];
      this.v[i] = this.v[c];
      i = c;
    }
    this.d[i] = lastD;
    this.v[i] = lastV;
    return top;
  }
}

/**
 * A cycle's rank: fewer so ∪ wr (and ⊥) edges first, then fewer edges (level witnesses); fewer edges
 * only otherwise. Session order is transitive: a run of consecutive so edges is one edge of the
 * cycle (T3 → T9 [so]), counted once (`heavy`, `length`), as the witness shows it.
 */
export interface RankedCycle {
  edges: Int32Array;
  heavy: number;
  /** Edges with so runs counted once. */
  length: number;
}

/** Whether cycle a ranks before b. */
export function ranksBefore(a: RankedCycle, b: RankedCycle): boolean {
  return a.heavy < b.heavy || (a.heavy === b.heavy && a.length < b.length);
}

/**
 * The best cycle of each component of one graph, on demand. The nodes are grouped by component
 * once and the scratch arrays are shared, so searching many small components costs their own
 * size, not the graph's each time. `work` counts edge relaxations over every search.
 *
 * The search runs over states (node, whether it was entered by so): an so edge taken right after
 * another costs nothing, so a path along a session to its far end costs one so edge, as the spec's
 * transitive so has it (and as the witness shows it, a run merged). Without this a long session
 * made every path along it look long: the search spent its budget and kept a cycle of thousands of
 * so edges where one of four existed.
 */
export class CycleFinder {
  private readonly dist: Float64Array;
  private readonly seen: Int32Array;
  private readonly parent: Int32Array; // per state: the CSR position of the edge that reached it
  private readonly parentState: Int32Array;
  private readonly heap = new Heap();
  private readonly nodeStart: Int32Array;
  private readonly nodes: Int32Array;
  private stamp = 0;
  work = 0;

  constructor(private readonly g: Csr, private readonly view: EdgeView, private readonly comp: Int32Array, count: number, private readonly search: CycleSearch) {
    const n = g.nodeCount;
    this.dist = new Float64Array(2 * n);
    this.seen = new Int32Array(2 * n).fill(-1);
    this.parent = new Int32Array(2 * n);
    this.parentState = new Int32Array(2 * n);
    this.nodeStart = new Int32Array(count + 1);
    for (let u = 0; u < n; u++) if (comp[u] >= 0) this.nodeStart[comp[u] + 1]++;
    for (let c = 0; c < count; c++) this.nodeStart[c + 1] += this.nodeStart[c];
    const fill = this.nodeStart.slice(0, count);
    this.nodes = new Int32Array(this.nodeStart[count]);
    for (let u = 0; u < n; u++) if (comp[u] >= 0) this.nodes[fill[comp[u]]++] = u;
  }

  /**
   * The best cycle through component `c`, or null when the component has no closing edge. Exact
   * when the budget is not exhausted; otherwise the best cycle found so far, or the quick pass's
   * when that ranks before it (see below).
   */
  find(c: number): RankedCycle | null {
    const { g, view, comp, search } = this;
    const componentSize = this.nodeStart[c + 1] - this.nodeStart[c];
    const heavy = search.preferCo ? componentSize + 1 : 1;
    const closing = new Int32Vec(16);
    const kindOf = (e: number): number => view.kind(e);
    for (let i = this.nodeStart[c]; i < this.nodeStart[c + 1]; i++) {
      const u = this.nodes[i];
      for (let p = g.start[u]; p < g.start[u + 1]; p++) {
        if (comp[g.target[p]] === c && kindOf(g.edgeId[p]) === search.closingKind) closing.push(p);
      }
    }
    if (closing.length === 0) return null;

    const lowerBound = Math.min(2, 1 + heavy); // no cycle here is shorter than two edges
    let best: Closed = { cost: Infinity, path: [] };
    let work = 0;
    let cut = false;
    for (let i = 0; i < closing.length && best.cost > lowerBound; i++) {
      if (i > 0 && work > search.budget) {
        cut = true;
        break;
      }
      const r = this.close(c, heavy, closing.data[i], best.cost, Infinity);
      work += r.work;
      if (r.cost < best.cost) best = r;
    }
    if (cut) {
      // The budget went on the first searches (the first closing edge's cycle may go round the
      // whole component: a 128,000-transaction ring where each transaction's read from its session
      // successor closed a two-edge cycle). A second pass gives every closing edge a few
      // relaxations, within the budget again; its cycle is taken only when it ranks strictly
      // first, so a search that ran to its end (small histories) is never changed by it.
      let quickWork = 0;
      for (let i = 0; i < closing.length && best.cost > lowerBound && quickWork <= search.budget; i++) {
        const r = this.close(c, heavy, closing.data[i], best.cost, QUICK_RELAXATIONS);
        quickWork += r.work;
        if (r.cost < best.cost) best = r;
      }
      work += quickWork;
    }
    this.work += work;
    const bestPath = best.path;
    if (bestPath.length === 0) return null;
    let heavyEdges = 0;
    let length = 0;
    for (let i = 0; i < bestPath.length; i++) {
      const e = bestPath[i];
      // An so edge after an so edge continues its run (the cycle starts with the closing edge, never so).
      if (kindOf(e) === EK_SO && i > 0 && kindOf(bestPath[i - 1]) === EK_SO) continue;
      length++;
      if (search.preferCo && kindOf(e) !== EK_CO) heavyEdges++;
    }
    return { edges: Int32Array.from(bestPath), heavy: heavyEdges, length };
  }

  /**
   * The cheapest cycle closed by the edge at CSR position p0 (u → v): Dijkstra from v towards u over
   * (node, entered by so) states inside component c, pruned by `best` (only a cheaper cycle is
   * returned, else cost Infinity) and stopped after `limit` relaxations.
   */
  private close(c: number, heavy: number, p0: number, best: number, limit: number): Closed & { work: number } {
    // No closures here: this runs once per closing edge, on the bench's files for thousands of small components.
    const { g, view, comp, dist, seen, parent, parentState, heap } = this;
    const u = searchSource(g, p0);
    const v = g.target[p0];
    const k0 = view.kind(g.edgeId[p0]);
    const w0 = k0 === EK_CO ? 1 : heavy;
    if (u === v) return w0 < best ? { cost: w0, path: [g.edgeId[p0]], work: 0 } : { cost: Infinity, path: [], work: 0 };
    // (The closing edge is never so: the cycle starts with no run.)
    const stamp = this.stamp++;
    heap.clear();
    const s0 = 2 * v + (k0 === EK_SO ? 1 : 0);
    seen[s0] = stamp;
    dist[s0] = 0;
    heap.push(0, s0);
    let reachedState = -1;
    let work = 0;
    while (heap.size > 0 && work < limit) {
      const d = heap.topDist();
      const s = heap.pop();
      if (d > dist[s] || d + w0 >= best) {
        if (d + w0 >= best) break;
        continue;
      }
      const x = s >> 1;
      if (x === u) {
        reachedState = s;
        break;
      }
      const inRun = (s & 1) === 1;
      for (let p = g.start[x]; p < g.start[x + 1]; p++) {
        work++;
        const y = g.target[p];
        if (comp[y] !== c) continue;
        const kind = view.kind(g.edgeId[p]);
        const so = kind === EK_SO;
        const nd = d + (so && inRun ? 0 : kind === EK_CO ? 1 : heavy);
        const t = 2 * y + (so ? 1 : 0);
        if (seen[t] !== stamp || nd < dist[t]) {
          seen[t] = stamp;
          dist[t] = nd;
          parent[t] = p;
          parentState[t] = s;
          heap.push(nd, t);
        }
      }
    }
    if (reachedState < 0 || dist[reachedState] + w0 >= best) return { cost: Infinity, path: [], work };
    const path: number[] = [];
    for (let s = reachedState; s !== s0; s = parentState[s]) path.push(g.edgeId[parent[s]]);
    path.reverse();
    return { cost: dist[reachedState] + w0, path: [g.edgeId[p0], ...path], work };
  }
}

/** A cycle found by one closing edge's search: its weighted cost and its edge ids (closing edge first). */
interface Closed {
  cost: number;
  path: number[];
}

/** Relaxations per closing edge in the quick pass after a cut search: enough for a short cycle through a hub's neighbours. */
const QUICK_RELAXATIONS = 64;

/** The node whose adjacency holds CSR position p (binary search over row starts). */
function searchSource(g: Csr, p: number): number {
  let lo = 0;
  let hi = g.nodeCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (g.start[mid] <= p) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
