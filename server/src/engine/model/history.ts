// The history model: transactions, sessions and operations as integer ids over typed arrays.

import { Float64Vec, Int32Vec, Uint8Vec } from '../util/int-vec.ts';
import { inverse, keyOrder, naturalCompare, numberedNames, sessionOrder, txnOrder, valueOrder } from './canonical-order.ts';

export const OP_READ = 0;
export const OP_WRITE = 1;
export const OP_APPEND = 2;
export const OP_LIST_READ = 3;

/** Transaction id of ⊥, the virtual initial transaction that writes every key's initial value. */
export const BOTTOM = 0;
/** opValue of a read that returned the initial value. */
export const INIT_VALUE = -1;
/** opValue of a read that names its writer (`r(x) <- T3`) but no value. */
export const NO_VALUE = -2;

/** Display names; a side table used only when something is shown to a person. */
export interface HistoryNames {
  txnName(t: number): string;
  sessionName(s: number): string;
  keyName(k: number): string;
  valueText(v: number): string;
}

/** Source offsets (UTF-16 code units) of what the user wrote; only for editor features. */
export interface HistoryRanges {
  txnStart: Int32Array; txnEnd: Int32Array; // the transaction header
  opStart: Int32Array; opEnd: Int32Array;
  sessionStart: Int32Array; sessionEnd: Int32Array;
}

export interface History {
  /**
   * Including ⊥ at id 0. Ids are canonical (canonical-order.ts): sessions by name, transactions a
   * merge of the sessions' so orders by name, keys and values by first use; they do not depend on
   * where session blocks stand in the text, and increase along so.
   */
  txnCount: number;
  sessionCount: number;
  opCount: number;
  keyCount: number;
  txnSession: Int32Array; // ⊥: -1
  txnIndexInSession: Int32Array; // 0-based position in so (⊥: -1)
  txnAborted: Uint8Array;
  txnLevel: Int8Array; // level id (levels.ts) or -1 when untagged
  txnOpStart: Int32Array; // length txnCount + 1: ops of t are txnOpStart[t] .. txnOpStart[t+1)
  /** Session s's transactions in so order: sessionTxns[sessionTxnStart[s] .. sessionTxnStart[s+1]). */
  sessionTxnStart: Int32Array;
  sessionTxns: Int32Array;
  opKind: Uint8Array;
  opKey: Int32Array;
  opValue: Int32Array; // value id, INIT_VALUE or NO_VALUE
  /** Explicit writer (`<- T`) or -1; null where the format cannot name one (plume): 4 bytes an operation saved at a large check's peak. */
  opSource: Int32Array | null;
  opTxn: Int32Array;
  /** Initial values declared by `init k = v` (key id → value id). */
  initValues: Map<number, number>;
  /** 1: status `unknown` (the client never learned the outcome); absent when no input said so. */
  txnUnknown?: Uint8Array;
  /** Real-time interval `@ START..END` per transaction; NaN when the transaction has no times. */
  txnTimeStart?: Float64Array;
  txnTimeEnd?: Float64Array;
  /** Elements of list reads: op o returned listElems[opListStart[o] .. opListStart[o+1]) (value ids). */
  opListStart?: Int32Array;
  listElems?: Int32Array;
  names: HistoryNames;
  ranges: HistoryRanges | null;
}

/** Options of HistoryBuilder.finish(). */
export interface FinishOptions {
  /** How many value ids the reader interned: they are renumbered canonically too (not for plume, whose values are numbers). */
  valueCount?: number;
  /** Keep the ids in the order added (a restriction of a history that already is canonical maps its ids back by position). */
  keepOrder?: boolean;
}

/**
 * Collects sessions, transactions and operations in input order, then numbers them canonically. Plume files interleave
 * sessions (and may even interleave transactions): finish() groups the operations by
 * transaction only when the input did not already, and indexes the sessions' so orders.
 */
