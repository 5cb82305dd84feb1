// Causal Consistency saturation (AWDIT): vector clocks and monotone per-(session, key) writer cursors.

import { EK_CO, PREMISE_HB, type EdgeList } from '../model/edges.ts';
import type { VectorClocks } from '../model/happens-before.ts';
import { BOTTOM, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { maxTxnSize, ReadBuffer, stopAt, subject, type SaturationInput } from './saturation-context.ts';

/**
 * Each session's committed writers of each key, in so order, stored by key: the lists of key x
 * are keyListStart[x] .. keyListStart[x+1), one per session that writes x, and all their entries
 * are contiguous too. A list is one record of LIST_FIELDS int32 (session, entry range, the
 * so-index of its first writer, the saturation's cursor and its stamp), so a read of x touches
 * two compact regions, the records and the entries (the loop is memory-bound: measured, separate
 * columns cost a third more).
 */
interface WriterLists {
  keyListStart: Int32Array;
  lists: Int32Array;
  /** Per entry e: [2e] the writer's so-index, [2e+1] the writer (no lookup through the session's list). */
  entries: Int32Array;
}

const LIST_FIELDS = 6;
const L_SESSION = 0;
const L_START = 1; // entries of the list: start .. end
const L_END = 2;
const L_FIRST = 3; // the so-index of the list's first writer
const L_CURSOR = 4;
const L_STAMP = 5; // the reader session the cursor belongs to, or -1

function writerLists(h: History, rf: ReadsFrom): WriterLists {
  // A stable counting sort by key of (txn, key) write pairs enumerated session by session, in so
  // order, leaves each key's writers sorted by (session, so-index).
  const keyStart = new Int32Array(h.keyCount + 1);
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnAborted[t] === 1) continue;
    for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) keyStart[rf.writeKeys[j] + 1]++;
  }
  for (let x = 0; x < h.keyCount; x++) keyStart[x + 1] += keyStart[x];
  const fill = keyStart.slice(0, h.keyCount);
  const entryTxn = new Int32Array(keyStart[h.keyCount]);
  for (let i = 0; i < h.sessionTxns.length; i++) {
    const t = h.sessionTxns[i];
    if (h.txnAborted[t] === 1) continue;
    for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) entryTxn[fill[rf.writeKeys[j]]++] = t;
  }
  const entries = new Int32Array(2 * entryTxn.length);
  for (let e = 0; e < entryTxn.length; e++) {
    entries[2 * e] = h.txnIndexInSession[entryTxn[e]];
    entries[2 * e + 1] = entryTxn[e];
  }
  // Split each key's run into per-session lists.
  const keyListStart = new Int32Array(h.keyCount + 1);
  let count = 0;
  for (let x = 0; x < h.keyCount; x++) {
    let prev = -1;
    for (let e = keyStart[x]; e < keyStart[x + 1]; e++) {
      const s = h.txnSession[entryTxn[e]];
      if (s !== prev) count++;
      prev = s;
    }
  }
  const lists = new Int32Array(count * LIST_FIELDS);
  let l = 0;
  for (let x = 0; x < h.keyCount; x++) {
    keyListStart[x] = l;
    let prev = -1;
    for (let e = keyStart[x]; e < keyStart[x + 1]; e++) {
      const s = h.txnSession[entryTxn[e]];
      if (s === prev) continue;
      if (l > keyListStart[x]) lists[(l - 1) * LIST_FIELDS + L_END] = e;
      const r = l * LIST_FIELDS;
      lists[r + L_SESSION] = s;
      lists[r + L_START] = e;
      lists[r + L_FIRST] = entries[2 * e];
      lists[r + L_STAMP] = -1;
      prev = s;
      l++;
    }
    if (l > keyListStart[x]) lists[(l - 1) * LIST_FIELDS + L_END] = keyStart[x + 1];
  }
  keyListStart[h.keyCount] = l;
  return { keyListStart, lists, entries };
}

/**
 * CC: if t2 (so ∪ wr)+ t3, t2 writes x and t3 reads x from t1 ≠ t2, then t2 co t1. Per session s
 * and key x only the so-latest writer inside t3's causal past matters; as t3 walks its session
 * its past only grows, so the cursors into the writer lists never move back. O(n·k).
 */
