// Cycle anomalies of the list-append graph: SCCs, then the smallest cycle of each class in Elle's order (breadth-first, no recursion).

import { mergeRuns } from '../util/cycle-runs.ts';
import { Int32Vec } from '../util/int-vec.ts';
import type { CycleClass } from './anomaly-table.ts';
import { LK_RT, LK_RW, LK_SO, LK_WR, LK_WW, type ListInference } from './infer.ts';
import { stronglyConnected } from '../util/graph.ts';
import { observedAppendersCycles, withObservedAppenders } from './causality.ts';
import { allEdgesAcyclic, allEdgesCsr, allEdgesWithRtAcyclic, firstStartAfter, rtChain, withExtraEdges, type KindCsr, type RtChain } from './list-graph.ts';

/**
 * Component ids over the edges whose kind is in `kinds`: u reaches v only if id[u] ≥ id[v], so a node
 * whose id is below a's cannot reach a, which prunes a search for a path to a without changing its result.
 */
function componentIds(g: KindCsr, kinds: number): Int32Array {
  return stronglyConnected(g, null, { kind: g.kind, kinds }).comp;
}

/** One edge of a cycle: an index into the inference's edges, or an rt edge (index -1). */
export interface CycleEdge {
  from: number;
  to: number;
  kind: number;
  /** Index into inf.edges; -1 for rt. */
  index: number;
}

export interface FoundCycle {
  cls: CycleClass;
  realtime: boolean;
  edges: CycleEdge[];
}

/** Component ids when every node is its own component: only compared for equality, never read for acyclic graphs. */
const IDENTITY = new Int32Array(0);
const ALL_KINDS = (1 << (LK_RT + 1)) - 1;

/** Work steps (edge relaxations) per class before the smallest-so-far cycle is taken as the answer. */
const STEPS_PER_CLASS = 2_000_000;
/** Components small enough for the exact search of a phased class (exactSmall), and its work steps per class. */
const EXACT_NODES = 48;
const EXACT_STEPS = 500_000;

const RW_LAST = 1;
const COUNT_SHIFT = 1;

interface ClassRule {
  /** Edge kinds a cycle may use (besides rt in the realtime pass). */
  allowed: number;
  /** The kind of the edge each search starts from. */
  start: number;
  /** Phase bits: for G-nonadjacent bit 0 = the last edge was rw; bits 1..2 = rw count (capped at 2). */
  phases: number;
  startPhase: number;
  /** The next phase after an edge of `kind`, or -1 when the class forbids it there. */
  step(phase: number, kind: number): number;
  /** Whether reaching the start edge's source in this phase closes a cycle of the class. */
  accept(phase: number): boolean;
  /**
   * The fewest so and wr edges a cycle of the class can have: the search looks on among cycles of
   * the best length only while the best has more (G1c starts from a wr edge; every edge of a
   * so ∪ wr cycle is one, so there nothing is gained).
   */
  minCausal: number;
}

const bit = (k: number): number => 1 << k;
const NON_RW = bit(LK_SO) | bit(LK_WR) | bit(LK_WW) | bit(LK_RT);

const RULES: Record<CycleClass, ClassRule> = {
  'G0': { allowed: bit(LK_WW) | bit(LK_SO), start: LK_WW, phases: 1, startPhase: 0, step: () => 0, accept: () => true, minCausal: 0 },
  'G1c': { allowed: bit(LK_WW) | bit(LK_SO) | bit(LK_WR), start: LK_WR, phases: 1, startPhase: 0, step: () => 0, accept: () => true, minCausal: 1 },
  'G-single': { allowed: bit(LK_WW) | bit(LK_SO) | bit(LK_WR), start: LK_RW, phases: 1, startPhase: 0, step: () => 0, accept: () => true, minCausal: 0 },
  'G-nonadjacent': {
    allowed: NON_RW | bit(LK_RW), start: LK_RW, phases: 6, startPhase: RW_LAST | (1 << COUNT_SHIFT),
    step: (p, kind) => {
      if (kind !== LK_RW) return p & ~RW_LAST;
      if ((p & RW_LAST) !== 0) return -1;
      return RW_LAST | (Math.min(2, (p >> COUNT_SHIFT) + 1) << COUNT_SHIFT);
    },
    // The cycle closes into the start rw edge: the last edge must not be rw, and two rw edges at least.
    accept: (p) => (p & RW_LAST) === 0 && p >> COUNT_SHIFT >= 2,
    minCausal: 0,
  },
  'G2-item': {
    allowed: NON_RW | bit(LK_RW), start: LK_RW, phases: 3, startPhase: 1,
    step: (p, kind) => (kind === LK_RW ? Math.min(2, p + 1) : p),
    accept: (p) => p >= 2,
    minCausal: 0,
  },
};

