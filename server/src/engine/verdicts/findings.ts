// The findings verdicts produce: level violations at their reads, a violated claim always an error, undecided notes, expectations.

import { finding, READ_CONSISTENCY_CODES, type DiagnosticCode, type Finding, type Severity, type Span } from '../model/diagnostics.ts';
import type { History } from '../model/history.ts';
import { isWeakLevel, levelById, levelRow, LEVELS, type Level } from '../levels/levels.ts';
import { opSpan, txnSpan } from '../model/reads-from.ts';
import type { Directives } from '../syntax/hist-parser.ts';
import type { Witness } from '../witness/witness.ts';
import { anomalyHeadline } from '../witness/patterns.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import type { LevelVerdicts } from './homogeneous.ts';
import type { Mixed } from './mixed.ts';
import { fallbackLevel } from './mixed.ts';
import { clip, MAX_RELATED, relatedOf } from './related.ts';
import type { Verdict } from './verdict.ts';

const ZERO: Span = { start: 0, end: 0 };

/** Reports witnesses at their reads, each finding once (a read forcing edges of several witnesses gets one per sentence). */
class Reporter {
  private readonly reported = new Set<string>();
  constructor(private readonly h: History, private readonly rf: ReadsFrom, private readonly findings: Finding[], private readonly fallback: Level) {}

  /** Findings added for w (-1: a read-consistency or causality witness, reported at its reads already). */
  report(code: DiagnosticCode, severity: Severity, w: Witness): number {
    if (w.anomaly === 'causality-cycle' || READ_CONSISTENCY_CODES.includes(w.anomaly as DiagnosticCode)) return -1;
    const name = code === 'mixed' ? 'mixed levels' : code;
    const { h, fallback } = this;
    const levelOf = code === 'mixed' ? (t: number): Level => (h.txnLevel[t] >= 0 ? levelById(h.txnLevel[t]) : fallback) : (): Level => code as Level;
    // The pattern's name first (docs/anomalies.md), then the precise edge as before.
    const headline = anomalyHeadline(h, this.rf, w, levelOf, code === 'mixed' ? 'mixed' : code);
    const lead = headline.endsWith(' violation') ? `${name} violated: ` : `${headline} — `;
    let added = 0;
    let first: Span | null = null;
    const at = (span: Span, because: string): void => {
      const id = `${code}:${span.start}:${span.end}:${because}`;
      if (this.reported.has(id)) return;
      this.reported.add(id);
      added++;
      // A long cycle goes out in full once; the other findings point there (output linear in the cycle).
      const related = first === null || w.edges.length <= MAX_RELATED ? relatedOf(w) : [{ span: first, message: `the ${w.edges.length}-edge witness, reported here in full` }];
      first ??= span;
      this.findings.push(finding(code, severity, `${lead}${because}`, span, related));
    };
    // At the reads whose axiom forced an inferred edge; for a strong level without such an
    // edge, at the reads that fail in the remaining commit orders.
    const forcing = w.edges.filter((e) => e.kind === 'co' || e.kind === 'rw' || e.kind === 'ww');
    for (const e of forcing) at(e.span, e.because);
    if (forcing.length === 0) for (const o of w.readOps ?? []) at(opSpan(this.h, o), clip(w.message));
    return added;
  }
}

/** Level findings: errors for the claimed (mixed) level, information for the other levels evaluated. */
export function levelFindings(verdicts: LevelVerdicts, levels: readonly Verdict[], mixed: Mixed | null, d: Directives | null): void {
  const { h, findings, soften } = verdicts.checks;
  const reporter = new Reporter(h, verdicts.checks.rf, findings, fallbackLevel(d));
  const claimed = mixed?.verdict;
  // A violated claim is always an error (issue 9): at the claim itself when no read can carry it.
  if (claimed?.consistent === false) {
    const code: DiagnosticCode = mixed?.uniform ?? 'mixed';
    const added = claimed.witness ? reporter.report(code, soften('error'), claimed.witness) : 0;
    if (added === 0) {
      const name = code === 'mixed' ? 'mixed levels' : code;
      // A named anomaly that points at no read (a list-append lost update) is stated as it is; a
      // commit-order witness without such reads is one the work budget could not shrink.
      const w = claimed.witness;
      const why = w && !(LEVELS as readonly string[]).includes(w.anomaly)
        ? `${name} violated: ${clip(w.message)}`
        : `${name} violated (the witness search ran out of its budget before it found a small witness): ${w ? clip(w.message) : 'no witness was built'}`;
      findings.push(finding(code, soften('error'), why,
        firstMention(h, d, [...LEVELS]) ?? ZERO, claimed.witness ? relatedOf(claimed.witness) : []));
    }
  }
  for (const v of levels) {
    if (v.consistent !== false || !v.witness || v.level === 'mixed' || v.level === mixed?.uniform) continue;
    // An implied verdict shares its witness with the level it comes from: reported there when that
    // level is reported (and violated) too, else here (`--level SER` on a history that breaks CC);
    // here as well when the file names the level in `check` (spec: their violations are reported).
    const basis = v.basis;
    const named = d?.checks.some((c) => c.level === v.level) ?? false;
    if (basis.kind === 'implied' && !named && levels.some((x) => x.level === basis.from && x.consistent === false)) continue;
    reporter.report(v.level, 'information', v.witness);
    if (isWeakLevel(v.level)) for (const w of verdicts.extraWitnesses.get(levelRow(v.level).rule) ?? []) reporter.report(v.level, 'information', w);
  }
}

