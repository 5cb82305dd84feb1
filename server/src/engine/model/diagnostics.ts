// Findings as data: stable codes, severities and offset ranges; rendering to LSP shapes happens at the edges.

import { LEVELS, type LevelName } from '../levels/levels.ts';
import { ANOMALIES, type AnomalyCode } from '../listappend/anomaly-table.ts';

export type Severity = 'error' | 'warning' | 'information';

export type DiagnosticCode =
  | 'syntax' | 'duplicate-name' | 'undefined-transaction' | 'unknown-level'
  | 'thin-air' | 'aborted-read' | 'intermediate-read' | 'future-read' | 'own-write'
  | 'ambiguous-read' | 'causality-cycle' | 'duplicate-write'
  | LevelName | 'SSER' | 'mixed'
  | 'mixed-key' | AnomalyCode
  | 'not-checked' | 'expectation-failed';

/** Every diagnostic code once (SARIF's rules): the input's, the levels (their table), the list-append anomalies (theirs), the checker's own. */
export const DIAGNOSTIC_CODES: readonly DiagnosticCode[] = [...new Set<DiagnosticCode>([
  'syntax', 'duplicate-name', 'undefined-transaction', 'unknown-level',
  'thin-air', 'aborted-read', 'intermediate-read', 'future-read', 'own-write',
  'ambiguous-read', 'causality-cycle', 'duplicate-write',
  ...LEVELS, 'SSER', 'mixed', 'mixed-key', ...ANOMALIES.map((a) => a.code),
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
