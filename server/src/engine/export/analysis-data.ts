// A history's analysis as the plain JSON the graph draws (protocol shapes.ts): shared by the server and the CLI.

import type { Analysis, Verdict } from '../analyze.ts';
import type { Span } from '../model/diagnostics.ts';
import { EK_CO } from '../model/edges.ts';
import { soWrGraph } from '../model/happens-before.ts';
import { BOTTOM, INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, sourceOf, type History } from '../model/history.ts';
import type { Rule } from '../weak/level-check.ts';
import { levelById, RULES, strongestHolding, type Level } from '../levels/levels.ts';
import type { LineIndex } from '../syntax/line-index.ts';
import { txnExtent } from '../queries.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { Explainer, type Witness } from '../witness/witness.ts';
import { witnessHeadline } from '../witness/patterns.ts';
import { inferListAppend, listOf, listText, type ListInference } from '../listappend/infer.ts';
import { writtenForced, writtenMixedLevels, writtenVerdict, type ForcedIds } from '../verdicts/written.ts';
import { listEdgesJson, realTimeEdges } from './order-edges.ts';
import {
  OPS_SHOWN, type AnalysisResult, type ForcedJson, type JsonRange, type LevelName, type SessionJson, type TransactionJson,
  type OrderEdgeJson, type VerdictJson, type VerdictState, type WitnessJson, type WrEdgeJson,
} from '../../protocol/shapes.ts';

export const DEFAULT_LIMIT = 20_000;
/**
 * Forced edges per rule explained in full (the rest get a short sentence; see analysisData): at most
 * EXPLAINED, fewer on large histories, where each explanation may search a happens-before path through
 * every transaction (EXPLAIN_WORK bounds explained edges × transactions; a step count, not a time).
 */
export const EXPLAINED = 2_000;
const EXPLAIN_WORK = 5_000_000;

/** Inferred co edges of one rule as columns (a: the forcing read op). */
export interface ForcedColumnsLike {
  from: ArrayLike<number>;
  to: ArrayLike<number>;
  a: ArrayLike<number>;
  b: ArrayLike<number>;
  length: number;
}

/** What the JSON is built from: the server's DocModel or a fresh Analysis (CLI). */
export interface AnalysisSource {
  uri: string;
  version: number;
  title: string | null;
  history: History;
  lines: LineIndex;
  readsFrom: ReadsFrom;
  levels: readonly Verdict[];
  mixed: Verdict | null;
  rules: readonly Rule[];
  forced(rule: Rule): ForcedColumnsLike | undefined;
  explain: Explainer;
  /** The list-append inference when the history has list operations (its ww / rw / wr edges are drawn). */
  list?: ListInference | null;
  /** The mixed verdict's level of each transaction (its anomaly is named with them). */
  mixedLevels?: Int8Array | null;
  /** Per transaction, 1 for an `unknown` one nobody read (it never ran: the checks left it out). */
  notRun?: Uint8Array | null;
}

/** An Analysis (analyze.ts) as an AnalysisSource. */
export function sourceOfAnalysis(a: Analysis, uri: string, version = 0): AnalysisSource {
  const h = a.history;
  let explainer: Explainer | null = null;
  const rules = RULES.filter((r) => a.forced.has(r));
  return {
    uri, version, title: a.title, history: h, lines: a.lines, readsFrom: a.readsFrom, levels: a.levels, mixed: a.mixed, rules, list: a.list?.inference ?? null, mixedLevels: a.mixedLevels,
    forced: (rule) => {
      const e = a.forced.get(rule);
      return e ? { from: e.from.data, to: e.to.data, a: e.a.data, b: e.b.data, length: e.length } : undefined;
    },
    get explain(): Explainer {
      explainer ??= new Explainer(h, a.readsFrom, () => soWrGraph(h, a.readsFrom));
      return explainer;
    },
  };
}

/**
 * An Analysis as an AnalysisSource over the history as written (editors: every transaction of the
 * text, unknown ones that never ran too), the verdicts and forced edges in its ids; the same as
 * sourceOfAnalysis when the checks ran on the whole history.
 */
