// The `isocheck/analysis` answer: the graph's JSON (the server builds it in a worker from an Analysis, only a neighbourhood of large histories; the playground from a DocModel).

import type { Analysis } from '../../engine/analyze.ts';
import { analysisData, DEFAULT_LIMIT, writtenSourceOfAnalysis, type AnalysisSource } from '../../engine/export/analysis-data.ts';
import { OP_READ } from '../../engine/model/history.ts';
import type { AnalysisResult } from '../../protocol/shapes.ts';
import type { DocModel } from '../doc-model.ts';
import { listInference } from './list-hover.ts';

export { DEFAULT_LIMIT };

/** Histories with more transactions than this get only their witnesses' neighbourhood in full. */
export const MAX_GRAPH_TRANSACTIONS = 5000;

/**
 * In an analysis worker, from the engine's Analysis (the language server): every transaction as
 * written (the text's), a large history's witness neighbourhood only.
 */
export function analysisJsonOfAnalysis(a: Analysis, uri: string, version: number, limit = DEFAULT_LIMIT, maxTransactions = MAX_GRAPH_TRANSACTIONS): AnalysisResult {
  const src = writtenSourceOfAnalysis(a, uri, version);
  const hood = neighbourhood(src, maxTransactions);
  const r = analysisData(src, limit, hood?.keep ?? null);
  if (!hood) return r;
  const total = src.history.txnCount - 1;
  return { ...r, truncated: { reason: `too large to draw whole (${total} transactions): showing the witnesses' neighbourhood`, shown: hood.shown, total } };
}

/** From a snapshot's DocModel (the playground, whose worker sends snapshots), uncapped. */
export function analysisJson(m: DocModel, limit = DEFAULT_LIMIT): AnalysisResult {
  return analysisData({
    uri: m.uri, version: m.version, title: m.title, history: m.history, lines: m.lines, readsFrom: m.readsFrom,
    levels: m.levels, mixed: m.mixed, rules: m.rules,
    forced: (rule) => {
      const f = m.forced(rule);
      return f ? { from: f.from, to: f.to, a: f.a, b: f.b, length: f.a.length } : undefined;
    },
    get explain() { return m.explain; },
    list: listInference(m),
    mixedLevels: m.mixedLevels,
    notRun: m.notRun,
  }, limit);
}

/**
 * The transactions a large history's graph describes in full: those of the witness cycles and their
 * neighbours in session order and reads-from, at most `max` of them (the first `max` when there is no
 * witness); null when the history has at most `max` transactions. Computed on the engine's data before
 * the JSON is built, so that edges outside it are never explained.
 */
export function neighbourhood(a: AnalysisSource, max: number): { keep: Uint8Array; shown: number } | null {
  const h = a.history;
  const n = h.txnCount;
  if (n - 1 <= max) return null;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  let shown = 0;
  const add = (t: number): void => {
    if (t > 0 && t < n && !keep[t] && shown < max) {
      keep[t] = 1;
      shown++;
    }
  };
  for (const v of [...a.levels, ...(a.mixed ? [a.mixed] : [])]) for (const e of v.witness?.edges ?? []) { add(e.from); add(e.to); }
  if (shown === 0) {
    for (let t = 1; t < n; t++) add(t);
    return { keep, shown };
  }
  const seed = keep.slice();
  for (let s = 0; s < h.sessionCount; s++) {
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      if (!seed[h.sessionTxns[i]]) continue;
      if (i > h.sessionTxnStart[s]) add(h.sessionTxns[i - 1]);
      if (i + 1 < h.sessionTxnStart[s + 1]) add(h.sessionTxns[i + 1]);
    }
  }
  const { observedTxn } = a.readsFrom;
  for (let o = 0; o < h.opCount; o++) {
    const from = observedTxn[o];
    const to = h.opTxn[o];
    if (h.opKind[o] === OP_READ && from >= 0 && from !== to && (seed[from] || seed[to])) { add(from); add(to); }
  }
  const list = a.list;
  if (list) {
    const e = list.edges;
    for (let i = 0; i < e.length; i++) {
      const from = e.from.data[i];
      const to = e.to.data[i];
      if (seed[from] || seed[to]) { add(from); add(to); }
    }
  }
  return { keep, shown };
}
