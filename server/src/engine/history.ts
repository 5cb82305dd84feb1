// The history model: transactions, sessions and operations as integer ids over typed arrays.

import { Int32Vec, Uint8Vec } from './int-vec.ts';

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
  /** Including ⊥ at id 0; real transactions are grouped by session, in session order. */
  txnCount: number;
  sessionCount: number;
  opCount: number;
  keyCount: number;
  txnSession: Int32Array; // ⊥: -1
  txnIndexInSession: Int32Array; // 0-based position in so (⊥: -1)
  txnAborted: Uint8Array;
  txnLevel: Int8Array; // level id (levels.ts) or -1 when untagged
  txnOpStart: Int32Array; // length txnCount + 1
  sessionTxnStart: Int32Array; // length sessionCount + 1
  opKind: Uint8Array;
  opKey: Int32Array;
  opValue: Int32Array; // value id, INIT_VALUE or NO_VALUE
  opSource: Int32Array; // explicit writer (`<- T`) or -1
  opTxn: Int32Array;
  /** Initial values declared by `init k = v` (key id → value id). */
  initValues: Map<number, number>;
  names: HistoryNames;
  ranges: HistoryRanges | null;
}

/**
 * Collects sessions, transactions and operations in any order (plume files interleave sessions
 * and even transactions) and lays them out grouped by session and transaction in finish().
 */
export class HistoryBuilder {
  private sessionNames: string[] = [];
  private readonly txnSession: Int32Vec;
  private readonly txnAborted: Uint8Vec;
  private readonly txnLevel: Int32Vec;
  private readonly txnStart: Int32Vec;
  private readonly txnEnd: Int32Vec;
  private readonly txnLabels: string[] = [];
  private readonly txnNumbers: Int32Vec;
  private readonly opTxn: Int32Vec;
  private readonly opKind: Uint8Vec;
  private readonly opKey: Int32Vec;
  private readonly opValue: Int32Vec;
  private readonly opSource: Int32Vec;
  private readonly opStart: Int32Vec;
  private readonly opEnd: Int32Vec;
  private readonly sessionStart = new Int32Vec(64);
  private readonly sessionEnd = new Int32Vec(64);