/** The edge kinds of every cycle class (rt is added by the realtime pass). */
const CLASS_KINDS = bit(LK_SO) | bit(LK_WR) | bit(LK_WW) | bit(LK_RW);

/**
 * The inference with a wr edge from every appender a read observed where a cycle can use it
 * (inside a cyclic component of the whole graph, real time included): what findCycles and the
 * causality search run on. The inference itself when the graph is acyclic (a consistent history).
 */
export function cycleInference(inf: ListInference): ListInference {
  const cyclic = observedAppendersCycles(inf, CLASS_KINDS, true);
  return cyclic === null ? inf : withObservedAppenders(inf, cyclic);
}

/** so ∪ wr alone: a causality cycle, which breaks every level as a read-consistency error. */
const CAUSALITY: ClassRule = { allowed: bit(LK_SO) | bit(LK_WR), start: LK_WR, phases: 1, startPhase: 0, step: () => 0, accept: () => true, minCausal: Number.MAX_SAFE_INTEGER };

export interface CycleSearch {
  /** The smallest cycle of each class found. */
  found: FoundCycle[];
  /** The smallest so ∪ wr cycle, or null. */
  causality: CycleEdge[] | null;
  /** Out-edge slots the searches read, a work count (tests). */
  slots: number;
}

/**
 * On one graph (pass cycleInference(inf) for the spec's wr): the smallest cycle of each class,
 * searched with only the edges the class allows, classes not found without rt searched again
 * with rt (their -realtime variants) when times exist; and the smallest causality cycle.
 */
export function findCycles(inf: ListInference, withRealtime: boolean, classes: readonly CycleClass[]): CycleSearch {
  const g = new CycleGraph(inf, withRealtime);
  const out: FoundCycle[] = [];
  for (const cls of classes) {
    const c = g.smallest(RULES[cls], false);
    if (c) out.push({ cls, realtime: false, edges: sessionRuns(c) });
  }
  if (g.hasRt) {
    for (const cls of classes) {
      if (out.some((c) => c.cls === cls)) continue;
      const c = g.smallest(RULES[cls], true);
      if (c) out.push({ cls, realtime: true, edges: sessionRuns(c) });
    }
  }
  const causality = g.smallest(CAUSALITY, false);
  return { found: out, causality: causality && sessionRuns(causality), slots: g.slots };
}

class CycleGraph {
  readonly n: number;
  readonly out: KindCsr;
  /** SCC ids without rt and with rt (through the virtual chain). */
  private readonly comp: Int32Array;
  private readonly compRt: Int32Array | null;
  /** Included, timed transactions sorted by start; rt successors of u are a suffix of it. */
  private readonly byStart: Int32Array;
  private readonly startOf: Float64Array | null;
  private readonly endOf: Float64Array | null;
  readonly hasRt: boolean;
  /** Whether the graph without rt, and with rt, has no cycle at all. */
  private readonly acyclic: boolean;
  private acyclicRt = false;
  /** The graph with rt's virtual chain (when it has a cycle), and component ids per kind mask. */
  private rtGraph: KindCsr | null = null;
  private readonly idsCache = new Map<number, Int32Array>();
  /** The out edges of the kinds a class allows, per kind mask (see ofKinds). */
  private readonly outCache = new Map<number, KindCsr>();
  /** Out-edge slots read by the searches so far. */
  slots = 0;

  constructor(private readonly inf: ListInference, withRealtime: boolean) {
    const h = inf.h;
    this.n = h.txnCount;
    this.out = allEdgesCsr(inf);
    // An acyclic graph (a consistent history) has only single-node components: Kahn's test is
    // cheaper than Tarjan's, and then no class has a cycle to look for.
    this.acyclic = allEdgesAcyclic(inf);
    this.comp = this.acyclic ? IDENTITY : componentIds(this.out, ALL_KINDS);
    this.startOf = h.txnTimeStart ?? null;
    this.endOf = h.txnTimeEnd ?? null;
    const rt = withRealtime ? rtChain(inf) : null;
    this.hasRt = rt !== null;
    this.byStart = rt ? rt.byStart : new Int32Array(0);
    this.compRt = rt ? this.rtComponents(rt) : null;
  }

