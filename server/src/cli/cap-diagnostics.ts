// Caps a report's diagnostics per code (a million reads of one thin-air value must not print a million lines).

import type { DiagnosticJson, FileReport } from '../engine/report.ts';
import { hiddenFindingsMessage, MAX_FINDINGS_PER_CODE } from '../engine/model/diagnostics.ts';

/**
 * Diagnostics shown per code and file: the engine keeps as many of each stage's findings (and
 * counts the rest in one), the readers as many syntax problems; a code found by several stages is capped here.
 */
export const MAX_DIAGNOSTICS_PER_CODE = MAX_FINDINGS_PER_CODE;

/**
 * Keeps the first MAX_DIAGNOSTICS_PER_CODE diagnostics of each code (in source order) and adds one
 * of the same code and severity at the first one dropped, counting the rest (a single extra one is kept). The exit status is
 * decided before this, from all of them.
 */
export function capDiagnostics(report: FileReport): void {
  const seen = new Map<string, number>();
  const hidden = new Map<string, { first: DiagnosticJson; count: number }>();
  const kept: DiagnosticJson[] = [];
  for (const d of report.diagnostics) {
    const n = (seen.get(d.code) ?? 0) + 1;
    seen.set(d.code, n);
    if (n <= MAX_DIAGNOSTICS_PER_CODE) {
      kept.push(d);
      continue;
    }
    const h = hidden.get(d.code);
    if (h) h.count++;
    else {
      hidden.set(d.code, { first: d, count: 1 });
      kept.push(d); // replaced below by the summary, in the first dropped one's place
    }
  }
  if (hidden.size === 0) return;
  report.diagnostics = kept.map((d) => {
    const h = hidden.get(d.code);
    // One over the cap stays as it is: it may be the parser's own count of the rest.
    if (!h || h.first !== d || h.count === 1) return d;
    return { code: d.code, severity: d.severity, message: hiddenFindingsMessage(d.code, h.count), range: d.range };
  });
}
