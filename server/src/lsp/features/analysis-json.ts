// The `isocheck/analysis` answer (built in an analysis worker): the graph's JSON, capped to a neighbourhood on large histories.

import type { Analysis } from '../../engine/analyze.ts';
import { analysisData, DEFAULT_LIMIT, sourceOfAnalysis } from '../../engine/export/analysis-data.ts';
import type { AnalysisResult, TransactionJson } from '../../protocol/shapes.ts';

export { DEFAULT_LIMIT };

/** Histories with more transactions than this get only their witnesses' neighbourhood in full. */
export const MAX_GRAPH_TRANSACTIONS = 5000;

export function analysisJson(a: Analysis, uri: string, version: number, limit = DEFAULT_LIMIT, maxTransactions = MAX_GRAPH_TRANSACTIONS): AnalysisResult {
  return capToNeighbourhood(analysisData(sourceOfAnalysis(a, uri, version), limit), maxTransactions);
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
    truncated: { reason: `too large to draw whole (${total} transactions): showing the witnesses' neighbourhood`, shown, total },
  };
}