  /** SCCs of the graph with rt, rt expressed by a chain of virtual nodes (rtChain). */
  private rtComponents(rt: RtChain): Int32Array {
    this.acyclicRt = allEdgesWithRtAcyclic(this.inf);
    if (this.acyclicRt) return IDENTITY;
    this.rtGraph = withExtraEdges(this.out, rt.chain.nodeCount, rt.from, rt.to, rt.from.length, LK_RT);
    return componentIds(this.rtGraph, ALL_KINDS);
  }

  /**
   * Component ids of the graph restricted to the kinds a class may use (rt too in the realtime
   * pass): a node whose id is below a's cannot reach a by such edges (stronglyConnected in util/graph.ts).
   */
  private reachIds(allowed: number, realtime: boolean): Int32Array {
    const kinds = realtime ? allowed | bit(LK_RT) : allowed & ~bit(LK_RT);
    const full = realtime ? ALL_KINDS : ALL_KINDS & ~bit(LK_RT);
    if (kinds === full) return realtime ? (this.compRt as Int32Array) : this.comp;
    const key = kinds * 2 + (realtime ? 1 : 0);
    let ids = this.idsCache.get(key);
    if (!ids) {
      ids = componentIds(realtime ? (this.rtGraph as KindCsr) : this.out, kinds);
      this.idsCache.set(key, ids);
    }
    return ids;
  }

