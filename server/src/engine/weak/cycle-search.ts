// Finds a witness cycle in one SCC: fewest so ∪ wr edges first, then fewest edges (Dijkstra, no recursion).

import { EK_CO, type EdgeView } from '../model/edges.ts';
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
 * The best cycle through component `c` as edge ids in order, or null when the component has no
 * closing edge. Exact when the budget is not exhausted; otherwise the best cycle found so far.
 */
export function findCycle(g: Csr, view: EdgeView, comp: Int32Array, c: number, componentSize: number, search: CycleSearch): Int32Array | null {
  const heavy = search.preferCo ? componentSize + 1 : 1;
  const closing = new Int32Vec(16);
  const kindOf = (e: number): number => view.kind(e);
  const weightOf = (e: number): number => (kindOf(e) === EK_CO ? 1 : heavy);
  for (let u = 0; u < g.nodeCount; u++) {
    if (comp[u] !== c) continue;
    for (let p = g.start[u]; p < g.start[u + 1]; p++) {
      if (comp[g.target[p]] === c && kindOf(g.edgeId[p]) === search.closingKind) closing.push(p);
    }
  }
  if (closing.length === 0) return null;

  const n = g.nodeCount;
  const dist = new Float64Array(n);
  const seen = new Int32Array(n).fill(-1);
  const parent = new Int32Array(n); // CSR position of the edge that reached the node
  const heap = new Heap();
  let best = Infinity;
  let bestPath: number[] = [];
  let work = 0;
  const lowerBound = Math.min(2, 1 + heavy); // no cycle here is shorter than two edges

  for (let i = 0; i < closing.length && best > lowerBound; i++) {
    if (i > 0 && work > search.budget) break;
    const p0 = closing.data[i];
    const u = searchSource(g, p0);
    const v = g.target[p0];
    const w0 = weightOf(g.edgeId[p0]);
    if (u === v) {
      if (w0 < best) {
        best = w0;
        bestPath = [g.edgeId[p0]];
      }
      continue;
    }
    // Dijkstra from v towards u, inside the component, pruned by the best cycle so far.
    heap.clear();
    seen[v] = i;
    dist[v] = 0;
    heap.push(0, v);
    let reached = false;
    while (heap.size > 0) {
      const d = heap.topDist();
      const x = heap.pop();
      if (d > dist[x] || d + w0 >= best) {
        if (d + w0 >= best) break;
        continue;
      }
      if (x === u) {
        reached = true;
        break;
      }
      for (let p = g.start[x]; p < g.start[x + 1]; p++) {
        work++;
        const y = g.target[p];
        if (comp[y] !== c) continue;
        const nd = d + weightOf(g.edgeId[p]);
        if (seen[y] !== i || nd < dist[y]) {
          seen[y] = i;
          dist[y] = nd;
          parent[y] = p;
          heap.push(nd, y);
        }
      }
    }
    if (reached && dist[u] + w0 < best) {
      best = dist[u] + w0;
      const path: number[] = [];
      for (let x = u; x !== v; x = searchSource(g, parent[x])) path.push(g.edgeId[parent[x]]);
      path.reverse();
      bestPath = [g.edgeId[p0], ...path];
    }
  }
  return bestPath.length > 0 ? Int32Array.from(bestPath) : null;
}

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
