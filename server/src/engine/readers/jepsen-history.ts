// Jepsen/Elle histories into the history model: invoke/complete pairs become transactions with intervals, processes become sessions.

import { finding, hiddenFindingsMessage, MAX_FINDINGS_PER_CODE, type Finding } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_APPEND, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import { Float64Vec, Int32Vec, Uint8Vec } from '../util/int-vec.ts';
import { DIRECT_LIMIT, IntTable } from '../util/int-table.ts';
import { MAX_NUMBER_DIGITS } from '../syntax/hist-parser.ts';
import { withoutLeadingZeros } from '../util/text-lines.ts';

/** Most digits an integer may have, as in .hist (a converted history must parse back). */
export const MAX_INTEGER_DIGITS = MAX_NUMBER_DIGITS;

/**
 * The canonical decimal text of an integer literal's sign and digits (leading zeros and a '+'
 * dropped, "-0" as "0"): what an integer beyond 2^53 is interned by, so it compares exactly.
 */
export function canonicalInteger(negative: boolean, digits: string): string {
  const d = withoutLeadingZeros(digits);
  return negative && d !== '0' ? `-${d}` : d;
}

/**
 * A problem with an event that is well-formed (EDN or JSON) but not an event IsoCheck can read:
 * both readers word it so, and keep "malformed" for input that is not EDN (or JSON) at all.
 */
export function invalidEvent(line: number, message: string): string {
  return `invalid Jepsen event at line ${line}: ${message}; the event is skipped`;
}

/** Why a reader skipped a well-formed event without a word (counted for the no-transaction warning). */
export const SKIP_NOT_TXN = 0; // :f is present and is not :txn (the nemesis, and other non-transaction operations)
export const SKIP_NO_OPS = 1; // no :f, and :value is not a vector of micro-ops

export const EV_INVOKE = 0;
export const EV_OK = 1;
export const EV_FAIL = 2;
export const EV_INFO = 3;

/** Micro-op kinds as the readers hand them over. */
export const MOP_APPEND = 0;
export const MOP_READ = 1;
export const MOP_WRITE = 2;
/** What a key holds, as in hist-parser: decided by its first operation (KEY_FREE: a read of nil, which fits either). */
const KEY_FREE = 0;
const KEY_REGISTER = 1;
const KEY_LIST = 2;

/** Value ids of scalars: numbers through a flat table or a map, other texts through a map. */
export class ScalarIds {
  /** Non-negative integers below DIRECT_LIMIT (the usual values); `numbers` holds any other number. */
  private readonly small = new IntTable(DIRECT_LIMIT);
  private readonly numbers = new Map<number, number>();
  /** Strings, keywords and symbols, each text prefixed by its kind: EDN's "a", :a and a are three values. */
  private readonly texts = new Map<string, number>();
  /** EDN's floating-point numbers: 1.0 is not the integer 1 (Clojure's = tells them apart). */
  private readonly floats = new Map<number, number>();
  /** EDN's BigDecimals (1.5M): not equal to the double 1.5 either. */
  private readonly decimals = new Map<number, number>();
  /** Integers beyond ±(2^53−1) by their canonical decimal text: a double would merge neighbours. */
  private readonly bigs = new Map<string, number>();
  readonly shown: (string | number)[] = [];

