// Exact search for PSI (and mixes of RC, RA, CC and PSI): orient each write-conflicting pair, propagate.

import { BOTTOM, type History } from '../model/history.ts';
import { levelRow, weakReaderRule, type Level } from '../levels/levels.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { adjacencyOf, reachability } from '../util/reachability.ts';
import { verifyOrder } from './verify-order.ts';

/** Pairs plus read-writer tests of one propagation round above which the search is not started (see searchOrientations). */
const MAX_ROUND_SIZE = 1_000_000;
/**
 * Pairs and tests per counted round: a round of 500,000 (1,000 writers of one key) counts as 51.
 * The witness minimiser gives each candidate 500 rounds and no time limit; counted one each, such
 * rounds made a candidate cost seconds (a lost update behind 2,000 writes: 7.6 s, 1.3 GB).
 */
const ROUND_UNIT = 10_000;

export type OrientationResult =
  | { kind: 'consistent'; order: Int32Array }
  | { kind: 'violated' }
  | { kind: 'unknown'; reason: string };

/**
 * For levels whose visibility is not a prefix of the commit order, only the order of transactions
 * that write a common key matters beyond so ∪ wr: PSI's premise is (so ∪ wr ∪ cf)+, and cf orders
 * exactly those pairs. So the search orients conflicting pairs; after every choice it propagates:
 * a pair already ordered by reachability is oriented that way, and a read of x in t3 from t1 whose
 * premise reaches a writer t2 of x forces t2 before t1 (an orientation of the pair {t1, t2}). A
 * cycle refutes the branch; all pairs oriented without one is a consistent history. Visibility:
 * so and wr edges always, an oriented pair a → b only when b is at PSI (NoConflict); premises: CC
 * and PSI readers use visibility reachability, RA readers their direct predecessors, RC readers
 * the RC row. Snapshot levels (PC, SI, SER) are not handled here.
 */
