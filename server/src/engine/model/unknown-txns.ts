// Which `unknown` transactions count: those a counted transaction read from (spec: else "as never having run").

import { INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, OP_WRITE, sourceOf, type History } from './history.ts';
import type { ReadsFrom } from './reads-from.ts';

/**
 * What never ran: the `unknown` transactions no committed transaction read from, directly or
 * through unknown transactions that count (a committed read from an unknown transaction makes it
 * count as committed, and then its reads count too). Register reads by their observed writer (an
 * ambiguous one by every unknown writer of its value), list reads by the appenders of their
 * elements. `txns`: per transaction, 1 for one that leaves; `ops`: the register operations of
 * uncounted ones that stay for their list operations (the list analysis decides about those);
 * `aborted`: uncounted ones without list operations that an aborted transaction (or another of
 * these) read from (for an ambiguous read, one of its writers, and only when nothing that ran
 * explains it): they ran, so they stay, as aborted (the most permissive outcome left: as never
 * run, the aborted reader's read would be thin air; as aborted, only their own reads are checked).
 * Null when everything counts.
 */
export function unreadUnknowns(h: History, rf: ReadsFrom): { txns: Uint8Array; ops: Uint8Array | null; aborted: Uint8Array | null } | null {
  const unknown = h.txnUnknown;
  if (!unknown) return null;
  // Transactions with list operations stay: the list inference includes or leaves them out itself,
  // and checks their appends for duplicates (elements must be unique whether or not they ran).
  // Only register operations can leave; a list-append history has nothing to compute.
  const listOps = new Uint8Array(h.txnCount);
  const registerOps = new Uint8Array(h.txnCount);
  for (let o = 0; o < h.opCount; o++) {
    const k = h.opKind[o];
    if (k === OP_APPEND || k === OP_LIST_READ) listOps[h.opTxn[o]] = 1;
    else registerOps[h.opTxn[o]] = 1;
  }
  let open = 0;
  for (let t = 1; t < h.txnCount; t++) if (unknown[t] === 1 && (listOps[t] === 0 || registerOps[t] === 1)) open++;
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
  // Register writes of unknown transactions by key:value: a read whose writer is ambiguous (the
  // value written twice) may have read any of them, so it counts each unknown one.
  const unknownWriters = new Map<string, number[]>();
  for (let o = 0; o < h.opCount; o++) {
    if (h.opKind[o] !== OP_WRITE || unknown[h.opTxn[o]] !== 1) continue;
    const id = `${h.opKey[o]}:${h.opValue[o]}`;
    let writers = unknownWriters.get(id);
    if (!writers) unknownWriters.set(id, (writers = []));
    writers.push(h.opTxn[o]);
  }
  while (work.length > 0) {
    const t = work.pop() as number;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] === OP_READ) {
        if (rf.observedTxn[o] >= 0) count(rf.observedTxn[o]);
        else for (const u of unknownWriters.get(`${h.opKey[o]}:${h.opValue[o]}`) ?? []) count(u);
      }
      else if (h.opKind[o] === OP_LIST_READ && appender && appender.size > 0) {
        for (let i = (h.opListStart as Int32Array)[o]; i < (h.opListStart as Int32Array)[o + 1]; i++) {
          const u = appender.get(`${h.opKey[o]}:${(h.listElems as Int32Array)[i]}`);
          if (u !== undefined) count(u);
        }
      }
    }
  }
  // Then the register-only unknown transactions that a transaction that ran but did not commit
  // read from: aborted ones, and those found here in turn. `counted` now also marks these (2).
  // An ambiguous read (its value written more than once, or also the initial value) makes none of
  // its unknown writers run when something that runs explains it: the initial value, or a writer
  // other than the reader that is not an uncounted unknown one; else one of them (leastReading).
  // Unlike a committed read, an aborted one constrains no level, so an unknown writer run for it
  // could only add errors (its own reads).
  let ranWriters: Map<string, number[]> | null = null;
  const explained = (t: number, o: number): boolean => {
    const x = h.opKey[o];
    const v = h.opValue[o];
    if (v === INIT_VALUE || h.initValues.get(x) === v) return true;
    if (!ranWriters) {
      ranWriters = new Map();
      for (let w = 0; w < h.opCount; w++) {
        if (h.opKind[w] !== OP_WRITE || unknown[h.opTxn[w]] === 1) continue;
        const id = `${h.opKey[w]}:${h.opValue[w]}`;
        const list = ranWriters.get(id);
        if (list) list.push(h.opTxn[w]);
        else ranWriters.set(id, [h.opTxn[w]]);
      }
    }
    const id = `${x}:${v}`;
    return (ranWriters.get(id) ?? []).some((w) => w !== t) || (unknownWriters.get(id) ?? []).some((u) => u !== t && counted[u] !== 0);
  };
  // Of an unexplained ambiguous read's unknown writers, one runs (the most permissive choice runs
  // one, not all: each adds only its own reads' checks): the one with the fewest reads that fail
  // in every outcome (thin air, a future read, an own write not returned), then the fewest
  // register reads of other than the initial value, then the lowest id. A writer with none adds
  // nothing; beyond that the choice is a heuristic (an exact one would search the choices). -1
  // when no writer but the reader can run so.
  let ranks: { fails: Int32Array; reads: Int32Array } | null = null;
  const leastReading = (writers: readonly number[], reader: number): number => {
    const { fails, reads } = (ranks ??= readRanks(h, unknownWriters, explained));
    const better = (u: number, b: number): boolean => (fails[u] !== fails[b] ? fails[u] < fails[b] : reads[u] !== reads[b] ? reads[u] < reads[b] : u < b);
    let best = -1;
    for (const u of writers) if (u !== reader && listOps[u] === 0 && (best < 0 || better(u, best))) best = u;
    return best;
  };
  let aborted: Uint8Array | null = null;
  const ran = (u: number): void => {
    if (u > 0 && unknown[u] === 1 && counted[u] === 0 && listOps[u] === 0) {
      counted[u] = 2;
      (aborted ??= new Uint8Array(h.txnCount))[u] = 1;
      work.push(u);
    }
  };
  for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 1) work.push(t);
  while (work.length > 0) {
    const t = work.pop() as number;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] !== OP_READ) continue;
      if (rf.observedTxn[o] >= 0) ran(rf.observedTxn[o]);
      else if (!explained(t, o)) ran(leastReading(unknownWriters.get(`${h.opKey[o]}:${h.opValue[o]}`) ?? [], t));
    }
  }
  // Uncounted: a transaction without list operations leaves; one with them stays for the list
  // analysis, without its register operations (they never ran either).
  const txns = new Uint8Array(h.txnCount);
  let ops: Uint8Array | null = null;
  let any = false;
  for (let t = 1; t < h.txnCount; t++) {
    if (unknown[t] !== 1 || counted[t] !== 0) continue;
    if (listOps[t] === 0) {
      txns[t] = 1;
      any = true;
      continue;
    }
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] !== OP_READ && h.opKind[o] !== OP_WRITE) continue;
      ops ??= new Uint8Array(h.opCount);
      ops[o] = 1;
      any = true;
    }
  }
  return any || aborted ? { txns, ops, aborted } : null;
}