  num(n: number): number {
    if (Number.isInteger(n) && n >= 0 && n < DIRECT_LIMIT) {
      let id = this.small.get(n);
      if (id < 0) {
        id = this.shown.length;
        this.small.set(n, id);
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

  /** An integer given as canonicalInteger() text: a number when it is safe, else by its exact text. */
  integer(text: string): number {
    const n = Number(text);
    // Rounding is monotone: a text above 2^53−1 never converts to a safe integer.
    if (Number.isSafeInteger(n)) return this.num(n);
    let id = this.bigs.get(text);
    if (id === undefined) {
      id = this.shown.length;
      this.bigs.set(text, id);
      this.shown.push(text); // shown bare, as integers are
    }
    return id;
  }

  /** A string, shown JSON-quoted. */
  text(s: string): number {
    return this.tagged('"', s, JSON.stringify);
  }

  /** An EDN keyword by its name (without the colon), shown as :name. */
  keyword(name: string): number {
    return this.tagged(':', name, (n) => `:${n}`);
  }

  /** An EDN symbol (true, false, a bare word, a ratio such as 1/2), shown as written. */
  symbol(name: string): number {
    return this.tagged(' ', name, (n) => n);
  }

  private tagged(kind: string, text: string, show: (text: string) => string): number {
    const k = kind + text;
    let id = this.texts.get(k);
    if (id === undefined) {
      id = this.shown.length;
      this.texts.set(k, id);
      this.shown.push(show(text));
    }
    return id;
  }

  /** An EDN floating-point number, apart from the integers and shown with a point or an exponent (1.0, 1.5, 1e+21). */
  float(x: number): number {
    return this.inexact(this.floats, x, '');
  }

  /** An EDN BigDecimal by its value, apart from the floats, shown with its M (1.5M). */
  decimal(x: number): number {
    return this.inexact(this.decimals, x, 'M');
  }

  private inexact(ids: Map<number, number>, x: number, suffix: string): number {
    let id = ids.get(x);
    if (id === undefined) {
      id = this.shown.length;
      ids.set(x, id);
      const text = String(x);
      this.shown.push(`${/[.eEIN]/.test(text) ? text : `${text}.0`}${suffix}`);
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
  /**
   * Per process, in columns indexed by a slot (no object per event: this runs twice per
   * transaction): the pending invoke (pool offset, op count, time, span, index), how often the
   * process crashed, and its current session with the crash count it was made for.
   */
  private readonly slotOf = new Map<number, number>();
  private readonly smallSlot = new Int32Array(4096).fill(-1);
  /** Processes that are not safe integers (keywords, strings, huge integers), by their label. */
  private readonly namedSlotOf = new Map<string, number>();
  /** The process number, NaN for a named process (named ones sort after the numbers). */
  private readonly slotProcess = new Float64Vec(16);
  /** How messages name the process (`3`, `:p2`, `"p2"`), and its sessions' base name (`p3`, `:p2`, `"p2"`). */
  private readonly slotLabel: string[] = [];
  private readonly slotSession: string[] = [];
  private readonly pendActive = new Uint8Vec(16);
  private readonly pendPool = new Int32Vec(16);
  private readonly pendCount = new Int32Vec(16);
  private readonly pendTime = new Float64Vec(16);
  private readonly pendStart = new Int32Vec(16);
  private readonly pendEnd = new Int32Vec(16);
  private readonly pendIndex = new Float64Vec(16);
  private readonly crashCount = new Int32Vec(16);
  private readonly curSession = new Int32Vec(16);
  private readonly curSessionGen = new Int32Vec(16);
  // The pending invokes' micro-ops (for invokes that never complete).
  private readonly pool = { kind: new Uint8Vec(64), key: new Int32Vec(64), value: new Int32Vec(64), start: new Int32Vec(64), end: new Int32Vec(64) };
  private readonly listWorkload: boolean;
  private readonly format: 'edn' | 'json';
  private reported = 0;
  /** Transactions made, and the events skipped per SKIP_* reason: a file that yields no transaction says so (finish). */
  private txns = 0;
  private readonly skippedBy = [0, 0];
  /**
   * Whether an :invoke was seen. Until then a completion without its invoke is kept here (as
   * Elle's completion-only histories have none): it becomes a transaction of its own if the file
   * never invokes anything (finish), and the usual "without its invoke" error at the first invoke.
   */
  private sawInvoke = false;
  private readonly loose = {
    type: new Uint8Vec(16), slot: new Int32Vec(16), index: new Float64Vec(16), start: new Int32Vec(16), end: new Int32Vec(16), opFrom: new Int32Vec(16),
    kind: new Uint8Vec(16), key: new Int32Vec(16), value: new Int32Vec(16), listStart: new Int32Vec(16), listLen: new Int32Vec(16), opStart: new Int32Vec(16), opEnd: new Int32Vec(16),
    elems: new Int32Vec(16),
  };

  constructor(expectedOps: number, listWorkload: boolean, format: 'edn' | 'json' = 'edn') {
    this.builder = new HistoryBuilder(false, expectedOps);
    this.listWorkload = listWorkload;
    this.format = format;
  }

  /** A well-formed event that is not a transaction (SKIP_*): no message, but counted. */
  skipped(reason: number): void {
    this.skippedBy[reason]++;
  }

  /** One micro-op of the current event (both readers, EDN and JSON, add them here). */
  addMicroOp(kind: number, key: number, value: number, listStart: number, listLen: number, start: number, end: number): void {
    this.mKind.push(kind);
    this.mKey.push(key);
    this.mValue.push(value);
    this.mListStart.push(listStart);
    this.mListLen.push(listLen);
    this.mStart.push(start);
    this.mEnd.push(end);
  }

  resetScratch(): void {
    this.mKind.length = this.mKey.length = this.mValue.length = this.mListStart.length = this.mListLen.length = 0;
    this.mStart.length = this.mEnd.length = this.mElems.length = 0;
  }

  problem(message: string, start: number, end: number): void {
    if (this.reported++ < 100) this.findings.push(finding('syntax', 'error', message, { start, end }));
  }

  /** Per key id: KEY_LIST or KEY_REGISTER once an operation decided it (undefined: free), and where that operation is. */
  private readonly keyKind: number[] = [];
  private readonly keyKindStart: number[] = [];
  private readonly keyKindEnd: number[] = [];
  private mixedKeys = 0;
  private firstHiddenMixed = { start: 0, end: 0 };

  /**
   * Keys hold registers or lists, never both, as in .hist (hist-parser keyHolds): the first
   * operation decides (a read of nil fits either in a register workload), and one that mixes them
   * is an error, left out. Kept, a register read of a list key was a thin-air read breaking every
   * level, while `convert` wrote it as a .hist whose check leaves it out (every level holding).
   */
  private keyHolds(k: number, wants: number, start: number, end: number): boolean {
    if (wants === KEY_FREE) return true;
    const has = this.keyKind[k];
    if (has === undefined) {
      this.keyKind[k] = wants;
      this.keyKindStart[k] = start;
      this.keyKindEnd[k] = end;
      return true;
    }
    if (has === wants) return true;
    if (this.mixedKeys++ < MAX_FINDINGS_PER_CODE) {
      const key = this.keys.name(k);
      this.findings.push(finding('mixed-key', 'error',
        `key ${key} holds ${has === KEY_LIST ? 'lists' : 'registers'}, so this ${wants === KEY_LIST ? 'list operation' : 'register operation'} is left out: a key holds registers (w) or lists (append), never both`,
        { start, end }, [{ span: { start: this.keyKindStart[k], end: this.keyKindEnd[k] }, message: `${key} first used here` }]));
    } else if (this.mixedKeys === MAX_FINDINGS_PER_CODE + 1) {
      this.firstHiddenMixed = { start, end };
    }
    return false;
  }

  /** The slot of a process numbered `process` (a non-negative safe integer) in the per-process columns, made on first sight. */
  processSlot(process: number): number {
    const small = process < this.smallSlot.length;
    let p = small ? this.smallSlot[process] : (this.slotOf.get(process) ?? -1);
    if (p >= 0) return p;
    p = this.newSlot(process, String(process), `p${process}`);
    if (small) this.smallSlot[process] = p;
    else this.slotOf.set(process, p);
    return p;
  }

  /**
   * The slot of a process that is not a safe integer: `label` is how the format spells it (`:p2`,
   * `"p2"`, or the digits of an integer beyond 2^53), unique per process value; `session` names
   * its sessions. One label, one slot: the same process value is the same session.
   */
  namedProcessSlot(label: string, session: string): number {
    let p = this.namedSlotOf.get(label);
    if (p !== undefined) return p;
    p = this.newSlot(NaN, label, session);
    this.namedSlotOf.set(label, p);
    return p;
  }

  private newSlot(process: number, label: string, session: string): number {
    const p = this.slotProcess.length;
    this.slotProcess.push(process);
    this.slotLabel.push(label);
    this.slotSession.push(session);
    this.pendActive.push(0);
    this.pendPool.push(0);
    this.pendCount.push(0);
    this.pendTime.push(0);
    this.pendStart.push(0);
    this.pendEnd.push(0);
    this.pendIndex.push(0);
    this.crashCount.push(0);
    this.curSession.push(-1);
    this.curSessionGen.push(-1);
    return p;
  }

  /** One event of the process in slot p (processSlot, namedProcessSlot) whose micro-ops are in the scratch. */
  event(type: number, p: number, time: number, index: number, start: number, end: number): void {
    if (type === EV_INVOKE) {
      if (!this.sawInvoke) this.markInvoke();
      if (this.pendActive.data[p] === 1) {
        this.problem(`process ${this.slotLabel[p]} invokes a transaction before its previous one completed`, start, end);
        this.finishIncomplete(p);
      }
      const pool = this.pool.kind.length;
      for (let i = 0; i < this.mKind.length; i++) {
        this.pool.kind.push(this.mKind.data[i]);
        this.pool.key.push(this.mKey.data[i]);
        this.pool.value.push(this.mListStart.data[i] >= 0 ? -1 : this.mValue.data[i]);
        this.pool.start.push(this.mStart.data[i]);
        this.pool.end.push(this.mEnd.data[i]);
      }
      this.pendActive.data[p] = 1;
      this.pendPool.data[p] = pool;
      this.pendCount.data[p] = this.mKind.length;
      this.pendTime.data[p] = time;
      this.pendStart.data[p] = start;
      this.pendEnd.data[p] = end;
      this.pendIndex.data[p] = index;
      return;
    }
    if (this.pendActive.data[p] === 0) {
      if (this.sawInvoke) this.withoutInvoke(type, p, start, end);
      else this.keepLoose(type, p, index, start, end);
      return;
    }
    this.pendActive.data[p] = 0;
    const t0 = this.pendTime.data[p];
    let t1 = time;
    if (type !== EV_INFO && t1 < t0) {
      // .hist's `@ START..END` needs START ≤ END: the transaction is kept, without a real-time interval.
      this.problem(`T${this.pendIndex.data[p]} completes (at ${t1}) before it was invoked (at ${t0}); it is read without a real-time interval`, start, end);
      t1 = NaN;
    }
    const t = this.txn(p, type === EV_FAIL, type === EV_INFO, this.pendIndex.data[p], start, end, t0, t1);
    if (type === EV_OK) this.addScratchOps(t);
    else this.addPoolOps(t, this.pendPool.data[p], this.pendCount.data[p], type === EV_INFO);
    if (type === EV_INFO) this.crashCount.data[p]++;
  }

  private withoutInvoke(type: number, p: number, start: number, end: number): void {
    this.problem(`a completion (:${['invoke', 'ok', 'fail', 'info'][type]}) of process ${this.slotLabel[p]} without its invoke`, start, end);
  }

  /** A completion before any invoke, with its micro-ops (the scratch), kept until the file shows whether it has invokes. */
  private keepLoose(type: number, p: number, index: number, start: number, end: number): void {
    const l = this.loose;
    l.type.push(type);
    l.slot.push(p);
    l.index.push(index);
    l.start.push(start);
    l.end.push(end);
    l.opFrom.push(l.kind.length);
    for (let i = 0; i < this.mKind.length; i++) {
      l.kind.push(this.mKind.data[i]);
      l.key.push(this.mKey.data[i]);
      l.value.push(this.mValue.data[i]);
      const from = this.mListStart.data[i];
      l.listStart.push(from < 0 ? -1 : l.elems.length);
      l.listLen.push(this.mListLen.data[i]);
      for (let j = from; j >= 0 && j < from + this.mListLen.data[i]; j++) l.elems.push(this.mElems.data[j]);
      l.opStart.push(this.mStart.data[i]);
      l.opEnd.push(this.mEnd.data[i]);
    }
  }

  /**
   * The file has invokes after all (readers also call this for an invoke they refused: one typo
   * does not make a history of completions only). The completions kept before the first one lack
   * theirs, as in any history that mixes the two.
   */
  markInvoke(): void {
    if (this.sawInvoke) return;
    this.sawInvoke = true;
    const l = this.loose;
    for (let e = 0; e < l.type.length; e++) this.withoutInvoke(l.type.data[e], l.slot.data[e], l.start.data[e], l.end.data[e]);
    for (const v of Object.values(l)) v.length = 0;
  }

  /**
   * A history of completions only (Elle's tests and README write them so): each completion is a
   * transaction of its own, named by its index, in its process's session, without a real-time
   * interval (Elle derives no real-time order from completions alone). The scratch is reused.
   */
  private completionsOnly(): void {
    const l = this.loose;
    for (let e = 0; e < l.type.length; e++) {
      const from = l.opFrom.data[e];
      const to = e + 1 < l.type.length ? l.opFrom.data[e + 1] : l.kind.length;
      this.resetScratch();
      for (let i = from; i < to; i++) {
        const ls = l.listStart.data[i];
        let listStart = -1;
        if (ls >= 0) {
          listStart = this.mElems.length;
          for (let j = ls; j < ls + l.listLen.data[i]; j++) this.mElems.push(l.elems.data[j]);
        }
        this.addMicroOp(l.kind.data[i], l.key.data[i], l.value.data[i], listStart, l.listLen.data[i], l.opStart.data[i], l.opEnd.data[i]);
      }
      const type = l.type.data[e];
      const p = l.slot.data[e];
      const t = this.txn(p, type === EV_FAIL, type === EV_INFO, l.index.data[e], l.start.data[e], l.end.data[e], NaN, NaN);
      if (type === EV_OK) this.addScratchOps(t);
      else this.addScratchWrites(t);
      if (type === EV_INFO) this.crashCount.data[p]++;
    }
    for (const v of Object.values(l)) v.length = 0;
  }

  private txn(p: number, aborted: boolean, unknown: boolean, index: number, start: number, end: number, t0: number, t1: number): number {
    // A process that crashed (:info) goes on as a new session, as Jepsen's do (at most 1024 per process).
    const generation = this.crashCount.data[p];
    let s = this.curSession.data[p];
    if (this.curSessionGen.data[p] !== Math.min(generation, 1023)) {
      const base = this.slotSession[p];
      s = this.builder.addSession(generation === 0 ? base : `${base}.${generation + 1}`, start, start);
      this.curSession.data[p] = s;
      this.curSessionGen.data[p] = Math.min(generation, 1023);
    }
    const t = this.builder.addTxn(s, aborted, -1, `T${index}`, start, end);
    this.txns++;
    if (unknown) this.builder.setTxnUnknown(t);
    if (!Number.isNaN(t1)) this.builder.setTxnTime(t, t0, unknown ? Math.max(t0, t1) : t1);
    return t;
  }

  private addScratchOps(t: number): void {
    for (let i = 0; i < this.mKind.length; i++) {
      const kind = this.mKind.data[i];
      const k = this.mKey.data[i];
      const s = this.mStart.data[i];
      const e = this.mEnd.data[i];
      const list = kind === MOP_APPEND || this.mListStart.data[i] >= 0 || (kind === MOP_READ && this.mValue.data[i] < 0 && this.listWorkload);
      const free = kind === MOP_READ && this.mValue.data[i] < 0 && !this.listWorkload;
      if (!this.keyHolds(k, free ? KEY_FREE : list ? KEY_LIST : KEY_REGISTER, s, e)) continue;
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

  /** A completion-only :fail or :info: its own appends and writes (the scratch), no reads, as addPoolOps keeps of an invoke. */
  private addScratchWrites(t: number): void {
    for (let i = 0; i < this.mKind.length; i++) {
      const kind = this.mKind.data[i];
      if (kind === MOP_READ || !this.keyHolds(this.mKey.data[i], kind === MOP_APPEND ? KEY_LIST : KEY_REGISTER, this.mStart.data[i], this.mEnd.data[i])) continue;
      this.builder.addOp(t, kind === MOP_APPEND ? OP_APPEND : OP_WRITE, this.mKey.data[i], this.mValue.data[i], this.mStart.data[i], this.mEnd.data[i]);
    }
  }

  /** :fail and :info (and never-completed) transactions: their writes and appends, no reads (no values known). */
  private addPoolOps(t: number, from: number, count: number, keepReads: boolean): void {
    void keepReads;
    const p = this.pool;
    for (let i = from; i < from + count; i++) {
      const kind = p.kind.data[i];
      if (kind === MOP_READ || !this.keyHolds(p.key.data[i], kind === MOP_APPEND ? KEY_LIST : KEY_REGISTER, p.start.data[i], p.end.data[i])) continue;
      this.builder.addOp(t, kind === MOP_APPEND ? OP_APPEND : OP_WRITE, p.key.data[i], p.value.data[i], p.start.data[i], p.end.data[i]);
    }
  }

  private finishIncomplete(p: number): void {
    if (this.pendActive.data[p] === 0) return;
    this.pendActive.data[p] = 0;
    const time = this.pendTime.data[p];
    const t = this.txn(p, false, true, this.pendIndex.data[p], this.pendStart.data[p], this.pendEnd.data[p], time, time);
    this.addPoolOps(t, this.pendPool.data[p], this.pendCount.data[p], true);
    this.crashCount.data[p]++;
  }

  /** Invokes without a completion are indeterminate, as Jepsen treats them. */
  finish(): History {
    const open: number[] = [];
    for (let p = 0; p < this.slotProcess.length; p++) if (this.pendActive.data[p] === 1) open.push(p);
    // Numbered processes in numeric order, then named ones in order of first appearance: input order only.
    const proc = this.slotProcess.data;
    open.sort((a, b) => (Number.isNaN(proc[a]) ? (Number.isNaN(proc[b]) ? a - b : 1) : Number.isNaN(proc[b]) ? -1 : proc[a] - proc[b]));
    for (const p of open) this.finishIncomplete(p);
    if (!this.sawInvoke) this.completionsOnly();
    if (this.mixedKeys > MAX_FINDINGS_PER_CODE) this.findings.push(finding('mixed-key', 'error', hiddenFindingsMessage('mixed-key', this.mixedKeys - MAX_FINDINGS_PER_CODE), this.firstHiddenMixed));
    // With a problem reported, nothing read is already loud: every level is undecided ("nothing could be read").
    if (this.txns === 0 && this.reported === 0) this.findings.push(finding('not-checked', 'warning', this.nothingChecked(), { start: 0, end: 0 }));
    const keys = this.keys;
    const values = this.values;
    return this.builder.finish(keys.shown.length, (k) => keys.name(k), (v) => (v === INIT_VALUE ? 'init' : v < 0 ? '?' : values.name(v)), new Map(), true, { valueCount: values.shown.length });
  }

  /** Why the file yielded no transaction: a clean verdict on it must not look like one on a checked history. */
  private nothingChecked(): string {
    const edn = this.format === 'edn';
    const [notTxn, noOps] = this.skippedBy;
    const parts: string[] = [];
    const events = (n: number): string => `${n} event${n === 1 ? '' : 's'}`;
    if (notTxn > 0) parts.push(`${events(notTxn)} skipped as no transaction (${edn ? ':f is not :txn' : '"f" is not "txn"'})`);
    if (noOps > 0) parts.push(`${events(noOps)} skipped for having neither ${edn ? ':f nor micro-ops as :value' : '"f" nor micro-ops as "value"'}`);
    return `no transaction was read from this file, so nothing was checked: ${parts.length > 0 ? parts.join('; ') : 'it has no events'}`;
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
