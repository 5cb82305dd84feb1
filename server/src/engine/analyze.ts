// The whole analysis of one history, as a pipeline: read → read consistency → homogeneous verdicts → mixed verdict → findings.

import { finding, type Finding, type Severity, type Span } from './model/diagnostics.ts';
import type { EdgeList } from './model/edges.ts';
import { OP_READ, OP_WRITE, type History } from './model/history.ts';
import type { ReadsFrom } from './model/reads-from.ts';
import { DEFAULT_LEVELS, levelById, LEVELS, levelRow, type Level, type Rule } from './levels/levels.ts';
import { readPlume } from './readers/plume-reader.ts';
import { parseHist, type Directives } from './syntax/hist-parser.ts';
import { LineIndex } from './syntax/line-index.ts';
import { Checks } from './verdicts/checks.ts';
import { expectationFindings, levelFindings, undecidedFindings, type Expectation } from './verdicts/findings.ts';
import { LevelVerdicts } from './verdicts/homogeneous.ts';
import { mixedVerdict } from './verdicts/mixed.ts';
import { readStage, type ReadStage, type WrittenHistory } from './verdicts/read-stage.ts';
import { decided, implied, STOPPED_REASON, undecided, type Verdict } from './verdicts/verdict.ts';
import { readJepsenEdn } from './readers/edn-reader.ts';
import { readJepsenJson } from './readers/json-events-reader.ts';
import { utf8 } from './util/utf8.ts';
import { hasListOps } from './listappend/infer.ts';
import { analyzeListAppend, type ListAnalysis } from './listappend/list-analysis.ts';
import { anomalyExpectations, breaksClaim, claimedListLevels, listUndecidedWhy, listWitness, mixedListLevels } from './listappend/list-verdicts.ts';
import type { ListLevel } from './listappend/anomaly-table.ts';

export type { Verdict, VerdictBasis } from './verdicts/verdict.ts';
export type { Expectation } from './verdicts/findings.ts';
export type { WrittenHistory } from './verdicts/read-stage.ts';

export interface Analysis {
  history: History;
  /** Positions of the source, for turning spans into line/character ranges. */
  lines: LineIndex;
  readsFrom: ReadsFrom;
  title: string | null;
  /** Homogeneous verdicts for the levels evaluated, weakest first. */
  levels: Verdict[];
  mixed: Verdict | null;
  findings: Finding[];
  /** Inferred co edges per rule, for editor features (hover: the edges a read forced). */
  forced: Map<Rule, EdgeList>;
  /** Per transaction, the level id it runs at in the mixed verdict (null without one). */
  mixedLevels: Int8Array | null;
  /** The source has syntax errors: the verdicts are for what parsed (none when nothing did). */
  partial: boolean;
  /** The list-append analysis (anomalies, version orders) when the history has list operations. */
  list: ListAnalysis | null;
  /** The file's `expect` lines with the verdict each was compared with (null: undecided). */
  expectations: Expectation[];
  /** The history as written when `history` (what was checked) is less of it, for editors; else null. */
  written: WrittenHistory | null;
  /** Per strong level found violated, the smallest part of the history found that violates it (LevelVerdicts.violatingParts). */
  violatingParts: ReadonlyMap<Level, { h: History; rf: ReadsFrom }>;
}