export class HistoryBuilder {
  private sessionNames: string[] = [];
  private readonly txnSession: Int32Vec;
  private readonly txnAborted: Uint8Vec;
  private readonly txnLevel: Int32Vec;
  private readonly txnStart: Int32Vec;
  private readonly txnEnd: Int32Vec;
  private txnLabels: string[] = ['init'];
  private readonly txnNumbers: Int32Vec;
  private readonly txnUnknown: Uint8Vec;
  /** Created by the first setTxnTime(): most inputs have no times, and two columns less per transaction count on plume files. */
  private txnTimes: { start: Float64Vec; end: Float64Vec } | null = null;
  private hasUnknown = false;
  /** Per op, where its list elements start in listElems (-1: not a list read); only once a list is seen. */
  private opList: Int32Vec | null = null;
  private opListLen: Int32Vec | null = null;
  private readonly listElems = new Int32Vec(16);
  private readonly opTxn: Int32Vec;
  private readonly opKind: Uint8Vec;
  private readonly opKey: Int32Vec;
  private readonly opValue: Int32Vec;
  private readonly opSource: Int32Vec | null;
  private readonly opStart: Int32Vec;
  private readonly opEnd: Int32Vec;
  private sessionStart = new Int32Vec(64);
  private sessionEnd = new Int32Vec(64);
  /** Whether every op so far belongs to the newest transaction that has ops: no regrouping needed. */
  private grouped = true;

  /**
   * numericNames: transactions are named by number (plume) rather than by label (.hist), and
   * no operation names its writer. expectedOps: a capacity hint for large inputs.
   */
  constructor(private readonly numericNames: boolean, expectedOps = 4096) {
    const ops = Math.max(16, expectedOps);
    const txns = Math.max(16, ops >> 2);
    this.txnSession = new Int32Vec(txns);
    this.txnAborted = new Uint8Vec(txns);
    this.txnLevel = new Int32Vec(txns);
    this.txnStart = new Int32Vec(txns);
    this.txnEnd = new Int32Vec(txns);
    this.txnNumbers = new Int32Vec(numericNames ? txns : 4);
    this.txnUnknown = new Uint8Vec(txns);
    this.opTxn = new Int32Vec(ops);
    this.opKind = new Uint8Vec(ops);
    this.opKey = new Int32Vec(ops);
    this.opValue = new Int32Vec(ops);
    this.opSource = numericNames ? null : new Int32Vec(ops);
    this.opStart = new Int32Vec(ops);
    this.opEnd = new Int32Vec(ops);
    // ⊥ is transaction 0.
    this.txnSession.push(-1);
    this.txnAborted.push(0);
    this.txnLevel.push(-1);
    this.txnStart.push(0);
    this.txnEnd.push(0);
    this.txnNumbers.push(0);
    this.txnUnknown.push(0);
  }

  get txnCount(): number {
    return this.txnSession.length;
  }

  get sessionCount(): number {
    return this.sessionNames.length;
  }

  addSession(name: string, start = 0, end = 0): number {
    this.sessionNames.push(name);
    this.sessionStart.push(start);
    this.sessionEnd.push(end);
    return this.sessionNames.length - 1;
  }

  /** Returns the transaction's id (⊥ is 0, so the first one added is 1). */
  addTxn(session: number, aborted: boolean, level: number, label: string | number, start = 0, end = 0): number {
    this.txnSession.push(session);
    this.txnAborted.push(aborted ? 1 : 0);
    this.txnLevel.push(level);
    this.txnStart.push(start);
    this.txnEnd.push(end);
    if (typeof label === 'number') this.txnNumbers.push(label);
    else this.txnLabels.push(label);
    this.txnUnknown.push(0);
    if (this.txnTimes) {
      this.txnTimes.start.push(NaN);
      this.txnTimes.end.push(NaN);
    }
    return this.txnSession.length - 1;
  }

  /** Marks t as `unknown`: committed or not, the client never learned. */
  setTxnUnknown(t: number): void {
    this.txnUnknown.data[t] = 1;
    this.hasUnknown = true;
  }

