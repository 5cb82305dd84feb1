// Causal Consistency saturation (AWDIT): vector clocks and monotone per-(session, key) writer cursors.

import { EK_CO, PREMISE_HB, type EdgeList } from '../model/edges.ts';
import type { VectorClocks } from '../model/happens-before.ts';
import { BOTTOM, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { maxTxnSize, ReadBuffer, subject, type SaturationInput } from './saturation-context.ts';

/**
 * Each session's committed writers of each key, in so order, stored by key: the lists of key x
 * are keyListStart[x] .. keyListStart[x+1), one per session that writes x, and all their entries
 * are contiguous too, so a read of x touches one compact region (the loop is memory-bound).
 */
interface WriterLists {
  keyListStart: Int32Array;
  listSession: Int32Array;
  listStart: Int32Array; // entries of list l: listStart[l] .. listStart[l+1)
  entryIndex: Int32Array; // so-index of the writer; its txn is sessionTxns[sessionTxnStart[session] + index]
}

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
  // Split each key's run into per-session lists.
  const keyListStart = new Int32Array(h.keyCount + 1);
  const listSession: number[] = [];
  const listStart: number[] = [];
  for (let x = 0; x < h.keyCount; x++) {
    keyListStart[x] = listSession.length;
    let prev = -1;
    for (let e = keyStart[x]; e < keyStart[x + 1]; e++) {
      const s = h.txnSession[entryTxn[e]];
      if (s !== prev) {
        listSession.push(s);
        listStart.push(e);
        prev = s;
      }
    }
  }
  keyListStart[h.keyCount] = listSession.length;
  listStart.push(entryTxn.length);
  const entryIndex = new Int32Array(entryTxn.length);
  for (let e = 0; e < entryTxn.length; e++) entryIndex[e] = h.txnIndexInSession[entryTxn[e]];
  return { keyListStart, listSession: Int32Array.from(listSession), listStart: Int32Array.from(listStart), entryIndex };
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
  // cursor and its session stamp side by side: one cache line per list visit.
  const cursor = new Int32Array(2 * lists).fill(-1);
  const reads = new ReadBuffer(maxTxnSize(h));
  const { keyListStart, listSession, listStart, entryIndex } = w;
  const { sessionTxnStart, sessionTxns } = h;
  for (let s3 = 0; s3 < h.sessionCount; s3++) {
    for (let i = sessionTxnStart[s3]; i < sessionTxnStart[s3 + 1]; i++) {
      const t3 = sessionTxns[i];
      if (!subject(input, t3)) continue;
      const m = reads.load(h, rf, t3);
      const base = t3 * k;
      for (let p = 0; p < m; p++) {
        const x = reads.key[p];
        const t1 = reads.src[p];
        for (let l = keyListStart[x]; l < keyListStart[x + 1]; l++) {
          const s = listSession[l];
          const bound = clock[base + s];
          if (bound < 0) continue;
          const start = listStart[l];
          const end = listStart[l + 1];
          let e = cursor[2 * l + 1] === s3 ? cursor[2 * l] : start;
          while (e < end && entryIndex[e] <= bound) e++;
          cursor[2 * l] = e;
          cursor[2 * l + 1] = s3;
          if (e === start) continue;
          const t2 = sessionTxns[sessionTxnStart[s] + entryIndex[e - 1]];
          // Already implied when t2 happens before t1: most edges of a causal history end here.
          if (t2 === t1 || (t1 !== BOTTOM && clock[t1 * k + s] >= entryIndex[e - 1])) continue;
          out.add(t2, t1, EK_CO, reads.op[p], PREMISE_HB);
        }
      }
    }
  }
}
