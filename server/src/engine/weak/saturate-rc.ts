// Read Committed saturation (AWDIT): a forward pass for first reads per source, a two-slot reverse pass.

import { EK_CO, type EdgeList } from '../model/edges.ts';
import { BOTTOM } from '../model/history.ts';
import { writesKey } from '../model/reads-from.ts';
import { maxTxnSize, ReadBuffer, stopAt, subject, writeKeyCount, type SaturationInput } from './saturation-context.ts';

/**
 * RC: if t3 reads y from t2 at r' and later, at r, reads x from t1 ≠ t2 where t2 writes x, then
 * t2 co t1. Only the po-first read from each t2 can force anything new (later ones are dominated),
 * and per key only the po-earliest later read from a source other than t2: two slots per key.
 * Per transaction the cheaper of two strategies runs (AWDIT's √n threshold argument).
 */
export function saturateRC(input: SaturationInput, out: EdgeList): void {
  const { h, rf } = input;
  const reads = new ReadBuffer(maxTxnSize(h));
  const firstStamp = new Int32Array(h.txnCount).fill(-1);
  const isFirst = new Uint8Array(reads.op.length);
  const slotStamp = new Int32Array(h.keyCount).fill(-1);
  const s1 = new Int32Array(h.keyCount); // read index of the earliest later read of the key
  const s2 = new Int32Array(h.keyCount); // earliest later read whose source differs from s1's, or -1
  const keyDone = new Int32Array(h.keyCount).fill(-1);
  let doneStamp = 0;
  for (let t3 = 1; t3 < h.txnCount; t3++) {
    if (stopAt(input, t3)) return;
    if (!subject(input, t3)) continue;
    const m = reads.load(h, rf, t3);
    if (m < 2) continue;
    const { op, key, src } = reads;
    let costSlots = 0;
    for (let p = 0; p < m; p++) {
      isFirst[p] = firstStamp[src[p]] === t3 ? 0 : 1;
      firstStamp[src[p]] = t3;
      if (isFirst[p] === 1 && src[p] !== BOTTOM) costSlots += writeKeyCount(rf, src[p]);
    }
    if (costSlots <= m * m) {
      for (let p = m - 1; p >= 0; p--) {
        const t2 = src[p];
        if (isFirst[p] === 1 && t2 !== BOTTOM) {
          for (let i = rf.writeKeyStart[t2]; i < rf.writeKeyStart[t2 + 1]; i++) {
            const x = rf.writeKeys[i];
            if (slotStamp[x] !== t3) continue;
            const q = src[s1[x]] !== t2 ? s1[x] : s2[x];
            if (q >= 0) out.add(t2, src[q], EK_CO, op[q], op[p]);
          }
        }
        const x = key[p];
        if (slotStamp[x] !== t3) {
          slotStamp[x] = t3;
          s1[x] = p;
          s2[x] = -1;
        } else if (src[s1[x]] === src[p]) {
          s1[x] = p;
        } else {
          s2[x] = s1[x];
          s1[x] = p;
        }
      }
    } else {
      for (let p = 0; p < m; p++) {
        const t2 = src[p];
        if (isFirst[p] === 0 || t2 === BOTTOM) continue;
        doneStamp++;
        for (let q = p + 1; q < m; q++) {
          const x = key[q];
          if (keyDone[x] === doneStamp) continue;
          if (src[q] === t2) continue;
          keyDone[x] = doneStamp;
          if (writesKey(rf, t2, x)) out.add(t2, src[q], EK_CO, op[q], op[p]);
        }
      }
    }
  }
}
