// Which `unknown` transactions count: those a counted transaction read from (spec: else "as never having run").

import { OP_APPEND, OP_LIST_READ, OP_READ, type History } from './history.ts';
import type { ReadsFrom } from './reads-from.ts';

/**
 * Per transaction, 1 for an `unknown` transaction that never ran: no committed transaction read
 * from it, directly or through unknown transactions that count (a committed read from an unknown
 * transaction makes it count as committed, and then its reads count too). Register reads by their
 * observed writer, list reads by the appenders of their elements. Transactions with list operations
 * are never marked (the list analysis decides about them). Null when every transaction counts.
 */
export function unreadUnknowns(h: History, rf: ReadsFrom): Uint8Array | null {
  const unknown = h.txnUnknown;
  if (!unknown) return null;
  // Transactions with list operations stay: the list inference includes or leaves them out itself,
  // and checks their appends for duplicates (elements must be unique whether or not they ran).
  // Only the others can leave; without any (a list-append history), nothing to compute.
  const listOps = new Uint8Array(h.txnCount);
  for (let o = 0; o < h.opCount; o++) if (h.opKind[o] === OP_APPEND || h.opKind[o] === OP_LIST_READ) listOps[h.opTxn[o]] = 1;
  let open = 0;
  for (let t = 1; t < h.txnCount; t++) if (unknown[t] === 1 && listOps[t] === 0) open++;
  if (open === 0) return null;
  const counted = new Uint8Array(h.txnCount);
  const work: number[] = [];
  for (let t = 1; t < h.txnCount; t++) {
    if (unknown[t] === 0 && h.txnAborted[t] === 0) {
      counted[t] = 1;
      work.push(t);
    }
  }
  // Who appended each list element (key:value), for list reads; only when there are lists.
  let appender: Map<string, number> | null = null;
  if (h.opListStart && h.listElems) {
    appender = new Map();
    for (let o = 0; o < h.opCount; o++) if (h.opKind[o] === OP_APPEND && unknown[h.opTxn[o]] === 1) appender.set(`${h.opKey[o]}:${h.opValue[o]}`, h.opTxn[o]);
  }
  const count = (u: number): void => {
    if (u > 0 && unknown[u] === 1 && counted[u] === 0) {
      counted[u] = 1;
      work.push(u);
    }
  };
  while (work.length > 0) {
    const t = work.pop() as number;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] === OP_READ) count(rf.observedTxn[o]);
      else if (h.opKind[o] === OP_LIST_READ && appender && appender.size > 0) {
        for (let i = (h.opListStart as Int32Array)[o]; i < (h.opListStart as Int32Array)[o + 1]; i++) {
          const u = appender.get(`${h.opKey[o]}:${(h.listElems as Int32Array)[i]}`);
          if (u !== undefined) count(u);
        }
      }
    }
  }
  const out = new Uint8Array(h.txnCount);
  let any = false;
  for (let t = 1; t < h.txnCount; t++) {
    if (unknown[t] === 1 && counted[t] === 0 && listOps[t] === 0) {
      out[t] = 1;
      any = true;
    }
  }
  return any ? out : null;
}
