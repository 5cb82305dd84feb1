// Verdicts and forced edges of the checked history in the ids of the history as written: editors show every transaction the text has.

import type { EdgeList } from '../model/edges.ts';
import type { WrittenHistory } from './read-stage.ts';
import type { Verdict } from './verdict.ts';
import { liftWitness } from '../witness/strong-witness.ts';

/** Forced co edges as plain columns (from, to: transactions; a: the forcing read; b: its premise, a read or negative). */
export interface ForcedIds {
  from: Int32Array;
  to: Int32Array;
  a: Int32Array;
  b: Int32Array;
}

const txnOf = (w: WrittenHistory, t: number): number => (t >= 0 ? w.txnOrigin[t] : t);
const opOf = (w: WrittenHistory, o: number): number => (o >= 0 ? w.opOrigin[o] : o);

/** A verdict whose witness and commit order name written ids. */
export function writtenVerdict(v: Verdict, w: WrittenHistory): Verdict {
  const witness = v.witness && liftWitness(v.witness, w);
  return { ...v, witness, ...(v.order ? { order: v.order.map((t) => txnOf(w, t)) } : {}) };
}

/** Forced edges (the first n of an EdgeList) in written ids. */
export function writtenForced(e: EdgeList, w: WrittenHistory | null): ForcedIds {
  const n = e.length;
  const cols = { from: e.from.data.slice(0, n), to: e.to.data.slice(0, n), a: e.a.data.slice(0, n), b: e.b.data.slice(0, n) };
  if (!w) return cols;
  for (let i = 0; i < n; i++) {
    cols.from[i] = txnOf(w, cols.from[i]);
    cols.to[i] = txnOf(w, cols.to[i]);
    cols.a[i] = opOf(w, cols.a[i]);
    cols.b[i] = opOf(w, cols.b[i]);
  }
  return cols;
}

/** Per written transaction, its level in the mixed verdict (-1: left out of the checks). */
export function writtenMixedLevels(levels: Int8Array, w: WrittenHistory): Int8Array {
  const out = new Int8Array(w.h.txnCount).fill(-1);
  for (let t = 0; t < levels.length; t++) out[w.txnOrigin[t]] = levels[t];
  return out;
}