  /** t's real-time interval (invocation and completion, one clock). */
  setTxnTime(t: number, start: number, end: number): void {
    if (!this.txnTimes) {
      // Every transaction so far has no times (NaN), ⊥ included.
      const n = this.txnSession.length;
      this.txnTimes = { start: new Float64Vec(Math.max(16, 2 * n)), end: new Float64Vec(Math.max(16, 2 * n)) };
      this.txnTimes.start.data.fill(NaN, 0, n);
      this.txnTimes.end.data.fill(NaN, 0, n);
      this.txnTimes.start.length = this.txnTimes.end.length = n;
    }
    this.txnTimes.start.data[t] = start;
    this.txnTimes.end.data[t] = end;
  }

  /** Adds a list read returning `elems` (value ids); returns the op's id as addOp does. */
  addListRead(txn: number, key: number, elems: ArrayLike<number>, start = 0, end = 0): number {
    const op = this.addOp(txn, OP_LIST_READ, key, NO_VALUE, start, end);
    if (!this.opList || !this.opListLen) {
      this.opList = new Int32Vec(Math.max(16, op + 1));
      this.opListLen = new Int32Vec(Math.max(16, op + 1));
    }
    while (this.opList.length < op) {
      this.opList.push(-1);
      this.opListLen.push(0);
    }
    this.opList.push(this.listElems.length);
    this.opListLen.push(elems.length);
    // One copy, not a push per element: Jepsen histories hold tens of millions of list elements.
    const le = this.listElems;
    if (le.length + elems.length > le.data.length) le.reserve(Math.max(le.length + elems.length, le.data.length * 2));
    le.data.set(elems, le.length);
    le.length += elems.length;
    return op;
  }

  /** Returns the op's provisional id; ops of one transaction must be added in program order. */
  addOp(txn: number, kind: number, key: number, value: number, start = 0, end = 0): number {
    const n = this.opTxn.length;
    if (n === this.opTxn.data.length) this.growOps();
    if (n > 0 && this.opTxn.data[n - 1] > txn) this.grouped = false;
    // One capacity check for all columns: this runs once per operation of the input.
    this.opTxn.data[n] = txn;
    this.opKind.data[n] = kind;
    this.opKey.data[n] = key;
    this.opValue.data[n] = value;
    if (this.opSource) this.opSource.data[n] = -1;
    this.opStart.data[n] = start;
    this.opEnd.data[n] = end;
    const length = n + 1;
    this.opTxn.length = this.opKind.length = this.opKey.length = this.opValue.length = this.opStart.length = this.opEnd.length = length;
    if (this.opSource) this.opSource.length = length;
    return n;
  }

  private growOps(): void {
    for (const v of [this.opTxn, this.opKind, this.opKey, this.opValue, this.opSource, this.opStart, this.opEnd]) v?.reserve(v.data.length * 2);
  }

  setOpSource(op: number, txn: number): void {
    if (this.opSource) this.opSource.data[op] = txn;
  }

