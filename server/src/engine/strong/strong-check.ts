// Decides PC, PSI, SI, SER, SSER and mixed levels: necessary conditions, a commit-order search, exact verification.

import { searchCommitOrder, MODE_PC, MODE_SER, MODE_SI, MODE_STATIC } from './commit-search.ts';
import { EdgeList, EK_CO } from '../model/edges.ts';
import { forEachRealTimeEdge } from './real-time.ts';
import { BOTTOM } from '../model/history.ts';
import type { CheckContext } from '../weak/level-check.ts';
import { isSnapshotLevel, levelRow, RULES, type Level, type SearchMode } from '../levels/levels.ts';
import { searchOrientations } from './orientation-search.ts';
import { decideByEvents, refuteByEvents } from './event-search.ts';
import { propagateSnapshotOrder } from './strong-propagation.ts';
import { verifyOrder } from './verify-order.ts';
import { lostUpdateSeeds } from '../witness/seeds.ts';

export type StrongResult =
  | { kind: 'consistent'; order: Int32Array }
  /** `necessary`: refuted by the polynomial necessary conditions, before any search. */
  | { kind: 'violated'; by?: 'necessary' }
  | { kind: 'unknown'; reason: string };

export interface StrongBudget {
  /** Search states before giving up. */
  states: number;
  /** Milliseconds of search before giving up. */
  millis: number;
  /**
   * A time (Date.now()) no search may pass, shared by every strong search of one analysis, and the
   * milliseconds it was set from (for messages: they must read the same on every run). See
   * AnalyzeOptions.strongTotalMillis.
   */
  shared?: { end: number; millis: number };
  /** True stops every search at once (the analysis was cancelled): the verdict is then 'unknown'. */
  stop?: () => boolean;
  /** Committed transactions up to which every commit order may be enumerated when the search alone cannot decide. */
  enumerateUpTo: number;
  /** Phases and figures of the large-history path, for benches. */
  log?: (line: string) => void;
  /**
   * Only the necessary conditions, no search: what they leave open is 'unknown'. For shrinking a
   * violation they found: each candidate is one linear pass, where a PSI search on a candidate
   * that holds ran its whole budget of quadratic rounds (a lost update among 20,000 transactions:
   * 54 s of shrinking).
   */
  necessaryOnly?: boolean;
}

export const DEFAULT_STRONG_BUDGET: StrongBudget = { states: 4_000_000, millis: 10_000, enumerateUpTo: 8 };

/** Inputs larger than this many bytes checked without naming levels get IMPLICIT_STRONG_TOTAL_MILLIS for all strong searches together. */
export const LARGE_INPUT_BYTES = 2_000_000;
/**
 * The strong-level budget of a large input nobody asked strong levels of (the CLI without
 * --level or --claim, the playground's dropped files): a default run over a million operations
 * should not spend minutes on levels nobody requested, yet decide what it can. One budget for
 * all the strong searches together, not one each: the first one, SER, decides the others
 * whenever it holds, and needs most of it (7.4 s on the bench's 1M causal-store file on a slow
 * day). It was 5 s per search: there SER ran out, then PC and SI ran out too (18.8 s, all `?`).
 */
export const IMPLICIT_STRONG_TOTAL_MILLIS = 10_000;

/** The budget options for an input of `bytes` checked at the default levels (empty: the full budget per search). */
export function implicitStrongBudget(bytes: number): { strongTotalMillis?: number } {
  return bytes > LARGE_INPUT_BYTES ? { strongTotalMillis: IMPLICIT_STRONG_TOTAL_MILLIS } : {};
}

/** A budget shared by the strong searches from now on, `millis` long (StrongBudget.shared): the clock is read here, as by the searches. */
export function sharedBudgetFromNow(millis: number): { end: number; millis: number } {
  return { end: Date.now() + millis, millis };
}

/** A search's deadline (Date.now() time): its own milliseconds from now, within the shared budget if any. */
function deadlineOf(budget: StrongBudget): number {
  const own = Date.now() + budget.millis;
  return budget.shared ? Math.min(own, budget.shared.end) : own;
}

/** The budget as messages name it (the same text on every run). */
function budgetText(budget: StrongBudget): string {
  if (!budget.shared) return `${budget.millis} ms`;
  const together = `${budget.shared.millis} ms for all the strong levels together`;
  return budget.shared.millis <= budget.millis ? together : `${budget.millis} ms, ${together}`;
}

