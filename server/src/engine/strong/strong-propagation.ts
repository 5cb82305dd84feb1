// Polynomial necessary conditions for PC, SI and SER: commit-order edges every valid order must contain.

import { EdgeList } from '../model/edges.ts';
import { sessionPredecessors } from '../model/happens-before.ts';
import { BOTTOM, type History } from '../model/history.ts';
import { isSnapshotLevel, levelRow, type Level } from '../levels/levels.ts';
import { reachability } from '../util/reachability.ts';
import { writesKey, type ReadsFrom } from '../model/reads-from.ts';

/**
 * For a read of x in t3 from t1 and another committed writer t2 of x, a snapshot reader t3 (PC,
 * SI: its snapshot holds its so ∪ wr predecessors u; SER: u is t3 itself) gives two rules:
 * - if t2 precedes some such u in every order, t3 sees t2, so t2 must commit before t1 (ww);
 * - if t1 precedes t2 in every order, t3 must not see t2, so every such u commits before t2 (rw).
 * Applied to a fixpoint over the reachability of so ∪ wr ∪ `known` ∪ the edges found. Returns
 * the edges found, or null when they close a cycle: then no commit order exists.
 */
export function propagateSnapshotOrder(h: History, rf: ReadsFrom, levelOf: (t: number) => Level, known: EdgeList, maxRounds = 50): EdgeList | null {
  const n = h.txnCount;
  const edges = new EdgeList();
  const adj: number[][] = Array.from({ length: n }, () => []);
  const addEdge = (a: number, b: number): void => {
    if (a !== b && !adj[a].includes(b)) adj[a].push(b);
  };
  const preds: number[][] = Array.from({ length: n }, () => []);
  const soPrev = sessionPredecessors(h);
  for (let t = 1; t < n; t++) {
    if (soPrev[t] < 0) continue;
    addEdge(soPrev[t], t);
    preds[t].push(soPrev[t]);
  }
  const reads: number[] = [];
  for (let t = 1; t < n; t++) {
    if (h.txnAborted[t] === 1) continue;
    addEdge(BOTTOM, t);
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const src = rf.wrSource[o];
      if (src < 0) continue;
      const l = levelOf(t);
      if (isSnapshotLevel(l)) reads.push(o);
      if (src !== BOTTOM) {
        addEdge(src, t);
        if (!preds[t].includes(src)) preds[t].push(src);
      }
    }
  }
  for (let i = 0; i < known.length; i++) addEdge(known.from.data[i], known.to.data[i]);
  // Writers of each key (committed).
  const writers: number[][] = Array.from({ length: h.keyCount }, () => []);
  for (let t = 1; t < n; t++) {
    if (h.txnAborted[t] === 1) continue;
    for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) writers[rf.writeKeys[j]].push(t);
  }

  const conflictCache = new Map<number, boolean>();
  const conflicts = (a: number, b: number): boolean => {
    const key = a * n + b;
    let c = conflictCache.get(key);
    if (c === undefined) {
      c = false;
      for (let j = rf.writeKeyStart[a]; j < rf.writeKeyStart[a + 1] && !c; j++) c = writesKey(rf, b, rf.writeKeys[j]);
      conflictCache.set(key, c);
    }
    return c;
  };
  const words = (n + 31) >>> 5;
  for (let round = 0; round < maxRounds; round++) {
    const reach = reachability(n, adj);
    if (!reach) return null;
    const r = (a: number, b: number): boolean => (reach[a * words + (b >>> 5)] & (1 << (b & 31))) !== 0;
    let added = 0;
    for (const o of reads) {
      const t3 = h.opTxn[o];
      const t1 = rf.wrSource[o];
      const x = h.opKey[o];
      const level = levelOf(t3);
      const ser = levelRow(level).visibility.total;
      const us = ser ? [t3] : preds[t3];
      for (const t2 of writers[x]) {
        if (t2 === t1 || t2 === t3) continue;
        if (t1 !== BOTTOM && r(t2, t1)) continue; // already ordered as required
        // SI's NoConflict: a writer conflicting with t3 that commits before it is in its snapshot.
        const conflict = levelRow(level).visibility.noConflict && conflicts(t2, t3);
        if (conflict && (t1 === BOTTOM || r(t1, t2))) {
          if (r(t2, t3)) return null;
          if (!r(t3, t2)) {
            addEdge(t3, t2);
            edges.add(t3, t2, 2);
            added++;
          }
        } else if (conflict && r(t2, t3)) {
          if (t1 === BOTTOM || r(t1, t2)) return null;
          addEdge(t2, t1);
          edges.add(t2, t1, 2);
          added++;
          continue;
        }
        const seen = us.some((u) => u === t2 || r(t2, u));
        if (seen) {
          if (t1 === BOTTOM || r(t1, t2)) return null; // t2 must both precede and follow t1
          addEdge(t2, t1);
          edges.add(t2, t1, 2);
          added++;
        } else if (t1 === BOTTOM || r(t1, t2)) {
          for (const u of us) {
            if (r(u, t2)) continue;
            if (r(t2, u)) return null;
            addEdge(u, t2);
            edges.add(u, t2, 2);
            added++;
          }
        }
      }
    }
    if (added === 0) return edges;
  }
  return edges;
}

export { writesKey };
