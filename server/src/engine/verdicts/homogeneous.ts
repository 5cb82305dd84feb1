// Homogeneous verdicts (every transaction at one level), computed on demand; the lattice, read from the table, saves searches.

import type { EdgeList } from '../model/edges.ts';
import { isWeakLevel, levelRow, weakerOrEqual, type Level, type Rule } from '../levels/levels.ts';
import { checkStrong, DEFAULT_STRONG_BUDGET, sharedBudgetFromNow, type StrongBudget, type StrongResult } from '../strong/strong-check.ts';
import { checkCycles, forcedEdges, MAX_CLOCK_WORK } from '../weak/level-check.ts';
import { nonRepeatableCycles } from '../weak/non-repeatable.ts';
import { explainStrong, liftWitness, ranksBefore, wholeHistoryCycle } from '../witness/strong-witness.ts';
import { levelOfTarget, minimizeWitness, SHRINK_STRONG_BUDGET, violates, type Minimized, type Target } from '../witness/violation.ts';
import { composeOrigin } from '../model/restrict.ts';
import type { Witness } from '../witness/witness.ts';
import type { Checks } from './checks.ts';
import { decided, implied, pending, STOPPED_REASON, undecided, type Verdict } from './verdict.ts';
import { listVerdictOf } from '../listappend/list-analysis.ts';

export interface VerdictOptions {
  strongMillis?: number;
  /** AnalyzeOptions.strongTotalMillis: one time budget for every strong search together. */
  strongTotalMillis?: number;
  witnessWork?: number;
  deferStrong?: boolean;
  stop?: () => boolean;
  /**
   * Keep every weak rule's forced co edges (Analysis.forced, for hovers and the graph); default
   * true. Reports that never show them (the CLI) pass false, so RA decided by a non-repeatable
   * read skips its saturation.
   */
  keepForced?: boolean;
}

export const TOO_MANY_CLOCKS = `CC computes a vector clock per transaction (transactions × sessions entries), and this history needs more than ${MAX_CLOCK_WORK}`;
/** Work units spent shrinking a strong-level violation to a minimal sub-history, per verdict (witness/minimize.ts). */
const WITNESS_WORK = 2_000_000;
/** Commit orders of the minimal sub-history explained at most. */
const MAX_ORDERS_EXPLAINED = 120;
const CYCLE_IN_SO_WR = 'so ∪ wr has a cycle';

export class LevelVerdicts {
  /** Inferred co edges per weak rule, for editor features (hover: the edges a read forced). */
  readonly forced = new Map<Rule, EdgeList>();
  /** Further witness cycles per weak rule (AnalyzeOptions.maxWitnesses). */
  readonly extraWitnesses = new Map<Rule, Witness[]>();
  private readonly strongBudget: StrongBudget;
  /** The strong searches' shared budget, set when the first one starts (strongTotalMillis). */
  private shared: StrongBudget['shared'] = undefined;
  private readonly weak = new Map<Rule, Verdict>();
  private readonly strong = new Map<Level, Verdict>();
  private readonly searches = new Map<Level, StrongResult>();
  /** The minimal violating sub-history of each homogeneous level shrunk so far (shared by its witness and partVerdict). */
  private readonly parts = new Map<Level, Minimized>();

  constructor(readonly checks: Checks, private readonly options: VerdictOptions) {
    this.strongBudget = { ...DEFAULT_STRONG_BUDGET, millis: options.strongMillis ?? DEFAULT_STRONG_BUDGET.millis, stop: options.stop };
  }

  /** The verdict of `level` (weak: its saturation; strong: CC, the lattice shortcuts, then its own search). */
  verdictOf(level: Level): Verdict {
    const row = levelRow(level);
    if (isWeakLevel(level)) return this.weakVerdict(row.rule, level);
    const base = this.weakVerdict(row.rule, row.rule);
    if (base.consistent === false) return implied(level, base);
    let v = this.strong.get(level);
    if (v) return v;
    if (this.options.deferStrong) return pending(level);
    v = this.shortcut(level) ?? this.witnessFromWeaker(level) ?? this.strongVerdict(level, this.search(level), { level });
    if (v.consistent === null && v.basis.kind === 'undecided') v = this.partVerdict(level) ?? v;
    this.strong.set(level, v);
    return v;
  }