  finish(keyCount: number, keyName: (k: number) => string, valueText: (v: number) => string,
    initValues: Map<number, number>, withRanges: boolean, options: FinishOptions = {}): History {
    if (!options.keepOrder) this.renumberSessionsAndTxns();
    const sessionCount = this.sessionNames.length;
    const txnCount = this.txnSession.length;
    const txnSession = this.txnSession.data.subarray(0, txnCount);
    // Each session's transactions in so order (a stable counting sort of ids by session).
    const sessionTxnStart = new Int32Array(sessionCount + 1);
    for (let t = 1; t < txnCount; t++) sessionTxnStart[txnSession[t] + 1]++;
    for (let s = 0; s < sessionCount; s++) sessionTxnStart[s + 1] += sessionTxnStart[s];
    const fill = sessionTxnStart.slice(0, sessionCount);
    const sessionTxns = new Int32Array(txnCount - 1);
    const txnIndexInSession = new Int32Array(txnCount);
    txnIndexInSession[0] = -1;
    for (let t = 1; t < txnCount; t++) {
      const s = txnSession[t];
      txnIndexInSession[t] = fill[s] - sessionTxnStart[s];
      sessionTxns[fill[s]++] = t;
    }
    const txnLevel = Int8Array.from(this.txnLevel.data.subarray(0, txnCount));

    const opCount = this.opTxn.length;
    const ops = this.groupOps(txnCount);
    const ranges: HistoryRanges | null = withRanges
      ? {
        txnStart: this.txnStart.data.subarray(0, txnCount), txnEnd: this.txnEnd.data.subarray(0, txnCount),
        opStart: ops.opStart, opEnd: ops.opEnd,
        sessionStart: this.sessionStart.toArray(), sessionEnd: this.sessionEnd.toArray(),
      }
      : null;
    const h: History = {
      txnCount, sessionCount, opCount, keyCount, txnSession, txnIndexInSession,
      txnAborted: this.txnAborted.data.subarray(0, txnCount), txnLevel,
      txnOpStart: ops.txnOpStart, sessionTxnStart, sessionTxns,
      opKind: ops.opKind, opKey: ops.opKey, opValue: ops.opValue, opSource: ops.opSource, opTxn: ops.opTxn,
      initValues, names: this.makeNames(keyName, valueText), ranges,
    };
    if (this.hasUnknown) h.txnUnknown = this.txnUnknown.data.slice(0, txnCount);
    if (this.txnTimes) {
      h.txnTimeStart = this.txnTimes.start.data.slice(0, txnCount);
      h.txnTimeEnd = this.txnTimes.end.data.slice(0, txnCount);
    }
    if (this.opList) this.attachLists(h, ops.order);
    if (!options.keepOrder) renumberKeysAndValues(h, keyName, valueText, options.valueCount, (k, v) => this.makeNames(k, v));
    return h;
  }

  /**
   * Puts sessions and transactions in canonical order (canonical-order.ts), permuting every
   * per-session and per-transaction column and the ops' transaction and source ids; ops are
   * regrouped by groupOps() afterwards. Nothing moves when the input already is canonical.
   */
  private renumberSessionsAndTxns(): void {
    const sessionCount = this.sessionNames.length;
    const txnCount = this.txnSession.length;
    const sOrder = sessionOrder(this.sessionNames);
    const sessionRank = sOrder ? inverse(sOrder) : Int32Array.from({ length: sessionCount }, (_, i) => i);
    const txnSession = this.txnSession.data;
    let compare: (t: number, u: number) => number;
    if (this.numericNames) {
      // Plume: by transaction number; an aborted write (no number) right after its session's previous transaction.
      const key = new Float64Array(txnCount);
      const last = new Float64Array(sessionCount).fill(-1);
      const numbers = this.txnNumbers.data;
      for (let t = 1; t < txnCount; t++) key[t] = numbers[t] >= 0 ? (last[txnSession[t]] = numbers[t]) : last[txnSession[t]];
      compare = (t, u) => key[t] - key[u];
    } else {
      const labels = this.txnLabels;
      const numbered = numberedNames(labels);
      compare = numbered ? (t, u) => numbered[t] - numbered[u] : (t, u) => naturalCompare(labels[t], labels[u]);
    }
    const tOrder = txnOrder(txnCount, txnSession, sessionRank, compare);
    if (sOrder) {
      const names = this.sessionNames;
      this.sessionNames = Array.from(sOrder, (s) => names[s]);
      this.sessionStart = permutedVec(this.sessionStart, sOrder);
      this.sessionEnd = permutedVec(this.sessionEnd, sOrder);
      for (let t = 1; t < txnCount; t++) txnSession[t] = sessionRank[txnSession[t]];
    }
    if (!tOrder) return;
    for (const v of [this.txnSession, this.txnAborted, this.txnLevel, this.txnStart, this.txnEnd, this.txnUnknown, this.txnTimes?.start, this.txnTimes?.end]) {
      if (v) permuteInPlace(v.data, tOrder);
    }
    if (this.numericNames) permuteInPlace(this.txnNumbers.data, tOrder);
    else {
      const labels = this.txnLabels;
      this.txnLabels = Array.from(tOrder, (t) => labels[t]);
    }
    const rank = inverse(tOrder);
    const n = this.opTxn.length;
    const opTxn = this.opTxn.data;
    let grouped = true;
    for (let o = 0; o < n; o++) {
      opTxn[o] = rank[opTxn[o]];
      if (o > 0 && opTxn[o - 1] > opTxn[o]) grouped = false;
    }
    this.grouped = grouped;
    if (this.opSource) {
      const source = this.opSource.data;
      for (let o = 0; o < n; o++) if (source[o] >= 0) source[o] = rank[source[o]];
    }
  }