  /**
   * numericNames: transactions are named by number (plume) rather than by label (.hist).
   * expectedOps: a capacity hint, so that large inputs do not regrow the buffers many times.
   */
  constructor(private readonly numericNames: boolean, expectedOps = 4096) {
    const ops = Math.max(16, expectedOps);
    const txns = Math.max(16, ops >> 2);
    this.txnSession = new Int32Vec(txns);
    this.txnAborted = new Uint8Vec(txns);
    this.txnLevel = new Int32Vec(txns);
    this.txnStart = new Int32Vec(txns);
    this.txnEnd = new Int32Vec(txns);
    this.txnNumbers = new Int32Vec(txns);
    this.opTxn = new Int32Vec(ops);
    this.opKind = new Uint8Vec(ops);
    this.opKey = new Int32Vec(ops);
    this.opValue = new Int32Vec(ops);
    this.opSource = new Int32Vec(ops);
    this.opStart = new Int32Vec(ops);
    this.opEnd = new Int32Vec(ops);
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

  /** Returns a provisional transaction id (in order of addition). */
  addTxn(session: number, aborted: boolean, level: number, label: string | number, start = 0, end = 0): number {
    this.txnSession.push(session);
    this.txnAborted.push(aborted ? 1 : 0);
    this.txnLevel.push(level);
    this.txnStart.push(start);
    this.txnEnd.push(end);
    if (typeof label === 'number') this.txnNumbers.push(label);
    else this.txnLabels.push(label);
    return this.txnSession.length - 1;
  }

  /** Returns a provisional op id; ops of one transaction must be added in program order. */
  addOp(txn: number, kind: number, key: number, value: number, start = 0, end = 0): number {
    this.opTxn.push(txn);
    this.opKind.push(kind);
    this.opKey.push(key);
    this.opValue.push(value);
    this.opSource.push(-1);
    this.opStart.push(start);
    this.opEnd.push(end);
    return this.opTxn.length - 1;
  }

  setOpSource(op: number, txn: number): void {
    this.opSource.data[op] = txn;
  }

  finish(keyCount: number, keyName: (k: number) => string, valueText: (v: number) => string,
    initValues: Map<number, number>, withRanges: boolean): History {
    const sessionCount = this.sessionNames.length;
    const tmpTxns = this.txnSession.length;
    const txnCount = tmpTxns + 1;
    // Counting sort of transactions by session (stable: insertion order is session order).
    const sessionTxnStart = new Int32Array(sessionCount + 1);
    const tSess = this.txnSession.data;
    for (let t = 0; t < tmpTxns; t++) sessionTxnStart[tSess[t] + 1]++;
    sessionTxnStart[0] = 1;
    for (let s = 0; s < sessionCount; s++) sessionTxnStart[s + 1] += sessionTxnStart[s];
    const fill = sessionTxnStart.slice(0, sessionCount);
    const newId = new Int32Array(tmpTxns);
    for (let t = 0; t < tmpTxns; t++) newId[t] = fill[tSess[t]]++;

    const txnSession = new Int32Array(txnCount);
    const txnIndexInSession = new Int32Array(txnCount);
    const txnAborted = new Uint8Array(txnCount);
    const txnLevel = new Int8Array(txnCount);
    txnSession[0] = -1;
    txnIndexInSession[0] = -1;
    txnLevel[0] = -1;
    for (let t = 0; t < tmpTxns; t++) {
      const n = newId[t];
      const s = tSess[t];
      txnSession[n] = s;
      txnIndexInSession[n] = n - sessionTxnStart[s];
      txnAborted[n] = this.txnAborted.data[t];
      txnLevel[n] = this.txnLevel.data[t];
    }

    // Counting sort of operations by their (new) transaction, stable so po is kept.
    const opCount = this.opTxn.length;
    const txnOpStart = new Int32Array(txnCount + 1);
    const oTxn = this.opTxn.data;
    for (let o = 0; o < opCount; o++) txnOpStart[newId[oTxn[o]] + 1]++;
    for (let t = 0; t < txnCount; t++) txnOpStart[t + 1] += txnOpStart[t];
    const opFill = txnOpStart.slice(0, txnCount);
    const opKind = new Uint8Array(opCount);
    const opKey = new Int32Array(opCount);
    const opValue = new Int32Array(opCount);
    const opSource = new Int32Array(opCount);
    const opTxn = new Int32Array(opCount);
    const opStart = withRanges ? new Int32Array(opCount) : null;
    const opEnd = withRanges ? new Int32Array(opCount) : null;
    for (let o = 0; o < opCount; o++) {
      const t = newId[oTxn[o]];
      const i = opFill[t]++;
      opTxn[i] = t;
      opKind[i] = this.opKind.data[o];
      opKey[i] = this.opKey.data[o];
      opValue[i] = this.opValue.data[o];
      const src = this.opSource.data[o];
      opSource[i] = src < 0 ? -1 : newId[src];
      if (opStart && opEnd) {
        opStart[i] = this.opStart.data[o];
        opEnd[i] = this.opEnd.data[o];
      }
    }

    const names = this.makeNames(newId, keyName, valueText);
    let ranges: HistoryRanges | null = null;
    if (withRanges && opStart && opEnd) {
      const txnStart = new Int32Array(txnCount);
      const txnEnd = new Int32Array(txnCount);
      for (let t = 0; t < tmpTxns; t++) {
        txnStart[newId[t]] = this.txnStart.data[t];
        txnEnd[newId[t]] = this.txnEnd.data[t];
      }
      ranges = {
        txnStart, txnEnd, opStart, opEnd,
        sessionStart: this.sessionStart.toArray(), sessionEnd: this.sessionEnd.toArray(),
      };
    }
    return {
      txnCount, sessionCount, opCount, keyCount, txnSession, txnIndexInSession, txnAborted, txnLevel,
      txnOpStart, sessionTxnStart, opKind, opKey, opValue, opSource, opTxn, initValues, names, ranges,
    };
  }

  private makeNames(newId: Int32Array, keyName: (k: number) => string, valueText: (v: number) => string): HistoryNames {
    const sessionNames = this.sessionNames;
    if (this.numericNames) {
      const numbers = new Int32Array(newId.length + 1);
      for (let t = 0; t < newId.length; t++) numbers[newId[t]] = this.txnNumbers.data[t];
      return {
        txnName: (t) => (t === BOTTOM ? 'init' : numbers[t] < 0 ? `aborted@line${-numbers[t]}` : `T${numbers[t]}`),
        sessionName: (s) => sessionNames[s],
        keyName, valueText,
      };
    }
    const labels: string[] = new Array<string>(newId.length + 1);
    labels[0] = 'init';
    for (let t = 0; t < newId.length; t++) labels[newId[t]] = this.txnLabels[t];
    return { txnName: (t) => labels[t], sessionName: (s) => sessionNames[s], keyName, valueText };
  }
}

/** Ids of the committed transactions, ⊥ excluded, in id order (session by session, in so). */
export function isCommitted(h: History, t: number): boolean {
  return t !== BOTTOM && h.txnAborted[t] === 0;
}
