// Causal Consistency saturation (AWDIT): vector clocks and monotone per-(session, key) writer cursors.

import { EK_CO, PREMISE_HB, type EdgeList } from './edges.ts';
import type { VectorClocks } from './happens-before.ts';
import { BOTTOM, type History } from './history.ts';
import type { ReadsFrom } from './reads-from.ts';
import { maxTxnSize, ReadBuffer, subject, type SaturationInput } from './saturation-context.ts';

/** Each session's committed writers of each key, in so order, as CSR lists; and per key its lists. */
interface WriterLists {
  listSession: Int32Array;
  listStart: Int32Array;
  entries: Int32Array;
  keyListStart: Int32Array;
  keyLists: Int32Array;
}

function writerLists(h: History, rf: ReadsFrom): WriterLists {
  const stamp = new Int32Array(h.keyCount).fill(-1);
  const listOf = new Int32Array(h.keyCount);
  const listSession: number[] = [];
  const listKey: number[] = [];
  const counts: number[] = [];
  for (let s = 0; s < h.sessionCount; s++) {
    for (let t = h.sessionTxnStart[s]; t < h.sessionTxnStart[s + 1]; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) {
        const x = rf.writeKeys[j];
        if (stamp[x] !== s) {
          stamp[x] = s;
          listOf[x] = counts.length;
          listSession.push(s);
          listKey.push(x);
          counts.push(0);
        }
        counts[listOf[x]]++;
      }
    }
  }
  const lists = counts.length;
  const listStart = new Int32Array(lists + 1);
  for (let l = 0; l < lists; l++) listStart[l + 1] = listStart[l] + counts[l];
  const entries = new Int32Array(listStart[lists]);
  const fill = listStart.slice(0, lists);
  stamp.fill(-1);
  let nextList = 0;
  for (let s = 0; s < h.sessionCount; s++) {
    for (let t = h.sessionTxnStart[s]; t < h.sessionTxnStart[s + 1]; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) {
        const x = rf.writeKeys[j];
        if (stamp[x] !== s) {
          stamp[x] = s;
          listOf[x] = nextList++; // same creation order as the counting pass
        }
        entries[fill[listOf[x]]++] = t;
      }
    }
  }
  const keyListStart = new Int32Array(h.keyCount + 1);
  for (let l = 0; l < lists; l++) keyListStart[listKey[l] + 1]++;
  for (let x = 0; x < h.keyCount; x++) keyListStart[x + 1] += keyListStart[x];
  const keyFill = keyListStart.slice(0, h.keyCount);
  const keyLists = new Int32Array(lists);
  for (let l = 0; l < lists; l++) keyLists[keyFill[listKey[l]]++] = l;
  return { listSession: Int32Array.from(listSession), listStart, entries, keyListStart, keyLists };
}

/**
 * CC: if t2 (so ∪ wr)+ t3, t2 writes x and t3 reads x from t1 ≠ t2, then t2 co t1. Per session s
 * and key x only the so-latest writer inside t3's causal past matters; as t3 walks its session
 * its past only grows, so the cursors into the writer lists never move back. O(n·k).
 */
export function saturateCC(input: SaturationInput, vc: VectorClocks, out: EdgeList): void {
  const { h, rf } = input;
  const { k, clock } = vc;
  const w = writerLists(h, rf);
  const lists = w.listSession.length;
  const cursor = new Int32Array(lists);
  const cursorStamp = new Int32Array(lists).fill(-1);
  const reads = new ReadBuffer(maxTxnSize(h));
  const idx = h.txnIndexInSession;
  for (let s3 = 0; s3 < h.sessionCount; s3++) {
    for (let t3 = h.sessionTxnStart[s3]; t3 < h.sessionTxnStart[s3 + 1]; t3++) {
      if (!subject(input, t3)) continue;
      const m = reads.load(h, rf, t3);
      const base = t3 * k;
      for (let p = 0; p < m; p++) {
        const x = reads.key[p];
        const t1 = reads.src[p];
        for (let j = w.keyListStart[x]; j < w.keyListStart[x + 1]; j++) {
          const l = w.keyLists[j];
          const bound = clock[base + w.listSession[l]];
          if (bound < 0) continue;
          let c = cursorStamp[l] === s3 ? cursor[l] : 0;
          const start = w.listStart[l];
          const len = w.listStart[l + 1] - start;
          while (c < len && idx[w.entries[start + c]] <= bound) c++;
          cursor[l] = c;
          cursorStamp[l] = s3;
          if (c === 0) continue;
          const t2 = w.entries[start + c - 1];
          // Already implied when t2 happens before t1: most edges of a causal history end here.
          if (t2 === t1 || (t1 !== BOTTOM && clock[t1 * k + w.listSession[l]] >= idx[t2])) continue;
          out.add(t2, t1, EK_CO, reads.op[p], PREMISE_HB);
        }
      }
    }
  }
}