  /** The list elements per op in the final op order (ops.order maps final → provisional ids). */
  private attachLists(h: History, order: Int32Array | null): void {
    const list = this.opList as Int32Vec;
    while (list.length < this.opTxn.length) list.push(-1);
    const n = h.opCount;
    const elems = this.listElems.data;
    const total = this.listElems.length;
    const len = this.opListLen as Int32Vec;
    while (len.length < this.opTxn.length) len.push(0);
    const opListStart = new Int32Array(n + 1);
    const out = new Int32Vec(total + 1);
    for (let o = 0; o < n; o++) {
      opListStart[o] = out.length;
      const p = order ? order[o] : o;
      const from = list.data[p];
      if (from < 0) continue;
      const to = from + len.data[p];
      for (let i = from; i < to; i++) out.push(elems[i]);
    }
    opListStart[n] = out.length;
    h.opListStart = opListStart;
    h.listElems = out.toArray();
  }

  /**
   * Ops grouped by transaction, in the builder's own buffers: as they are when the input was
   * grouped, else permuted in place by a stable counting sort, one column at a time through one
   * spare column. Measured: new arrays for every column kept the old ones alive until a
   * collection, 4–9 MB more at the peak of a million-operation check (about as fast either way).
   */
  private groupOps(txnCount: number): {
    txnOpStart: Int32Array; opTxn: Int32Array; opKind: Uint8Array; opKey: Int32Array; opValue: Int32Array;
    opSource: Int32Array | null; opStart: Int32Array; opEnd: Int32Array; order: Int32Array | null;
  } {
    const n = this.opTxn.length;
    const txnOpStart = new Int32Array(txnCount + 1);
    const oTxn = this.opTxn.data;
    for (let o = 0; o < n; o++) txnOpStart[oTxn[o] + 1]++;
    for (let t = 0; t < txnCount; t++) txnOpStart[t + 1] += txnOpStart[t];
    const source = this.opSource ? this.opSource.data.subarray(0, n) : null;
    const columns = {
      txnOpStart, opTxn: oTxn.subarray(0, n), opKind: this.opKind.data.subarray(0, n), opKey: this.opKey.data.subarray(0, n),
      opValue: this.opValue.data.subarray(0, n), opSource: source,
      opStart: this.opStart.data.subarray(0, n), opEnd: this.opEnd.data.subarray(0, n), order: null as Int32Array | null,
    };
    if (this.grouped) return columns;
    // order[i]: the op that moves to position i.
    const fill = txnOpStart.slice(0, txnCount);
    const order = new Int32Array(n);
    for (let o = 0; o < n; o++) order[fill[oTxn[o]]++] = o;
    const spare = new Int32Array(n);
    const permute = (column: Int32Array): void => {
      for (let i = 0; i < n; i++) spare[i] = column[order[i]];
      column.set(spare);
    };
    permute(columns.opKey);
    permute(columns.opValue);
    permute(columns.opStart);
    permute(columns.opEnd);
    if (source) permute(source);
    const kinds = new Uint8Array(spare.buffer, 0, n);
    for (let i = 0; i < n; i++) kinds[i] = columns.opKind[order[i]];
    columns.opKind.set(kinds);
    // Grouped, each transaction's ops are one run: its id, from txnOpStart.
    for (let t = 0; t < txnCount; t++) columns.opTxn.fill(t, txnOpStart[t], txnOpStart[t + 1]);
    columns.order = order;
    return columns;
  }

