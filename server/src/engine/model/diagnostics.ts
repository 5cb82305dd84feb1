// Findings as data: stable codes, severities and offset ranges; rendering to LSP shapes happens at the edges.

import { LEVELS, type LevelName } from '../levels/levels.ts';
import { ANOMALIES, type AnomalyCode } from '../listappend/anomaly-table.ts';

export type Severity = 'error' | 'warning' | 'information';

export type DiagnosticCode =
  | 'syntax' | 'duplicate-name' | 'undefined-transaction' | 'unknown-level'
  | 'thin-air' | 'aborted-read' | 'intermediate-read' | 'future-read' | 'own-write'
  | 'ambiguous-read' | 'causality-cycle' | 'duplicate-write'
  | LevelName | 'SSER' | 'mixed'
  | 'mixed-key' | 'append-order' | AnomalyCode
  | 'not-checked' | 'expectation-failed';

/** Every diagnostic code once (SARIF's rules): the input's, the levels (their table), the list-append anomalies (theirs), the checker's own. */
export const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = [...new Set<DiagnosticCode>([
  'syntax', 'duplicate-name', 'undefined-transaction', 'unknown-level',
  'thin-air', 'aborted-read', 'intermediate-read', 'future-read', 'own-write',
  'ambiguous-read', 'causality-cycle', 'duplicate-write',
  ...LEVELS, 'SSER', 'mixed', 'mixed-key', 'append-order', ...ANOMALIES.map((a) => a.code),
  'not-checked', 'expectation-failed',
])];

/** Half-open span of UTF-16 offsets into the source text. */
export interface Span {
  start: number;
  end: number;
}

export interface RelatedSpan {
  span: Span;
  message: string;
}

export interface Finding {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  span: Span;
  related: RelatedSpan[];
}

/** The codes that make a history inconsistent at every level. */
export const READ_CONSISTENCY_CODES: readonly DiagnosticCode[] = [
  'thin-air', 'aborted-read', 'intermediate-read', 'future-read', 'own-write', 'ambiguous-read', 'causality-cycle',
];

export function finding(code: DiagnosticCode, severity: Severity, message: string, span: Span, related: RelatedSpan[] = []): Finding {
  return { code, severity, message, span, related };
}

/**
 * Findings kept per code and stage: a million reads of one unwritten value must not hold a million
 * messages (a file of repeated writes once took 1 KB of memory per operation and V8 aborted). The
 * CLI prints as many per code (cli/cap-diagnostics.ts), and the editor fewer still in total.
 */
export const MAX_FINDINGS_PER_CODE = 100;

/** The words of the summary that stands for `count` findings of a code past the cap (also the CLI's, past its own). */
export function hiddenFindingsMessage(code: string, count: number): string {
  return `${count} more ${code} finding${count === 1 ? '' : 's'} in this file not shown (the first ${MAX_FINDINGS_PER_CODE} are)`;
}

/**
 * A stage's findings with at most MAX_FINDINGS_PER_CODE of each code kept; `done()` adds one per
 * code over the cap that counts the rest. `wants(code)` lets a hot loop skip building a message
 * nobody will read (the count goes on either way through `push`/`skip`).
 */
export class CappedFindings {
  private readonly list: Finding[] = [];
  private readonly counts = new Map<DiagnosticCode, number>();
  private readonly firstHidden = new Map<DiagnosticCode, { severity: Severity; span: Span }>();

  wants(code: DiagnosticCode): boolean {
    return (this.counts.get(code) ?? 0) < MAX_FINDINGS_PER_CODE;
  }

  push(f: Finding): void {
    const n = (this.counts.get(f.code) ?? 0) + 1;
    this.counts.set(f.code, n);
    if (n <= MAX_FINDINGS_PER_CODE) this.list.push(f);
    else if (n === MAX_FINDINGS_PER_CODE + 1) this.firstHidden.set(f.code, { severity: f.severity, span: f.span });
  }

  /** Counts one more finding of `code` without its text (only when wants(code) said no). */
  skip(code: DiagnosticCode, severity: Severity, span: Span): void {
    const n = (this.counts.get(code) ?? 0) + 1;
    this.counts.set(code, n);
    if (n === MAX_FINDINGS_PER_CODE + 1) this.firstHidden.set(code, { severity, span });
  }

  /** The kept findings in the order they came, then one summary per code over the cap. */
  done(): Finding[] {
    for (const [code, h] of this.firstHidden) this.list.push(finding(code, h.severity, hiddenFindingsMessage(code, (this.counts.get(code) as number) - MAX_FINDINGS_PER_CODE), h.span));
    return this.list;
  }
}