  /**
   * The smallest cycle of a class (fewest edges, then the fewest so ∪ wr edges, as the spec prefers
   * among witnesses; then the first found), or null. In the classes without phases a run of
   * session order is one edge, as the witness shows it (session order is transitive): the search
   * is a 0-1 breadth-first search in which an so edge after an so edge costs nothing. The phased
   * classes (G-nonadjacent, G2-item) count each step of a run: their simple-path checks follow one
   * parent chain per state, which a later, cheaper way into a state would rewrite.
   */
  smallest(rule: ClassRule, realtime: boolean): CycleEdge[] | null {
    const e = this.inf.edges;
    // No cycle at all: nothing of any class (the search below would reject every start edge).
    if (realtime ? this.acyclicRt : this.acyclic) return null;
    const comp = realtime ? (this.compRt as Int32Array) : this.comp;
    // Pruning that keeps the result: start edges whose end cannot get back to their start, and
    // nodes that cannot reach the start, by the class's edges (only the steps counted change).
    const reach = this.reachIds(rule.allowed, realtime);
    let best: CycleEdge[] | null = null;
    let steps = 0;
    const P = rule.phases;
    const zeroOne = P === 1;
    const size = (c: CycleEdge[]): number => (zeroOne ? sessionRuns(c).length : c.length);
    const causal = (c: CycleEdge[]): number => causalCount(zeroOne ? sessionRuns(c) : c);
    const dist = new Int32Array(this.n * P).fill(-1);
    const parent = new Int32Array(this.n * P);
    const parentEdge = new Int32Array(this.n * P);
    const inKind = new Uint8Array(this.n * P);
    // 0-1 search: how a state was expanded (1 entered by another kind, 2 entered by so, which an
    // so edge then leaves at no cost), so a state a cheaper so run reaches later is expanded again.
    const expanded = new Uint8Array(zeroOne ? this.n : 0);
    /**
     * Whether node w is a node of the breadth-first path ending in state x (`out`: the kind of the
     * edge leaving x's node); a node entered and left by so is not (the cycle skips it along
     * transitive session order). Each state walked is a counted step.
     */
    const onPath = (x: number, out: number, w: number): boolean => {
      for (; x >= 0; out = inKind[x], x = parent[x]) {
        steps++;
        if (((x / P) | 0) === w && !(inKind[x] === LK_SO && out === LK_SO)) return true;
      }
      return false;
    };
    const out = this.ofKinds(rule.allowed);
    // A deque for the 0-1 search (front pushes below `middle`, each state at most twice in all).
    const middle = zeroOne ? 2 * this.n + 1 : 0;
    const queue = new Int32Array(zeroOne ? 4 * this.n + 2 : this.n * P);
    const touched = new Int32Vec(64);
    const rtCovered = new Int32Array(P);
    for (let s = 0; s < e.length && steps < STEPS_PER_CLASS; s++) {
      if (e.kind.data[s] !== rule.start) continue;
      const a = e.from.data[s];
      const b = e.to.data[s];
      if (a === b || comp[a] !== comp[b] || reach[b] < reach[a]) continue;
      // Breadth-first from b (after the start edge) back to a, within a's component.
      for (let i = 0; i < touched.length; i++) {
        dist[touched.data[i]] = -1;
        if (zeroOne) expanded[touched.data[i]] = 0;
      }
      touched.length = 0;
      rtCovered.fill(this.byStart.length);
      // A best cycle with so or wr edges still lets one of its length in (it may have fewer).
      const limit = best ? size(best) - (causal(best) > rule.minCausal ? 0 : 1) : this.n + 1;
      const s0 = b * P + rule.startPhase;
      dist[s0] = 1;
      parent[s0] = -1;
      inKind[s0] = rule.start;
      touched.push(s0);
      let head = middle;
      let tail = middle;
      queue[tail++] = s0;
      let found = -1;
      const compA = comp[a];
      const reachA = reach[a];
      const allowed = rule.allowed;
      const kinds = e.kind.data;
      while (head < tail && found < 0) {
        const st = queue[head++];
        const v = (st / P) | 0;
        const ph = st - v * P;
        const d = dist[st];
        if (zeroOne) {
          // States come out in order of their cost: the first time a's does, its way is the cheapest.
          const as = inKind[st] === LK_SO ? 2 : 1;
          if (expanded[st] >= as) continue;
          expanded[st] = as;
          if (d > limit) break;
          if (v === a) {
            if (rule.accept(ph)) found = st;
            continue;
          }
        } else if (d >= limit) break;
        // Out-edges of v, then (realtime) its rt successors: a suffix of the start-sorted list.
        const outEnd = out.start[v + 1];
        let rtFrom = -1;
        let rtTo = -1;
        const rtFirst = realtime ? this.rtSuccessorsFrom(v) : -1;
        if (rtFirst >= 0) {
          rtFrom = rtFirst;
          rtTo = rtCovered[ph];
          if (rtFrom < rtCovered[ph]) rtCovered[ph] = rtFrom;
        }
        for (let p = out.start[v], r = rtFrom; found < 0; ) {
          let w: number;
          let kind: number;
          let edge: number;
          if (p < outEnd) {
            this.slots++;
            edge = out.edgeId[p];
            kind = kinds[edge];
            w = out.target[p++];
            if ((allowed & (1 << kind)) === 0) continue;
          } else if (r >= 0 && r < rtTo) {
            w = this.byStart[r++];
            kind = LK_RT;
            edge = -1;
          } else break;
          steps++;
          if (comp[w] !== compA || reach[w] < reachA) continue;
          const np = rule.step(ph, kind);
          if (np < 0) continue;
          const ns = w * P + np;
          const free = zeroOne && kind === LK_SO && inKind[st] === LK_SO;
          const nd = free ? d : d + 1;
          if (dist[ns] >= 0) {
            // Kept, unless (0-1 search) this way is cheaper, or as cheap and entered by so.
            if (!zeroOne || !(nd < dist[ns] || (nd === dist[ns] && kind === LK_SO && inKind[ns] !== LK_SO))) continue;
          }
          // With phases a node can come back in another phase: a closed walk through it twice is
          // two cycles glued together (two read skews are no write skew), so paths stay simple —
          // up to session order, which is transitive: a node entered and left by so is skipped
          // by the cycle (so is one edge here per consecutive pair; the cycle needs no middle).
          if (P > 1) {
            if (inKind[st] === LK_SO && kind !== LK_SO && onPath(parent[st], LK_SO, v)) continue;
            if (kind !== LK_SO && w !== a && onPath(st, kind, w)) continue;
          }
          if (dist[ns] < 0) touched.push(ns);
          dist[ns] = nd;
          parent[ns] = st;
          parentEdge[ns] = edge;
          inKind[ns] = kind;
          if (zeroOne) {
            // a's state too: found when it comes out of the deque, at its cheapest.
            if (free) queue[--head] = ns;
            else queue[tail++] = ns;
          } else if (w === a) {
            if (rule.accept(np)) found = ns;
          } else queue[tail++] = ns;
        }
      }
      if (found >= 0) {
        const cycle: CycleEdge[] = [];
        for (let st = found; parent[st] >= 0; st = parent[st]) {
          const w = (st / P) | 0;
          const u = (parent[st] / P) | 0;
          const idx = parentEdge[st];
          cycle.push({ from: u, to: w, kind: idx >= 0 ? e.kind.data[idx] : LK_RT, index: idx });
        }
        cycle.push({ from: a, to: b, kind: rule.start, index: s });
        cycle.reverse();
        if (!best || size(cycle) < size(best) || (size(cycle) === size(best) && causal(cycle) < causal(best))) best = rotate(cycle);
        if (size(best) === 2 && causal(best) <= rule.minCausal) break;
      }
    }
    if (!best && P > 1) best = this.exactSmall(rule, realtime, comp, reach);
    return best;
  }

