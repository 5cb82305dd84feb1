// dbcop histories as read, before they become a History: sessions of transactions of events, with spans.

import { finding, type Finding } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_READ, OP_WRITE } from '../model/history.ts';
import { LineIndex } from '../syntax/line-index.ts';
import type { ReadSource } from './reader.ts';

export interface DraftEvent {
  write: boolean;
  key: string;
  /** The version read or written (decimal digits); null: a read of the uninitialised variable (`x==?`). */
  version: string | null;
  start: number;
  end: number;
}

export interface DraftTxn {
  committed: boolean;
  events: DraftEvent[];
  start: number;
  end: number;
}

export interface DraftSession {
  txns: DraftTxn[];
  start: number;
  end: number;
}

/** At most this many problems are reported per file; then a count of the rest. */
export const MAX_REPORTED = 100;
/** Versions longer than this are refused (dbcop's are 64-bit integers: 20 digits). */
export const MAX_VERSION_DIGITS = 40;

/** Collects a reader's problems, capped. */
export class Problems {
  readonly findings: Finding[] = [];
  private count = 0;

  add(message: string, start: number, end: number): void {
    this.count++;
    if (this.count <= MAX_REPORTED) this.findings.push(finding('syntax', 'error', message, { start, end }));
  }

  done(): Finding[] {
    if (this.count > MAX_REPORTED) {
      this.findings.push(finding('syntax', 'error', `${this.count - MAX_REPORTED} more problems not shown`, { start: 0, end: 0 }));
    }
    return this.findings;
  }
}

/** Canonical decimal text of a version: leading zeros dropped. */
export function canonicalVersion(digits: string): string {
  const s = digits.replace(/^0+(?=\d)/, '');
  return s;
}

/**
 * dbcop's meaning of versions: `x==?` reads the initial state, and so does `x==0` unless some
 * committed transaction writes `x:=0` explicitly (dbcop's version-zero rule). `[..]!` is uncommitted.
 */
export function buildDbcop(sessions: readonly DraftSession[], text: string, findings: Finding[]): ReadSource {
  let ops = 0;
  const zeroWritten = new Set<string>();
  for (const s of sessions) {
    for (const t of s.txns) {
      ops += t.events.length;
      if (t.committed) for (const e of t.events) if (e.write && e.version === '0') zeroWritten.add(e.key);
    }
  }
  const builder = new HistoryBuilder(false, ops);
  const keyIds = new Map<string, number>();
  const keyNames: string[] = [];
  const valueIds = new Map<string, number>();
  const valueNames: string[] = [];
  const intern = (map: Map<string, number>, names: string[], s: string): number => {
    let id = map.get(s);
    if (id === undefined) {
      id = names.length;
      map.set(s, id);
      names.push(s);
    }
    return id;
  };
  let txnNumber = 0;
  sessions.forEach((s, i) => {
    if (s.txns.length === 0) return;
    const session = builder.addSession(`s${i + 1}`, s.start, s.end);
    for (const t of s.txns) {
      const txn = builder.addTxn(session, !t.committed, -1, `T${++txnNumber}`, t.start, t.end);
      for (const e of t.events) {
        const initial = !e.write && (e.version === null || (e.version === '0' && !zeroWritten.has(e.key)));
        const value = initial ? INIT_VALUE : intern(valueIds, valueNames, e.version ?? '0');
        builder.addOp(txn, e.write ? OP_WRITE : OP_READ, intern(keyIds, keyNames, e.key), value, e.start, e.end);
      }
    }
  });
  const history = builder.finish(keyNames.length, (k) => keyNames[k] ?? `#${k}`, (v) => (v === INIT_VALUE ? 'init' : valueNames[v] ?? String(v)), new Map(), true);
  return { history, lines: LineIndex.ofText(text), findings, directives: null, hasTags: false, firstListOp: null };
}
