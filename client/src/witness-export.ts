// Converts the server's analysis into the CLI's JSON report shape (history-dsl.md), so exports and `isocheck check --json` agree.

import type { AnalysisResult, TransactionJson, VerdictJson as ProtocolVerdictJson, VerdictState } from '../../server/src/protocol/shapes.ts';
import type { DiagnosticJson, EdgeJson, FileReport, VerdictJson } from '../../server/src/engine/report.ts';

// The report shape is declared once, in the engine (report.ts): the CLI's `--json` and this export agree by type.
export type ExportedEdge = EdgeJson;
export type ExportedVerdict = VerdictJson;
export type ExportedDiagnostic = DiagnosticJson;
/** The CLI contract's per-file object: `levels` holds exactly the levels evaluated, `mixed` is null without tags. */
export type ExportedReport = FileReport;

const CONSISTENT: Record<VerdictState, boolean | null> = { ok: true, violated: false, unknown: null };

export function exportReport(file: string, a: AnalysisResult, diagnostics: ExportedDiagnostic[]): ExportedReport {
  // Witness edges name transactions by id; the CLI names them as written in the file (⊥ is "init").
  const name = (id: number): string => txnName(a.transactions[id], id);
  const verdict = (v: ProtocolVerdictJson): ExportedVerdict => {
    const out: ExportedVerdict = { consistent: CONSISTENT[v.state] };
    if (v.witness) {
      out.witness = {
        anomaly: v.witness.anomaly,
        message: v.witness.message,
        range: v.witness.range,
        cycle: v.witness.cycle.map((e) => ({ from: name(e.from), to: name(e.to), kind: e.kind, key: e.key, because: e.because, range: e.range })),
      };
    }
    if (v.note !== null) out.note = v.note;
    return out;
  };
  const levels: Record<string, ExportedVerdict> = {};
  for (const v of a.levels) levels[v.level] = verdict(v);
  return { file, title: a.title, levels, mixed: a.mixed ? verdict(a.mixed) : null, diagnostics };
}

/** How many witness cycles a report holds (for the confirmation message). */
export function witnessCount(r: ExportedReport): number {
  return [...Object.values(r.levels), ...(r.mixed ? [r.mixed] : [])].filter((v) => v.witness).length;
}

function txnName(t: TransactionJson | undefined, id: number): string {
  if (!t) return `#${id}`;
  return t.session < 0 ? 'init' : t.name;
}