/** The propagation keeps a reachability matrix (n² bits): a pruning worth it up to this size. */
const PROPAGATION_MAX_TXNS = 4000;
/** The PSI search recomputes reachability matrices (n² bits) after every choice. */
const ORIENTATION_MAX_TXNS = 4000;
/** Exact verification of an order keeps the visible sets as n² bits (20,000 transactions: 50 MB). */
const VERIFY_MAX_TXNS = 20_000;
/**
 * Entries (events × sessions: two events per transaction, ⊥ included) of each of the event
 * propagation's two clock tables (4 bytes each; four more tables of half that size remember what
 * the rules last saw): 2^24 entries bound the whole at 268 MB, and hold 64 sessions × 131,000
 * transactions. (At 16,000,000 the bench's 1M-operation histories, 64 × 125,000 transactions and
 * ⊥, were 128 entries over: their strong levels fell to the plain search and ended undecided.)
 */
export const EVENT_CLOCK_ENTRIES = 1 << 24;
/** An order found on events was checked exactly there (linear time); the n² verification repeats it on small histories only. */
const FOUND_VERIFY_MAX_TXNS = 2000;
/** A PSI propagation round (reachability over all transactions) counts as this many search states. */
const PSI_STATES_PER_ROUND = 100;
/** Real-time edges kept after reduction before SSER is undecided (each costs about 24 bytes here). */
const MAX_RT_EDGES = 16_000_000;
/** Memory for the commit-order search's memo of failed frontiers. */
const MEMO_BYTES = 256 * 1024 * 1024;

/** The commit-order search's mode per level (levels.ts `search`); the others are static precedence. */
const MODE_OF_SEARCH: Record<SearchMode, number> = { saturation: MODE_STATIC, orientation: MODE_STATIC, pc: MODE_PC, si: MODE_SI, ser: MODE_SER };

/**
 * Each transaction at levelOf(t). PC, SI and SER transactions read from snapshots and are handled
 * exactly by the commit-order search; RC and RA readers are exact as fixed precedence (their
 * forced edges); CC and PSI readers enter the search through CC's forced edges, a necessary
 * condition, so a commit order found for them is then verified exactly (MixIso's least visibility
 * fixpoint). Needs so ∪ wr acyclic (ctx.causal).
 */