/** Levels asked for (by the file or the caller) but not decided: one note per file, at the first mention. */
export function undecidedFindings(h: History, findings: Finding[], levels: readonly Verdict[], mixed: Verdict | null, asked: ReadonlySet<Level>, d: Directives | null): void {
  const undecided = [...levels.filter((v) => asked.has(v.level as Level)), ...(mixed ? [mixed] : [])].filter((v) => v.basis.kind === 'undecided');
  if (undecided.length === 0) return;
  const names = [...new Set(undecided.map((v) => (v.level === 'mixed' ? strongOf(h, d) : [v.level])).flat())];
  findings.push(finding('not-checked', 'information',
    `${names.join(', ')}: not decided within the search budget (${undecided.map((v) => v.note).join('; ')})`, firstMention(h, d, names) ?? ZERO));
}

/** An `expect L ok|violated` line and the verdict it was compared with (null: undecided). */
export interface Expectation {
  level: Level | 'SSER';
  ok: boolean;
  span: Span;
  consistent: boolean | null;
}

/** Expectations decide files that have them: a failed one is an error at its `expect` line. Returns each with its verdict. */
export function expectationFindings(verdicts: LevelVerdicts, d: Directives | null): Expectation[] {
  const out: Expectation[] = [];
  for (const e of d?.expects ?? []) {
    const v = verdicts.verdictOf(e.level);
    out.push({ level: e.level, ok: e.ok, span: e.span, consistent: v.consistent });
    if (v.consistent === null) continue; // covered by the not-checked note
    if (v.consistent === e.ok) continue;
    const why = v.consistent ? 'it holds' : `it is violated: ${clip(v.witness?.message ?? '')}`;
    verdicts.checks.findings.push(finding('expectation-failed', 'error', `expected ${e.level} ${e.ok ? 'ok' : 'violated'}, but ${why}`, e.span, v.witness ? relatedOf(v.witness) : []));
  }
  return out;
}

/** The strong levels the mixed verdict involves. */
function strongOf(h: History, d: Directives | null): Level[] {
  const out = new Set<Level>();
  const fallback = fallbackLevel(d);
  for (let t = 1; t < h.txnCount; t++) {
    const l = h.txnLevel[t] >= 0 ? levelById(h.txnLevel[t]) : fallback;
    if (!isWeakLevel(l)) out.add(l);
  }
  return [...out];
}

/** Where the file first asks for one of `levels`: a directive, or a transaction's tag. */
function firstMention(h: History, d: Directives | null, levels: Level[]): Span | null {
  const spans: Span[] = [];
  for (const x of [d?.level, ...(d?.checks ?? []), ...(d?.expects ?? [])]) if (x && levels.includes(x.level)) spans.push(x.span);
  let firstTag = -1;
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnLevel[t] < 0) continue;
    if (firstTag < 0 || txnSpan(h, t).start < txnSpan(h, firstTag).start) firstTag = t;
    if (levels.includes(levelById(h.txnLevel[t]))) spans.push(txnSpan(h, t));
  }
  // Untagged transactions run at SER without a level directive: point at the first tag then.
  if (spans.length === 0 && firstTag >= 0) spans.push(txnSpan(h, firstTag));
  return spans.length > 0 ? spans.reduce((a, b) => (a.start <= b.start ? a : b)) : null;
}
