// The graph's order edges as plain JSON: list-append ww / rw (and wr) edges from the inference, rt edges from `@` intervals.

import type { Span } from '../model/diagnostics.ts';
import type { History } from '../model/history.ts';
import { opSpan, txnSpan } from '../model/reads-from.ts';
import { LK_RW, LK_WR, LK_WW, type ListInference } from '../listappend/infer.ts';
import { explainEdge } from '../listappend/list-analysis.ts';
import type { JsonRange, OrderEdgeJson, WrEdgeJson } from '../../protocol/shapes.ts';

/** Edges explained in full (a sentence quotes the whole list read; past this, a short one keeps the JSON linear). */
const EXPLAINED = 2_000;

export interface ListEdgesJson {
  wr: WrEdgeJson[];
  wrTotal: number;
  order: OrderEdgeJson[];
  total: number;
}

/** The wr, ww and rw edges of a list-append inference, at most `max` of each list. */
export function listEdgesJson(inf: ListInference, range: (s: Span) => JsonRange, max: number, keep: Uint8Array | null = null): ListEdgesJson {
  const h = inf.h;
  const e = inf.edges;
  const out: ListEdgesJson = { wr: [], wrTotal: 0, order: [], total: 0 };
  let explained = 0;
  for (let i = 0; i < e.length; i++) {
    const kind = e.kind.data[i];
    if (kind !== LK_WR && kind !== LK_WW && kind !== LK_RW) continue;
    const from = e.from.data[i];
    const to = e.to.data[i];
    const k = e.key.data[i];
    const op = e.op.data[i];
    const key = k >= 0 ? h.names.keyName(k) : null;
    const both = keep === null || (keep[from] === 1 && keep[to] === 1);
    if (kind === LK_WR) {
      out.wrTotal++;
      if (!both) continue;
      if (out.wr.length >= max || op < 0 || key === null) continue;
      const w = inf.appenderOf(k, e.a.data[i]);
      out.wr.push({ from, to, key, read: range(opSpan(h, op)), write: w >= 0 ? range(opSpan(h, w)) : null });
      continue;
    }
    out.total++;
    if (out.order.length >= max || !both) continue;
    const name = kind === LK_WW ? 'ww' : 'rw';
    if (explained < EXPLAINED) {
      explained++;
      const x = explainEdge(inf, { from, to, kind, index: i });
      out.order.push({ from, to, kind: name, key, because: x.because, range: range(x.span) });
    } else {
      const because = kind === LK_WW
        ? `${h.names.txnName(to)}'s append to ${key} follows ${h.names.txnName(from)}'s in the version order (its hover explains why)`
        : `${h.names.txnName(from)} read ${key} without ${h.names.txnName(to)}'s append (its hover explains why)`;
      out.order.push({ from, to, kind: name, key, because, range: range(op >= 0 ? opSpan(h, op) : txnSpan(h, to)) });
    }
  }
  return out;
}

/**
 * rt edges as the transitive reduction of real time: A → B when A ended before B started and no C
 * started after A ended and ended before B started. Sources are transactions with a known end
 * (not unknown), targets any with an interval; `included` (list-append) or not aborted. Pairs in
 * one session are left out: session order already draws them. At most `max` edges (between kept
 * transactions, when `keep` is set); `total` counts all.
 */
export function realTimeEdges(h: History, included: Uint8Array | null, range: (s: Span) => JsonRange, max: number, keep: Uint8Array | null = null): { edges: OrderEdgeJson[]; total: number } {
  const ts = h.txnTimeStart;
  const te = h.txnTimeEnd;
  const edges: OrderEdgeJson[] = [];
  if (!ts || !te) return { edges, total: 0 };
  const inGraph = (t: number): boolean => (included ? included[t] === 1 : h.txnAborted[t] === 0) && !Number.isNaN(ts[t]) && !Number.isNaN(te[t]);
  const enders: number[] = [];
  for (let t = 1; t < h.txnCount; t++) if (inGraph(t) && h.txnUnknown?.[t] !== 1) enders.push(t);
  enders.sort((a, b) => te[a] - te[b] || a - b);
  const m = enders.length;
  // The latest start among the enders up to j (they end before any B that enders[j] precedes).
  const maxStart = new Float64Array(m);
  for (let j = 0; j < m; j++) maxStart[j] = Math.max(j > 0 ? maxStart[j - 1] : -Infinity, ts[enders[j]]);
  const firstEndAtLeast = (x: number): number => {
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (te[enders[mid]] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let total = 0;
  for (let b = 1; b < h.txnCount; b++) {
    if (!inGraph(b)) continue;
    const j = firstEndAtLeast(ts[b]) - 1;
    if (j < 0) continue;
    for (let i = firstEndAtLeast(maxStart[j]); i <= j; i++) {
      const a = enders[i];
      if (a === b || h.txnSession[a] === h.txnSession[b]) continue;
      total++;
      if (edges.length >= max || (keep !== null && (keep[a] !== 1 || keep[b] !== 1))) continue;
      const A = h.names.txnName(a);
      const B = h.names.txnName(b);
      edges.push({ from: a, to: b, kind: 'rt', key: null, because: `${A} ended (at ${te[a]}) before ${B} started (at ${ts[b]})`, range: range(txnSpan(h, b)) });
    }
  }
  return { edges, total };
}