export function checkStrong(ctx: CheckContext, levelOf: (t: number) => Level, budget: StrongBudget = DEFAULT_STRONG_BUDGET): StrongResult {
  const { h, rf } = ctx;
  if (budget.stop?.() === true) return { kind: 'unknown', reason: 'the analysis was stopped' };
  const mode = new Uint8Array(h.txnCount);
  const applies = { RC: new Uint8Array(h.txnCount), RA: new Uint8Array(h.txnCount), CC: new Uint8Array(h.txnCount) };
  let approximate = false;
  let committed = 0;
  const noConflict = new Uint8Array(h.txnCount);
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnAborted[t] === 1) continue;
    committed++;
    const l = levelOf(t);
    const row = levelRow(l);
    mode[t] = MODE_OF_SEARCH[row.search];
    if (row.visibility.noConflict || row.visibility.total) noConflict[t] = 1;
    // Every level implies its rule's forced edges: exact for RC, RA and CC, a pruning for the others.
    applies[row.rule][t] = 1;
    // Transitive visibility (CC, PSI) enters the search only through CC's edges: verified after.
    if (row.visibility.transitive) approximate ||= row.search === 'orientation' || hasSnapshotLevels(h.txnCount, levelOf, h.txnAborted);
  }
  // A lost update between two transactions at such levels (both read one version of a key, then
  // write it) is a violation: whichever commits first is visible to the other (NoConflict, or
  // total visibility), which then read a version older than one it sees. One pass at any size; the
  // event conditions find it too, but only within their clock table (4,000 one-transaction
  // sessions updating one key: PSI and SI took 18 s each, SI ended undecided by its own search).
  if (lostUpdateSeeds(h, rf, 1, noConflict).length > 0) return { kind: 'violated', by: 'necessary' };
  const psi = new Uint8Array(h.txnCount);
  for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0 && levelOf(t) === 'PSI') psi[t] = 1;
  // PSI without snapshot levels: orienting the write-conflicting pairs is exact.
  if (approximate && !hasSnapshotLevels(h.txnCount, levelOf, h.txnAborted)) {
    // Lost updates first, at any size (necessary conditions on events: only a violation decides).
    const cc = applies.CC.includes(1) ? ctx.forced('CC', applies.CC) : new EdgeList();
    const psiDeadline = deadlineOf(budget);
    const refuted = cc ? refuteByEvents({ h, rf, mode, psi, exact: false, maxEntries: EVENT_CLOCK_ENTRIES, log: budget.log,
      timeUp: () => Date.now() > psiDeadline || budget.stop?.() === true,
      precedence: { from: cc.from.data, to: cc.to.data, length: cc.length } }) : 'open';
    if (refuted === 'violated') return { kind: 'violated', by: 'necessary' };
    if (budget.necessaryOnly) return { kind: 'unknown', reason: 'only the necessary conditions were checked' };
    if (committed > ORIENTATION_MAX_TXNS) {
      return { kind: 'unknown', reason: `PSI beside RC, RA and CC is searched exactly up to ${ORIENTATION_MAX_TXNS} transactions (this history has ${committed})` };
    }
    const r = searchOrientations(h, rf, levelOf, deadlineOf(budget), budget.stop, Math.ceil(budget.states / PSI_STATES_PER_ROUND));
    if (r.kind !== 'consistent' || verifyOrder(h, rf, levelOf, r.order) === null) return r;
    return { kind: 'unknown', reason: 'the PSI order found did not verify' };
  }
  const precedence = new EdgeList();
  for (const rule of RULES) {
    if (!applies[rule].includes(1)) continue;
    const e = ctx.forced(rule, applies[rule]);
    if (!e) return { kind: 'unknown', reason: 'the history needs more vector-clock entries (transactions × sessions) than CC keeps' };
    for (let i = 0; i < e.length; i++) precedence.add(e.from.data[i], e.to.data[i], e.kind.data[i]);
  }
  // SSER: the commit order extends rt into real-time transactions (a reduced set of edges).
  const realTime = (t: number): boolean => levelRow(levelOf(t)).realTime;
  let rtEdges = 0;
  forEachRealTimeEdge(h, realTime, (t1, t2) => {
    if (++rtEdges <= MAX_RT_EDGES) precedence.add(t1, t2, EK_CO);
  });
  if (rtEdges > MAX_RT_EDGES) return { kind: 'unknown', reason: `real time needs more than ${MAX_RT_EDGES} commit-order edges here (too many overlapping transactions)` };
  // Polynomial necessary conditions first: they decide many violations and guide the search.
  if (committed <= PROPAGATION_MAX_TXNS && hasSnapshotLevels(h.txnCount, levelOf, h.txnAborted)) {
    const more = propagateSnapshotOrder(h, rf, levelOf, precedence);
    if (more === null) return { kind: 'violated', by: 'necessary' };
    for (let i = 0; i < more.length; i++) precedence.add(more.from.data[i], more.to.data[i], more.kind.data[i]);
  }
  const deadline = deadlineOf(budget);
  const known = { from: precedence.from.data, to: precedence.to.data, length: precedence.length };
  // The same conditions at any size on read and commit events, then a guided completion.
  const ev = hasSnapshotLevels(h.txnCount, levelOf, h.txnAborted)
    ? decideByEvents({ h, rf, mode, precedence: known, exact: !approximate, maxEntries: EVENT_CLOCK_ENTRIES, log: budget.log, psi,
      timeUp: () => Date.now() > deadline || budget.stop?.() === true })
    : null;
  if (ev?.kind === 'violated') return { kind: 'violated', by: 'necessary' };
  if (budget.necessaryOnly && ev?.kind !== 'consistent') return { kind: 'unknown', reason: 'only the necessary conditions were checked' };
  if (ev?.kind === 'stopped') return { kind: 'unknown', reason: `the necessary conditions ran out of time (${budgetText(budget)})` };
  const found = ev?.kind === 'consistent' ? { kind: 'consistent' as const, order: ev.order } : null;
  // Always enough states to take every event a few times over; the memo's memory is bounded apart.
  const states = Math.max(4 * committed, budget.states);
  const result = found ?? searchCommitOrder({
    h, rf, mode, budget: states, deadline, stop: budget.stop, precedence: known,
    events: ev?.kind === 'search' && ev.events ? ev.events : undefined,
    rank: ev?.kind === 'search' && ev.rank ? ev.rank : undefined,
    memoEntries: Math.floor(MEMO_BYTES / (4 * Math.max(1, h.sessionCount) + 8)),
  });
  if (result.kind === 'violated') return { kind: 'violated' };
  if (result.kind === 'unknown') {
    const reason = searchStopReason(result.states, states, budgetText(budget));
    // Without the event propagation the search is blind on large histories: say why it was left out.
    const tooLarge = ev?.kind === 'search' ? ev.tooLarge : undefined;
    return { kind: 'unknown', reason: tooLarge ? `${reason} (the necessary conditions were left out: ${tooLarge})` : reason };
  }
  // The search is exact for snapshot levels beside RC and RA; verification (n² bits) double-checks
  // it where affordable, and is required where CC or PSI readers were only approximated.
  if (!approximate && (committed > VERIFY_MAX_TXNS || (found !== null && committed > FOUND_VERIFY_MAX_TXNS))) return { kind: 'consistent', order: result.order };
  if (approximate && committed > VERIFY_MAX_TXNS) {
    return { kind: 'unknown', reason: `CC and PSI beside snapshot levels are verified up to ${VERIFY_MAX_TXNS} transactions (this history has ${committed})` };
  }
  if (verifyOrder(h, rf, levelOf, result.order) === null) return { kind: 'consistent', order: result.order };
  if (!approximate) return { kind: 'unknown', reason: 'the commit order found did not verify' };
  // PSI, or CC beside snapshot levels: the order found is not the only candidate.
  if (committed > budget.enumerateUpTo) {
    return { kind: 'unknown', reason: `PSI and CC beside snapshot levels are decided exactly only up to ${budget.enumerateUpTo} transactions so far` };
  }
  const order = enumerateOrders(ctx, precedence, (o) => verifyOrder(h, rf, levelOf, o) === null);
  return order ? { kind: 'consistent', order } : { kind: 'violated' };
}

