// A level's violation as a property of sub-histories, and the smallest sub-history that keeps it (one shrinker: minimize.ts).

import type { Finding } from '../model/diagnostics.ts';
import type { History } from '../model/history.ts';
import { checkCycles, CheckContext, forcedEdges, mixedForcedEdges, type Rule } from '../weak/level-check.ts';
import { isWeakLevel, levelById, levelRow, type Level } from '../levels/levels.ts';
import { firstViolation, type ReadsFrom } from '../model/reads-from.ts';
import { shrinkHistory, type Shrunk } from './minimize.ts';
import { lostUpdateSeeds } from './seeds.ts';
import { hasListOps, inferListAppend, type ListInference } from '../listappend/infer.ts';
import { decideListLevel, ListLevelContext, listLevelId } from '../listappend/list-levels.ts';
import { checkStrong, DEFAULT_STRONG_BUDGET, type StrongBudget } from '../strong/strong-check.ts';

/** A homogeneous level, or 'mixed' (each transaction at its tag, untagged ones at `fallback`). */
export type Target = { level: Level } | { level: 'mixed'; fallback: Level };

export interface MinimizeOptions {
  /** Work units for the whole shrinking (see ShrinkBudget): deterministic, not a time limit. */
  work?: number;
  /** Per strong-level check (each candidate gets this budget, in search states; 'unknown' keeps the candidate out). */
  budget?: StrongBudget;
  stop?: () => boolean;
  /**
   * A further property every kept sub-history must have (the export's: its witness names the same
   * anomaly), checked last, on the candidates that still violate the target.
   */
  keeps?: (sub: History, subRf: ReadsFrom) => boolean;
}

export type Minimized = Shrunk;

/** Lost-update seeds checked before the windows (each costs one pass over the history to cut out). */
const MAX_SEEDS = 8;

/** Default work for an export: about 500 checks of a 10,000-operation candidate. */
export const EXPORT_WORK = 5_000_000;

/** Candidates are decided by search states only (no milliseconds), so shrinking is deterministic. */
export const SHRINK_STRONG_BUDGET: StrongBudget = { ...DEFAULT_STRONG_BUDGET, states: 50_000, millis: Number.POSITIVE_INFINITY };

/** The level of each transaction under `target`. */
export function levelOfTarget(h: History, target: Target): (t: number) => Level {
  if (target.level !== 'mixed') {
    const l = target.level;
    return () => l;
  }
  const fallback = target.fallback;
  return (t) => (h.txnLevel[t] >= 0 ? levelById(h.txnLevel[t]) : fallback);
}

/**
 * Whether `target` is violated by a read-consistent history: a cycle in so ∪ wr ∪ the forced co
 * edges for RC, RA, CC (per transaction in a mixed history), the commit-order search above.
 */
export function violates(h: History, rf: ReadsFrom, target: Target, budget: StrongBudget = SHRINK_STRONG_BUDGET, inf?: ListInference): boolean {
  // List-append histories: the level from the observed version orders (docs/list-append.md).
  if (inf ?? hasListOps(h)) {
    const lctx = new ListLevelContext(inf ?? inferListAppend(h));
    const lvl = new Int8Array(h.txnCount);
    const levelOf = levelOfTarget(h, target);
    for (let t = 1; t < h.txnCount; t++) lvl[t] = listLevelId(levelOf(t));
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
    applies[levelRow(l).rule][t] = 1;
  }
  if (target.level !== 'mixed' && isWeakLevel(target.level)) {
    const edges = forcedEdges(ctx, levelRow(target.level).rule, null);
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
 * The smallest sub-history that still violates `target` (delta debugging, witness/minimize.ts)
 * while read consistency stays as it was: clean stays clean; a history whose violation is a
 * read-consistency error keeps an error of the same code. Both for the register reads and for the
 * list reads (the inference's findings: garbage-read, aborted-read, …), and no candidate has a
 * kind of read-consistency error the history did not have.
 */
export function minimizeWitness(h: History, rf: ReadsFrom, target: Target, o: MinimizeOptions = {}): Minimized {
  const budget = o.budget ?? SHRINK_STRONG_BUDGET;
  const readError = firstViolation(rf)?.code ?? null;
  const readErrors = errorCodes(rf.findings);
  const lists = hasListOps(h);
  const listFindings = lists ? inferListAppend(h).findings : [];
  const listErrors = errorCodes(listFindings);
  // The list witness of a level names the inference's first error (list-verdicts.ts): keep its code.
  const listError = listFindings.find((f) => f.severity === 'error')?.code ?? null;
  const still = (sub: History, subRf: ReadsFrom): boolean => {
    if (!within(subRf.findings, readErrors)) return false;
    const inf = lists && hasListOps(sub) ? inferListAppend(sub) : undefined;
    if (inf && !within(inf.findings, listErrors)) return false;
    if (readError !== null) return subRf.findings.some((f) => f.severity === 'error' && f.code === readError);
    if (subRf.violations > 0 || firstViolation(subRf) !== null) return false;
    if (listError !== null && !inf?.findings.some((f) => f.severity === 'error' && f.code === listError)) return false;
    if (!violates(sub, subRf, target, budget, inf)) return false;
    return o.keeps?.(sub, subRf) ?? true;
  };
  // RC and RA build no clocks; CC, the strong levels and a mixed target (its tags may name them) do.
  const clocks = target.level === 'mixed' || !(target.level === 'RC' || target.level === 'RA');
  return shrinkHistory(h, rf, still, { work: o.work ?? EXPORT_WORK, stop: o.stop, clocks }, lostUpdateSeeds(h, rf, MAX_SEEDS));
}

function errorCodes(findings: readonly Finding[]): Set<string> {
  return new Set(findings.filter((f) => f.severity === 'error').map((f) => f.code));
}

/** Whether every error among `findings` has one of `codes`. */
function within(findings: readonly Finding[], codes: ReadonlySet<string>): boolean {
  return findings.every((f) => f.severity !== 'error' || codes.has(f.code));
}
