// The one place where engine findings (offset spans) become LSP diagnostics (ranges, severities, links).

// Type-only imports: this module runs in the analysis worker, which should not load the LSP libraries.
import type { Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity } from 'vscode-languageserver-protocol';
import type { Finding, Severity } from '../engine/model/diagnostics.ts';
import type { LineIndex } from '../engine/syntax/line-index.ts';
import { docLink } from '../engine/model/doc-links.ts';
import { DIAGNOSTIC_SOURCE } from '../protocol/commands.ts';

export { DIAGNOSTIC_SOURCE };

/** LSP's DiagnosticSeverity values (Error 1, Warning 2, Information 3). */
export const SEVERITY: Record<Severity, DiagnosticSeverity> = { error: 1, warning: 2, information: 3 };

/** docsBase: the URI of docs/anomalies.md (without fragment), or null when the docs are not around. */
export function toDiagnostic(f: Finding, lines: LineIndex, uri: string, docsBase: string | null): Diagnostic {
  const d: Diagnostic = {
    range: lines.range(f.span.start, f.span.end),
    severity: SEVERITY[f.severity],
    code: f.code,
    source: DIAGNOSTIC_SOURCE,
    message: f.message,
  };
  // The section anchors of anomalies.md are the codes in lower case (`## rc`, `## thin-air`); list-append codes link into list-append.md.
  if (docsBase) d.codeDescription = { href: docLink(docsBase, f.code) };
  if (f.related.length > 0) {
    d.relatedInformation = f.related.map((r): DiagnosticRelatedInformation => ({
      location: { uri, range: lines.range(r.span.start, r.span.end) },
      message: r.message,
    }));
  }
  return d;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2 };

/**
 * At most `max` findings, errors first, then in source order: a garbage file can yield hundreds
 * of thousands of findings, which no editor can show usefully. Returns the kept ones in source order.
 */
export function capFindings(findings: readonly Finding[], max: number): { kept: Finding[]; dropped: number } {
  if (findings.length <= max) return { kept: [...findings], dropped: 0 };
  const byRank = findings.map((f, i) => ({ f, i })).sort((x, y) => RANK[x.f.severity] - RANK[y.f.severity] || x.i - y.i);
  const kept = byRank.slice(0, max).sort((x, y) => x.i - y.i).map((x) => x.f);
  return { kept, dropped: findings.length - max };
}
