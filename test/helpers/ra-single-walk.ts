// RA's saturation as one walk, session by session over the op columns: the reference the split, reordered saturate-ra.ts must equal edge for edge.

import { EK_CO, PREMISE_SO, type EdgeList } from '../../server/src/engine/model/edges.ts';
import { BOTTOM } from '../../server/src/engine/model/history.ts';
import { writesKey } from '../../server/src/engine/model/reads-from.ts';
import { maxTxnSize, ReadBuffer, subject, writeKeyCount, type SaturationInput } from '../../server/src/engine/weak/saturation-context.ts';

/**
 * RA: if t2 (so ∪ wr) t3, t2 writes x and t3 reads x from t1 ≠ t2, then t2 co t1.
 * so part: only the so-latest committed writer of x before t3 matters (earlier ones are so-before it).
 * wr part: per key of t3 at most two distinct sources are kept: with two, they already force a
 * two-cycle, so a third cannot change the verdict.
 */
export function saturateRASingleWalk(input: SaturationInput, out: EdgeList): void {
  const { h, rf } = input;
  const reads = new ReadBuffer(maxTxnSize(h));
  const lastStamp = new Int32Array(h.keyCount).fill(-1);
  const lastWriter = new Int32Array(h.keyCount);
  const srcStamp = new Int32Array(h.txnCount).fill(-1);
  const firstReadFrom = new Int32Array(h.txnCount); // op of t3's first read from a source
  const keyStamp = new Int32Array(h.keyCount).fill(-1);
  const srcA = new Int32Array(h.keyCount); // read index of the first read of the key
  const srcB = new Int32Array(h.keyCount); // read index of the first read from a second source, or -1
  const sources = new Int32Array(reads.op.length);
  const keys = new Int32Array(reads.op.length);
  for (let s = 0; s < h.sessionCount; s++) {
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t3 = h.sessionTxns[i];
      if (h.txnAborted[t3] === 1) continue;
      if (subject(input, t3)) {
        const m = reads.load(h, rf, t3);
        const { op, key, src } = reads;
        let nSources = 0;
        let nKeys = 0;
        let costKeys = 0;
        for (let p = 0; p < m; p++) {
          const x = key[p];
          const t1 = src[p];
          if (lastStamp[x] === s && lastWriter[x] !== t1) out.add(lastWriter[x], t1, EK_CO, op[p], PREMISE_SO);
          if (srcStamp[t1] !== t3) {
            srcStamp[t1] = t3;
            firstReadFrom[t1] = op[p];
            if (t1 !== BOTTOM) {
              sources[nSources++] = t1;
              costKeys += writeKeyCount(rf, t1);
            }
          }
          if (keyStamp[x] !== t3) {
            keyStamp[x] = t3;
            srcA[x] = p;
            srcB[x] = -1;
            keys[nKeys++] = x;
          } else if (srcB[x] < 0 && src[srcA[x]] !== t1) {
            srcB[x] = p;
          }
        }
        // For each wr predecessor t2 and each key x both t2 writes and t3 reads: t2 co (x's sources).
        const byWrites = costKeys <= nSources * nKeys;
        for (let i = 0; i < nSources; i++) {
          const t2 = sources[i];
          const count = byWrites ? rf.writeKeyStart[t2 + 1] - rf.writeKeyStart[t2] : nKeys;
          for (let j = 0; j < count; j++) {
            const x = byWrites ? rf.writeKeys[rf.writeKeyStart[t2] + j] : keys[j];
            if (byWrites ? keyStamp[x] !== t3 : !writesKey(rf, t2, x)) continue;
            const a = srcA[x];
            if (src[a] !== t2) out.add(t2, src[a], EK_CO, op[a], firstReadFrom[t2]);
            const b = srcB[x];
            if (b >= 0 && src[b] !== t2) out.add(t2, src[b], EK_CO, op[b], firstReadFrom[t2]);
          }
        }
      }
      for (let j = rf.writeKeyStart[t3]; j < rf.writeKeyStart[t3 + 1]; j++) {
        lastStamp[rf.writeKeys[j]] = s;
        lastWriter[rf.writeKeys[j]] = t3;
      }
    }
  }
}
