// The whole analysis of one history, as a pipeline: read → read consistency → homogeneous verdicts → mixed verdict → findings.

import { finding, type Finding, type Severity, type Span } from './model/diagnostics.ts';
import type { EdgeList } from './model/edges.ts';
import type { History } from './model/history.ts';
import type { ReadsFrom } from './model/reads-from.ts';
import { LEVELS, type Level, type Rule } from './levels/levels.ts';
import { readPlume } from './readers/plume-reader.ts';
import { parseHist, type Directives } from './syntax/hist-parser.ts';
import { LineIndex } from './syntax/line-index.ts';
import { Checks } from './verdicts/checks.ts';
import { expectationFindings, levelFindings, undecidedFindings } from './verdicts/findings.ts';
import { LevelVerdicts } from './verdicts/homogeneous.ts';
import { mixedVerdict } from './verdicts/mixed.ts';
import { readStage, type ReadStage } from './verdicts/read-stage.ts';
import { undecided, type Verdict } from './verdicts/verdict.ts';

export type { Verdict, VerdictBasis } from './verdicts/verdict.ts';

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
}

export interface AnalyzeOptions {
  /** Homogeneous levels to evaluate; default all of them (levels/levels.ts). */
  levels?: readonly Level[];
  maxWitnesses?: number;
  /** Milliseconds each strong-level search may take before its verdict is undecided (default 10000). */
  strongMillis?: number;
  /** Work units spent shrinking each strong-level violation to a minimal sub-history (steps, not time: deterministic). */
  witnessWork?: number;
  /** @deprecated Ignored: shrinking is bounded by work units, not time (issue 9 item 11). */
  witnessMillis?: number;
  /**
   * Leave the strong-level searches for later: strong levels and a mixed verdict with strong tags
   * are pending unless CC already decides them. For a quick first answer in editors.
   */
  deferStrong?: boolean;
  /** Polled by the long searches: true abandons them (their verdicts become undecided), e.g. on cancellation. */
  stop?: () => boolean;
  /** Plume files: whether a value of 0 is the initial value ('zero', default) or an ordinary one ('none'). */
  plumeInit?: 'zero' | 'none';
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
  /** Where the first list-append operation stands, if any (not checked yet). */
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

/** The pipeline over an already-read source; each stage is a function of its own (verdicts/). */
export function analyzeSource(src: ReadSource, options: AnalyzeOptions = {}): Analysis {
  const d = src.directives ?? null;
  /** With `expect` lines only failed expectations (and syntax) are errors. */
  const soften = (s: Severity): Severity => ((d?.expects.length ?? 0) > 0 ? 'information' : s);
  const findings: Finding[] = [...src.findings];
  const read = readStage(src.history, src.findings);
  for (const f of read.rf.findings) findings.push({ ...f, severity: soften(f.severity) });
  if (src.firstListOp) {
    findings.push(finding('not-checked', soften('warning'), 'list-append operations (a(k, v) and list reads r(k, [...])) are not checked yet: they are left out of every check', src.firstListOp));
  }
  if (read.nothingRead) return nothingRead(src, read, findings, options);

  const verdicts = new LevelVerdicts(new Checks(read.h, read.rf, findings, soften, Math.max(1, options.maxWitnesses ?? 1)), options);
  const requested = new Set<Level>(options.levels ?? LEVELS);
  const levels = LEVELS.filter((l) => requested.has(l)).map((l) => verdicts.verdictOf(l));
  const mixed = mixedVerdict(verdicts, d, src.hasTags ?? false, options.deferStrong ?? false);
  verdicts.checks.causality(); // its findings, if no check above needed them yet

  levelFindings(verdicts, levels, mixed, d);
  undecidedFindings(read.h, findings, levels, mixed?.verdict ?? null, askedLevels(options, d), d);
  expectationFindings(verdicts, d);
  findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  return {
    history: read.h, lines: src.lines, readsFrom: read.rf, title: d?.title ?? null, levels, mixed: mixed?.verdict ?? null,
    findings, forced: verdicts.forced, mixedLevels: mixed?.levels ?? null, partial: read.partial,
  };
}

/** Levels someone asked for explicitly: the file (level, check, expect), or the caller's list. */
function askedLevels(options: AnalyzeOptions, d: Directives | null): Set<Level> {
  const asked = new Set<Level>(options.levels ?? []);
  for (const m of [d?.level, ...(d?.checks ?? []), ...(d?.expects ?? [])]) if (m) asked.add(m.level);
  return asked;
}

/** Every line failed to parse: no verdict at all (not a vacuous ✓ for an empty history). */
function nothingRead(src: ReadSource, read: ReadStage, findings: Finding[], options: AnalyzeOptions): Analysis {
  const reason = 'not decided: nothing could be read, every operation has a syntax error';
  const requested = new Set<Level>(options.levels ?? LEVELS);
  const d = src.directives ?? null;
  findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  return {
    history: read.h, lines: src.lines, readsFrom: read.rf, title: d?.title ?? null,
    levels: LEVELS.filter((l) => requested.has(l)).map((l) => undecided(l, reason)),
    mixed: d && (d.level || src.hasTags) ? undecided('mixed', reason) : null,
    findings, forced: new Map(), mixedLevels: null, partial: true,
  };
}