  /**
   * The out edges whose kind is in `allowed`, in the same order within each source: a search walks
   * only the edges its class may use (a reader of the last version has an rw edge to every unread
   * append, thousands of them, which G0, G1c and G-single would otherwise pass over at every node).
   */
  private ofKinds(allowed: number): KindCsr {
    const all = this.out;
    let present = 0;
    for (let p = 0; p < all.kind.length && (present & ~allowed) === 0; p++) present |= 1 << all.kind[p];
    if ((present & ~allowed) === 0) return all;
    let g = this.outCache.get(allowed);
    if (g) return g;
    let m = 0;
    for (let p = 0; p < all.kind.length; p++) if ((allowed & (1 << all.kind[p])) !== 0) m++;
    g = { nodeCount: all.nodeCount, start: new Int32Array(all.start.length), target: new Int32Array(m), edgeId: new Int32Array(m), kind: new Uint8Array(m) };
    let q = 0;
    for (let v = 0; v < all.nodeCount; v++) {
      g.start[v] = q;
      for (let p = all.start[v]; p < all.start[v + 1]; p++) {
        if ((allowed & (1 << all.kind[p])) === 0) continue;
        g.target[q] = all.target[p];
        g.edgeId[q] = all.edgeId[p];
        g.kind[q] = all.kind[p];
        q++;
      }
    }
    g.start[all.nodeCount] = q;
    this.outCache.set(allowed, g);
    return g;
  }

  /**
   * Where v's rt successors start in the start-sorted list (they are its suffix), or -1 when v has
   * none: no times, or `unknown` (no known completion, so no rt edge leaves it).
   */
  private rtSuccessorsFrom(v: number): number {
    if (this.inf.h.txnUnknown?.[v] === 1 || !this.startOf || !this.endOf || Number.isNaN(this.startOf[v])) return -1;
    return firstStartAfter(this.byStart, this.startOf, this.endOf[v]);
  }

