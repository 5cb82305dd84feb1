// The mixed verdict: each transaction at its own tag, untagged ones at the file's `level` (SER without one).

import { EdgeList } from '../model/edges.ts';
import type { History } from '../model/history.ts';
import { isWeakLevel, levelById, levelId, levelRow, LEVELS, RULES, type Level, type Rule } from '../levels/levels.ts';
import { checkStrong } from '../strong/strong-check.ts';
import type { Directives } from '../syntax/hist-parser.ts';
import { checkCycles, mixedForcedEdges } from '../weak/level-check.ts';
import { levelOfTarget, type Target } from '../witness/violation.ts';
import { TOO_MANY_CLOCKS, type LevelVerdicts } from './homogeneous.ts';
import { decided, pending, renamed, STOPPED_REASON, undecided, type Verdict } from './verdict.ts';

export interface Mixed {
  verdict: Verdict;
  /** The one level every transaction runs at, when they all do (its findings then use that level's code). */
  uniform: Level | null;
  /** Per transaction, the level id it runs at (⊥: -1). */
  levels: Int8Array;
}

/** The level untagged transactions run at. */
export function fallbackLevel(d: Directives | null): Level {
  return d?.level?.level ?? 'SER';
}

/** The mixed verdict, or null when the file claims no level (no `level` directive, no tag). */
export function mixedVerdict(verdicts: LevelVerdicts, d: Directives | null, hasTags: boolean, deferStrong: boolean): Mixed | null {
  if (!d || !(d.level || hasTags)) return null;
  const { h } = verdicts.checks;
  const fallback = fallbackLevel(d);
  const levels = h.txnLevel.map((l, t) => (t === 0 ? -1 : l >= 0 ? l : levelId(fallback)));
  const used = new Set<Level>();
  for (let t = 1; t < h.txnCount; t++) used.add(levelById(levels[t]));
  const usedLevels = LEVELS.filter((l) => used.has(l));
  const uniform = usedLevels.length === 1 ? usedLevels[0] : usedLevels.length === 0 && d.level ? d.level.level : null;
  if (uniform) return { verdict: renamed(verdicts.verdictOf(uniform), 'mixed'), uniform, levels };
  return { verdict: perTransaction(verdicts, h, levels, fallback, usedLevels.some((l) => !isWeakLevel(l)), deferStrong), uniform: null, levels };
}

/** Several levels: the weak rules per transaction first (a necessary condition), then the strong search when a strong tag is used. */
function perTransaction(verdicts: LevelVerdicts, h: History, levels: Int8Array, fallback: Level, strongTags: boolean, deferStrong: boolean): Verdict {
  const { checks } = verdicts;
  const { ctx } = checks;
  if (!ctx.causal) return decided('mixed', false, checks.causality(), 'so ∪ wr has a cycle');
  const perRule = {} as Record<Rule, Uint8Array>;
  for (const r of RULES) perRule[r] = new Uint8Array(h.txnCount);
  for (let t = 1; t < h.txnCount; t++) perRule[levelRow(levelById(levels[t])).rule][t] = 1;
  const ruleOf = (t: number): Rule | null => RULES.find((rule) => perRule[rule][t] === 1) ?? null;
  const forced = mixedForcedEdges(ctx, perRule) ?? new EdgeList();
  if (ctx.stopped()) return undecided('mixed', STOPPED_REASON); // the saturations ended early: a part of the edges
  const r = checkCycles(ctx, forced, checks.maxWitnesses, ruleOf);
  const readerLevel = (t: number): string => levelById(levels[t]);
  const violated = !r.acyclic || checks.readWitness !== null;
  if (violated) return decided('mixed', false, r.cycles.length > 0 ? checks.toWitness('mixed', r.cycles[0], r.view, readerLevel) : checks.fallbackWitness());
  if (perRule.CC.includes(1) && !verdicts.clocksAvailable()) return undecided('mixed', TOO_MANY_CLOCKS);
  if (!strongTags) return decided('mixed', true, null);
  if (deferStrong) return pending('mixed');
  const target: Target = { level: 'mixed', fallback };
  return verdicts.strongVerdict('mixed', checkStrong(ctx, levelOfTarget(h, target), verdicts.searchBudget()), target);
}