  /**
   * `level` undecided by its own search (PSI's above 4,000 transactions, or out of budget) while a
   * stronger level it consults first (the table's decideFirst) was found violated: the small part
   * that violates the stronger level is checked at `level`. A violation there is one of the whole
   * history (a sub-history keeps fewer constraints), so `level` is violated, its witness shrunk
   * from that part. A causal store's history of 10,000 transactions: SI's lost update (a part of 15
   * transactions) decides PSI, which was `?`. Null when no such part violates `level`. Only the
   * stronger levels' own searches are used, each run once whatever asked first: the verdict does
   * not depend on the order in which levels are evaluated.
   */
  private partVerdict(level: Level): Verdict | null {
    for (const stronger of levelRow(level).decideFirst) {
      if (!weakerOrEqual(level, stronger) || this.search(stronger).kind !== 'violated') continue;
      const part = this.part({ level: stronger });
      if (part.stopped || !violates(part.h, part.rf, { level })) continue;
      const min = minimizeWitness(part.h, part.rf, { level }, { work: this.options.witnessWork ?? WITNESS_WORK, stop: this.options.stop });
      if (min.stopped) return null;
      // `level`'s own part, in the history's ids: its witness is explained as any violation's, and
      // the export's minimisation starts from it (witness-export.ts), not from the whole history.
      this.parts.set(level, { ...min, ...composeOrigin(part, min) });
      const v = this.strongVerdict(level, { kind: 'violated' }, { level });
      return decided(level, false, v.witness, `decided on the part of the history that violates ${stronger} (${part.h.txnCount - 1} transactions): it violates ${level} too`);
    }
    return null;
  }

  /** The smallest sub-history found that violates `shrinkAs` (the witness minimiser), kept per homogeneous level. */
  private part(shrinkAs: Target): Minimized {
    const known = shrinkAs.level === 'mixed' ? undefined : this.parts.get(shrinkAs.level);
    if (known) return known;
    const { h, rf } = this.checks;
    // Shrinking re-checks many sub-histories, each within a small search budget, all within a work
    // budget. A violation the necessary conditions found is shrunk by them alone (each candidate a
    // linear pass, not a search that runs its budget out on every candidate that holds).
    const own = shrinkAs.level === 'mixed' || isWeakLevel(shrinkAs.level) ? null : this.search(shrinkAs.level);
    const byNecessary = own?.kind === 'violated' && own.by === 'necessary';
    const budget = byNecessary ? { ...SHRINK_STRONG_BUDGET, necessaryOnly: true } : undefined;
    const min = minimizeWitness(h, rf, shrinkAs, { work: this.options.witnessWork ?? WITNESS_WORK, stop: this.options.stop, budget });
    if (shrinkAs.level !== 'mixed' && !min.stopped) this.parts.set(shrinkAs.level, min);
    return min;
  }

  /**
   * Once `level`'s own search found it violated and a `witnessFrom` level's search did too: the
   * witness is shrunk against that weaker level (a part violating it violates `level` too, and it
   * shrinks further and faster: a lost update's five transactions where SI's own shrinking may
   * stop at twenty), then explained at `level`. Null when either search did not find a violation.
   */
  private witnessFromWeaker(level: Level): Verdict | null {
    const from = levelRow(level).witnessFrom;
    if (from.length === 0) return null;
    const own = this.search(level);
    if (own.kind !== 'violated') return null;
    for (const k of from) if (this.search(k).kind === 'violated') return this.strongVerdict(level, own, { level }, { level: k });
    return null;
  }

  /**
   * The table's `decideFirst` levels, in order: a stronger one that holds (its search alone) or a
   * weaker one that is violated decides `level`; then the `useKnown` levels' verdicts, if computed.
   */
  private shortcut(level: Level): Verdict | null {
    const row = levelRow(level);
    for (const f of row.decideFirst) {
      if (weakerOrEqual(level, f)) {
        if (!this.knownViolated(f) && this.search(f).kind === 'consistent') return this.impliedByHolding(level, this.verdictOf(f));
      } else if (weakerOrEqual(f, level)) {
        const v = this.verdictOf(f);
        if (v.consistent === false) return implied(level, v);
      }
    }
    for (const k of row.useKnown) {
      const v = this.strong.get(k);
      if (v?.consistent === true && weakerOrEqual(level, k)) return this.impliedByHolding(level, v);
      if (v?.consistent === false && weakerOrEqual(k, level)) return implied(level, v);
    }
    return null;
  }

  /**
   * `level` holds on the register keys because the stronger level of `v` does. On a history with
   * list-append keys the report's verdict of that level also needs the list analysis (analyze.ts
   * joins both): "implied: SER holds" is said only when SER holds there too. Otherwise the order
   * the stronger level's search found still satisfies `level` on the register keys, so the verdict
   * is decided by that search (and, on the list keys, by the list analysis), not implied by SER.
   */
  private impliedByHolding(level: Level, v: Verdict): Verdict {
    const source = v.basis.kind === 'implied' ? v.basis.from : (v.level as Level);
    const onLists = listVerdictOf(this.checks.h, source);
    if (onLists === undefined || onLists === true) return implied(level, v);
    return decided(level, true, null, undefined, v.order);
  }

  /** Whether a verdict computed so far already shows that `level` is violated (a weaker-or-equal level is). */
  private knownViolated(level: Level): boolean {
    for (const [l, v] of this.strong) if (v.consistent === false && weakerOrEqual(l, level)) return true;
    return false;
  }

  /** One search per strong level, shared by its verdict and the lattice shortcuts. */
  /**
   * The budget of a strong search starting now: its own milliseconds, and within the shared
   * budget when there is one (it starts with the first search, so the weak levels' time is not
   * taken from it). A search that finds it spent still runs its one-pass conditions (a lost
   * update decides PSI, SI and SER at once), then stops at its first look at the clock.
   */
  searchBudget(): StrongBudget {
    const total = this.options.strongTotalMillis;
    if (total === undefined) return this.strongBudget;
    this.shared ??= sharedBudgetFromNow(total);
    return { ...this.strongBudget, shared: this.shared };
  }