export interface AnalyzeOptions {
  /**
   * Homogeneous levels to evaluate; default the table's default set (the seven), plus the levels
   * the file names (level, tags, check, expect) and SSER when transactions have real times.
   */
  levels?: readonly Level[];
  maxWitnesses?: number;
  /** Milliseconds each strong-level search may take before its verdict is undecided (default 10000). */
  strongMillis?: number;
  /**
   * Milliseconds all strong-level searches of this analysis may take together, from the first
   * one's start (default: no such limit, each has strongMillis). The CLI's default run on a large
   * input sets it (implicitStrongBudget): a level decided early leaves the rest to the others.
   */
  strongTotalMillis?: number;
  /** Work units spent shrinking each strong-level violation to a minimal sub-history (steps, not time: deterministic). */
  witnessWork?: number;
  /**
   * Leave the strong-level searches for later: strong levels and a mixed verdict with strong tags
   * are pending unless CC already decides them. For a quick first answer in editors.
   */
  deferStrong?: boolean;
  /**
   * Polled by the long searches, the RC/RA/CC saturations and between the stages: true abandons
   * every check from then on (its verdict undecided), e.g. on cancellation; verdicts decided before stand.
   */
  stop?: () => boolean;
  /** Told as each level's verdict is about to be computed (`done` of `total` levels), for progress displays. */
  onProgress?: (stage: string, done: number, total: number) => void;
  /** Plume files: whether a value of 0 is the initial value ('zero', default) or an ordinary one ('none'). */
  plumeInit?: 'zero' | 'none';
  /** Keep the forced co edges of every weak rule in Analysis.forced (default true; false skips saturations a verdict does not need). */
  keepForced?: boolean;
}

/** A history as a reader returns it (readers/): what the pipeline starts from. */
export interface ReadSource {
  history: History;
  lines: LineIndex;
  /** The reader's own findings (syntax, names). */
  findings: Finding[];
  /** `.hist` directives (title, level, check, expect); null for formats without them. */
  directives?: Directives | null;
  /** Whether any transaction carries its own level tag. */
  hasTags?: boolean;
  /** Where the first list-append operation stands, if any: the list-append analysis runs then. */
  firstListOp?: Span | null;
}

export function analyzeHistText(text: string, options: AnalyzeOptions = {}): Analysis {
  const p = parseHist(text);
  return analyzeSource({ history: p.history, lines: LineIndex.ofText(text), findings: p.findings, directives: p.directives, hasTags: p.hasTags, firstListOp: p.firstListOp }, options);
}

export function analyzePlumeBytes(bytes: Uint8Array, options: AnalyzeOptions = {}): Analysis {
  const p = readPlume(bytes, { init: options.plumeInit });
  return analyzeSource({ history: p.history, lines: p.lines, findings: p.findings }, options);
}

/** Jepsen/Elle histories: EDN (one map per line, or a vector) or the same events as JSON lines. */
export function analyzeJepsenBytes(bytes: Uint8Array | string, format: 'edn' | 'json', options: AnalyzeOptions = {}): Analysis {
  const p = typeof bytes === 'string' ? readJepsenJson(bytes) : format === 'edn' ? readJepsenEdn(bytes) : readJepsenJson(utf8(bytes, 0, bytes.length));
  const firstListOp = hasListOps(p.history) ? { start: 0, end: 0 } : null;
  return analyzeSource({ history: p.history, lines: p.lines, findings: p.findings, firstListOp }, options);
}

