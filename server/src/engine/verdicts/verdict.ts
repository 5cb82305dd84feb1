// A verdict and its typed basis: decided, implied by another level, pending, or undecided with a reason.

import { isWeakLevel, type Level } from '../levels/levels.ts';
import type { Witness } from '../witness/witness.ts';

/**
 * Why a verdict is what it is. Control flow reads this, never `note` (which is for people).
 * 'implied': another level's verdict decides this one through the lattice (`from`);
 * 'pending': left for a later, full analysis (AnalyzeOptions.deferStrong);
 * 'undecided': a budget ran out or the input is too large for the method (`reason`).
 */
export type VerdictBasis =
  | { kind: 'decided'; detail?: string }
  | { kind: 'implied'; from: Level; detail?: string }
  | { kind: 'pending' }
  | { kind: 'undecided'; reason: string };

export interface Verdict {
  /** A level name, or 'mixed' for the per-transaction verdict. */
  level: Level | 'mixed';
  /** null: not decided (basis 'pending' or 'undecided'). */
  consistent: boolean | null;
  witness: Witness | null;
  basis: VerdictBasis;
  /** The basis in words for people (null for a plain decided verdict): derived from `basis`, never parsed. */
  note: string | null;
  /** A commit order that satisfies the level (strong and mixed verdicts that hold, when one was built). */
  order?: Int32Array;
}

export function decided(level: Level | 'mixed', consistent: boolean, witness: Witness | null, detail?: string, order?: Int32Array): Verdict {
  const basis: VerdictBasis = detail === undefined ? { kind: 'decided' } : { kind: 'decided', detail };
  return { level, consistent, witness, basis, note: detail ?? null, ...(order ? { order } : {}) };
}

/** `level`'s verdict as decided by `from`'s (which holds, or is violated, and is comparable to it). */
export function implied(level: Level | 'mixed', from: Verdict): Verdict {
  const source = from.basis.kind === 'implied' ? from.basis.from : (from.level as Level);
  // How a strong source was decided, when that is worth saying (PSI decided on a stronger level's
  // part, verdicts/homogeneous.ts): the witness borrowed is that decision's, so the basis says so too.
  const detail = !isWeakLevel(source) && 'detail' in from.basis ? from.basis.detail : undefined;
  return {
    level, consistent: from.consistent, witness: from.witness, basis: { kind: 'implied', from: source, ...(detail === undefined ? {} : { detail }) },
    note: `implied: ${source} ${from.consistent ? 'holds' : 'is violated'}`, ...(from.order ? { order: from.order } : {}),
  };
}

export function pending(level: Level | 'mixed'): Verdict {
  return { level, consistent: null, witness: null, basis: { kind: 'pending' }, note: 'pending: the strong levels are being checked' };
}

/** The reason a verdict gives when the caller's stop ended its check (AnalyzeOptions.stop). */
export const STOPPED_REASON = 'not decided: the analysis was stopped';

export function undecided(level: Level | 'mixed', reason: string): Verdict {
  return { level, consistent: null, witness: null, basis: { kind: 'undecided', reason }, note: reason };
}

/** The same verdict under another name (the mixed verdict of a file whose transactions all run at one level). */
export function renamed(v: Verdict, level: Level | 'mixed'): Verdict {
  return { ...v, level };
}
