// Editor queries over an analysed history: what stands at an offset, who read a write, which co edges a read forced.

import type { Span } from './model/diagnostics.ts';
import { BOTTOM, type History, type HistoryRanges } from './model/history.ts';

/** A relation from one id to many, laid out by source: targets of s are items[start[s] .. start[s+1]). */
export interface Csr1 {
  start: Int32Array;
  items: Int32Array;
}

/** Groups indices i of `keys` by keys[i] (entries < 0 are left out), in increasing i per group. */
export function groupBy(keys: Int32Array, length: number, groups: number): Csr1 {
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < length; i++) {
    const k = keys[i];
    if (k >= 0 && k < groups) start[k + 1]++;
  }
  for (let g = 0; g < groups; g++) start[g + 1] += start[g];
  const fill = start.slice(0, groups);
  const items = new Int32Array(start[groups]);
  for (let i = 0; i < length; i++) {
    const k = keys[i];
    if (k >= 0 && k < groups) items[fill[k]++] = i;
  }
  return { start, items };
}

/** Every read op that observed write op w: the references of a write. */
export function readsOfWrite(readsByWrite: Csr1, w: number): Int32Array {
  return readsByWrite.items.subarray(readsByWrite.start[w], readsByWrite.start[w + 1]);
}

/** The op whose source span [start, end) contains offset, or -1. */
export function opAt(h: History, offset: number, order: Int32Array | null = null): number {
  const r = h.ranges;
  if (!r || h.opCount === 0) return -1;
  const at = (i: number): number => (order ? order[i] : i);
  // Ops stand in source order in .hist files; `order` sorts them when they do not.
  let lo = 0;
  let hi = h.opCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (r.opStart[at(mid)] <= offset) lo = mid;
    else hi = mid - 1;
  }
  const o = at(lo);
  return r.opStart[o] <= offset && offset < r.opEnd[o] ? o : -1;
}

/**
 * The transaction whose header span [start, end) contains offset, or -1. Transaction ids
 * are canonical, not in source order once sessions stand out of name order: `order` (see
 * txnsBySourceOrder) lists them by header position then.
 */
export function txnHeaderAt(h: History, offset: number, order: Int32Array | null = null): number {
  const r = h.ranges;
  const t = lowerTxn(h, offset, order);
  return r && t >= 1 && r.txnStart[t] <= offset && offset < r.txnEnd[t] ? t : -1;
}

/**
 * What a position in the source names: a transaction header (txn ≥ 1, op -1), an operation (op ≥
 * 0, txn -1), or nothing (both -1). A header spans its operations in Jepsen histories (one line per
 * transaction) and wins there; a header that is exactly one operation's span (a plume transaction's
 * header is its first line) is that operation, the thing written there.
 */
export function headerOrOpAt(h: History, offset: number, txnOrder: Int32Array | null, opOrder: Int32Array | null): { txn: number; op: number } {
  const t = txnHeaderAt(h, offset, txnOrder);
  const o = opAt(h, offset, opOrder);
  if (t < 1) return { txn: -1, op: o };
  const r = h.ranges as HistoryRanges;
  let same = 0;
  for (let u = h.txnOpStart[t]; u < h.txnOpStart[t + 1] && same < 2; u++) if (r.opStart[u] === r.txnStart[t] && r.opEnd[u] === r.txnEnd[t]) same++;
  return o >= 0 && h.opTxn[o] === t && same === 1 && r.opStart[o] === r.txnStart[t] && r.opEnd[o] === r.txnEnd[t] ? { txn: -1, op: o } : { txn: t, op: -1 };
}

/** The last transaction whose header starts at or before offset, or -1. */
function lowerTxn(h: History, offset: number, order: Int32Array | null): number {
  const r = h.ranges;
  if (!r || h.txnCount <= 1) return -1;
  // order holds transactions 1.. at 0..; without it ids 1.. are in source order.
  const at = (i: number): number => (order ? order[i - 1] : i);
  let lo = 1;
  let hi = h.txnCount - 1;
  if (r.txnStart[at(lo)] > offset) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (r.txnStart[at(mid)] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return at(lo);
}

/** Transactions 1.. sorted by header position, or null when their ids already are. */
export function txnsBySourceOrder(h: History): Int32Array | null {
  const r = h.ranges;
  if (!r) return null;
  let sorted = true;
  for (let t = 2; t < h.txnCount && sorted; t++) if (r.txnStart[t] < r.txnStart[t - 1]) sorted = false;
  if (sorted) return null;
  const order = Int32Array.from({ length: h.txnCount - 1 }, (_, i) => i + 1);
  return order.sort((a, b) => r.txnStart[a] - r.txnStart[b] || a - b);
}

/** Whether op spans stand in increasing source order (true for .hist files whose sessions stand in name order). */
export function opsInSourceOrder(h: History): boolean {
  const r = h.ranges;
  if (!r) return true;
  for (let o = 1; o < h.opCount; o++) if (r.opStart[o] < r.opStart[o - 1]) return false;
  return true;
}

/**
 * Op ids sorted by their start offset (then id; only needed when opsInSourceOrder is false). A
 * transaction's ops stand together in a .hist text, in id order: its transactions sorted by their
 * first op, ops concatenated, give that order in O(ops + transactions log transactions) once
 * checked. Measured on 1M-op plume files: 37–46 ms where sorting every op took 155–212 ms (the
 * editor's main thread, at the first hover). Transactions whose ops interleave fall back to that sort.
 */
export function opsBySourceOrder(h: History): Int32Array {
  const order = new Int32Array(h.opCount);
  for (let o = 0; o < h.opCount; o++) order[o] = o;
  const r = h.ranges;
  if (!r) return order;
  const start = r.opStart;
  const { txnOpStart } = h;
  let m = 0;
  const txns = new Int32Array(h.txnCount);
  const first = new Int32Array(h.txnCount);
  for (let t = 0; t < h.txnCount; t++) {
    if (txnOpStart[t + 1] === txnOpStart[t]) continue;
    txns[m++] = t;
    first[t] = start[txnOpStart[t]];
  }
  const byFirst = txns.subarray(0, m).sort((a, b) => first[a] - first[b] || a - b);
  let n = 0;
  for (let i = 0; i < m; i++) for (let o = txnOpStart[byFirst[i]]; o < txnOpStart[byFirst[i] + 1]; o++) order[n++] = o;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    const a = order[i - 1];
    const b = order[i];
    sorted = start[a] < start[b] || (start[a] === start[b] && a < b);
  }
  return sorted ? order : order.sort((a, b) => start[a] - start[b] || a - b);
}

/** A transaction's whole extent: its header through its last operation. */
export function txnExtent(h: History, t: number): Span {
  const r = h.ranges;
  if (!r || t === BOTTOM) return { start: 0, end: 0 };
  let end = r.txnEnd[t];
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) end = Math.max(end, r.opEnd[o]);
  return { start: r.txnStart[t], end };
}

/** A session's whole extent: its header through its last transaction. */
export function sessionExtent(h: History, s: number): Span {
  const r = h.ranges;
  if (!r) return { start: 0, end: 0 };
  let start = r.sessionStart[s];
  let end = r.sessionEnd[s];
  for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
    const e = txnExtent(h, h.sessionTxns[i]);
    start = Math.min(start, e.start);
    end = Math.max(end, e.end);
  }
  return { start, end };
}
