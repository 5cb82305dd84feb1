// Jepsen/Elle histories into the history model: invoke/complete pairs become transactions with intervals, processes become sessions.

import { finding, type Finding } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_APPEND, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';

export const EV_INVOKE = 0;
export const EV_OK = 1;
export const EV_FAIL = 2;
export const EV_INFO = 3;

/** Micro-op kinds as the readers hand them over. */
export const MOP_APPEND = 0;
export const MOP_READ = 1;
export const MOP_WRITE = 2;

/** Value ids of scalars: numbers through a flat table or a map, other texts through a map. */
export class ScalarIds {
  private direct = new Int32Array(1024).fill(-1);
  private readonly numbers = new Map<number, number>();
  private readonly texts = new Map<string, number>();
  readonly shown: (string | number)[] = [];

  num(n: number): number {
    if (Number.isInteger(n) && n >= 0 && n < 1 << 24) {
      if (n >= this.direct.length) {
        let size = this.direct.length;
        while (size <= n) size *= 2;
        const grown = new Int32Array(size).fill(-1);
        grown.set(this.direct);
        this.direct = grown;
      }
      let id = this.direct[n];
      if (id < 0) {
        id = this.direct[n] = this.shown.length;
        this.shown.push(n);
      }
      return id;
    }
    let id = this.numbers.get(n);
    if (id === undefined) {
      id = this.shown.length;
      this.numbers.set(n, id);
      this.shown.push(n);
    }
    return id;
  }

  text(s: string): number {
    let id = this.texts.get(s);
    if (id === undefined) {
      id = this.shown.length;
      this.texts.set(s, id);
      this.shown.push(JSON.stringify(s));
    }
    return id;
  }

  name(id: number): string {
    const v = this.shown[id];
    return typeof v === 'number' ? String(v) : v;
  }
}

/**
 * Collects events and builds the History. A reader fills the scratch micro-ops of one event
 * (kind, key id, value id or -1 for nil, list elements for list reads, source span), then calls
 * event(). Keys and values are interned by the reader through `keys` and `values`.
 */
export class JepsenAssembler {
  readonly keys = new ScalarIds();
  readonly values = new ScalarIds();
  readonly findings: Finding[] = [];
  // Scratch: the current event's micro-ops.
  readonly mKind = new Uint8Vec(16);
  readonly mKey = new Int32Vec(16);
  readonly mValue = new Int32Vec(16);
  /** List reads: elements in mElems[mListStart[i] .. mListStart[i] + mListLen[i]); -1 start: a scalar or nil. */
  readonly mListStart = new Int32Vec(16);
  readonly mListLen = new Int32Vec(16);
  readonly mElems = new Int32Vec(64);
  readonly mStart = new Int32Vec(16);
  readonly mEnd = new Int32Vec(16);

  private readonly builder: HistoryBuilder;
  /** Per process: the pending invoke (pool offset, time, span) and its session. */
  private readonly pending = new Map<number, { pool: number; count: number; time: number; start: number; end: number; index: number }>();
  private readonly sessionOf = new Map<number, number>();
  private readonly crashes = new Map<number, number>();
  // The pending invokes' micro-ops (for invokes that never complete).
  private readonly pool = { kind: new Uint8Vec(64), key: new Int32Vec(64), value: new Int32Vec(64), start: new Int32Vec(64), end: new Int32Vec(64) };
  private readonly listWorkload: boolean;
  private reported = 0;

  constructor(expectedOps: number, listWorkload: boolean) {
    this.builder = new HistoryBuilder(false, expectedOps);
    this.listWorkload = listWorkload;
  }

  resetScratch(): void {
    this.mKind.length = this.mKey.length = this.mValue.length = this.mListStart.length = this.mListLen.length = 0;
    this.mStart.length = this.mEnd.length = this.mElems.length = 0;
  }

  problem(message: string, start: number, end: number): void {
    if (this.reported++ < 100) this.findings.push(finding('syntax', 'error', message, { start, end }));
  }

  /** One event whose micro-ops are in the scratch. process < 0: not a client process (skipped). */
  event(type: number, process: number, time: number, index: number, start: number, end: number): void {
    if (process < 0) return;
    if (type === EV_INVOKE) {
      if (this.pending.has(process)) {
        this.problem(`process ${process} invokes a transaction before its previous one completed`, start, end);
        this.finishIncomplete(process);
      }
      const pool = this.pool.kind.length;
      for (let i = 0; i < this.mKind.length; i++) {
        this.pool.kind.push(this.mKind.data[i]);
        this.pool.key.push(this.mKey.data[i]);
        this.pool.value.push(this.mListStart.data[i] >= 0 ? -1 : this.mValue.data[i]);
        this.pool.start.push(this.mStart.data[i]);
        this.pool.end.push(this.mEnd.data[i]);
      }
      this.pending.set(process, { pool, count: this.mKind.length, time, start, end, index });
      return;
    }
    const inv = this.pending.get(process);
    if (!inv) {
      this.problem(`a completion (:${['invoke', 'ok', 'fail', 'info'][type]}) of process ${process} without its invoke`, start, end);
      return;
    }
    this.pending.delete(process);
    const t = this.txn(process, type === EV_FAIL, type === EV_INFO, inv.index, start, end, inv.time, time);
    if (type === EV_OK) this.addScratchOps(t);
    else this.addPoolOps(t, inv.pool, inv.count, type === EV_INFO);
    if (type === EV_INFO) this.crashes.set(process, (this.crashes.get(process) ?? 0) + 1);
  }

