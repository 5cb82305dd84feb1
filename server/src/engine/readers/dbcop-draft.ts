// dbcop histories as read, before they become a History: transactions and events as columns, with spans.

import type { Finding } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_READ, OP_WRITE } from '../model/history.ts';
import { MAX_NUMBER_DIGITS } from '../syntax/hist-parser.ts';
import { LineIndex } from '../syntax/line-index.ts';
import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';
import { intern, withoutLeadingZeros } from '../util/text-lines.ts';
import type { ReadSource } from './reader.ts';

/**
 * Versions longer than this are refused: the limit of numbers in the `.hist` language, so that
 * whatever reads cleanly also converts to `.hist` (dbcop's own are 64-bit integers: 20 digits).
 */
export const MAX_VERSION_DIGITS = MAX_NUMBER_DIGITS;

/** The finding's message for a version of `digits` digits (leading zeros count, as in `.hist`). */
export function versionTooLong(digits: number): string {
  return `a version may have at most ${MAX_VERSION_DIGITS} digits, as numbers in .hist files (this one has ${digits})`;
}
/** evVersion of `x==?`, a read of the uninitialised variable. */
export const NO_VERSION = -1;

/**
 * Sessions, transactions and events in file order, as columns (no object per event). Keys and
 * versions are interned as read; versions keep their decimal text (dbcop's are 64-bit).
 */
export class DbcopDraft {
  private readonly keyIds = new Map<string, number>();
  readonly keyNames: string[] = [];
  private readonly versionIds = new Map<string, number>();
  readonly versionNames: string[] = [];
  sessions = 0;
  readonly txSession = new Int32Vec(64);
  readonly txCommitted = new Uint8Vec(64);
  readonly txStart = new Int32Vec(64);
  readonly txEnd = new Int32Vec(64);
  readonly evTxn = new Int32Vec(256);
  readonly evWrite = new Uint8Vec(256);
  readonly evKey = new Int32Vec(256);
  readonly evVersion = new Int32Vec(256);
  readonly evStart = new Int32Vec(256);
  readonly evEnd = new Int32Vec(256);

  newSession(): void {
    this.sessions++;
  }

  /** Opens a transaction of the current session; its end is set by endTxn. */
  addTxn(committed: boolean, start: number): number {
    if (this.sessions === 0) this.sessions = 1;
    this.txSession.push(this.sessions - 1);
    this.txCommitted.push(committed ? 1 : 0);
    this.txStart.push(start);
    this.txEnd.push(start);
    return this.txSession.length - 1;
  }

  endTxn(t: number, end: number, committed: boolean): void {
    this.txEnd.data[t] = end;
    this.txCommitted.data[t] = committed ? 1 : 0;
  }

  /** version: decimal digits (leading zeros are dropped), or null for `x==?`. */
  addEvent(txn: number, write: boolean, key: string, version: string | null, start: number, end: number): void {
    this.evTxn.push(txn);
    this.evWrite.push(write ? 1 : 0);
    this.evKey.push(intern(this.keyIds, this.keyNames, key));
    this.evVersion.push(version === null ? NO_VERSION : intern(this.versionIds, this.versionNames, withoutLeadingZeros(version)));
    this.evStart.push(start);
    this.evEnd.push(end);
  }

  /** How much has been read, to drop a line that turned out bad (rollback). */
  mark(): { txns: number; events: number } {
    return { txns: this.txSession.length, events: this.evTxn.length };
  }

  rollback(m: { txns: number; events: number }): void {
    for (const v of [this.txSession, this.txCommitted, this.txStart, this.txEnd]) v.length = m.txns;
    for (const v of [this.evTxn, this.evWrite, this.evKey, this.evVersion, this.evStart, this.evEnd]) v.length = m.events;
  }

  /** The version id of "0", or -2 when no event names version 0. */
  get zeroVersion(): number {
    return this.versionIds.get('0') ?? -2;
  }
}

/**
 * dbcop's meaning of versions: `x==?` reads the initial state, and so does `x==0` unless some
 * committed transaction writes `x:=0` explicitly (dbcop's version-zero rule). `[..]!` is uncommitted.
 * Transactions are named T1, T2, … in file order; sessions s1, s2, … by position (empty ones left out).
 */
export function buildDbcop(d: DbcopDraft, text: string, findings: Finding[]): ReadSource {
  const events = d.evTxn.length;
  const zero = d.zeroVersion;
  const zeroWritten = new Uint8Array(d.keyNames.length);
  for (let e = 0; e < events; e++) {
    if (d.evWrite.data[e] === 1 && d.evVersion.data[e] === zero && d.txCommitted.data[d.evTxn.data[e]] === 1) zeroWritten[d.evKey.data[e]] = 1;
  }
  const builder = new HistoryBuilder(false, events);
  const txns = d.txSession.length;
  let session = -1;
  let sessionOf = -1;
  let e = 0;
  for (let t = 0; t < txns; t++) {
    if (d.txSession.data[t] !== sessionOf) {
      sessionOf = d.txSession.data[t];
      let last = t;
      while (last + 1 < txns && d.txSession.data[last + 1] === sessionOf) last++;
      session = builder.addSession(`s${sessionOf + 1}`, d.txStart.data[t], d.txEnd.data[last]);
    }
    const txn = builder.addTxn(session, d.txCommitted.data[t] === 0, -1, `T${t + 1}`, d.txStart.data[t], d.txEnd.data[t]);
    for (; e < events && d.evTxn.data[e] === t; e++) {
      const write = d.evWrite.data[e] === 1;
      const key = d.evKey.data[e];
      const version = d.evVersion.data[e];
      const initial = !write && (version === NO_VERSION || (version === zero && zeroWritten[key] === 0));
      builder.addOp(txn, write ? OP_WRITE : OP_READ, key, initial ? INIT_VALUE : version, d.evStart.data[e], d.evEnd.data[e]);
    }
  }
  const { keyNames, versionNames } = d;
  const history = builder.finish(keyNames.length, (k) => keyNames[k] ?? `#${k}`, (v) => (v === INIT_VALUE ? 'init' : versionNames[v] ?? String(v)), new Map(), true);
  return { history, lines: LineIndex.ofText(text), findings, directives: null, hasTags: false, firstListOp: null };
}