/** The pipeline over an already-read source; each stage is a function of its own (verdicts/). */
export function analyzeSource(src: ReadSource, options: AnalyzeOptions = {}): Analysis {
  const d = src.directives ?? null;
  /** With `expect` lines (levels or anomalies) only failed expectations (and syntax) are errors: the file is a regression test. */
  const regression = (d?.expects.length ?? 0) > 0 || (d?.anomalyExpects.length ?? 0) > 0;
  const soften = (s: Severity): Severity => (regression ? 'information' : s);
  const findings: Finding[] = [...src.findings];
  const read = readStage(src.history, src.findings);
  for (const f of read.rf.findings) findings.push({ ...f, severity: soften(f.severity) });
  if (read.nothingRead) return undecidedAnalysis(src, read, findings, options, NOTHING_READ, true);
  // Between the stages too, not only inside the checks: reading consistency and the list-append
  // analysis are each up to a second on a 30 MB Jepsen file, and a stopped analysis is dropped.
  if (options.stop?.() === true) return undecidedAnalysis(src, read, findings, options, STOPPED_REASON, read.partial);
  const h = read.h;
  // List-append histories (docs/list-append.md): findings at the offending ops (they break every
  // level), named anomalies at transaction headers, and verdicts from the observed version orders.
  const list = src.firstListOp && hasListOps(h) ? analyzeListAppend(h) : null;
  if (list && options.stop?.() === true) return undecidedAnalysis(src, read, findings, options, STOPPED_REASON, read.partial);
  if (list) {
    const claimed = claimedListLevels(h, d);
    // The anomalies (cycles, lost updates, re-read internal) come last, one finding each: an error
    // only where they break a claimed level; the inference's findings before them break every level.
    const firstAnomaly = list.findings.length - list.anomalies.length;
    list.findings.forEach((f, i) => {
      const a = i >= firstAnomaly ? list.anomalies[i - firstAnomaly] : null;
      const severity = !a ? f.severity : breaksClaim(a, claimed) ? 'error' : 'information';
      findings.push({ ...f, severity: soften(severity) });
    });
  }
  /** A level's verdict on a list history: the register engine's (register keys) and the list analysis's; both must hold. */
  // `mixed`: the verdict of the file's mixed levels, whose undecided reason is its own run's.
  const withList = (v: Verdict, level: ListLevel, lv: boolean | null | undefined, mixed = false): Verdict => {
    if (!list || lv === undefined || lv === true || v.consistent === false) return v;
    if (lv === null) {
      // With tags the mixed run is no one level: naming SER (its witness level) would mislead.
      const what = mixed && src.hasTags ? 'the mixed levels' : level;
      return undecided(v.level, `${what} could not be decided on the list-append keys: ${listUndecidedWhy(h, list, mixed ? 'mixed' : level)}`);
    }
    return decided(v.level, false, listWitness(list, level));
  };

  const verdicts = new LevelVerdicts(new Checks(h, read.rf, findings, soften, Math.max(1, options.maxWitnesses ?? 1), options.stop), options);
  const requested = options.levels ? new Set<Level>(options.levels) : defaultLevels(h, d, src.hasTags ?? false);
  /** SSER on a list history without register operations: the list analysis decides it (rt over the observed orders). */
  const registers = h.opKind.some((k) => k === OP_READ || k === OP_WRITE);
  const verdictOf = (l: Level): Verdict => {
    if (list && !registers && levelRow(l).realTime) {
      const below = verdictOf(levelRow(l).below[0]);
      if (below.consistent === false) return implied(l, below);
      return withList(decided(l, true, null), l, list.verdicts.get(l));
    }
    return withList(verdicts.verdictOf(l), l, list?.verdicts.get(l));
  };
  const evaluated = LEVELS.filter((l) => requested.has(l));
  const levels = evaluated.map((l, i) => {
    options.onProgress?.(l, i, evaluated.length);
    return verdictOf(l);
  });
  if (d && (d.level || src.hasTags)) options.onProgress?.('mixed', evaluated.length, evaluated.length);
  const registerMixed = mixedVerdict(verdicts, d, src.hasTags ?? false, options.deferStrong ?? false);
  // A file at one level (no tags) is explained by that level's list witness: SER's may be a cycle
  // that level allows (a G2-item cycle under PSI); with tags, SER's as before.
  const mixedWitnessLevel = d?.level && !src.hasTags ? d.level.level : 'SER';
  const mixed = registerMixed && list && d
    ? { ...registerMixed, verdict: withList(registerMixed.verdict, mixedWitnessLevel, list.mixed(mixedListLevels(h, d)), true) }
    : registerMixed;
  verdicts.checks.causality(); // its findings, if no check above needed them yet

  levelFindings(verdicts, levels, mixed, d);
  undecidedFindings(h, findings, levels, mixed?.verdict ?? null, askedLevels(options, d), d);
  let expectations: Expectation[] = [];
  if (list) {
    // Expectations against the combined verdicts.
    for (const e of d?.expects ?? []) {
      const v = levels.find((x) => x.level === e.level) ?? verdictOf(e.level);
      expectations.push({ level: e.level, ok: e.ok, span: e.span, consistent: v.consistent });
      if (v.consistent === null || v.consistent === e.ok) continue;
      const why = v.consistent ? 'it holds' : `it is violated: ${v.witness?.message ?? ''}`;
      findings.push(finding('expectation-failed', 'error', `expected ${e.level} ${e.ok ? 'ok' : 'violated'}, but ${why}`, e.span,
        v.witness ? v.witness.edges.slice(0, 20).map((x) => ({ span: x.span, message: `${x.kind}: ${x.because}` })) : []));
    }
  } else expectations = expectationFindings(verdicts, d);
  // One finding per `expect A found|absent` line: pushed one by one, as a file may hold 200,000 (a spread overflowed the stack).
  if (d) for (const f of anomalyExpectations(list, d.anomalyExpects, read.rf.findings)) findings.push(f);
  findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  return {
    history: h, lines: src.lines, readsFrom: read.rf, title: d?.title ?? null, levels, mixed: mixed?.verdict ?? null,
    findings, forced: verdicts.forced, mixedLevels: mixed?.levels ?? null, partial: read.partial, list, expectations, written: read.written,
    violatingParts: verdicts.violatingParts(),
  };
}

