// The human output of `isocheck check`: a verdict table, then each witness and each error.

import { LEVELS } from '../engine/levels/levels.ts';
import type { DiagnosticJson, FileReport, VerdictJson, WitnessJson } from '../engine/report.ts';
import type { ClaimedReport } from './claim.ts';
import { terminalSafe as safe } from './terminal-text.ts';

const MARK = (v: VerdictJson): string => (v.consistent === true ? '✓' : v.consistent === false ? '✗' : '?');

export function renderTable(reports: readonly FileReport[]): string {
  const levelNames = LEVELS.filter((l) => reports.some((r) => r.levels[l]));
  const withMixed = reports.some((r) => r.mixed);
  // List-append histories: the anomalies found, weakest first (docs/list-append.md), each code once
  // (a history may hold hundreds of one kind: the row stays as wide as the catalogue at most).
  const withAnomalies = reports.some((r) => r.anomalies !== undefined);
  const header = ['file', ...levelNames, ...(withMixed ? ['mixed'] : []), ...(withAnomalies ? ['anomalies'] : []), 'result'];
  const rows = reports.map((r) => [
    safe(r.file),
    ...levelNames.map((l) => (r.levels[l] ? MARK(r.levels[l]) : '')),
    ...(withMixed ? [r.mixed ? MARK(r.mixed) : ''] : []),
    ...(withAnomalies ? [r.anomalies === undefined ? '' : r.anomalies.length === 0 ? '–' : [...new Set(r.anomalies.map((a) => a.code))].join(' ')] : []),
    // PARTIAL: the file has syntax errors and its verdicts are for what parsed.
    r.partial ? `PARTIAL, ${result(r)}` : result(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => [...row[i]].length)));
  const line = (cells: string[]): string => cells.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function result(r: ClaimedReport): string {
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  const expectations = errors.filter((d) => d.code === 'expectation-failed').length;
  if (errors.length === 0 && r.claim?.consistent === null) return `${r.claim.level} (claimed) undecided`;
  // A file that yielded no transaction (a Jepsen history of nemesis events only) holds of nothing.
  if (errors.length === 0) return r.diagnostics.some((d) => d.code === 'not-checked' && d.severity === 'warning') ? 'nothing checked' : 'ok';
  if (expectations === errors.length) return `${expectations} expectation${expectations === 1 ? '' : 's'} failed`;
  return `${errors.length} error${errors.length === 1 ? '' : 's'}`;
}

/** The heading of a file's details: its name and title, escaped. */
export function renderHeading(r: FileReport): string {
  return `${safe(r.file)}${r.title ? ` — ${safe(r.title)}` : ''}`;
}

/** Witnesses (one block per distinct cycle, naming every level it refutes) and error lines. */
export function renderDetails(r: FileReport | ClaimedReport): string {
  const out: string[] = [];
  const byCycle = new Map<string, { levels: string[]; w: WitnessJson }>();
  const add = (name: string, v: VerdictJson | null): void => {
    if (!v || v.consistent !== false || !v.witness) return;
    const id = JSON.stringify(v.witness.cycle.map((e) => e.because)) + v.witness.message;
    const entry = byCycle.get(id);
    if (entry) entry.levels.push(name);
    else byCycle.set(id, { levels: [name], w: v.witness });
  };
  for (const [name, v] of Object.entries(r.levels)) add(name, v);
  add('mixed', r.mixed);
  for (const { levels, w } of byCycle.values()) {
    out.push(`  ${levels.join(', ')} violated${w.anomaly !== levels[0] && !levels.includes(w.anomaly) ? ` (${safe(w.anomaly)})` : ''}:`);
    for (const l of witnessLines(w)) out.push(`    ${l}`); // no spread: a cycle may have 200,000 edges, past the stack's arguments
  }
  // Undecided levels with their reason (a budget, a cap), one line per distinct reason: a `?` in
  // the table otherwise says nothing of why. A claimed level's reason is its not-checked warning below.
  const claimed = (r as ClaimedReport).claim;
  const byReason = new Map<string, string[]>();
  for (const [name, v] of Object.entries(r.levels)) {
    if (v.consistent !== null || !v.note || (claimed?.consistent === null && claimed.level === name)) continue;
    const names = byReason.get(v.note);
    if (names) names.push(name);
    else byReason.set(v.note, [name]);
  }
  for (const [why, names] of byReason) out.push(`  ${names.join(', ')} undecided: ${safe(why)}`);
  // not-checked warnings: a claimed level left undecided (claim.ts), or a file that yielded nothing to check (a Jepsen
  // history of nemesis events only); append-order: a list no database state can be, though no level breaks. A table
  // of ✓ must not hide any of them.
  for (const d of r.diagnostics) {
    if (d.severity === 'error' || (d.severity === 'warning' && (d.code === 'not-checked' || d.code === 'append-order'))) out.push(`  ${diagnosticLine(d)}`);
  }
  return out.join('\n');
}

/** A witness as lines: one per cycle edge, or the failing reads of each commit order, or the message. */
export function witnessLines(w: WitnessJson): string[] {
  const out: string[] = [];
  if (w.cycle.length === 0 && w.explanation && w.explanation.length > 0) {
    out.push(`no commit order works (${at(w.range.start)}):`);
    for (const line of w.explanation) out.push(`- ${safe(line)}`);
  } else if (w.cycle.length === 0) out.push(`${at(w.range.start)} ${safe(w.message)}`);
  for (const e of w.cycle) out.push(`${safe(e.from)} → ${safe(e.to)} [${e.kind}] ${safe(e.because)}  (${at(e.range.start)})`);
  return out;
}

function at(p: { line: number; character: number }): string {
  return `line ${p.line + 1}:${p.character + 1}`;
}

export function diagnosticLine(d: DiagnosticJson): string {
  return `${at(d.range.start)}: ${d.severity} [${d.code}] ${safe(d.message)}`;
}
