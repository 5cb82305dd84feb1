// The whole analysis of one history: read consistency, homogeneous and mixed verdicts, findings.

import { finding, READ_CONSISTENCY_CODES, type DiagnosticCode, type Finding, type RelatedSpan, type Severity, type Span } from './model/diagnostics.ts';
import { EdgeList, type EdgeView } from './model/edges.ts';
import { parseHist, type Directives } from './syntax/hist-parser.ts';
import type { History } from './model/history.ts';
import { causalityCycles, checkCycles, CheckContext, forcedEdges, MAX_CLOCK_ENTRIES, mixedForcedEdges, type Rule } from './weak/level-check.ts';
import { isWeakLevel, LEVELS, levelId, type Level } from './levels/levels.ts';
import { LineIndex } from './syntax/line-index.ts';
import { readPlume } from './readers/plume-reader.ts';
import { computeReadsFrom, opSpan, txnSpan, type ReadsFrom } from './model/reads-from.ts';
import { checkStrong, DEFAULT_STRONG_BUDGET, type StrongResult } from './strong/strong-check.ts';
import { explainStrong, levelsOf, minimizeViolation } from './witness/strong-witness.ts';
import { Explainer, type Witness } from './witness/witness.ts';

export interface Verdict {
  /** A level name, or 'mixed' for the per-transaction verdict. */
  level: Level | 'mixed';
  /** null: not decided (a strong level whose causal part holds). */
  consistent: boolean | null;
  witness: Witness | null;
  /** Why the verdict is what it is when that is not obvious (implied, undecided). */
  note: string | null;
  /** A commit order that satisfies the level (strong and mixed verdicts that hold, when one was built). */
  order?: Int32Array;
}

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
}