  /**
   * The smallest simple cycle of a phased class (G-nonadjacent, G2-item) by depth-first search of
   * growing length, in components of at most EXACT_NODES transactions, asked when the
   * breadth-first search found none: it keeps one path per (node, phase) and can miss a cycle
   * whose only simple form goes another way (litmus-sized histories must not miss one). Simple
   * as there: no transaction twice, except one passed along session order. Bounded by
   * EXACT_STEPS per class; null when none or past the bound.
   */
  private exactSmall(rule: ClassRule, realtime: boolean, comp: Int32Array, reach: Int32Array): CycleEdge[] | null {
    const e = this.inf.edges;
    const kinds = e.kind.data;
    const size = new Map<number, number>();
    for (let t = 0; t < this.n; t++) size.set(comp[t], (size.get(comp[t]) ?? 0) + 1);
    const starts: number[] = [];
    let longest = 0;
    for (let s = 0; s < e.length; s++) {
      const a = e.from.data[s];
      const b = e.to.data[s];
      const n = size.get(comp[a]) ?? 0;
      if (kinds[s] !== rule.start || a === b || comp[a] !== comp[b] || reach[b] < reach[a] || n > EXACT_NODES) continue;
      starts.push(s);
      if (n > longest) longest = n;
    }
    if (starts.length === 0) return null;
    const out = this.ofKinds(rule.allowed);
    let steps = 0;
    // The path: node, the kind of the edge into it, the edge (-1 for rt), the phase after it; per
    // depth the next successor to try (CSR slots, then rt successors from rtFrom).
    const maxLen = 2 * longest + 1;
    const node = new Int32Array(maxLen + 1);
    const inK = new Uint8Array(maxLen + 1);
    const edge = new Int32Array(maxLen + 1);
    const phase = new Int32Array(maxLen + 1);
    const next = new Int32Array(maxLen + 1);
    const rtFrom = new Int32Array(maxLen + 1);
    /** Whether w is a node of the path up to depth d (the edge leaving d's node of kind `out`), passed-along-so nodes aside. */
    const onPath = (d: number, out: number, w: number): boolean => {
      for (let i = d; i >= 0; out = inK[i], i--) {
        steps++;
        if (node[i] === w && !(inK[i] === LK_SO && out === LK_SO)) return true;
      }
      return false;
    };
    for (let L = 2; L <= maxLen && steps < EXACT_STEPS; L++) {
      for (const s of starts) {
        const a = e.from.data[s];
        const compA = comp[a];
        const reachA = reach[a];
        node[0] = e.to.data[s];
        inK[0] = rule.start;
        edge[0] = s;
        phase[0] = rule.startPhase;
        let d = 0;
        const enter = (): void => {
          next[d] = out.start[node[d]];
          const v = node[d];
          const first = realtime ? this.rtSuccessorsFrom(v) : -1;
          rtFrom[d] = first >= 0 ? first : this.byStart.length;
        };
        enter();
        while (d >= 0 && steps < EXACT_STEPS) {
          const v = node[d];
          const outEnd = out.start[v + 1];
          let w = -1;
          let kind = -1;
          let id = -1;
          if (next[d] < outEnd) {
            const p = next[d]++;
            this.slots++;
            id = out.edgeId[p];
            kind = kinds[id];
            w = out.target[p];
            if ((rule.allowed & (1 << kind)) === 0) continue;
          } else if (rtFrom[d] < this.byStart.length) {
            w = this.byStart[rtFrom[d]++];
            kind = LK_RT;
          } else {
            d--;
            continue;
          }
          steps++;
          if (comp[w] !== compA || reach[w] < reachA) continue;
          const np = rule.step(phase[d], kind);
          if (np < 0) continue;
          if (inK[d] === LK_SO && kind !== LK_SO && onPath(d - 1, LK_SO, v)) continue;
          if (w === a) {
            if (d + 2 !== L || !rule.accept(np)) continue;
            const cycle: CycleEdge[] = [{ from: a, to: node[0], kind: rule.start, index: s }];
            for (let i = 1; i <= d; i++) cycle.push({ from: node[i - 1], to: node[i], kind: inK[i], index: edge[i] });
            cycle.push({ from: v, to: a, kind, index: id });
            return rotate(cycle);
          }
          if (d + 2 >= L || (kind !== LK_SO && onPath(d, kind, w))) continue;
          d++;
          node[d] = w;
          inK[d] = kind;
          edge[d] = id;
          phase[d] = np;
          enter();
        }
      }
    }
    return null;
  }
}

/**
 * The cycle with each run of consecutive so edges as one edge (T3 → T9 [so]: session order is
 * transitive), starting at its smallest transaction id, as register witnesses show it. The
 * search counts a run as one edge too, but for the phased classes (see CycleGraph.smallest).
 */
function sessionRuns(cycle: CycleEdge[]): CycleEdge[] {
  const out = mergeRuns(cycle, (e) => e.kind === LK_SO, (first, last) => ({ ...first, to: last.to }));
  return out.length === cycle.length ? cycle : rotate(out);
}

/** The cycle starting at its smallest transaction id: one cycle, one presentation. */
function rotate(cycle: CycleEdge[]): CycleEdge[] {
  let at = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i].from < cycle[at].from) at = i;
  return [...cycle.slice(at), ...cycle.slice(0, at)];
}

/** The so and wr edges of a cycle (fewer: the anomaly shown at a weaker level). */
function causalCount(c: readonly CycleEdge[]): number {
  let n = 0;
  for (const x of c) if (x.kind === LK_SO || x.kind === LK_WR) n++;
  return n;
}

/** The rw edges of a cycle: for tests and the anomaly table. */
export function rwCount(c: CycleEdge[]): number {
  return c.filter((x) => x.kind === LK_RW).length;
}
