// Verdicts as ✓/✗/? states, the strongest level that holds, and the status-bar line.

import type { Verdict } from '../../engine/analyze.ts';
import { strongestHolding as strongestOf, type Level } from '../../engine/levels/levels.ts';
import type { LevelName, LevelState, StatusParams, VerdictState } from '../../protocol/shapes.ts';
import type { DocModel } from '../doc-model.ts';

export function stateOf(v: Verdict): VerdictState {
  return v.consistent === true ? 'ok' : v.consistent === false ? 'violated' : 'unknown';
}

export const MARK: Record<VerdictState, string> = { ok: '✓', violated: '✗', unknown: '?' };

export function levelStates(m: DocModel): LevelState[] {
  return m.levels.filter((v): v is Verdict & { level: Level } => v.level !== 'mixed').map((v) => ({ level: v.level, state: stateOf(v) }));
}

/** The strongest evaluated levels that hold: those with no stronger evaluated level holding (the engine's lattice). */
export function strongestHoldingAll(states: readonly LevelState[]): LevelName[] {
  return strongestOf(states.filter((s) => s.state === 'ok').map((s) => s.level));
}

/** One strongest level that holds, or null (PC when PC and PSI both are). */
export function strongestHolding(states: readonly LevelState[]): LevelName | null {
  return strongestHoldingAll(states)[0] ?? null;
}

export function summaryText(states: readonly LevelState[], mixed: VerdictState | null): string {
  const parts = states.map((s) => `${s.level} ${MARK[s.state]}`);
  if (mixed) parts.push(`mixed ${MARK[mixed]}`);
  return parts.join(' ');
}

export function doneStatus(m: DocModel): StatusParams {
  const levels = levelStates(m);
  const mixed = m.mixed ? stateOf(m.mixed) : null;
  return {
    uri: m.uri, version: m.version, state: 'done', levels, mixed, strongest: strongestHolding(levels), strongestAll: strongestHoldingAll(levels),
    text: summaryText(levels, mixed) + (m.snapshot.partial ? ' (partial: syntax errors)' : ''), partial: m.snapshot.partial, errors: m.snapshot.errors, warnings: m.snapshot.warnings, millis: Math.round(m.snapshot.millis),
  };
}