/**
 * The levels evaluated when the caller names none: the table's default set (the seven), every
 * level the file names (level, tags, check, expect), and the real-time levels (SSER) when some
 * transaction has an `@ START..END` interval.
 */
function defaultLevels(h: History, d: Directives | null, hasTags: boolean): Set<Level> {
  const out = new Set<Level>(DEFAULT_LEVELS);
  for (const m of [d?.level, ...(d?.checks ?? []), ...(d?.expects ?? [])]) if (m) out.add(m.level);
  if (hasTags) for (let t = 1; t < h.txnCount; t++) if (h.txnLevel[t] >= 0) out.add(levelById(h.txnLevel[t]));
  const ts = h.txnTimeStart;
  if (ts && ts.some((x, t) => t > 0 && !Number.isNaN(x))) for (const l of LEVELS) if (levelRow(l).realTime) out.add(l);
  return out;
}

/** Levels someone asked for explicitly: the file (level, check, expect), or the caller's list. */
function askedLevels(options: AnalyzeOptions, d: Directives | null): Set<Level> {
  const asked = new Set<Level>(options.levels ?? []);
  for (const m of [d?.level, ...(d?.checks ?? []), ...(d?.expects ?? [])]) if (m) asked.add(m.level);
  return asked;
}

/** Every line failed to parse: no verdict at all (not a vacuous ✓ for an empty history). */
const NOTHING_READ = 'not decided: nothing could be read, every operation has a syntax error';

/** Every requested verdict undecided for `reason`: nothing was read, or the analysis was stopped before its checks. */
function undecidedAnalysis(src: ReadSource, read: ReadStage, findings: Finding[], options: AnalyzeOptions, reason: string, partial: boolean): Analysis {
  const d = src.directives ?? null;
  const requested = options.levels ? new Set<Level>(options.levels) : defaultLevels(read.h, d, src.hasTags ?? false);
  findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  return {
    history: read.h, lines: src.lines, readsFrom: read.rf, title: d?.title ?? null,
    levels: LEVELS.filter((l) => requested.has(l)).map((l) => undecided(l, reason)),
    mixed: d && (d.level || src.hasTags) ? undecided('mixed', reason) : null,
    findings, forced: new Map(), mixedLevels: null, partial, list: null,
    expectations: (d?.expects ?? []).map((e) => ({ level: e.level, ok: e.ok, span: e.span, consistent: null })), written: read.written,
    violatingParts: new Map(),
  };
}
