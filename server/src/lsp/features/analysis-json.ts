// The `isocheck/analysis` answer: the graph's JSON (the server builds it in a worker from an Analysis, capped to a neighbourhood on large histories; the playground from a DocModel).

import type { Analysis } from '../../engine/analyze.ts';
import { analysisData, DEFAULT_LIMIT, sourceOfAnalysis } from '../../engine/export/analysis-data.ts';
import type { AnalysisResult, TransactionJson } from '../../protocol/shapes.ts';
import type { DocModel } from '../doc-model.ts';
import { listInference } from './list-hover.ts';

export { DEFAULT_LIMIT };

/** Histories with more transactions than this get only their witnesses' neighbourhood in full. */
export const MAX_GRAPH_TRANSACTIONS = 5000;

/** In an analysis worker, from the engine's Analysis (the language server). */
export function analysisJsonOfAnalysis(a: Analysis, uri: string, version: number, limit = DEFAULT_LIMIT, maxTransactions = MAX_GRAPH_TRANSACTIONS): AnalysisResult {
  return capToNeighbourhood(analysisData(sourceOfAnalysis(a, uri, version), limit), maxTransactions);
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
  }, limit);
}

/**
 * Keeps every transaction's identity (the graph indexes them by id) but describes in full only the
 * transactions of the witness cycles and their neighbours in session order and reads-from, at most
 * `max` of them; edges between other transactions are left out. A history without witnesses keeps
 * its first `max` transactions.
 */
export function capToNeighbourhood(r: AnalysisResult, max: number): AnalysisResult {
  const n = r.transactions.length;
  const total = n - 1;
  if (total <= max) return r;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  let shown = 0;
  const add = (t: number): void => {
    if (t > 0 && t < n && !keep[t] && shown < max) {
      keep[t] = 1;
      shown++;
    }
  };
  const seeds: number[] = [];
  for (const v of [...r.levels, ...(r.mixed ? [r.mixed] : [])]) for (const e of v.witness?.cycle ?? []) seeds.push(e.from, e.to);
  for (const t of seeds) add(t);
  if (shown === 0) {
    for (let t = 1; t < n; t++) add(t);
  } else {
    const seed = keep.slice();
    for (const s of r.sessions) {
      const ts = s.transactions;
      for (let i = 0; i < ts.length; i++) if (seed[ts[i]]) { add(ts[i - 1] ?? 0); add(ts[i + 1] ?? 0); }
    }
    for (const e of r.wr) if (seed[e.from] || seed[e.to]) { add(e.from); add(e.to); }
  }
  const stub = (t: TransactionJson): TransactionJson => ({ ...t, range: null, extent: null, ops: [] });
  const both = (e: { from: number; to: number }): boolean => keep[e.from] === 1 && keep[e.to] === 1;
  return {
    ...r,
    transactions: r.transactions.map((t) => (keep[t.id] ? t : stub(t))),
    wr: r.wr.filter(both),
    forced: r.forced.map((f) => ({ ...f, edges: f.edges.filter(both) })),
    ...(r.order ? { order: r.order.filter(both) } : {}),
    truncated: { reason: `too large to draw whole (${total} transactions): showing the witnesses' neighbourhood`, shown, total },
  };
}
