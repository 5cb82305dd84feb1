// Runs the engine on a document and packs what the editor features need into transferable columns.

import { analyzeSource, type Analysis, type Verdict } from '../engine/analyze.ts';
import { readerNamed } from '../engine/readers/registry.ts';
import type { Finding } from '../engine/model/diagnostics.ts';
import type { Rule } from '../engine/weak/level-check.ts';
import type { Level } from '../engine/levels/levels.ts';
import { LineIndex, textLineStarts } from '../engine/syntax/line-index.ts';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { capFindings, DIAGNOSTIC_SOURCE, SEVERITY, toDiagnostic } from './convert.ts';
import { writtenForced, writtenMixedLevels, writtenVerdict } from '../engine/verdicts/written.ts';

export interface SnapshotOptions {
  uri: string;
  levels: readonly Level[] | undefined;
  maxWitnesses: number;
  /** URI of docs/anomalies.md for codeDescription links, or null. */
  docsBase: string | null;
  maxDiagnostics: number;
  /** A quick first pass: strong levels left pending (see AnalyzeOptions.deferStrong). */
  deferStrong?: boolean;
  /** Milliseconds per strong-level search; the editor's 0.5 s when absent (the playground's last pass takes the CLI's). */
  strongMillis?: number;
  /** Milliseconds for all strong-level searches together (AnalyzeOptions.strongTotalMillis); none when absent. */
  strongTotalMillis?: number;
  /** The reader (engine/readers/registry.ts) that reads the document; hist when absent. */
  format?: string;
  plumeInit?: 'zero' | 'none';
}

/** The history model's columns and name tables (engine History without its functions). */
export interface HistoryColumns {
  txnCount: number;
  sessionCount: number;
  opCount: number;
  keyCount: number;
  txnSession: Int32Array;
  txnIndexInSession: Int32Array;
  txnAborted: Uint8Array;
  txnLevel: Int8Array;
  txnOpStart: Int32Array;
  sessionTxnStart: Int32Array;
  sessionTxns: Int32Array;
  opKind: Uint8Array;
  opKey: Int32Array;
  opValue: Int32Array;
  opSource: Int32Array | null;
  opTxn: Int32Array;
  initValues: Map<number, number>;
  /** List-append reads' elements, status `unknown`, real times: as in History, when the document has them. */
  opListStart?: Int32Array;
  listElems?: Int32Array;
  txnUnknown?: Uint8Array;
  txnTimeStart?: Float64Array;
  txnTimeEnd?: Float64Array;
  txnStart: Int32Array;
  txnEnd: Int32Array;
  opStart: Int32Array;
  opEnd: Int32Array;
  sessionStart: Int32Array;
  sessionEnd: Int32Array;
  txnNames: string[];
  sessionNames: string[];
  keyNames: string[];
  valueTexts: string[];
}

export interface ForcedColumns {
  rule: Rule;
  from: Int32Array;
  to: Int32Array;
  /** The read that forced each edge, and its premise (a read op, -1 so, -2 happens-before). */
  a: Int32Array;
  b: Int32Array;
}

export interface AnalysisSnapshot {
  millis: number;
  title: string | null;
  history: HistoryColumns;
  lineStarts: Int32Array;
  observedWrite: Int32Array;
  observedTxn: Int32Array;
  wrSource: Int32Array;
  writeKeyStart: Int32Array;
  writeKeys: Int32Array;
  forced: ForcedColumns[];
  levels: Verdict[];
  mixed: Verdict | null;
  /** Per transaction, the level id it runs at in the mixed verdict (null without one). */
  mixedLevels: Int8Array | null;
  diagnostics: Diagnostic[];
  errors: number;
  warnings: number;
  /** The file has syntax errors: the verdicts are for what parsed. */
  partial: boolean;
  /** Per transaction, 1 for an `unknown` one that counts as never having run (null: none). */
  notRun: Uint8Array | null;
}

/** Milliseconds per strong-level search while editing (shrinking a witness is bounded by work units, not time). */
const EDITOR_STRONG_MILLIS = 500;

/**
 * Analyses a document's text with its reader and the editor's budgets. stop: polled by every
 * reader, the RC/RA/CC saturations and the strong-level searches; null when it ended the read, so that a cancelled
 * job's worker is free again within milliseconds instead of being terminated (analysis-runner.ts).
 */
export function analyzeDocument(text: string, o: SnapshotOptions): Analysis;
export function analyzeDocument(text: string, o: SnapshotOptions, stop: () => boolean): Analysis | null;
export function analyzeDocument(text: string, o: SnapshotOptions, stop?: () => boolean): Analysis | null {
  const reader = readerNamed(o.format ?? 'hist') ?? readerNamed('hist')!;
  const src = reader.read({ text }, { plumeInit: o.plumeInit, stop });
  if (stop?.() === true) return null; // what was read may be a part: not worth analysing
  // Strong levels get a short search budget in the editor: an undecided level beats a stalled squiggle.
  return analyzeSource(src, {
    levels: o.levels, maxWitnesses: o.maxWitnesses, strongMillis: o.strongMillis ?? EDITOR_STRONG_MILLIS, strongTotalMillis: o.strongTotalMillis, deferStrong: o.deferStrong, stop,
  });
}

export function buildSnapshot(text: string, o: SnapshotOptions): { snapshot: AnalysisSnapshot; transfer: ArrayBuffer[] } {
  const started = performance.now();
  return packSnapshot(analyzeDocument(text, o), text, o, started);
}

/**
 * An analysis as transferable columns for the message loop (millis: since `started`). The editor
 * gets the history as written (every transaction of the text, unknown ones that never ran
 * included), with the verdicts of the checked history in its ids.
 */
