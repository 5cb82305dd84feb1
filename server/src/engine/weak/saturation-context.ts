// What the RC/RA/CC saturations share: the history, its reads-from, scratch buffers and the output edges.

import { EdgeList } from '../model/edges.ts';
import { BOTTOM, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';

export interface SaturationInput {
  h: History;
  rf: ReadsFrom;
  /** Per txn: 1 when its reads obey the rule being saturated (mixed levels); null means every txn. */
  applies: Uint8Array | null;
}

/** The external, checkable reads of one transaction, in program order. */
export class ReadBuffer {
  op: Int32Array;
  key: Int32Array;
  src: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.op = new Int32Array(Math.max(capacity, 1));
    this.key = new Int32Array(Math.max(capacity, 1));
    this.src = new Int32Array(Math.max(capacity, 1));
  }

  load(h: History, rf: ReadsFrom, t: number): number {
    let m = 0;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const s = rf.wrSource[o];
      if (s < 0) continue;
      this.op[m] = o;
      this.key[m] = h.opKey[o];
      this.src[m] = s;
      m++;
    }
    this.length = m;
    return m;
  }
}

export function maxTxnSize(h: History): number {
  let max = 0;
  for (let t = 0; t < h.txnCount; t++) max = Math.max(max, h.txnOpStart[t + 1] - h.txnOpStart[t]);
  return max;
}

/** Whether transaction t's reads are subject to the rule: committed, real, and selected. */
export function subject(input: SaturationInput, t: number): boolean {
  return t !== BOTTOM && input.h.txnAborted[t] === 0 && (input.applies === null || input.applies[t] === 1);
}

export function writeKeyCount(rf: ReadsFrom, t: number): number {
  return rf.writeKeyStart[t + 1] - rf.writeKeyStart[t];
}

export { EdgeList };