/**
 * Per unknown transaction, its register reads that fail whatever runs (`fails`: an internal read
 * that does not return the transaction's latest own write of the key, an external read of a value,
 * not the initial one, that no other transaction writes: thin air, or a future read of its own
 * later write) and its reads of other than the initial value (`reads`). `explained(t, o)` is the
 * caller's test of the latter for reads by value; a named writer (`<- T`) other than the reader
 * counts as explained here (the read-consistency check judges it).
 */
function readRanks(h: History, unknownWriters: Map<string, number[]>, explained: (t: number, o: number) => boolean): { fails: Int32Array; reads: Int32Array } {
  const fails = new Int32Array(h.txnCount);
  const reads = new Int32Array(h.txnCount);
  const ownValue = new Map<number, number>();
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnUnknown?.[t] !== 1) continue;
    ownValue.clear();
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const x = h.opKey[o];
      const v = h.opValue[o];
      if (h.opKind[o] === OP_WRITE) ownValue.set(x, v);
      if (h.opKind[o] !== OP_READ) continue;
      if (v !== INIT_VALUE && h.initValues.get(x) !== v) reads[t]++;
      const src = sourceOf(h, o);
      const own = ownValue.get(x);
      if (own !== undefined) {
        if ((v !== NO_VALUE && v !== own) || (src >= 0 && src !== t)) fails[t]++;
      } else if (src >= 0) {
        if (src === t) fails[t]++;
      } else if (v !== NO_VALUE && !explained(t, o) && !(unknownWriters.get(`${x}:${v}`) ?? []).some((u) => u !== t)) {
        fails[t]++;
      }
    }
  }
  return { fails, reads };
}