export function packSnapshot(a: Analysis, text: string, o: SnapshotOptions, started: number): { snapshot: AnalysisSnapshot; transfer: ArrayBuffer[] } {
  const w = a.written;
  const h = w ? w.h : a.history;
  const rf = w ? w.rf : a.readsFrom;
  const lineStarts = lineStartsOf(text);
  const lines = LineIndex.ofLineStarts(lineStarts);
  const transfer: ArrayBuffer[] = [];
  // Fresh copies: engine columns are views into larger growable buffers, and a buffer can be transferred once.
  const own = <T extends Int32Array | Uint8Array | Int8Array | Float64Array>(x: T): T => {
    const c = x.slice() as T;
    transfer.push(c.buffer as ArrayBuffer);
    return c;
  };
  const r = h.ranges;
  const empty = (n: number): Int32Array => new Int32Array(n);
  let maxValue = -1;
  for (let i = 0; i < h.opCount; i++) maxValue = Math.max(maxValue, h.opValue[i]);
  for (const v of h.initValues.values()) maxValue = Math.max(maxValue, v);
  // A list read's elements are values too, and an element nobody appended (a garbage read) is in no opValue:
  // without it the table ended early and the element was shown as its id ("[1, 7]" as "[1, 1]").
  if (h.listElems) for (const v of h.listElems) maxValue = Math.max(maxValue, v);
  const history: HistoryColumns = {
    txnCount: h.txnCount, sessionCount: h.sessionCount, opCount: h.opCount, keyCount: h.keyCount,
    txnSession: own(h.txnSession), txnIndexInSession: own(h.txnIndexInSession), txnAborted: own(h.txnAborted),
    txnLevel: own(h.txnLevel), txnOpStart: own(h.txnOpStart), sessionTxnStart: own(h.sessionTxnStart),
    sessionTxns: own(h.sessionTxns), opKind: own(h.opKind), opKey: own(h.opKey), opValue: own(h.opValue),
    opSource: h.opSource ? own(h.opSource) : null, opTxn: own(h.opTxn), initValues: new Map(h.initValues),
    txnStart: own(r ? r.txnStart : empty(h.txnCount)), txnEnd: own(r ? r.txnEnd : empty(h.txnCount)),
    opStart: own(r ? r.opStart : empty(h.opCount)), opEnd: own(r ? r.opEnd : empty(h.opCount)),
    sessionStart: own(r ? r.sessionStart : empty(h.sessionCount)), sessionEnd: own(r ? r.sessionEnd : empty(h.sessionCount)),
    txnNames: Array.from({ length: h.txnCount }, (_, t) => h.names.txnName(t)),
    sessionNames: Array.from({ length: h.sessionCount }, (_, s) => h.names.sessionName(s)),
    keyNames: Array.from({ length: h.keyCount }, (_, k) => h.names.keyName(k)),
    valueTexts: Array.from({ length: maxValue + 1 }, (_, v) => h.names.valueText(v)),
    ...(h.opListStart && h.listElems ? { opListStart: own(h.opListStart), listElems: own(h.listElems) } : {}),
    ...(h.txnUnknown ? { txnUnknown: own(h.txnUnknown) } : {}),
    ...(h.txnTimeStart && h.txnTimeEnd ? { txnTimeStart: own(h.txnTimeStart), txnTimeEnd: own(h.txnTimeEnd) } : {}),
  };
  const forced: ForcedColumns[] = [];
  for (const [rule, e] of a.forced) {
    const f = writtenForced(e, w);
    for (const c of [f.from, f.to, f.a, f.b]) transfer.push(c.buffer as ArrayBuffer);
    forced.push({ rule, ...f });
  }
  const mixedLevels = a.mixedLevels && w ? writtenMixedLevels(a.mixedLevels, w) : a.mixedLevels;
  const notRun = w && w.notRun.includes(1) ? own(w.notRun) : null;
  const { kept, dropped } = capFindings(a.findings, o.maxDiagnostics);
  const diagnostics = kept.map((f) => toDiagnostic(f, lines, o.uri, o.docsBase));
  if (dropped > 0) diagnostics.push(droppedNote(dropped, o.maxDiagnostics));
  const snapshot: AnalysisSnapshot = {
    millis: 0, title: a.title, history, lineStarts: own(lineStarts),
    observedWrite: own(rf.observedWrite), observedTxn: own(rf.observedTxn), wrSource: own(rf.wrSource),
    writeKeyStart: own(rf.writeKeyStart), writeKeys: own(rf.writeKeys),
    forced, levels: w ? a.levels.map((v) => writtenVerdict(v, w)) : a.levels, mixed: a.mixed && w ? writtenVerdict(a.mixed, w) : a.mixed, mixedLevels, diagnostics,
    errors: count(a.findings, 'error'), warnings: count(a.findings, 'warning'), partial: a.partial, notRun,
  };
  snapshot.millis = performance.now() - started;
  return { snapshot, transfer };
}

function count(findings: readonly Finding[], severity: Finding['severity']): number {
  let n = 0;
  for (const f of findings) if (f.severity === severity) n++;
  return n;
}

function droppedNote(dropped: number, max: number): Diagnostic {
  return {
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: SEVERITY.information, source: DIAGNOSTIC_SOURCE,
    message: `${dropped} more findings are not shown: only the first ${max} (errors first) are reported`,
  };
}

/** Offsets where lines start, as LineIndex.ofText computes them. */
export function lineStartsOf(text: string): Int32Array {
  return textLineStarts(text);
}