export interface AnalyzeOptions {
  /** Homogeneous levels to evaluate; default all seven. */
  levels?: readonly Level[];
  maxWitnesses?: number;
  /** Milliseconds each strong-level search may take before its verdict is 'unknown' (default 10000). */
  strongMillis?: number;
  /** Milliseconds spent shrinking each strong-level violation to a minimal sub-history (default 1000). */
  witnessMillis?: number;
  /**
   * Leave the strong-level searches for later: strong levels and a mixed verdict with strong tags
   * are undecided ('pending') unless CC already decides them. For a quick first answer in editors.
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
  findings: Finding[];
  directives: Directives | null;
  hasTags: boolean;
  firstListOp: Span | null;
}

export function analyzeHistText(text: string, options: AnalyzeOptions = {}): Analysis {
  const p = parseHist(text);
  return analyzeSource({ history: p.history, lines: LineIndex.ofText(text), findings: p.findings, directives: p.directives, hasTags: p.hasTags, firstListOp: p.firstListOp }, options);
}

export function analyzePlumeBytes(bytes: Uint8Array, options: AnalyzeOptions = {}): Analysis {
  const p = readPlume(bytes, { init: options.plumeInit });
  return analyzeSource({ history: p.history, lines: p.lines, findings: p.findings, directives: null, hasTags: false, firstListOp: null }, options);
}

const ZERO: Span = { start: 0, end: 0 };
const TOO_MANY_CLOCKS = `not decided: CC keeps a vector clock per transaction (transactions × sessions entries), and this history needs more than ${MAX_CLOCK_ENTRIES}`;

/** The note of a strong verdict left for a later, full analysis (AnalyzeOptions.deferStrong). */
export const PENDING = 'pending: the strong levels are being checked';
/** Time spent shrinking a strong-level violation to a minimal sub-history, per verdict. */
const WITNESS_MILLIS = 1000;

export function analyzeSource(src: ReadSource, options: AnalyzeOptions = {}): Analysis {
  const h = src.history;
  const d = src.directives;
  const maxWitnesses = Math.max(1, options.maxWitnesses ?? 1);
  const hasExpects = (d?.expects.length ?? 0) > 0;
  const findings: Finding[] = [...src.findings];
  /** With `expect` lines only failed expectations (and syntax) are errors. */
  const soften = (s: Severity): Severity => (hasExpects ? 'information' : s);

  const rf = computeReadsFrom(h);
  for (const f of rf.findings) findings.push({ ...f, severity: soften(f.severity) });
  if (src.firstListOp) {
    findings.push(finding('not-checked', soften('warning'), 'list-append operations (a(k, v) and list reads r(k, [...])) are not checked yet: they are left out of every check', src.firstListOp));
  }

  const ctx = new CheckContext(h, rf);
  const explain = new Explainer(h, rf, ctx.baseCsr);
  const toWitness = (anomaly: string, cycle: Int32Array, view: EdgeView, readerLevel: ((t: number) => string) | null = null): Witness => {
    const edges = Array.from(cycle, (e) => explain.edge(view.ref(e), readerLevel));
    const first = edges.find((e) => e.kind === 'co') ?? edges[0];
    return { anomaly, edges, message: first.because, span: first.span };
  };

  // Read consistency: a violation there breaks every level. A cycle of so ∪ wr is looked for only
  // when needed: a level found acyclic proves there is none.
  const firstReadError = rf.findings.find((f) => f.severity === 'error');
  const readWitness: Witness | null = firstReadError
    ? { anomaly: firstReadError.code, edges: [], message: firstReadError.message, span: firstReadError.span }
    : null;
  let causalityWitness: Witness | null | undefined;
  const causality = (): Witness | null => {
    if (causalityWitness !== undefined) return causalityWitness;
    causalityWitness = null;
    if (ctx.causal) return null;
    for (const cycle of causalityCycles(ctx, maxWitnesses)) {
      const w = toWitness('causality-cycle', cycle, ctx.base);
      causalityWitness ??= w;
      const related = relatedOf(w);
      for (const e of w.edges) {
        if (e.kind !== 'wr') continue;
        findings.push(finding('causality-cycle', soften('error'),
          `information flows in a circle: ${w.edges.map((x) => x.because).join('; ')}`, e.span, related));
      }
    }
    return causalityWitness;
  };
  const rcWitness = (): Witness | null => causality() ?? readWitness;

  // Homogeneous verdicts, computed on demand and shared with the mixed verdict.
  const forced = new Map<Rule, EdgeList>();
  const weak = new Map<Rule, Verdict>();
  const weakVerdict = (rule: Rule): Verdict => {
    let v = weak.get(rule);
    if (v) return v;
    if (rule === 'CC' && !ctx.causal) {
      v = { level: rule, consistent: false, witness: causality(), note: 'so ∪ wr has a cycle' };
    } else {
      const edges = forcedEdges(ctx, rule, null);
      if (!edges) {
        v = { level: rule, consistent: null, witness: null, note: TOO_MANY_CLOCKS };
        weak.set(rule, v);
        return v;
      }
      forced.set(rule, edges);
      const r = checkCycles(ctx, edges, maxWitnesses);
      if (!r.acyclic && !ctx.causal) {
        v = { level: rule, consistent: false, witness: causality(), note: 'so ∪ wr has a cycle' };
      } else {
        const witness = r.cycles.length > 0 ? toWitness(rule, r.cycles[0], r.view) : rcWitness();
        v = { level: rule, consistent: r.acyclic && readWitness === null, witness, note: null };
        extraWitnesses.set(rule, r.cycles.slice(1).map((c) => toWitness(rule, c, r.view)));
      }
    }
    weak.set(rule, v);
    return v;
  };
  const extraWitnesses = new Map<Rule, Witness[]>();
  // Strong levels (and mixed ones with a strong tag): CC first, a necessary condition, then the search.
  const strongBudget = { ...DEFAULT_STRONG_BUDGET, millis: options.strongMillis ?? DEFAULT_STRONG_BUDGET.millis, stop: options.stop };
  const verdictFrom = (name: Level | 'mixed', r: StrongResult, levelFor: (sub: History) => (t: number) => Level): Verdict => {
    if (r.kind === 'consistent') return { level: name, consistent: true, witness: null, note: null, order: r.order };
    if (r.kind === 'unknown') return { level: name, consistent: null, witness: null, note: `${name === 'mixed' ? 'the mixed verdict' : name} could not be decided: ${r.reason}` };
    // Shrinking re-checks many sub-histories: each gets a small budget ('unknown' keeps the part).
    const millis = options.witnessMillis ?? WITNESS_MILLIS;
    const shrink = { deadline: Date.now() + millis, budget: { ...strongBudget, states: 20_000, millis }, maxOrders: 120 };
    const min = minimizeViolation(h, rf, levelFor, shrink);
    return { level: name, consistent: false, witness: explainStrong(name, min.h, min.rf, levelFor(min.h), shrink), note: null };
  };
  /** One search per strong level, shared by its verdict and the lattice shortcuts. */
  const searches = new Map<Level, StrongResult>();
  const search = (level: Level): StrongResult => {
    let r = searches.get(level);
    if (!r) {
      r = checkStrong(ctx, () => level, strongBudget);
      searches.set(level, r);
    }
    return r;
  };
  const strong = new Map<Level, Verdict>();
  const implied = (level: Level, from: Verdict): Verdict => ({
    level, consistent: from.consistent, witness: from.witness, order: from.order,
    note: `implied: ${from.level} ${from.consistent ? 'holds' : 'is violated'}`,
  });
  /**
   * The lattice saves searches: CC violated ⇒ all violated; SER holds ⇒ SI, PC and PSI hold (SER
   * is usually the quickest to decide); SI holds ⇒ PC and PSI hold; PC or PSI violated ⇒ SI
   * violated. PSI's own search is the slowest on large histories, so PSI asks SI first.
   */
  const verdictOf = (level: Level): Verdict => {
    if (isWeakLevel(level)) return weakVerdict(level as Rule);
    const cc = weakVerdict('CC');
    if (cc.consistent === false) return { level, consistent: false, witness: cc.witness, note: `implied: ${level} is stronger than CC, which is violated` };
    let v = strong.get(level);
    if (v) return v;
    if (options.deferStrong) return { level, consistent: null, witness: null, note: PENDING };
    const own = (): Verdict => verdictFrom(level, search(level), () => () => level);
    if (level === 'SER') {
      v = own();
    } else if (search('SER').kind === 'consistent') {
      v = implied(level, verdictOf('SER'));
    } else if (level === 'SI') {
      const weaker = [verdictOf('PC'), strong.get('PSI')].find((x) => x?.consistent === false);
      v = weaker ? implied(level, weaker) : own();
    } else if (level === 'PSI') {
      const si = verdictOf('SI');
      v = si.consistent === true ? implied(level, si) : own();
    } else {
      const si = strong.get('SI');
      v = si?.consistent === true ? implied(level, si) : own();
    }
    strong.set(level, v);
    return v;
  };

  // All seven levels unless narrowed (history-dsl.md); strong ones are decided only when CC fails.
  const requested = new Set<Level>(options.levels ?? LEVELS);
  const levels = LEVELS.filter((l) => requested.has(l)).map(verdictOf);
  /** Strong levels someone asked for explicitly: the file, or the user's --level. */
  const asked = new Set<Level>(options.levels ?? []);
  for (const m of [d?.level, ...(d?.checks ?? []), ...(d?.expects ?? [])]) if (m) asked.add(m.level);

  // The mixed verdict: each transaction at its own tag, untagged ones at `level` (SER without one).
  let mixed: Verdict | null = null;
  let mixedUniform: Level | null = null;
  if (d && (d.level || src.hasTags)) {
    const fallback = levelId(d.level?.level ?? 'SER');
    const perRule: Record<Rule, Uint8Array> = { RC: new Uint8Array(h.txnCount), RA: new Uint8Array(h.txnCount), CC: new Uint8Array(h.txnCount) };
    const used = new Set<number>();
    for (let t = 1; t < h.txnCount; t++) {
      const l = h.txnLevel[t] >= 0 ? h.txnLevel[t] : fallback;
      used.add(l);
      perRule[l === 0 ? 'RC' : l === 1 ? 'RA' : 'CC'][t] = 1;
    }
    const usedLevels = LEVELS.filter((_, i) => used.has(i));
    const strongTags = usedLevels.filter((l) => !isWeakLevel(l));
    mixedUniform = usedLevels.length === 1 ? usedLevels[0] : usedLevels.length === 0 && d.level ? d.level.level : null;
    if (mixedUniform) {
      mixed = { ...verdictOf(mixedUniform), level: 'mixed' };
    } else if (!ctx.causal) {
      mixed = { level: 'mixed', consistent: false, witness: causality(), note: 'so ∪ wr has a cycle' };
    } else {
      const all = mixedForcedEdges(ctx, perRule) ?? new EdgeList();
      const r = checkCycles(ctx, all, maxWitnesses);
      const levelOf = (t: number): string => LEVELS[h.txnLevel[t] >= 0 ? h.txnLevel[t] : fallback];
      const witness = r.cycles.length > 0 ? toWitness('mixed', r.cycles[0], r.view, levelOf) : rcWitness();
      const violated = !r.acyclic || readWitness !== null;
      const fallbackLevel = LEVELS[fallback];
      const clocksMissing = perRule.CC.includes(1) && ctx.vectorClocks() === null;
      mixed = clocksMissing && !violated
        ? { level: 'mixed', consistent: null, witness: null, note: TOO_MANY_CLOCKS }
        : violated
        ? { level: 'mixed', consistent: false, witness, note: null }
        : strongTags.length > 0 && options.deferStrong
          ? { level: 'mixed', consistent: null, witness: null, note: PENDING }
          : strongTags.length > 0
          ? verdictFrom('mixed', checkStrong(ctx, levelsOf(h, fallbackLevel, null), strongBudget), (sub) => levelsOf(sub, fallbackLevel, null))
          : { level: 'mixed', consistent: true, witness: null, note: null };
    }
  }

  causality(); // its findings, if no check above needed them yet

  // Level findings at the forcing reads: errors for the claimed or mixed level, information otherwise.
  const reported = new Set<string>();
  const report = (code: DiagnosticCode, severity: Severity, w: Witness): void => {
    if (w.anomaly === 'causality-cycle' || READ_CONSISTENCY_CODES.includes(w.anomaly as DiagnosticCode)) return;
    const related = relatedOf(w);
    const name = code === 'mixed' ? 'mixed levels' : code;
    const at = (span: Span, because: string): void => {
      const id = `${code}:${span.start}:${span.end}:${because}`;
      if (reported.has(id)) return;
      reported.add(id);
      findings.push(finding(code, severity, `${name} violated: ${because}`, span, related));
    };
    // At the reads whose axiom forced an inferred edge; for a strong level without such an
    // edge, at the reads that fail in the remaining commit orders.
    const forcing = w.edges.filter((e) => e.kind === 'co' || e.kind === 'rw' || e.kind === 'ww');
    for (const e of forcing) at(e.span, e.because);
    if (forcing.length === 0) for (const o of w.readOps ?? []) at(opSpan(h, o), w.message);
  };
  if (mixed?.consistent === false && mixed.witness) {
    report(mixedUniform ?? 'mixed', soften('error'), mixed.witness);
  }
  for (const v of levels) {
    if (v.consistent !== false || !v.witness || v.level === mixedUniform) continue;
    if (v.level === 'mixed' || v.note?.startsWith('implied')) continue; // an implied level's findings are CC's
    report(v.level, 'information', v.witness);
    for (const w of extraWitnesses.get(v.level as Rule) ?? []) report(v.level, 'information', w);
  }

  // Strong levels that were asked for but cannot be decided yet: one note per file.
  const undecided = [...levels.filter((v) => asked.has(v.level as Level)), ...(mixed ? [mixed] : [])].filter((v) => v.consistent === null && v.note !== PENDING);
  if (undecided.length > 0) {
    const names = [...new Set(undecided.map((v) => (v.level === 'mixed' ? strongOf(h, d) : [v.level])).flat())];
    const at = firstMention(h, d, names) ?? ZERO;
    findings.push(finding('not-checked', 'information',
      `${names.join(', ')}: not decided within the search budget (${undecided.map((v) => v.note).join('; ')})`, at));
  }

  // Expectations decide files that have them.
  for (const e of d?.expects ?? []) {
    const v = verdictOf(e.level);
    if (v.consistent === null) continue; // covered by the not-checked note
    if (v.consistent === e.ok) continue;
    const why = v.consistent ? 'it holds' : `it is violated: ${v.witness?.message ?? ''}`;
    const related: RelatedSpan[] = v.witness ? relatedOf(v.witness) : [];
    findings.push(finding('expectation-failed', 'error', `expected ${e.level} ${e.ok ? 'ok' : 'violated'}, but ${why}`, e.span, related));
  }

  findings.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  let mixedLevels: Int8Array | null = null;
  if (mixed && d) {
    const fallback = levelId(d.level?.level ?? 'SER');
    mixedLevels = h.txnLevel.map((l, t) => (t === 0 ? -1 : l >= 0 ? l : fallback));
  }
  return { history: h, lines: src.lines, readsFrom: rf, title: d?.title ?? null, levels, mixed, findings, forced, mixedLevels };
}

function relatedOf(w: Witness): RelatedSpan[] {
  return w.edges.map((e) => ({ span: e.span, message: `${e.kind}: ${e.because}` }));
}

function strongOf(h: History, d: Directives | null): Level[] {
  const out = new Set<Level>();
  const fallback = d?.level?.level ?? 'SER';
  for (let t = 1; t < h.txnCount; t++) {
    const l = h.txnLevel[t] >= 0 ? LEVELS[h.txnLevel[t]] : fallback;
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
    if (levels.includes(LEVELS[h.txnLevel[t]])) spans.push(txnSpan(h, t));
  }
  // Untagged transactions run at SER without a level directive: point at the first tag then.
  if (spans.length === 0 && firstTag >= 0) spans.push(txnSpan(h, firstTag));
  return spans.length > 0 ? spans.reduce((a, b) => (a.start <= b.start ? a : b)) : null;
}