  private search(level: Level): StrongResult {
    let r = this.searches.get(level);
    if (!r) {
      r = checkStrong(this.checks.ctx, () => level, this.searchBudget());
      this.searches.set(level, r);
    }
    return r;
  }

  private weakVerdict(rule: Rule, level: Level): Verdict {
    let v = this.weak.get(rule);
    if (!v) {
      v = this.decideWeak(rule);
      this.weak.set(rule, v);
    }
    return v.level === level ? v : { ...v, level };
  }

  private decideWeak(rule: Rule): Verdict {
    const { ctx, readWitness } = this.checks;
    if (rule === 'CC' && !ctx.causal) return decided(rule, false, this.checks.causality(), CYCLE_IN_SO_WR);
    if (rule !== 'RC') {
      // RA's rule is part of CC's (wr ⊆ happens-before): the same two-cycle violates both.
      const v = this.nonRepeatable(rule);
      if (v) return v;
    }
    const edges = forcedEdges(ctx, rule, null);
    if (!edges) return undecided(rule, TOO_MANY_CLOCKS);
    // The saturations poll stop (ctx.stop) and end early: their edges are then a part, which proves nothing.
    if (ctx.stopped()) return undecided(rule, STOPPED_REASON);
    this.forced.set(rule, edges);
    const r = checkCycles(ctx, edges, this.checks.maxWitnesses, () => rule);
    if (!r.acyclic && !ctx.causal) return decided(rule, false, this.checks.causality(), CYCLE_IN_SO_WR);
    const witness = r.cycles.length > 0 ? this.checks.toWitness(rule, r.cycles[0], r.view) : this.checks.fallbackWitness();
    this.extraWitnesses.set(rule, r.cycles.slice(1).map((c) => this.checks.toWitness(rule, c, r.view)));
    return decided(rule, r.acyclic && readWitness === null, witness);
  }

  /**
   * RA's or CC's verdict when some transaction reads a key from two writers: violated, its witness
   * the two-cycle of co edges that read forces (non-repeatable.ts), the least any witness weighs;
   * null otherwise. A cycle in so ∪ wr is still reported first, as the full check does.
   */
  private nonRepeatable(rule: 'RA' | 'CC'): Verdict | null {
    const { ctx, h, rf } = this.checks;
    const found = nonRepeatableCycles({ h, rf, applies: null }, this.checks.maxWitnesses);
    if (found.cycles.length === 0) return null;
    if (this.options.keepForced !== false) {
      const edges = forcedEdges(ctx, rule, null);
      if (edges && !ctx.stopped()) this.forced.set(rule, edges);
    }
    if (!ctx.causal) return decided(rule, false, this.checks.causality(), CYCLE_IN_SO_WR);
    const view = ctx.base.withExtra(found.edges);
    const [first, ...more] = found.cycles.map(([a, b]) => this.checks.toWitness(rule, Int32Array.of(view.extraBase + a, view.extraBase + b), view));
    this.extraWitnesses.set(rule, more);
    return decided(rule, false, first);
  }

  /** A strong (or mixed) search result as a verdict; a violation is shrunk and explained. */
  /** shrinkAs: the target the witness is shrunk against (a weaker level's, see witnessFromWeaker); explained at `target`. */
  strongVerdict(name: Level | 'mixed', r: StrongResult, target: Target, shrinkAs: Target = target): Verdict {
    if (r.kind === 'consistent') return decided(name, true, null, undefined, r.order);
    if (r.kind === 'unknown') return undecided(name, `${name === 'mixed' ? 'the mixed verdict' : name} could not be decided: ${r.reason}`);
    const { h, rf } = this.checks;
    const min = this.part(shrinkAs);
    if (min.stopped) return undecided(name, STOPPED_REASON);
    // Explained on the sub-history, reported with the ids of the file's transactions and operations.
    const w = liftWitness(explainStrong(name, min.h, min.rf, levelOfTarget(min.h, target), MAX_ORDERS_EXPLAINED), min);
    // A small history's own forced cycle, when it ranks better (fewer so ∪ wr edges, then shorter).
    const whole = wholeHistoryCycle(name, h, rf, levelOfTarget(h, target));
    if (whole && (w.edges.length === 0 || ranksBefore(whole.edges, w.edges))) return decided(name, false, whole);
    return decided(name, false, w);
  }

  /**
   * The smallest part of the history found violating each strong level whose witness was shrunk
   * (its ids the part's own; names and spans the history's): where a witness export starts.
   */
  violatingParts(): ReadonlyMap<Level, Minimized> {
    return this.parts;
  }

  /** Whether CC's forced edges can be computed (false: CC-based checks are undecided). */
  clocksAvailable(): boolean {
    return this.checks.ctx.ccDecidable;
  }
}
