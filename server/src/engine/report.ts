// The JSON report of one file (the CLI contract): declared once here; the CLI, the editor's export and tests use it.

import type { Analysis, Verdict } from './analyze.ts';
import type { Finding } from './model/diagnostics.ts';
import type { Range } from './syntax/line-index.ts';
import type { Witness, WitnessEdgeKind } from './witness/witness.ts';
import type { VerdictBasis } from './verdicts/verdict.ts';

export interface EdgeJson {
  from: string;
  to: string;
  kind: WitnessEdgeKind;
  key: string | null;
  because: string;
  range: Range;
}

export interface WitnessJson {
  anomaly: string;
  message: string;
  range: Range;
  cycle: EdgeJson[];
  /** Strong levels without a forced cycle: per way to order the transactions left, the read that fails. */
  explanation?: string[];
}

export interface VerdictJson {
  consistent: boolean | null;
  /** Why: decided, implied by another level (`from`), pending, or undecided (`reason`). */
  basis?: VerdictBasis;
  witness?: WitnessJson;
  /** The basis in words. */
  note?: string;
}

export interface DiagnosticJson {
  code: string;
  /** 'hint' only in the editor's export (VS Code severities); the CLI never writes it. */
  severity: Finding['severity'] | 'hint';
  message: string;
  range: Range;
  relatedInformation?: { range: Range; message: string }[];
}

/** One `expect L ok|violated` line and the verdict it was compared with (`consistent` null: undecided). */
export interface ExpectationJson {
  level: string;
  expected: 'ok' | 'violated';
  consistent: boolean | null;
  range: Range;
}

export interface FileReport {
  file: string;
  title: string | null;
  /** Present when the file has syntax errors: the verdicts are for what parsed (all null when nothing did). */
  partial?: true;
  levels: Record<string, VerdictJson>;
  mixed: VerdictJson | null;
  /** List-append histories: each anomaly found, with its cycle (empty for lost-update). */
  anomalies?: AnomalyJson[];
  diagnostics: DiagnosticJson[];
  /** Present when the file has `expect` lines, in file order. */
  expectations?: ExpectationJson[];
}

export interface AnomalyJson {
  code: string;
  message: string;
  range: Range;
  transactions: string[];
  /** As a witness's edges, with one more kind: `rt` (real time, in the -realtime classes). */
  cycle: (Omit<EdgeJson, 'kind'> & { kind: EdgeJson['kind'] | 'rt' })[];
}

export function fileReport(file: string, a: Analysis): FileReport {
  const lines = a.lines;
  const range = (s: { start: number; end: number }): Range => lines.range(s.start, s.end);
  const names = a.history.names;
  const witness = (w: Witness): WitnessJson => {
    const out: WitnessJson = {
      anomaly: w.anomaly,
      message: w.message,
      range: range(w.span),
      cycle: w.edges.map((e) => ({
        from: names.txnName(e.from), to: names.txnName(e.to), kind: e.kind,
        key: e.key >= 0 ? names.keyName(e.key) : null, because: e.because, range: range(e.span),
      })),
    };
    if (w.explanation && w.explanation.length > 0 && w.edges.length === 0) out.explanation = w.explanation;
    return out;
  };
  const verdict = (v: Verdict): VerdictJson => {
    const out: VerdictJson = { consistent: v.consistent, basis: v.basis };
    if (v.witness) out.witness = witness(v.witness);
    if (v.note) out.note = v.note;
    return out;
  };
  const levels: Record<string, VerdictJson> = {};
  for (const v of a.levels) levels[v.level] = verdict(v);
  const anomalies = a.list?.anomalies.map((x): AnomalyJson => ({
    code: x.code, message: x.message, range: range(x.span), transactions: x.txns,
    cycle: x.cycle.map((e) => ({ from: e.from, to: e.to, kind: e.kind, key: e.key, because: e.because, range: range(e.span) })),
  }));
  const report: FileReport = {
    file,
    title: a.title,
    ...(a.partial ? { partial: true as const } : {}),
    levels,
    mixed: a.mixed ? verdict(a.mixed) : null,
    ...(anomalies ? { anomalies } : {}),
    diagnostics: a.findings.map((f) => {
      const d: DiagnosticJson = { code: f.code, severity: f.severity, message: f.message, range: range(f.span) };
      if (f.related.length > 0) d.relatedInformation = f.related.map((r) => ({ range: range(r.span), message: r.message }));
      return d;
    }),
  };
  if (a.expectations.length > 0) {
    report.expectations = a.expectations.map((e) => ({ level: e.level, expected: e.ok ? 'ok' : 'violated', consistent: e.consistent, range: range(e.span) }));
  }
  return report;
}

export function hasErrors(a: Analysis): boolean {
  return a.findings.some((f) => f.severity === 'error');
}
