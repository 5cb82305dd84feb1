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
/** Work steps (a writer tested for a read, a snapshot member tested, a reachability word merged) that the propagation may take. */
export const PROPAGATION_STEPS = 50_000_000;

/** What a propagation did: its work steps and rounds (tests assert on them). */
export interface PropagationStats {
  steps: number;
  rounds: number;
  /** True when it stopped at the step budget: the edges found so far are returned, each still necessary. */
  outOfSteps: boolean;
}

export function propagateSnapshotOrder(h: History, rf: ReadsFrom, levelOf: (t: number) => Level, known: EdgeList, maxRounds = 50,
  maxSteps = PROPAGATION_STEPS, stats?: PropagationStats): EdgeList | null {
  const n = h.txnCount;
  const words = (n + 31) >>> 5;
  const edges = new EdgeList();
  const adj: number[][] = Array.from({ length: n }, () => []);
  // The edges of adj as bit rows (the size of one reachability matrix): a membership test is O(1).
  const adjBits = new Uint32Array(n * words);
  const addEdge = (a: number, b: number): boolean => {
    if (a === b) return false;
    const i = a * words + (b >>> 5);
    const bit = 1 << (b & 31);
    if ((adjBits[i] & bit) !== 0) return false;
    adjBits[i] |= bit;
    adj[a].push(b);
    return true;
  };
  const preds: number[][] = Array.from({ length: n }, () => []);
  const soPrev = sessionPredecessors(h);
  for (let t = 1; t < n; t++) {
    if (soPrev[t] < 0) continue;
    addEdge(soPrev[t], t);
    preds[t].push(soPrev[t]);
  }
  // One read per (transaction, key, source): a repeated read gives the same rules again.
  const reads: number[] = [];
  const readSeen = new Set<number>();
  // preds[t] holds each source once (t itself too, when it read its own write).
  const predOf = new Int32Array(n).fill(-1);
  for (let t = 1; t < n; t++) {
    if (h.txnAborted[t] === 1) continue;
    addEdge(BOTTOM, t);
    readSeen.clear();
    const snapshot = isSnapshotLevel(levelOf(t));
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const src = rf.wrSource[o];
      if (src < 0) continue;
      const pair = h.opKey[o] * n + src;
      if (readSeen.has(pair)) continue;
      readSeen.add(pair);
      if (snapshot) reads.push(o);
      if (src === BOTTOM) continue;
      addEdge(src, t);
      if (predOf[src] !== t && soPrev[t] !== src) {
        predOf[src] = t;
        preds[t].push(src);
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

  // Whether a and b write a common key; b's keys marked once per read (b is the reader t3).
  const marked = new Uint8Array(h.keyCount);
  let markedTxn = -1;
  const conflicts = (a: number, b: number): boolean => {
    if (markedTxn !== b) {
      if (markedTxn >= 0) for (let j = rf.writeKeyStart[markedTxn]; j < rf.writeKeyStart[markedTxn + 1]; j++) marked[rf.writeKeys[j]] = 0;
      for (let j = rf.writeKeyStart[b]; j < rf.writeKeyStart[b + 1]; j++) marked[rf.writeKeys[j]] = 1;
      markedTxn = b;
      steps += rf.writeKeyStart[b + 1] - rf.writeKeyStart[b];
    }
    steps += rf.writeKeyStart[a + 1] - rf.writeKeyStart[a];
    for (let j = rf.writeKeyStart[a]; j < rf.writeKeyStart[a + 1]; j++) if (marked[rf.writeKeys[j]] === 1) return true;
    return false;
  };
  let steps = 0;
  let rounds = 0;
  const done = (result: EdgeList | null, outOfSteps = false): EdgeList | null => {
    if (stats) {
      stats.steps = steps;
      stats.rounds = rounds;
      stats.outOfSteps = outOfSteps;
    }
    return result;
  };
  const add = (a: number, b: number): number => {
    if (!addEdge(a, b)) return 0;
    edges.add(a, b, 2);
    return 1;
  };
  for (let round = 0; round < maxRounds; round++) {
    // The closure merges a row of `words` per edge.
    let edgeCount = 0;
    for (let v = 0; v < n; v++) edgeCount += adj[v].length;
    steps += edgeCount * words;
    if (steps > maxSteps) return done(edges, true);
    rounds++;
    const reach = reachability(n, adj);
    if (!reach) return done(null);
    const r = (a: number, b: number): boolean => (reach[a * words + (b >>> 5)] & (1 << (b & 31))) !== 0;
    let added = 0;
    for (const o of reads) {
      const t3 = h.opTxn[o];
      const t1 = rf.wrSource[o];
      const x = h.opKey[o];
      const level = levelOf(t3);
      const ser = levelRow(level).visibility.total;
      const noConflict = levelRow(level).visibility.noConflict;
      const us = ser ? [t3] : preds[t3];
      steps += writers[x].length;
      if (steps > maxSteps) return done(edges, true);
      for (const t2 of writers[x]) {
        if (t2 === t1 || t2 === t3) continue;
        if (t1 !== BOTTOM && r(t2, t1)) continue; // already ordered as required
        // SI's NoConflict: a writer conflicting with t3 that commits before it is in its snapshot.
        const conflict = noConflict && conflicts(t2, t3);
        if (conflict && (t1 === BOTTOM || r(t1, t2))) {
          if (r(t2, t3)) return done(null);
          if (!r(t3, t2)) added += add(t3, t2);
        } else if (conflict && r(t2, t3)) {
          if (t1 === BOTTOM || r(t1, t2)) return done(null);
          added += add(t2, t1);
          continue;
        }
        steps += us.length;
        const seen = us.some((u) => u === t2 || r(t2, u));
        if (seen) {
          if (t1 === BOTTOM || r(t1, t2)) return done(null); // t2 must both precede and follow t1
          added += add(t2, t1);
        } else if (t1 === BOTTOM || r(t1, t2)) {
          for (const u of us) {
            if (r(u, t2)) continue;
            if (r(t2, u)) return done(null);
            added += add(u, t2);
          }
        }
        if (steps > maxSteps) return done(edges, true);
      }
    }
    if (added === 0) return done(edges);
  }
  return done(edges);
}

export { writesKey };
