// Decides RC, RA and CC (homogeneous or by per-transaction rule) and extracts a witness cycle.

import { EdgeList, EdgeView, EK_CO, EK_INIT, EK_WR } from '../model/edges.ts';
import { acyclicByPredecessors, baseCsr, buildListCsr, inDegrees, mergeCsr, stronglyConnected, topologicalOrder, unionLeftOver, type Csr } from '../util/graph.ts';
import { CycleFinder, DEFAULT_SEARCH, ranksBefore, type RankedCycle } from './cycle-search.ts';
import { COMPLETION_BUDGET, completeForced, type RuleOf } from './complete-forced.ts';
import { componentsByPredecessors } from '../util/predecessor-components.ts';
import { sessionPredecessors, vectorClocks, type ClockGroups, type VectorClocks } from '../model/happens-before.ts';
import { BOTTOM, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { saturateCCInGroups } from './saturate-cc.ts';
import { saturateRA } from './saturate-ra.ts';
import { saturateRC } from './saturate-rc.ts';
import { closedWitness, reversePairWitness, TWO_EDGE_MIN_OPS, twoEdgeWitness } from './two-edge-witness.ts';

import type { Rule } from '../levels/levels.ts';

export type { Rule, RuleOf };

/** What every level check of one history shares: so ∪ wr ∪ ⊥ edges, their order, the clocks. */
export class CheckContext {
  /** so ∪ wr (no ⊥ edges: see withInitEdges) with an empty extra list. */
  readonly base: EdgeView;
  readonly soPrev: Int32Array;
  private csr: Csr | null = null;
  private indegree: Int32Array | null = null;
  private clocks: VectorClocks | null = null;
  private topo: { order: Int32Array; count: number; leftOver: Uint8Array } | null = null;
  /** Whether so ∪ wr is acyclic, once known (a superset found acyclic proves it too). */
  private knownCausal: boolean | null = null;

  /** stop: polled by the saturations every STOP_POLL_ITEMS transactions (AnalyzeOptions.stop); true ends them early. */
  constructor(readonly h: History, readonly rf: ReadsFrom, readonly stop?: () => boolean) {
    this.soPrev = sessionPredecessors(h);
    this.base = new EdgeView(h.opTxn, rf.wrSource, this.soPrev, new EdgeList());
  }

  /** Whether the caller's stop is set: forced edges computed since may be a part of them. */
  stopped(): boolean {
    return this.stop?.() === true;
  }

  /** so ∪ wr as out-edges, built on first need: acyclic histories checked at RC or RA never need it. */
  get baseCsr(): Csr {
    this.csr ??= baseCsr(this.h.txnCount, this.h.txnOpStart, this.h.txnAborted, this.rf.wrSource, this.soPrev);
    return this.csr;
  }

  get baseIndegree(): Int32Array {
    this.indegree ??= inDegrees(this.baseCsr);
    return this.indegree;
  }

  private topology(): { order: Int32Array; count: number; leftOver: Uint8Array } {
    this.topo ??= topologicalOrder(this.baseCsr);
    return this.topo;
  }

  /** Whether so ∪ wr is acyclic (computed on first need). */
  get causal(): boolean {
    this.knownCausal ??= this.topo ? this.topo.count === this.h.txnCount : this.acyclicWith(new EdgeList());
    return this.knownCausal;
  }

  markCausal(): void {
    this.knownCausal = true;
  }

  /** Whether so ∪ wr ∪ extra is acyclic (util/graph.ts acyclicByPredecessors: no CSR is built). */
  acyclicWith(extra: EdgeList): boolean {
    const { h, rf } = this;
    return acyclicByPredecessors(h.txnCount, h.txnOpStart, h.txnAborted, rf.wrSource, this.soPrev, extra.from.data, extra.to.data, extra.length);
  }

  /** A topological order of so ∪ wr, complete unless there is a causality cycle. */
  get order(): Int32Array {
    return this.topology().order;
  }

  /** The nodes on or after a cycle of so ∪ wr. */
  get leftOver(): Uint8Array {
    return this.topology().leftOver;
  }

  private lastForced: { rule: Rule; applies: Uint8Array; edges: EdgeList | null } | null = null;

  /**
   * forcedEdges(this, rule, applies), kept for the last (rule, applies) asked: every strong level
   * asks for CC's on one context (measured: CC's saturation is 0.5–1 s of each level at
   * 64 × 100,000). The same input gives the same edges; callers must not modify them.
   */
  forced(rule: Rule, applies: Uint8Array): EdgeList | null {
    const last = this.lastForced;
    if (last !== null && last.rule === rule && sameBytes(last.applies, applies)) return last.edges;
    const edges = forcedEdges(this, rule, applies);
    // A part (stopped) is not kept: the searches that use it see the stop and answer unknown.
    if (!this.stopped()) this.lastForced = { rule, applies: applies.slice(), edges };
    return edges;
  }

  /** Null when the clocks (transactions × sessions entries) would not fit at once (CC's saturation then goes by session groups). */
  vectorClocks(): VectorClocks | null {
    if (this.h.txnCount * this.h.sessionCount > MAX_CLOCK_ENTRIES) return null;
    this.clocks ??= vectorClocks(this.h, this.rf, this.order, this.soPrev);
    return this.clocks;
  }

  /** Whether CC's forced edges can be computed: the clocks fit, or a pass by session groups stays within MAX_CLOCK_WORK. */
  get ccDecidable(): boolean {
    const { txnCount, sessionCount } = this.h;
    return txnCount * sessionCount <= MAX_CLOCK_ENTRIES || (txnCount <= MAX_CLOCK_ENTRIES && txnCount * sessionCount <= MAX_CLOCK_WORK);
  }

  /**
   * The clocks as groups of sessions: the whole table (one group) when it fits, else as many
   * sessions at a time as fit in it, one table reused; null when CC is not decidable.
   */
  clockGroups(): ClockGroups | null {
    const whole = this.vectorClocks();
    if (whole) return { group: Math.max(1, this.h.sessionCount), clocksOf: () => whole };
    if (!this.ccDecidable) return null;
    const { h, rf, order, soPrev } = this;
    let last: VectorClocks | null = null;
    return { group: Math.floor(MAX_CLOCK_ENTRIES / h.txnCount), clocksOf: (first, end) => (last = vectorClocks(h, rf, order, soPrev, first, end, last)) };
  }
}

export interface CycleResult {
  acyclic: boolean;
  /** Edge ids of the witness cycles found (at most `maxWitnesses`), in cycle order. */
  cycles: Int32Array[];
  view: EdgeView;
}

/** Vector clock entries kept (transactions × sessions), at 2 or 4 bytes each: 512 MB at most. */
export const MAX_CLOCK_ENTRIES = 128 * 1024 * 1024;

/**
 * Clock entries computed (transactions × sessions) when they do not fit at once and CC goes by
 * session groups: a work bound, so that past it the answer is undecided rather than slow.
 * Measured (CC of a generated causal history, 100,000 transactions): 1,000 sessions (one pass)
 * 6 s, 2,000 sessions (two groups) 9–13 s and 0.6 GB peak, where AWDIT took 49 s and 10.9 GB; 10,000
 * sessions would take 33 s.
 */
export const MAX_CLOCK_WORK = 256 * 1024 * 1024;

/** The forced co edges of one rule, for the transactions selected by `applies` (null: all); null when CC's clocks would not fit. */
export function forcedEdges(ctx: CheckContext, rule: Rule, applies: Uint8Array | null): EdgeList | null {
  const out = new EdgeList();
  const input = { h: ctx.h, rf: ctx.rf, applies, stop: ctx.stop };
  if (rule === 'RC') saturateRC(input, out);
  else if (rule === 'RA') saturateRA(input, out);
  else {
    if (ctx.stopped()) return out; // before the clocks, a pass over every transaction × session
    const groups = ctx.clockGroups();
    if (!groups) return null;
    saturateCCInGroups(input, groups.clocksOf, groups.group, out);
  }
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The forced edges of each reader's own rule (RC, RA, or CC for every level from CC up), merged; null as forcedEdges. */
export function mixedForcedEdges(ctx: CheckContext, applies: Record<Rule, Uint8Array>): EdgeList | null {
  const all = forcedEdges(ctx, 'RC', applies.RC)!;
  for (const rule of ['RA', 'CC'] as const) {
    if (!applies[rule].includes(1)) continue;
    const more = forcedEdges(ctx, rule, applies[rule]);
    if (!more) return null;
    for (let i = 0; i < more.length; i++) all.add(more.from.data[i], more.to.data[i], more.kind.data[i], more.a.data[i], more.b.data[i]);
  }
  return all;
}

/**
 * Acyclicity of so ∪ wr ∪ forced, and up to maxWitnesses witness cycles (one per component).
 * With `ruleOf` (the rule each reader obeys), the cycles are searched among every forced edge
 * (complete-forced.ts), as the spec's witness preference counts them, not only the minimal set.
 * On large histories two forced edges that are each other's reverse are taken without building the
 * graph, and a two-edge cycle closed by one so, wr or ⊥ edge once the forced edges the search would
 * see (the minimal set, or it completed) are acyclic alone (two-edge-witness.ts says why it ranks first).
 */
export function checkCycles(ctx: CheckContext, forced: EdgeList, maxWitnesses: number, ruleOf: RuleOf | null = null): CycleResult {
  const { h, rf } = ctx;
  const large = maxWitnesses === 1 && h.opCount >= TWO_EDGE_MIN_OPS;
  // A committed transaction forced before ⊥ closes a cycle with ⊥'s edge into it: on large
  // histories the union's acyclicity test (with an edge from ⊥ to every transaction) is skipped.
  let extra: EdgeList | null = null;
  if (!(large && committedBeforeBottom(h, forced))) {
    extra = withInitEdges(ctx, forced);
    if (ctx.acyclicWith(extra)) {
      ctx.markCausal(); // so ∪ wr is part of the union
      return { acyclic: true, cycles: [], view: ctx.base.withExtra(extra) };
    }
  }
  // With ruleOf the full search completes the minimal set, and a left-out edge can close a cycle of
  // co edges alone (a monotonic read: T1 →so T2, T2 →co T1 kept, T1 →co T2 left out as implied):
  // before the completion only the reverse pair, which nothing outranks, is taken.
  let forcedAcyclic = false;
  let more: EdgeList | null | undefined;
  if (large) {
    const pair = reversePairWitness(h, ctx.base, forced);
    if (pair.witness) return { acyclic: false, cycles: [pair.witness.cycle], view: pair.witness.view };
    forcedAcyclic = pair.acyclic;
    if (forcedAcyclic && ruleOf !== null) {
      // The completion needs the components only to compare them: read from the columns, they
      // spare the merged graph when the completion adds nothing (past its budget, as on large files).
      const scc = componentsByPredecessors(h.txnCount, h.txnOpStart, h.txnAborted, rf.wrSource, ctx.soPrev, forced.from.data, forced.to.data, forced.length, intoBottom(forced));
      more = completeForced(h, rf, () => ctx.clockGroups(), ruleOf, scc.comp, scc.size, COMPLETION_BUDGET);
    }
    if (forcedAcyclic && (ruleOf === null || !more || more.length === 0)) {
      // The search then sees the minimal set only, where a two-edge cycle with one so ∪ wr edge ranks first.
      const quick = closedWitness(h, rf, ctx.base, ctx.soPrev, forced);
      if (quick) return { acyclic: false, cycles: [quick.cycle], view: quick.view };
    }
  }
  extra ??= withInitEdges(ctx, forced);
  const view = ctx.base.withExtra(extra);
  const n = h.txnCount;
  // Kahn's algorithm on the union marks the nodes on or after a cycle, which acyclicByPredecessors
  // found (or ⊥ did; test/acyclic-by-predecessors.test.ts compares the two).
  const leftOver = unionLeftOver(ctx.baseCsr, ctx.baseIndegree, buildListCsr(n, extra.from.data, extra.to.data, extra.length, view.extraBase));
  if (!leftOver) throw new Error('internal: the two acyclicity checks disagree');
  // The union's left-over nodes are those of the merged graph: no second topological pass.
  const g = mergeCsr(ctx.baseCsr, extra.from.data, extra.to.data, extra.length, view.extraBase);
  const scc = stronglyConnected(g, leftOver);
  // The same edges either way: the completion compares components, never their numbers.
  if (more === undefined) more = ruleOf ? completeForced(h, rf, () => ctx.clockGroups(), ruleOf, scc.comp, scc.size, COMPLETION_BUDGET) : null;
  if (!more || more.length === 0) return { acyclic: false, cycles: witnessCycles(g, view, scc, maxWitnesses, EK_CO, true), view };
  if (large) {
    // Every forced edge of the cyclic components is now known: the shortcut is exact over them too.
    const quick = twoEdgeWitness(h, rf, ctx.base, ctx.soPrev, appended(forced, more));
    if (quick) return { acyclic: false, cycles: [quick.cycle], view: quick.view };
  }
  // Edges inside components leave the components as they are.
  const all = appended(extra, more);
  const full = ctx.base.withExtra(all);
  const fullGraph = mergeCsr(ctx.baseCsr, all.from.data, all.to.data, all.length, full.extraBase);
  return { acyclic: false, cycles: witnessCycles(fullGraph, full, scc, maxWitnesses, EK_CO, true), view: full };
}

/** A copy of `list` with `more`'s edges after its own. */
function appended(list: EdgeList, more: EdgeList): EdgeList {
  const out = list.copy(more.length);
  for (let i = 0; i < more.length; i++) out.add(more.from.data[i], more.to.data[i], more.kind.data[i], more.a.data[i], more.b.data[i]);
  return out;
}

/**
 * ⊥ precedes every transaction, but those edges matter only when some edge points into ⊥: only
 * then are they added (to a copy), which keeps them out of the common, consistent case.
 */
function withInitEdges(ctx: CheckContext, forced: EdgeList): EdgeList {
  if (!intoBottom(forced)) return forced;
  const out = forced.copy(ctx.h.txnCount);
  for (let t = 1; t < ctx.h.txnCount; t++) if (ctx.h.txnAborted[t] === 0) out.add(BOTTOM, t, EK_INIT);
  return out;
}

/** Whether some forced edge points into ⊥ (then ⊥'s edges into every committed transaction matter). */
function intoBottom(forced: EdgeList): boolean {
  const to = forced.to.data;
  for (let i = 0; i < forced.length; i++) if (to[i] === BOTTOM) return true;
  return false;
}

/** Whether a forced edge goes from a committed transaction into ⊥ (⊥'s edge into that transaction closes a cycle). */
function committedBeforeBottom(h: History, forced: EdgeList): boolean {
  const { from, to } = forced;
  for (let i = 0; i < forced.length; i++) if (to.data[i] === BOTTOM && from.data[i] !== BOTTOM && h.txnAborted[from.data[i]] === 0) return true;
  return false;
}

/** The so ∪ wr cycles behind a causality violation (only when !ctx.causal). */
export function causalityCycles(ctx: CheckContext, maxWitnesses: number): Int32Array[] {
  const g = ctx.baseCsr;
  return witnessCycles(g, ctx.base, stronglyConnected(g, ctx.leftOver), maxWitnesses, EK_WR, false);
}

/**
 * Relaxations spent looking for a better cycle in further components once `max` cycles are found.
 * Measured: 2,000,000 cost 50–100 ms on the bench's 1M-operation read-committed file at RA (every
 * small component searched); 250,000 still covers every component of histories of tens of
 * thousands of operations.
 */
const RANKING_WORK = 250_000;

/**
 * Up to `max` cycles, one per component, best first: the fewest so ∪ wr edges, then the fewest
 * edges, over every component (the spec prefers among all cycles, and a larger component may hold
 * the better one). Components are searched smallest first (cheaper, and their cycles are the
 * easiest to read, which breaks ties); once `max` are found, further ones only within a work budget.
 */
function witnessCycles(g: Csr, view: EdgeView, scc: { comp: Int32Array; count: number; size: Int32Array }, max: number, closingKind: number, preferCo: boolean): Int32Array[] {
  const comps: number[] = [];
  for (let c = 0; c < scc.count; c++) if (scc.size[c] > 1) comps.push(c);
  comps.sort((a, b) => scc.size[a] - scc.size[b]);
  const finder = new CycleFinder(g, view, scc.comp, scc.count, { ...DEFAULT_SEARCH, closingKind, preferCo });
  const found: RankedCycle[] = [];
  for (const c of comps) {
    if (found.length >= max && finder.work > RANKING_WORK) break;
    const cycle = finder.find(c);
    if (!cycle) continue;
    found.push(cycle);
    // Two edges and none of so ∪ wr: nothing ranks before it.
    if (max === 1 && cycle.length <= 2 && (cycle.heavy === 0 || !preferCo)) break;
  }
  // Stable: among equals, the smaller component's cycle stays first.
  found.sort((a, b) => (ranksBefore(a, b) ? -1 : ranksBefore(b, a) ? 1 : 0));
  return found.slice(0, max).map((x) => x.edges);
}
