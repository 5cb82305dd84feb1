// The whole analysis of one history: read consistency, homogeneous and mixed verdicts, findings.

import { finding, type DiagnosticCode, type Finding, type RelatedSpan, type Severity, type Span } from './diagnostics.ts';
import type { EdgeList, EdgeView } from './edges.ts';
import { parseHist, type Directives } from './hist-parser.ts';
import type { History } from './history.ts';
import { causalityCycles, checkCycles, CheckContext, forcedEdges, type Rule } from './level-check.ts';
import { isWeakLevel, LEVELS, levelId, type Level } from './levels.ts';
import { LineIndex } from './line-index.ts';
import { readPlume } from './plume-reader.ts';
import { computeReadsFrom, txnSpan, type ReadsFrom } from './reads-from.ts';
import { Explainer, type Witness } from './witness.ts';

export interface Verdict {
  /** A level name, or 'mixed' for the per-transaction verdict. */
  level: Level | 'mixed';
  /** null: not decided (a strong level whose causal part holds). */
  consistent: boolean | null;
  witness: Witness | null;
  /** Why the verdict is what it is when that is not obvious (implied, undecided). */
  note: string | null;
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
}

export interface AnalyzeOptions {
  /** Homogeneous levels to evaluate; default RC, RA, CC plus every level the file mentions. */
  levels?: readonly Level[];
  maxWitnesses?: number;
}

interface Source {
  history: History;
  lines: LineIndex;
  findings: Finding[];
  directives: Directives | null;
  hasTags: boolean;
  firstListOp: Span | null;
}

export function analyzeHistText(text: string, options: AnalyzeOptions = {}): Analysis {
  const p = parseHist(text);
  return analyze({ history: p.history, lines: LineIndex.ofText(text), findings: p.findings, directives: p.directives, hasTags: p.hasTags, firstListOp: p.firstListOp }, options);
}

export function analyzePlumeBytes(bytes: Uint8Array, options: AnalyzeOptions = {}): Analysis {
  const p = readPlume(bytes);
  return analyze({ history: p.history, lines: p.lines, findings: p.findings, directives: null, hasTags: false, firstListOp: null }, options);
}

const ZERO: Span = { start: 0, end: 0 };

function analyze(src: Source, options: AnalyzeOptions): Analysis {
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
  const verdictOf = (level: Level): Verdict => {
    if (isWeakLevel(level)) return weakVerdict(level as Rule);
    const cc = weakVerdict('CC');
    return cc.consistent === false
      ? { level, consistent: false, witness: cc.witness, note: `implied: ${level} is stronger than CC, which is violated` }
      : { level, consistent: null, witness: null, note: `${level} is not checked yet: only RC, RA and CC are decided exactly` };
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
    const strong = usedLevels.filter((l) => !isWeakLevel(l));
    mixedUniform = usedLevels.length === 1 ? usedLevels[0] : usedLevels.length === 0 && d.level ? d.level.level : null;
    if (mixedUniform) {
      mixed = { ...verdictOf(mixedUniform), level: 'mixed' };
    } else if (!ctx.causal) {
      mixed = { level: 'mixed', consistent: false, witness: causality(), note: 'so ∪ wr has a cycle' };
    } else {
      const all = forcedEdges(ctx, 'RC', perRule.RC);
      for (const rule of ['RA', 'CC'] as const) {
        const more = forcedEdges(ctx, rule, perRule[rule]);
        for (let i = 0; i < more.length; i++) all.add(more.from.data[i], more.to.data[i], more.kind.data[i], more.a.data[i], more.b.data[i]);
      }
      const r = checkCycles(ctx, all, maxWitnesses);
      const levelOf = (t: number): string => LEVELS[h.txnLevel[t] >= 0 ? h.txnLevel[t] : fallback];
      const witness = r.cycles.length > 0 ? toWitness('mixed', r.cycles[0], r.view, levelOf) : rcWitness();
      const violated = !r.acyclic || readWitness !== null;
      mixed = violated
        ? { level: 'mixed', consistent: false, witness, note: null }
        : strong.length > 0
          ? { level: 'mixed', consistent: null, witness: null, note: `${strong.join(', ')} transactions are checked only for their causal (CC) part so far` }
          : { level: 'mixed', consistent: true, witness: null, note: null };
    }
  }

  causality(); // its findings, if no check above needed them yet

  // Level findings at the forcing reads: errors for the claimed or mixed level, information otherwise.
  const reported = new Set<string>();
  const report = (code: DiagnosticCode, severity: Severity, w: Witness): void => {
    if (w.edges.length === 0 || w.anomaly === 'causality-cycle') return;
    const related = relatedOf(w);
    for (const e of w.edges) {
      if (e.kind !== 'co') continue;
      const id = `${code}:${e.span.start}:${e.span.end}:${e.because}`;
      if (reported.has(id)) continue;
      reported.add(id);
      findings.push(finding(code, severity, `${code === 'mixed' ? 'mixed levels' : code} violated: ${e.because}`, e.span, related));
    }
  };
  if (mixed?.consistent === false && mixed.witness) {
    report(mixedUniform ?? 'mixed', soften('error'), mixed.witness);
  }
  for (const v of levels) {
    if (v.consistent !== false || !v.witness || v.level === mixedUniform) continue;
    if (v.level === 'mixed' || !isWeakLevel(v.level)) continue; // a strong level's findings are CC's
    report(v.level, 'information', v.witness);
    for (const w of extraWitnesses.get(v.level as Rule) ?? []) report(v.level, 'information', w);
  }

  // Strong levels that were asked for but cannot be decided yet: one note per file.
  const undecided = [...levels.filter((v) => asked.has(v.level as Level)), ...(mixed ? [mixed] : [])].filter((v) => v.consistent === null);
  if (undecided.length > 0) {
    const names = [...new Set(undecided.map((v) => (v.level === 'mixed' ? strongOf(h, d) : [v.level])).flat())];
    const at = firstMention(h, d, names) ?? ZERO;
    findings.push(finding('not-checked', 'information',
      `${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not checked yet: only RC, RA and CC are decided exactly, and stronger levels are reported violated when CC is`, at));
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
  return { history: h, lines: src.lines, readsFrom: rf, title: d?.title ?? null, levels, mixed, findings, forced };
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
