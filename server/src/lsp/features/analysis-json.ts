// The `isocheck/analysis` answer: a document's analysis as plain JSON for the graph view.

import type { Verdict } from '../../engine/analyze.ts';
import type { Span } from '../../engine/diagnostics.ts';
import { EK_CO } from '../../engine/edges.ts';
import { BOTTOM, OP_READ } from '../../engine/history.ts';
import { LEVELS } from '../../engine/levels.ts';
import { txnExtent } from '../../engine/queries.ts';
import type { Witness } from '../../engine/witness.ts';
import type {
  AnalysisResult, ForcedJson, JsonRange, SessionJson, TransactionJson, VerdictJson, WitnessJson, WrEdgeJson,
} from '../../protocol/shapes.ts';
import type { DocModel } from '../doc-model.ts';
import { levelStates, stateOf, strongestHolding } from './summary.ts';

export const DEFAULT_LIMIT = 20_000;

export function analysisJson(m: DocModel, limit = DEFAULT_LIMIT): AnalysisResult {
  const h = m.history;
  const r = m.ranges;
  const range = (s: Span): JsonRange => m.lines.range(s.start, s.end);
  const max = Math.max(0, Math.floor(limit));

  const transactions: TransactionJson[] = [];
  for (let t = 0; t < h.txnCount; t++) {
    const bottom = t === BOTTOM;
    transactions.push({
      id: t, name: bottom ? '⊥' : h.names.txnName(t), session: h.txnSession[t], position: h.txnIndexInSession[t],
      level: h.txnLevel[t] >= 0 ? LEVELS[h.txnLevel[t]] : null, aborted: h.txnAborted[t] === 1,
      range: bottom ? null : m.lines.range(r.txnStart[t], r.txnEnd[t]), extent: bottom ? null : range(txnExtent(h, t)),
      operations: h.txnOpStart[t + 1] - h.txnOpStart[t],
    });
  }
  const sessions: SessionJson[] = [];
  for (let s = 0; s < h.sessionCount; s++) {
    sessions.push({
      id: s, name: h.names.sessionName(s), range: m.lines.range(r.sessionStart[s], r.sessionEnd[s]),
      transactions: Array.from(h.sessionTxns.subarray(h.sessionTxnStart[s], h.sessionTxnStart[s + 1])),
    });
  }

  // wr: every read between two distinct transactions that observed a write (or ⊥), sound or not.
  const wr: WrEdgeJson[] = [];
  let wrTotal = 0;
  const { observedTxn, observedWrite } = m.readsFrom;
  for (let o = 0; o < h.opCount; o++) {
    if (h.opKind[o] !== OP_READ || observedTxn[o] < 0 || observedTxn[o] === h.opTxn[o]) continue;
    wrTotal++;
    if (wr.length >= max) continue;
    const w = observedWrite[o];
    wr.push({
      from: observedTxn[o], to: h.opTxn[o], key: h.names.keyName(h.opKey[o]),
      read: m.lines.range(r.opStart[o], r.opEnd[o]), write: w >= 0 ? m.lines.range(r.opStart[w], r.opEnd[w]) : null,
    });
  }

  const forced: ForcedJson[] = m.rules.map((rule) => {
    const f = m.forced(rule)!;
    const n = Math.min(f.a.length, max);
    const edges = Array.from({ length: n }, (_, i) => {
      const e = m.explain.edge({ from: f.from[i], to: f.to[i], kind: EK_CO, a: f.a[i], b: f.b[i] });
      return { from: e.from, to: e.to, key: h.names.keyName(h.opKey[f.a[i]]), read: range(e.span), because: e.because };
    });
    return { level: rule, edges, total: f.a.length };
  });

  const witness = (w: Witness): WitnessJson => ({
    anomaly: w.anomaly, message: w.message, range: range(w.span),
    cycle: w.edges.map((e) => ({ from: e.from, to: e.to, kind: e.kind, key: e.key >= 0 ? h.names.keyName(e.key) : null, because: e.because, range: range(e.span) })),
  });
  const verdict = (v: Verdict): VerdictJson => ({ level: v.level, state: stateOf(v), witness: v.witness ? witness(v.witness) : null, note: v.note });

  return {
    uri: m.uri, version: m.version, title: m.title,
    levels: m.levels.map(verdict), mixed: m.mixed ? verdict(m.mixed) : null, strongest: strongestHolding(levelStates(m)),
    sessions, transactions, wr, wrTotal, forced,
  };
}