function hasSnapshotLevels(n: number, levelOf: (t: number) => Level, aborted: Uint8Array): boolean {
  for (let t = 1; t < n; t++) {
    if (aborted[t] === 1) continue;
    if (isSnapshotLevel(levelOf(t))) return true;
  }
  return false;
}

/** Every linear extension of so ∪ wr ∪ precedence, until `accept` takes one (small histories only). */
export function enumerateOrders(ctx: CheckContext, precedence: EdgeList, accept: (order: Int32Array) => boolean): Int32Array | null {
  const { h, rf } = ctx;
  const txns: number[] = [];
  for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0) txns.push(t);
  const preds = new Map<number, Set<number>>(txns.map((t) => [t, new Set<number>()]));
  for (const t of txns) {
    if (ctx.soPrev[t] >= 0) preds.get(t)!.add(ctx.soPrev[t]);
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOTTOM) preds.get(t)!.add(rf.wrSource[o]);
  }
  for (let i = 0; i < precedence.length; i++) {
    const to = precedence.to.data[i];
    if (to === BOTTOM) return null;
    if (precedence.from.data[i] !== BOTTOM) preds.get(to)?.add(precedence.from.data[i]);
  }
  const order = new Int32Array(txns.length);
  const placed = new Set<number>();
  // Explicit stack of candidate indexes per depth: no recursion.
  const next: number[] = [0];
  for (;;) {
    const depth = placed.size;
    if (depth === txns.length) {
      if (accept(order)) return order;
    } else {
      let i = next[depth];
      while (i < txns.length && (placed.has(txns[i]) || [...preds.get(txns[i])!].some((p) => !placed.has(p)))) i++;
      if (i < txns.length) {
        next[depth] = i + 1;
        order[depth] = txns[i];
        placed.add(txns[i]);
        next.push(0);
        continue;
      }
    }
    // Backtrack.
    if (depth === 0) return null;
    next.pop();
    placed.delete(order[depth - 1]);
  }
}

/**
 * Why a commit-order search gave up, with deterministic figures only: how far a search got when
 * the clock stopped it varies from run to run, and the same input must give the same report.
 */
export function searchStopReason(used: number, states: number, time: number | string): string {
  return used >= states
    ? `the search used its whole budget of ${states} states`
    : `the search ran out of time (${typeof time === 'number' ? `${time} ms` : time}) within its budget of ${states} states`;
}