export function saturateCC(input: SaturationInput, vc: VectorClocks, out: EdgeList): void {
  saturateSessions(input, vc, writerLists(input.h, input.rf), out);
}

/**
 * saturateCC by `group` sessions at a time (clocksOf; all of them in one group when the clock table
 * fits): each group's writer lists saturated against its clocks, and with several groups the edges
 * put in the order one pass over all sessions adds them (the same edges, the same witnesses).
 * Same work as one pass plus a walk over the reads per group.
 */
export function saturateCCInGroups(input: SaturationInput, clocksOf: (first: number, end: number) => VectorClocks, group: number, out: EdgeList): void {
  const { h } = input;
  const lists = writerLists(h, input.rf);
  for (let first = 0; first < h.sessionCount; first += group) {
    if (input.stop?.() === true) return; // each group's clocks are a pass over every transaction
    saturateSessions(input, clocksOf(first, Math.min(h.sessionCount, first + group)), lists, out);
  }
  if (group < h.sessionCount) inPassOrder(h, out);
}

/** The saturation over the writer lists of the sessions vc keeps. */
function saturateSessions(input: SaturationInput, vc: VectorClocks, wl: WriterLists, out: EdgeList): void {
  const { h, rf } = input;
  const { k, first, clock } = vc;
  const { keyListStart, lists, entries } = wl;
  const reads = new ReadBuffer(maxTxnSize(h));
  const { sessionTxnStart, sessionTxns } = h;
  for (let s3 = 0; s3 < h.sessionCount; s3++) {
    for (let i = sessionTxnStart[s3]; i < sessionTxnStart[s3 + 1]; i++) {
      if (stopAt(input, i)) return;
      const t3 = sessionTxns[i];
      if (!subject(input, t3)) continue;
      const m = reads.load(h, rf, t3);
      const base = t3 * k - first;
      for (let p = 0; p < m; p++) {
        const x = reads.key[p];
        const t1 = reads.src[p];
        for (let r = keyListStart[x] * LIST_FIELDS; r < keyListStart[x + 1] * LIST_FIELDS; r += LIST_FIELDS) {
          const s = lists[r + L_SESSION];
          if (s - first >= k || s < first) continue; // another group's
          const bound = clock[base + s];
          // No writer of s inside t3's past (the usual case): decided by the record alone.
          if (bound < lists[r + L_FIRST]) continue;
          const start = lists[r + L_START];
          const end = lists[r + L_END];
          let e = lists[r + L_STAMP] === s3 ? lists[r + L_CURSOR] : start;
          while (e < end && entries[2 * e] <= bound) e++;
          lists[r + L_CURSOR] = e;
          lists[r + L_STAMP] = s3;
          const last = entries[2 * e - 2];
          const t2 = entries[2 * e - 1];
          // Already implied when t2 happens before t1: most edges of a causal history end here.
          if (t2 === t1 || (t1 !== BOTTOM && clock[t1 * k - first + s] >= last)) continue;
          out.add(t2, t1, EK_CO, reads.op[p], PREMISE_HB);
        }
      }
    }
  }
}

/**
 * Reorders CC's edges as one pass adds them: by the reader's place in the walk over the sessions,
 * then the read, then the writer's session (a key's writer lists are sorted by session).
 */
function inPassOrder(h: History, out: EdgeList): void {
  const n = out.length;
  const read = out.a.data;
  const walk = new Int32Array(n);
  const writerSession = new Int32Array(n);
  for (let e = 0; e < n; e++) {
    const t3 = h.opTxn[read[e]];
    walk[e] = h.sessionTxnStart[h.txnSession[t3]] + h.txnIndexInSession[t3];
    writerSession[e] = h.txnSession[out.from.data[e]];
  }
  const order = Int32Array.from({ length: n }, (_, e) => e)
    .sort((e, f) => walk[e] - walk[f] || read[e] - read[f] || writerSession[e] - writerSession[f]);
  for (const column of [out.from, out.to, out.a, out.b]) {
    const old = column.data.slice(0, n);
    for (let i = 0; i < n; i++) column.data[i] = old[order[i]];
  }
  // Every CC edge has the same kind: nothing to permute in out.kind.
}