  private txn(process: number, aborted: boolean, unknown: boolean, index: number, start: number, end: number, t0: number, t1: number): number {
    // A process that crashed (:info) goes on as a new session, as Jepsen's do.
    const generation = this.crashes.get(process) ?? 0;
    const sessionKey = process * 1024 + Math.min(generation, 1023);
    let s = this.sessionOf.get(sessionKey);
    if (s === undefined) {
      s = this.builder.addSession(generation === 0 ? `p${process}` : `p${process}.${generation + 1}`, start, start);
      this.sessionOf.set(sessionKey, s);
    }
    const t = this.builder.addTxn(s, aborted, -1, `T${index}`, start, end);
    if (unknown) this.builder.setTxnUnknown(t);
    this.builder.setTxnTime(t, t0, unknown ? Math.max(t0, t1) : t1);
    return t;
  }

  private addScratchOps(t: number): void {
    for (let i = 0; i < this.mKind.length; i++) {
      const kind = this.mKind.data[i];
      const k = this.mKey.data[i];
      const s = this.mStart.data[i];
      const e = this.mEnd.data[i];
      if (kind === MOP_APPEND) this.builder.addOp(t, OP_APPEND, k, this.mValue.data[i], s, e);
      else if (kind === MOP_WRITE) this.builder.addOp(t, OP_WRITE, k, this.mValue.data[i], s, e);
      else if (this.mListStart.data[i] >= 0) {
        const from = this.mListStart.data[i];
        this.builder.addListRead(t, k, this.mElems.data.subarray(from, from + this.mListLen.data[i]), s, e);
      } else if (this.mValue.data[i] < 0) {
        // nil: the empty list in list-append workloads, the initial value in register ones.
        if (this.listWorkload) this.builder.addListRead(t, k, [], s, e);
        else this.builder.addOp(t, OP_READ, k, INIT_VALUE, s, e);
      } else this.builder.addOp(t, OP_READ, k, this.mValue.data[i], s, e);
    }
  }

  /** :fail and :info (and never-completed) transactions: their writes and appends, no reads (no values known). */
  private addPoolOps(t: number, from: number, count: number, keepReads: boolean): void {
    void keepReads;
    const p = this.pool;
    for (let i = from; i < from + count; i++) {
      const kind = p.kind.data[i];
      if (kind === MOP_READ) continue;
      this.builder.addOp(t, kind === MOP_APPEND ? OP_APPEND : OP_WRITE, p.key.data[i], p.value.data[i], p.start.data[i], p.end.data[i]);
    }
  }

  private finishIncomplete(process: number): void {
    const inv = this.pending.get(process);
    if (!inv) return;
    this.pending.delete(process);
    const t = this.txn(process, false, true, inv.index, inv.start, inv.end, inv.time, inv.time);
    this.addPoolOps(t, inv.pool, inv.count, true);
    this.crashes.set(process, (this.crashes.get(process) ?? 0) + 1);
  }

  /** Invokes without a completion are indeterminate, as Jepsen treats them. */
  finish(): History {
    for (const p of [...this.pending.keys()].sort((a, b) => a - b)) this.finishIncomplete(p);
    const keys = this.keys;
    const values = this.values;
    return this.builder.finish(keys.shown.length, (k) => keys.name(k), (v) => (v === INIT_VALUE ? 'init' : v < 0 ? '?' : values.name(v)), new Map(), true, { valueCount: values.shown.length });
  }
}

/** Whether the input mentions an append micro-op (`:append` or `"append"`): a list-append workload. */
export function looksListAppend(bytes: Uint8Array | string): boolean {
  if (typeof bytes === 'string') return bytes.includes(':append') || bytes.includes('"append"');
  const needle = [97, 112, 112, 101, 110, 100]; // append
  for (let i = 1; i + needle.length < bytes.length; i++) {
    if (bytes[i] !== 97 || (bytes[i - 1] !== 58 && bytes[i - 1] !== 34)) continue;
    let j = 1;
    while (j < needle.length && bytes[i + j] === needle[j]) j++;
    if (j === needle.length) return true;
  }
  return false;
}