export function writtenSourceOfAnalysis(a: Analysis, uri: string, version = 0): AnalysisSource {
  const w = a.written;
  if (!w) return sourceOfAnalysis(a, uri, version);
  const { h, rf } = w;
  const forced = new Map<Rule, ForcedIds>();
  for (const [rule, e] of a.forced) forced.set(rule, writtenForced(e, w));
  let explainer: Explainer | null = null;
  return {
    uri, version, title: a.title, history: h, lines: a.lines, readsFrom: rf,
    levels: a.levels.map((v) => writtenVerdict(v, w)), mixed: a.mixed ? writtenVerdict(a.mixed, w) : null, rules: RULES.filter((r) => forced.has(r)),
    // The inference reads only list operations, which stay in the checked history: the same, in written ids.
    list: a.list ? inferListAppend(h) : null,
    mixedLevels: a.mixedLevels ? writtenMixedLevels(a.mixedLevels, w) : null,
    notRun: w.notRun,
    forced: (rule) => {
      const f = forced.get(rule);
      return f ? { ...f, length: f.from.length } : undefined;
    },
    get explain(): Explainer {
      explainer ??= new Explainer(h, rf, () => soWrGraph(h, rf));
      return explainer;
    },
  };
}

export function stateOfVerdict(v: Verdict): VerdictState {
  return v.consistent === true ? 'ok' : v.consistent === false ? 'violated' : 'unknown';
}

/** A transaction's operations in short form, as the graph's boxes show them. */
export function shortOps(h: History, t: number, max = OPS_SHOWN): string[] {
  const out: string[] = [];
  const start = h.txnOpStart[t];
  const end = h.txnOpStart[t + 1];
  for (let o = start; o < Math.min(end, start + max); o++) out.push(shortOp(h, o));
  if (end - start > max) out.push(`+${end - start - max} more`);
  return out;
}

export function shortOp(h: History, o: number): string {
  const key = h.names.keyName(h.opKey[o]);
  const v = h.opValue[o];
  const value = v === INIT_VALUE ? 'init' : v === NO_VALUE ? '' : h.names.valueText(v);
  const named = sourceOf(h, o);
  const src = named >= 0 ? ` <- ${h.names.txnName(named)}` : '';
  switch (h.opKind[o]) {
    case OP_READ: return `r(${key}${value ? `, ${value}` : ''})${src}`;
    case OP_APPEND: return `a(${key}, ${value})`;
    // The list itself (the box clips it): what the version order and the ww / rw edges come from.
    case OP_LIST_READ: return h.opListStart ? `r(${key}, ${listText(h, listOf(h, o))})` : `r(${key}, [..])`;
    default: return `w(${key}, ${value})`;
  }
}

/**
 * keep: when set, only transactions t with keep[t] = 1 are described in full (the others keep id,
 * name, session and position), and only edges between two of them are listed and explained: a large
 * history's graph is its witnesses' neighbourhood, and explaining edges outside it was most of the cost.
 */
