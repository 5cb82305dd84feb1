// A sub-history: some of a history's transactions, without the reads of what was dropped.

import { HistoryBuilder, OP_APPEND, OP_LIST_READ, OP_READ, sourceOf, type History } from './history.ts';
import type { ReadsFrom } from './reads-from.ts';

/** A sub-history with, for each of its transaction and operation ids, the id it had in the history it came from. */
export interface Restricted {
  h: History;
  /** txnOrigin[t]: the original id of sub-history transaction t (⊥ stays 0). */
  txnOrigin: Int32Array;
  /** opOrigin[o]: the original id of sub-history operation o. */
  opOrigin: Int32Array;
}

/**
 * The transactions marked in `keep` with their operations, minus the reads that observed a dropped
 * transaction or a dropped append (they would read from thin air), the reads the history left out
 * of the checks (ambiguous: their writer unknown) and the ops marked in `dropOps`.
 * Names, keys, values and source spans are the original ones, so findings on it point into the
 * original text.
 * Dropping transactions and reads only removes constraints: a violation here is one there.
 */
export function restrictHistory(h: History, rf: ReadsFrom, keep: Uint8Array, dropOps: Uint8Array | null = null): History {
  return restrictWithOrigin(h, rf, keep, dropOps).h;
}

/**
 * restrictHistory, also returning where each sub-history id came from (witnesses name the original ids).
 * `abortAs`: kept `unknown` transactions that become aborted ones here (see unreadUnknowns).
 */
export function restrictWithOrigin(h: History, rf: ReadsFrom, keep: Uint8Array, dropOps: Uint8Array | null = null,
  abortAs: Uint8Array | null = null): Restricted {
  // Sized for the kept operations: the witness minimiser restricts large histories to small windows many times.
  let keptOps = 0;
  for (let t = 1; t < h.txnCount; t++) if (keep[t] === 1) keptOps += h.txnOpStart[t + 1] - h.txnOpStart[t];
  const b = new HistoryBuilder(false, keptOps);
  const sessionOf = new Int32Array(h.sessionCount).fill(-1);
  const newId = new Int32Array(h.txnCount).fill(-1);
  newId[0] = 0;
  const r = h.ranges;
  for (let s = 0; s < h.sessionCount; s++) {
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      if (keep[t] !== 1) continue;
      if (sessionOf[s] < 0) sessionOf[s] = b.addSession(h.names.sessionName(s), r?.sessionStart[s] ?? 0, r?.sessionEnd[s] ?? 0);
      const abort = abortAs?.[t] === 1;
      newId[t] = b.addTxn(sessionOf[s], h.txnAborted[t] === 1 || abort, h.txnLevel[t], h.names.txnName(t), r?.txnStart[t] ?? 0, r?.txnEnd[t] ?? 0);
      if (h.txnUnknown?.[t] === 1 && !abort) b.setTxnUnknown(newId[t]);
      if (h.txnTimeStart && h.txnTimeEnd && !Number.isNaN(h.txnTimeStart[t])) b.setTxnTime(newId[t], h.txnTimeStart[t], h.txnTimeEnd[t]);
    }
  }
  // List reads: whether each element's append is kept, so a read of an element whose append goes
  // (its transaction dropped, or the append op itself) goes too: kept, it would be a garbage read
  // that the original did not have. An element appended twice stays while one append does.
  const appendKept = new Map<string, boolean>();
  if (h.opListStart) {
    for (let o = 0; o < h.opCount; o++) {
      if (h.opKind[o] !== OP_APPEND) continue;
      const at = `${h.opKey[o]}:${h.opValue[o]}`;
      appendKept.set(at, appendKept.get(at) === true || (newId[h.opTxn[o]] >= 0 && dropOps?.[o] !== 1));
    }
  }
  const txnOrigin = new Int32Array(b.txnCount);
  for (let t = 0; t < h.txnCount; t++) if (newId[t] >= 0) txnOrigin[newId[t]] = t;
  // Provisional op ids in the order added, with their original ids.
  const addedFrom: number[] = [];
  const addedTxn: number[] = [];
  for (let t = 1; t < h.txnCount; t++) {
    if (newId[t] < 0) continue;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (dropOps?.[o] === 1) continue;
      const seen = rf.observedTxn[o];
      if (h.opKind[o] === OP_READ && seen >= 0 && newId[seen] < 0) continue;
      // A read the history left out of the checks (its writer unknown) stays out: in the part it
      // could get a writer (one of the value's writers dropped) that the history never gave it.
      if (h.opKind[o] === OP_READ && rf.leftOut?.[o] === 1) continue;
      if (h.opKind[o] === OP_LIST_READ && h.opListStart && h.listElems) {
        const list = h.listElems.subarray(h.opListStart[o], h.opListStart[o + 1]);
        // An element nobody appended (a garbage read of the original) is no reason to drop it.
        const dropped = list.some((v) => appendKept.get(`${h.opKey[o]}:${v}`) === false);
        if (dropped) continue;
        b.addListRead(newId[t], h.opKey[o], list, r?.opStart[o] ?? 0, r?.opEnd[o] ?? 0);
        addedFrom.push(o);
        addedTxn.push(newId[t]);
        continue;
      }
      const op = b.addOp(newId[t], h.opKind[o], h.opKey[o], h.opValue[o], r?.opStart[o] ?? 0, r?.opEnd[o] ?? 0);
      const named = sourceOf(h, o);
      if (named >= 0 && newId[named] >= 0) b.setOpSource(op, newId[named]);
      addedFrom.push(o);
      addedTxn.push(newId[t]);
    }
  }
  const names = h.names;
  const sub = b.finish(h.keyCount, (k) => names.keyName(k), (v) => names.valueText(v), h.initValues, r !== null, { keepOrder: true });
  // finish() groups ops by transaction with a stable sort: replay it on the origins.
  const opOrigin = new Int32Array(sub.opCount);
  const fill = sub.txnOpStart.slice(0, sub.txnCount);
  for (let p = 0; p < addedFrom.length; p++) opOrigin[fill[addedTxn[p]]++] = addedFrom[p];
  return { h: sub, txnOrigin, opOrigin };
}

/** Composes origins: ids of `inner` (a restriction of `outer.h`) mapped to the ids of what `outer` came from. */
export function composeOrigin(outer: Restricted, inner: Restricted): Restricted {
  return {
    h: inner.h,
    txnOrigin: inner.txnOrigin.map((t) => outer.txnOrigin[t]),
    opOrigin: inner.opOrigin.map((o) => outer.opOrigin[o]),
  };
}

/** The identity restriction: h itself. */
export function unrestricted(h: History): Restricted {
  return { h, txnOrigin: Int32Array.from({ length: h.txnCount }, (_, i) => i), opOrigin: Int32Array.from({ length: h.opCount }, (_, i) => i) };
}