export function searchOrientations(h: History, rf: ReadsFrom, levelOf: (t: number) => Level, deadline: number, stop: () => boolean = () => false,
  maxRounds = Number.POSITIVE_INFINITY): OrientationResult {
  // Propagation rounds are the work count: a budget in steps gives the same answer on every run.
  // A round over many pairs counts as several (see ROUND_UNIT), so a budget bounds work, not rounds.
  let rounds = 0;
  const over = (): boolean => rounds > maxRounds || Date.now() > deadline || stop();
  const txns: number[] = [];
  for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0) txns.push(t);
  const n = h.txnCount;
  const words = (n + 31) >>> 5;
  // Fixed edges: so (consecutive committed) and wr.
  const fixed: [number, number][] = [];
  for (let s = 0; s < h.sessionCount; s++) {
    let last = -1;
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      if (h.txnAborted[t] === 1) continue;
      if (last >= 0) fixed.push([last, t]);
      last = t;
    }
  }
  // The size of one propagation round: every write-conflicting pair, and every writer each read's
  // premise is tested against. Above the bound the search is not started: one writer of a key
  // among thousands (a lost update behind 5,000 writes of x) made 12.5 million pairs, rounds of
  // seconds and 3 GB, and the witness minimiser's candidates each ran hundreds of such rounds.
  // Writers per key (the conflicting pairs below are theirs).
  const writers: number[][] = Array.from({ length: h.keyCount }, () => []);
  for (const t of txns) for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) writers[rf.writeKeys[j]].push(t);
  const readCount = new Float64Array(h.keyCount);
  for (const t of txns) for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] >= 0) readCount[h.opKey[o]]++;
  let roundSize = 0;
  for (let x = 0; x < h.keyCount; x++) roundSize += (writers[x].length * (writers[x].length - 1)) / 2 + readCount[x] * writers[x].length;
  if (roundSize > MAX_ROUND_SIZE) {
    return { kind: 'unknown', reason: `the PSI search handles up to ${MAX_ROUND_SIZE} write-conflicting pairs and read-writer tests (this history has ${roundSize})` };
  }
  const roundWeight = 1 + Math.floor(roundSize / ROUND_UNIT);
  type Read = { op: number; t3: number; t1: number; x: number; level: Level; earlier: number[] };
  const reads: Read[] = [];
  // RA premise: every so-predecessor (Session) and every wr source. Only RA readers need it (a
  // session of n transactions holds n² / 2 predecessors).
  const anyRa = txns.some((t) => weakReaderRule(levelOf(t)) === 'RA');
  const directPreds: Set<number>[] = Array.from({ length: anyRa ? n : 0 }, () => new Set<number>());
  for (let s = 0; s < h.sessionCount && anyRa; s++) {
    const seen: number[] = [];
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      if (h.txnAborted[t] === 1) continue;
      for (const u of seen) directPreds[t].add(u);
      seen.push(t);
    }
  }
  for (const t of txns) {
    const earlierSources: number[] = [];
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const t1 = rf.wrSource[o];
      if (t1 < 0) continue;
      if (t1 !== BOTTOM) {
        fixed.push([t1, t]);
        if (anyRa) directPreds[t].add(t1);
      }
      reads.push({ op: o, t3: t, t1, x: h.opKey[o], level: levelOf(t), earlier: earlierSources.slice() });
      if (t1 !== BOTTOM) earlierSources.push(t1);
    }
  }
  // Conflicting pairs (a < b), indexed.
  const pairIndex = new Map<number, number>();
  const pairs: [number, number][] = [];
  const pairOf = (a: number, b: number): number => {
    const key = a < b ? a * n + b : b * n + a;
    let i = pairIndex.get(key);
    if (i === undefined) {
      i = pairs.length;
      pairIndex.set(key, i);
      pairs.push(a < b ? [a, b] : [b, a]);
    }
    return i;
  };
  for (const ws of writers) for (let i = 0; i < ws.length; i++) for (let j = i + 1; j < ws.length; j++) pairOf(ws[i], ws[j]);
  const psi = new Uint8Array(n);
  for (const t of txns) psi[t] = levelRow(levelOf(t)).visibility.noConflict ? 1 : 0;

  /** Orientation per pair: 0 open, 1 first → second, 2 second → first. */
  const propagate = (orient: Int8Array): 'conflict' | 'stable' => {
    for (;;) {
      rounds += roundWeight;
      if (over()) return 'stable';
      const order = new Array<[number, number]>();
      const vis = new Array<[number, number]>();
      for (const e of fixed) { order.push(e); vis.push(e); }
      for (let p = 0; p < pairs.length; p++) {
        if (orient[p] === 0) continue;
        const [a, b] = orient[p] === 1 ? pairs[p] : [pairs[p][1], pairs[p][0]];
        order.push([a, b]);
        if (psi[b] === 1) vis.push([a, b]);
      }
      const o = reachability(n, adjacencyOf(n, order));
      if (!o) return 'conflict';
      const v = reachability(n, adjacencyOf(n, vis))!;
      const reach = (m: Uint32Array, a: number, b: number): boolean => (m[a * words + (b >>> 5)] & (1 << (b & 31))) !== 0;
      let changed = false;
      const set = (from: number, to: number): boolean => {
        const p = pairOf(from, to);
        const want = from === pairs[p][0] ? 1 : 2;
        if (orient[p] === want) return true;
        if (orient[p] !== 0) return false;
        orient[p] = want;
        changed = true;
        return true;
      };
      for (let p = 0; p < pairs.length; p++) {
        if (orient[p] !== 0) continue;
        const [a, b] = pairs[p];
        if (reach(o, a, b)) set(a, b);
        else if (reach(o, b, a)) set(b, a);
      }
      for (const r of reads) {
        for (const t2 of writers[r.x]) {
          if (t2 === r.t1 || t2 === r.t3) continue;
          let premise: boolean;
          if (weakReaderRule(r.level) === 'RC') premise = r.earlier.includes(t2);
          else if (weakReaderRule(r.level) === 'RA') premise = directPreds[r.t3].has(t2);
          else premise = reach(v, t2, r.t3);
          if (!premise) continue;
          if (r.t1 === BOTTOM || reach(o, r.t1, t2)) return 'conflict';
          if (!set(t2, r.t1)) return 'conflict';
        }
      }
      if (!changed) return 'stable';
    }
  };

  // Depth-first over open pairs, with explicit stacks (copies of the orientation per level).
  const root: Int8Array = new Int8Array(pairs.length);
  if (propagate(root) === 'conflict') return { kind: 'violated' };
  const stack: { orient: Int8Array; pair: number; tried: number }[] = [];
  let current: Int8Array = root;
  for (;;) {
    if (over()) return { kind: 'unknown', reason: rounds > maxRounds ? `the PSI search stopped after ${maxRounds} propagation rounds` : 'the PSI search ran out of time' };
    const open = current.indexOf(0);
    if (open < 0) return { kind: 'consistent', order: topological(n, fixed, pairs, current, txns) };
    // Before branching, try the cheap completion: any order extending what is known so far.
    const guess = topological(n, fixed, pairs, current, txns);
    if (guess.length === txns.length && verifyOrder(h, rf, levelOf, guess) === null) return { kind: 'consistent', order: guess };
    stack.push({ orient: current, pair: open, tried: 0 });
    let next: Int8Array | null = null;
    while (stack.length > 0 && next === null) {
      const top = stack[stack.length - 1];
      if (top.tried === 2) {
        stack.pop();
        continue;
      }
      top.tried++;
      const attempt = top.orient.slice();
      attempt[top.pair] = top.tried;
      if (propagate(attempt) !== 'conflict') next = attempt;
    }
    if (next === null) return { kind: 'violated' };
    current = next;
  }
}

function topological(n: number, fixed: [number, number][], pairs: [number, number][], orient: Int8Array, txns: number[]): Int32Array {
  const edges = [...fixed];
  for (let p = 0; p < pairs.length; p++) if (orient[p] !== 0) edges.push(orient[p] === 1 ? pairs[p] : [pairs[p][1], pairs[p][0]]);
  const adj = adjacencyOf(n, edges);
  const indeg = new Int32Array(n);
  for (const [, b] of edges) indeg[b]++;
  const out: number[] = [];
  const queue = txns.filter((t) => indeg[t] === 0);
  for (let i = 0; i < queue.length; i++) {
    out.push(queue[i]);
    for (const w of adj[queue[i]]) if (--indeg[w] === 0) queue.push(w);
  }
  return Int32Array.from(out);
}
