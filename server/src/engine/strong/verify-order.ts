// Checks one commit order against per-transaction levels exactly (MixIso's least visibility fixpoint).

import { sessionPredecessors } from '../model/happens-before.ts';
import { BOTTOM, type History } from '../model/history.ts';
import { levelRow, weakReaderRule, type Level } from '../levels/levels.ts';
import { writesKey, type ReadsFrom } from '../model/reads-from.ts';

/**
 * Why an order fails. 'ext': the read's transaction sees `t2`, which writes the key read and commits
 * after the transaction read from. 'rc': an RC read follows an earlier read (premiseOp) from `t2`,
 * which writes the key and commits after the transaction read from. 'vis': the transaction must see
 * `t2` (its level's rules), but `t2` commits after it; readOp is then its first read. 'rt': the
 * transaction runs at a real-time level (SSER) and `t2` ended before it started, yet commits after
 * it; readOp is its first read (else its first operation, or -1 when it has none).
 */
export interface OrderFailure {
  kind: 'ext' | 'rc' | 'vis' | 'rt';
  /** The transaction whose constraint fails (the read's, for 'ext' and 'rc'). */
  txn: number;
  readOp: number;
  t2: number;
  /** 'rc': the earlier read of the same transaction that read from t2; else -1. */
  premiseOp: number;
}

/**
 * `order` lists the committed transactions (⊥ excluded) in commit order and must extend so ∪ wr.
 * For each transaction, in that order, its least visible set: so ∪ wr predecessors, closed under
 * its level's rules (TransVis for CC and PSI, Prefix for PC and SI, NoConflict for PSI and SI,
 * TotalVis for SER); an RC transaction's reads follow the RC row instead. Then Ext: every external
 * read returns the latest visible write of its key. Returns null when the order works.
 */
export function verifyOrder(h: History, rf: ReadsFrom, levelOf: (t: number) => Level, order: Int32Array): OrderFailure | null {
  return visibility(h, rf, levelOf, order, null);
}

/**
 * The visible set of transaction t under the commit order `order` (MixIso's least fixpoint):
 * what t had to see. Empty when the order fails before reaching t.
 */
export function visibleSet(h: History, rf: ReadsFrom, levelOf: (t: number) => Level, order: Int32Array, t: number): number[] {
  const out: number[] = [];
  visibility(h, rf, levelOf, order, { t, visible: (u) => out.push(u) });
  return out;
}

function visibility(h: History, rf: ReadsFrom, levelOf: (t: number) => Level, order: Int32Array,
  report: { t: number; visible: (u: number) => void } | null): OrderFailure | null {
  const n = order.length;
  const pos = new Int32Array(h.txnCount).fill(-1);
  for (let i = 0; i < n; i++) pos[order[i]] = i;
  const words = (n + 31) >>> 5;
  const vis = new Uint32Array(n * words); // row i: the visible set of order[i], by position
  const has = (row: number, p: number): boolean => (vis[row * words + (p >>> 5)] & (1 << (p & 31))) !== 0;
  const soPrev = sessionPredecessors(h);
  const queue = new Int32Array(n);
  // Real time: the least end time from each position on (NaN: no times), to find a later transaction that ended earlier.
  const te = h.txnTimeEnd;
  const ts = h.txnTimeStart;
  const minEndFrom = new Float64Array(n + 1).fill(Infinity);
  // An unknown transaction's end is not its completion: it ends nothing before anyone (real-time.ts).
  const ends = (t: number): boolean => te !== undefined && !Number.isNaN(te[t]) && h.txnUnknown?.[t] !== 1;
  if (te) for (let i = n - 1; i >= 0; i--) minEndFrom[i] = !ends(order[i]) ? minEndFrom[i + 1] : Math.min(minEndFrom[i + 1], te[order[i]]);
  for (let i = 0; i < n; i++) {
    const t = order[i];
    const level = levelOf(t);
    const rules = levelRow(level);
    if (rules.realTime && ts && te && minEndFrom[i + 1] < ts[t]) {
      let p = i + 1;
      while (!(ends(order[p]) && te[order[p]] < ts[t])) p++;
      return { kind: 'rt', txn: t, readOp: firstRead(h, rf, t), t2: order[p], premiseOp: -1 };
    }
    const row = i * words;
    let head = 0;
    let tail = 0;
    const add = (p: number): void => {
      const w = row + (p >>> 5);
      const bit = 1 << (p & 31);
      if ((vis[w] & bit) !== 0) return;
      vis[w] |= bit;
      queue[tail++] = p;
    };
    // Session: all so-predecessors (the previous one's row holds the rest only for closed levels).
    for (let u = soPrev[t]; u >= 0; u = soPrev[u]) add(pos[u]);
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOTTOM) add(pos[rf.wrSource[o]]);
    if (rules.visibility.total) for (let p = 0; p < i; p++) add(p);
    if (rules.visibility.noConflict) {
      for (let p = 0; p < i; p++) if (conflicts(rf, order[p], t)) add(p);
    }
    const transitive = rules.visibility.transitive;
    const prefix = rules.visibility.prefix;
    let maxPos = -1;
    while (head < tail) {
      const p = queue[head++];
      if (p >= i) return { kind: 'vis', txn: t, readOp: firstRead(h, rf, t), t2: order[p], premiseOp: -1 }; // VIS ⊆ AR fails
      if (p > maxPos) maxPos = p;
      if (transitive) for (let w = 0; w < words; w++) {
        let bits = vis[p * words + w] & ~vis[row + w];
        while (bits !== 0) {
          const b = 31 - Math.clz32(bits & -bits);
          bits &= bits - 1;
          add(w * 32 + b);
        }
      }
      if (prefix && head === tail) for (let q = 0; q < maxPos; q++) add(q);
    }
    if (report?.t === t) {
      for (let p = 0; p < i; p++) if (has(i, p)) report.visible(order[p]);
      return null;
    }
    // Ext (or the RC row).
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const t1 = rf.wrSource[o];
      if (t1 < 0) continue;
      const x = h.opKey[o];
      if (weakReaderRule(level) === 'RC') {
        for (let q = h.txnOpStart[t]; q < o; q++) {
          const t2 = rf.wrSource[q];
          if (t2 > BOTTOM && t2 !== t1 && writesKey(rf, t2, x) && (t1 === BOTTOM || pos[t2] > pos[t1])) return { kind: 'rc', txn: t, readOp: o, t2, premiseOp: q };
        }
        continue;
      }
      for (let p = 0; p < i; p++) {
        const t2 = order[p];
        if (t2 === t1 || !has(i, p) || !writesKey(rf, t2, x)) continue;
        if (t1 === BOTTOM || p > pos[t1]) return { kind: 'ext', txn: t, readOp: o, t2, premiseOp: -1 };
      }
    }
  }
  return null;
}

function conflicts(rf: ReadsFrom, a: number, b: number): boolean {
  for (let j = rf.writeKeyStart[a]; j < rf.writeKeyStart[a + 1]; j++) if (writesKey(rf, b, rf.writeKeys[j])) return true;
  return false;
}

/** t's first checkable read, else its first operation, else -1 (a transaction with no operations). */
function firstRead(h: History, rf: ReadsFrom, t: number): number {
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] >= 0) return o;
  return h.txnOpStart[t] < h.txnOpStart[t + 1] ? h.txnOpStart[t] : -1;
}