  private makeNames(keyName: (k: number) => string, valueText: (v: number) => string): HistoryNames {
    const sessionNames = this.sessionNames;
    if (this.numericNames) {
      const numbers = this.txnNumbers.data;
      return {
        txnName: (t) => (t === BOTTOM ? 'init' : numbers[t] < 0 ? `aborted@line${-numbers[t]}` : `T${numbers[t]}`),
        sessionName: (s) => sessionNames[s],
        keyName, valueText,
      };
    }
    const labels = this.txnLabels;
    return { txnName: (t) => labels[t], sessionName: (s) => sessionNames[s], keyName, valueText };
  }
}

/**
 * Keys, then values (when the reader interned them: valueCount), by first use in the final op
 * order (canonical-order.ts): opKey, opValue, list elements, initial values and the names move
 * together. Runs after the ops are grouped in canonical transaction order.
 */
function renumberKeysAndValues(h: History, keyName: (k: number) => string, valueText: (v: number) => string, valueCount: number | undefined,
  makeNames: (k: (k: number) => string, v: (v: number) => string) => HistoryNames): void {
  const kOrder = keyOrder(h.keyCount, h.opKey, h.opCount, keyName);
  const vOrder = valueCount === undefined ? null : valueOrder(valueCount, h.opValue, h.opCount, h.opListStart, h.listElems, valueText);
  const kRank = kOrder ? inverse(kOrder) : null;
  const vRank = vOrder ? inverse(vOrder) : null;
  if (kRank) for (let o = 0; o < h.opCount; o++) h.opKey[o] = kRank[h.opKey[o]];
  if (vRank) {
    for (let o = 0; o < h.opCount; o++) if (h.opValue[o] >= 0) h.opValue[o] = vRank[h.opValue[o]];
    const elems = h.listElems;
    if (elems) for (let i = 0; i < elems.length; i++) if (elems[i] >= 0) elems[i] = vRank[elems[i]];
  }
  if (h.initValues.size > 1 || (h.initValues.size > 0 && (kRank || vRank))) {
    const entries = [...h.initValues].map(([k, v]): [number, number] => [kRank ? kRank[k] : k, vRank && v >= 0 ? vRank[v] : v]);
    h.initValues = new Map(entries.sort((a, b) => a[0] - b[0]));
  }
  if (kOrder || vOrder) {
    h.names = makeNames(
      kOrder ? (k) => keyName(k >= 0 && k < kOrder.length ? kOrder[k] : k) : keyName,
      vOrder ? (v) => valueText(v >= 0 && v < vOrder.length ? vOrder[v] : v) : valueText,
    );
  }
}

/** data[0 .. order.length) ← data[order[i]]: one column of a renumbering. */
function permuteInPlace(data: Int32Array | Uint8Array | Float64Array, order: Int32Array): void {
  const src = data.slice(0, order.length);
  for (let i = 0; i < order.length; i++) data[i] = src[order[i]];
}

function permutedVec(v: Int32Vec, order: Int32Array): Int32Vec {
  const out = new Int32Vec(order.length);
  for (let i = 0; i < order.length; i++) out.push(v.data[order[i]]);
  return out;
}

/** The transaction op o names as its writer (`<- T`), or -1. */
export function sourceOf(h: History, o: number): number {
  return h.opSource ? h.opSource[o] : -1;
}

/** Whether t is a real, committed transaction. */
export function isCommitted(h: History, t: number): boolean {
  return t !== BOTTOM && h.txnAborted[t] === 0;
}
