// Delta debugging for any level: the smallest sub-history (transactions, then operations) that still violates it.

import type { History } from '../model/history.ts';
import { checkCycles, CheckContext, forcedEdges, mixedForcedEdges, type Rule } from '../weak/level-check.ts';
import { isWeakLevel, LEVELS, type Level } from '../levels/levels.ts';
import { computeReadsFrom, type ReadsFrom } from '../model/reads-from.ts';
import { restrictHistory } from '../model/restrict.ts';
import { hasListOps, inferListAppend } from '../listappend/infer.ts';
import { decideListLevel, L_SSER, ListLevelContext, listLevelId } from '../listappend/list-levels.ts';
import { checkStrong, DEFAULT_STRONG_BUDGET, type StrongBudget } from '../strong/strong-check.ts';

/** A homogeneous level, or 'mixed' (each transaction at its tag, untagged ones at `fallback`). */
export type Target = { level: Level } | { level: 'mixed'; fallback: Level };

export interface MinimizeOptions {
  /** Date.now() after which minimisation stops and keeps the smallest violating history so far. */
  deadline: number;
  /** Per strong-level check (each candidate gets this budget; 'unknown' keeps the candidate out). */
  budget?: StrongBudget;
}

export interface Minimized {
  h: History;
  rf: ReadsFrom;
  /** Candidate sub-histories checked. */
  checks: number;
  /** Whether minimisation ran to its end (else the deadline stopped it). */
  complete: boolean;
}

const SMALL_BUDGET: StrongBudget = { ...DEFAULT_STRONG_BUDGET, states: 50_000, millis: 500 };

/** The level of each transaction under `target`. */
export function levelOfTarget(h: History, target: Target): (t: number) => Level {
  if (target.level !== 'mixed') {
    const l = target.level;
    return () => l;
  }
  const fallback = target.fallback;
  return (t) => (h.txnLevel[t] >= 0 ? LEVELS[h.txnLevel[t]] : fallback);
}

/**
 * Whether `target` is violated by a read-consistent history: a cycle in so ∪ wr ∪ the forced co
 * edges for RC, RA, CC (per transaction in a mixed history), the commit-order search above.
 */
export function violates(h: History, rf: ReadsFrom, target: Target, budget: StrongBudget = SMALL_BUDGET): boolean {
  // List-append histories: the level from the observed version orders (docs/list-append.md).
  if (hasListOps(h)) {
    const lctx = new ListLevelContext(inferListAppend(h));
    const lvl = new Int8Array(h.txnCount);
    const levelOf = levelOfTarget(h, target);
    for (let t = 1; t < h.txnCount; t++) lvl[t] = h.txnStrict?.[t] === 1 && target.level === 'mixed' ? L_SSER : listLevelId(levelOf(t));
    if (decideListLevel(lctx, lvl) === false) return true;
  }
  const ctx = new CheckContext(h, rf);
  if (!ctx.causal) return true;
  const levelOf = levelOfTarget(h, target);
  let allWeak = true;
  const applies: Record<Rule, Uint8Array> = { RC: new Uint8Array(h.txnCount), RA: new Uint8Array(h.txnCount), CC: new Uint8Array(h.txnCount) };
  for (let t = 1; t < h.txnCount; t++) {
    const l = levelOf(t);
    if (!isWeakLevel(l)) allWeak = false;
    applies[isWeakLevel(l) ? (l as Rule) : 'CC'][t] = 1;
  }
  if (target.level !== 'mixed' && isWeakLevel(target.level)) {
    const edges = forcedEdges(ctx, target.level as Rule, null);
    return edges !== null && !checkCycles(ctx, edges, 1).acyclic;
  }
  // Every level implies its own row of the weak table (CC for the strong ones): a cycle there is a violation.
  const all = mixedForcedEdges(ctx, applies);
  if (all === null) return false;
  if (!checkCycles(ctx, all, 1).acyclic) return true;
  if (allWeak) return false;
  return checkStrong(ctx, levelOf, budget).kind === 'violated';
}

/**
 * Removes chunks of transactions (halving the chunk size down to one), then single operations, as long
 * as `target` stays violated and read consistency stays as it was (clean stays clean; a history whose
 * violation is a read-consistency error keeps an error of the same code). Dropping transactions and
 * reads only removes constraints, so every step is a violation of the original too.
 */
export function minimizeWitness(h: History, rf: ReadsFrom, target: Target, o: MinimizeOptions): Minimized {
  const budget = o.budget ?? SMALL_BUDGET;
  const readError = rf.findings.find((f) => f.severity === 'error')?.code ?? null;
  let checks = 0;
  const still = (sub: History, subRf: ReadsFrom): boolean => {
    checks++;
    if (readError !== null) return subRf.findings.some((f) => f.severity === 'error' && f.code === readError);
    if (subRf.violations > 0 || subRf.findings.some((f) => f.severity === 'error')) return false;
    return violates(sub, subRf, target, budget);
  };
  let cur = { h, rf };
  const open = (): boolean => Date.now() < o.deadline;
  let chunk = Math.max(1, Math.floor((cur.h.txnCount - 1) / 2));
  while (chunk >= 1 && open()) {
    let removed = false;
    const n = cur.h.txnCount - 1;
    for (let start = 1; start <= n && open(); start += chunk) {
      const keep = new Uint8Array(cur.h.txnCount).fill(1);
      for (let t = start; t < Math.min(n + 1, start + chunk); t++) keep[t] = 0;
      const sub = restrictHistory(cur.h, cur.rf, keep);
      const subRf = computeReadsFrom(sub);
      if (still(sub, subRf)) {
        cur = { h: sub, rf: subRf };
        removed = true;
        break;
      }
    }
    if (!removed) chunk = chunk === 1 ? 0 : Math.max(1, Math.floor(chunk / 2));
    else chunk = Math.min(chunk, Math.max(1, Math.floor((cur.h.txnCount - 1) / 2)));
  }
  // Then operations, one at a time, last first (so ids below stay valid after each removal).
  for (let op = cur.h.opCount - 1; op >= 0 && open(); op--) {
    if (op >= cur.h.opCount) continue;
    const drop = new Uint8Array(cur.h.opCount);
    drop[op] = 1;
    const sub = restrictHistory(cur.h, cur.rf, new Uint8Array(cur.h.txnCount).fill(1), drop);
    const subRf = computeReadsFrom(sub);
    if (still(sub, subRf)) cur = { h: sub, rf: subRf };
  }
  // A transaction left without operations says nothing: drop it when that keeps the violation.
  for (let t = cur.h.txnCount - 1; t >= 1 && open(); t--) {
    if (cur.h.txnOpStart[t] !== cur.h.txnOpStart[t + 1]) continue;
    const keep = new Uint8Array(cur.h.txnCount).fill(1);
    keep[t] = 0;
    const sub = restrictHistory(cur.h, cur.rf, keep);
    const subRf = computeReadsFrom(sub);
    if (still(sub, subRf)) cur = { h: sub, rf: subRf };
  }
  return { ...cur, checks, complete: open() };
}
