// `--claim L`: the level the system under test claims; its violation is an error, its undecided verdict a warning.

import type { Level } from '../engine/levels/levels.ts';
import type { DiagnosticJson, FileReport, WitnessJson } from '../engine/report.ts';
import { MAX_RELATED } from '../engine/verdicts/related.ts';

/** What the claim came to in one file; `consistent` as in the verdict (null: undecided). */
export interface ClaimJson {
  level: Level;
  consistent: boolean | null;
}

export type ClaimedReport = FileReport & { claim?: ClaimJson };

const ORIGIN = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * Adds the claim to the report: a violated claimed level makes its findings errors (and adds one
 * at the witness when the level has none of its own, e.g. when it is implied by CC or the witness
 * search ran out); an undecided one adds a warning. Returns the claim's outcome.
 */
export function applyClaim(report: ClaimedReport, level: Level): ClaimJson {
  const v = report.levels[level];
  const claim: ClaimJson = { level, consistent: v ? v.consistent : null };
  report.claim = claim;
  if (claim.consistent === false) {
    let own = 0;
    for (const d of report.diagnostics) {
      if (d.code !== level) continue;
      d.severity = 'error';
      own++;
    }
    if (own === 0) {
      const w = v.witness;
      const why = w ? w.message : 'the witness search ran out before it found a cycle';
      // The witness's cycle as related information, as the level's own findings carry it (SARIF
      // makes it the result's related locations and code flow).
      const related = w ? relatedOf(w) : [];
      insert(report.diagnostics, {
        code: level, severity: 'error', message: `${level} violated (the claimed level): ${why}`, range: w ? w.range : ORIGIN,
        ...(related.length > 0 ? { relatedInformation: related } : {}),
      });
    }
  } else if (claim.consistent === null) {
    const why = v?.note ?? 'not evaluated';
    insert(report.diagnostics, { code: 'not-checked', severity: 'warning', message: `the claimed level ${level} is undecided: ${why}`, range: ORIGIN });
  }
  return claim;
}

/** A witness's edges as related information, at most MAX_RELATED and one that counts the rest (as the engine's findings). */
function relatedOf(w: WitnessJson): { range: DiagnosticJson['range']; message: string }[] {
  const out = w.cycle.slice(0, MAX_RELATED).map((e) => ({ range: e.range, message: `${e.kind}: ${e.because}` }));
  if (w.cycle.length > MAX_RELATED) {
    out.push({ range: w.range, message: `… and ${w.cycle.length - MAX_RELATED} more edges of this ${w.cycle.length}-edge cycle (all in the verdict's witness)` });
  }
  return out;
}

/** Keeps diagnostics in source order, as the engine sorts them. */
function insert(list: DiagnosticJson[], d: DiagnosticJson): void {
  const before = (a: DiagnosticJson): boolean =>
    a.range.start.line > d.range.start.line || (a.range.start.line === d.range.start.line && a.range.start.character > d.range.start.character);
  const i = list.findIndex(before);
  if (i < 0) list.push(d);
  else list.splice(i, 0, d);
}