export function analysisData(m: AnalysisSource, limit = DEFAULT_LIMIT, keep: Uint8Array | null = null): AnalysisResult {
  const h = m.history;
  const kept = (t: number): boolean => keep === null || keep[t] === 1;
  const r = h.ranges;
  const range = (s: Span): JsonRange => m.lines.range(s.start, s.end);
  const max = Math.max(0, Math.floor(limit));

  const transactions: TransactionJson[] = [];
  for (let t = 0; t < h.txnCount; t++) {
    const bottom = t === BOTTOM;
    const unknown = h.txnUnknown?.[t] === 1;
    const notRun = m.notRun?.[t] === 1;
    if (!kept(t)) {
      transactions.push({
        id: t, name: h.names.txnName(t), session: h.txnSession[t], position: h.txnIndexInSession[t],
        level: h.txnLevel[t] >= 0 ? levelById(h.txnLevel[t]) : null, aborted: h.txnAborted[t] === 1, unknown, notRun, range: null, extent: null,
        operations: h.txnOpStart[t + 1] - h.txnOpStart[t], ops: [],
      });
      continue;
    }
    transactions.push({
      id: t, name: bottom ? '⊥' : h.names.txnName(t), session: h.txnSession[t], position: h.txnIndexInSession[t],
      level: h.txnLevel[t] >= 0 ? levelById(h.txnLevel[t]) : null, aborted: h.txnAborted[t] === 1, unknown, notRun,
      range: bottom || !r ? null : m.lines.range(r.txnStart[t], r.txnEnd[t]), extent: bottom || !r ? null : range(txnExtent(h, t)),
      operations: h.txnOpStart[t + 1] - h.txnOpStart[t], ops: bottom ? [] : shortOps(h, t),
    });
  }
  const sessions: SessionJson[] = [];
  for (let s = 0; s < h.sessionCount; s++) {
    sessions.push({
      id: s, name: h.names.sessionName(s), range: r ? m.lines.range(r.sessionStart[s], r.sessionEnd[s]) : m.lines.range(0, 0),
      transactions: Array.from(h.sessionTxns.subarray(h.sessionTxnStart[s], h.sessionTxnStart[s + 1])),
    });
  }

  // wr: every read between two distinct transactions that observed a write (or ⊥), sound or not.
  const wr: WrEdgeJson[] = [];
  let wrTotal = 0;
  const { observedTxn, observedWrite } = m.readsFrom;
  const opRange = (o: number): JsonRange => (r ? m.lines.range(r.opStart[o], r.opEnd[o]) : m.lines.range(0, 0));
  for (let o = 0; o < h.opCount; o++) {
    if (h.opKind[o] !== OP_READ || observedTxn[o] < 0 || observedTxn[o] === h.opTxn[o]) continue;
    wrTotal++;
    if (!kept(observedTxn[o]) || !kept(h.opTxn[o])) continue;
    if (wr.length >= max) continue;
    const w = observedWrite[o];
    wr.push({ from: observedTxn[o], to: h.opTxn[o], key: h.names.keyName(h.opKey[o]), read: opRange(o), write: w >= 0 ? opRange(w) : null });
  }

  // List-append keys: wr from the list reads, ww / rw from the observed version orders; rt from `@` intervals.
  const order: OrderEdgeJson[] = [];
  let orderTotal = 0;
  if (m.list) {
    const le = listEdgesJson(m.list, range, max, keep);
    for (const e of le.wr) if (wr.length < max) wr.push(e);
    wrTotal += le.wrTotal;
    order.push(...le.order);
    orderTotal += le.total;
  }
  if (h.txnTimeStart) {
    const rt = realTimeEdges(h, m.list?.included ?? null, range, Math.max(0, max - order.length), keep);
    order.push(...rt.edges);
    orderTotal += rt.total;
  }

  const forced: ForcedJson[] = [];
  const explained = Math.min(EXPLAINED, Math.floor(EXPLAIN_WORK / Math.max(1, h.txnCount)));
  for (const rule of m.rules) {
    const f = m.forced(rule);
    if (!f) continue;
    // The first `max` edges between kept transactions.
    const picked: number[] = [];
    for (let i = 0; i < f.length && picked.length < max; i++) if (kept(f.from[i]) && kept(f.to[i])) picked.push(i);
    const edges = picked.map((i, rank) => {
      const reader = h.opTxn[f.a[i]];
      const key = h.names.keyName(h.opKey[f.a[i]]);
      if (rank >= explained) {
        // Past the budget: no happens-before path search (one per edge made 1,000,000-event inputs take minutes).
        const name = (t: number): string => (t === BOTTOM ? 'the initial state' : h.names.txnName(t));
        return { from: f.from[i], to: f.to[i], key, read: opRange(f.a[i]), reader, because: `${name(f.from[i])} must commit before ${name(f.to[i])}: forced by ${rule} at ${name(reader)}'s read of ${key} (its hover explains why)` };
      }
      const e = m.explain.edge({ from: f.from[i], to: f.to[i], kind: EK_CO, a: f.a[i], b: f.b[i] });
      return { from: e.from, to: e.to, key, read: range(e.span), reader, because: e.because };
    });
    forced.push({ level: rule, edges, total: f.length });
  }

  const mixedLevels = m.mixedLevels ?? null;
  const levelOf = (v: Verdict): ((t: number) => Level) =>
    v.level !== 'mixed' ? () => v.level as Level : (t) => (mixedLevels && t < mixedLevels.length && mixedLevels[t] >= 0 ? levelById(mixedLevels[t]) : 'SER');
  const witness = (w: Witness, v: Verdict): WitnessJson => ({
    anomaly: w.anomaly, headline: witnessHeadline(h, m.readsFrom, w, levelOf(v), v.level === 'mixed' ? 'mixed' : v.level), message: w.message, range: range(w.span),
    cycle: w.edges.map((e) => ({ from: e.from, to: e.to, kind: e.kind, key: e.key >= 0 ? h.names.keyName(e.key) : null, because: e.because, range: range(e.span) })),
  });
  const verdict = (v: Verdict): VerdictJson => ({ level: v.level, state: stateOfVerdict(v), witness: v.witness ? witness(v.witness, v) : null, note: v.note });
  const strongest: LevelName | null = strongestHolding(m.levels.filter((v) => v.consistent === true).map((v) => v.level as Level))[0] ?? null;

  return {
    uri: m.uri, version: m.version, title: m.title,
    levels: m.levels.map(verdict), mixed: m.mixed ? verdict(m.mixed) : null, strongest,
    sessions, transactions, wr, wrTotal, forced,
    ...(orderTotal > 0 ? { order, orderTotal } : {}),
  };
}
