// A simulated list-append store (Elle's workload): transactions of appends and whole-list reads, with outcomes and real time.

import { Rng } from './generate.ts';
import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';

/**
 * serial: every read sees the latest committed state (SSER holds, up to unknown outcomes);
 * permissive: each read returns the state after a random earlier transaction, now and then cut
 * mid-transaction or holding an aborted element, so every anomaly shows up on small histories.
 */
export type ListStoreKind = 'serial' | 'permissive';

export interface ListGenOptions {
  seed: number;
  transactions: number;
  sessions: number;
  /** Keys live at once; a key that reached maxAppends is retired and a fresh one takes its place. */
  keys: number;
  maxAppends: number;
  opsPerTxn: number;
  /** Every transaction has exactly opsPerTxn ops (else 1..opsPerTxn, uniformly). */
  fixedSize?: boolean;
  /** Probability that an op is a read. */
  readRatio: number;
  abortRatio: number;
  unknownRatio: number;
  store: ListStoreKind;
  /** Whether transactions carry @ START..END times. */
  times: boolean;
}

export const DEFAULT_LIST_GEN: Readonly<ListGenOptions> = {
  seed: 1, transactions: 100, sessions: 4, keys: 4, maxAppends: 32, opsPerTxn: 4, readRatio: 0.5,
  abortRatio: 0.05, unknownRatio: 0.1, store: 'serial', times: true,
};

/**
 * Most operations a generated history may have (transactions × --ops, the worst case), and most
 * list elements its reads may hold in all: beyond them the text is gigabytes and its columns do
 * not fit in memory (`--ops 100000 --txns 1 --fixed-ops` died on "Invalid string length").
 */
export const MAX_LIST_OPS = 100_000_000;
export const MAX_LIST_ELEMENTS = 1 << 26;

/** The options ask for more than MAX_LIST_OPS, or the reads came to more than MAX_LIST_ELEMENTS elements. */
export class ListGenLimitError extends RangeError {}

export const TXN_OK = 0;
export const TXN_FAIL = 1;
export const TXN_INFO = 2;
export const LOP_APPEND = 0;
export const LOP_READ = 1;

/** Columns; a transaction's ops are opStart[t] .. opStart[t+1), a read's list elems[listStart[o] .. listStart[o+1]). */
export interface ListHistoryData {
  txnCount: number;
  sessionCount: number;
  txnSession: Int32Array;
  txnStatus: Uint8Array;
  txnStart: Float64Array;
  txnEnd: Float64Array;
  opStart: Int32Array;
  opKind: Uint8Array;
  opKey: Int32Array;
  opValue: Int32Array;
  listStart: Int32Array;
  elems: Int32Array;
}

export function generateListHistory(o: ListGenOptions): ListHistoryData {
  if (o.transactions * o.opsPerTxn > MAX_LIST_OPS) {
    throw new ListGenLimitError(`transactions × ops is at most ${MAX_LIST_OPS.toLocaleString('en-US')} (got ${(o.transactions * o.opsPerTxn).toLocaleString('en-US')})`);
  }
  const rng = new Rng(o.seed);
  const n = o.transactions;
  const txnSession = new Int32Array(n);
  const txnStatus = new Uint8Array(n);
  const txnStart = new Float64Array(n);
  const txnEnd = new Float64Array(n);
  const opStart = new Int32Array(n + 1);
  // Sized for the mean transaction (1..ops ops); the vectors grow when more come.
  const expectedOps = Math.ceil(n * (o.fixedSize ? o.opsPerTxn : (o.opsPerTxn + 1) / 2)) + 1;
  const opKind = new Uint8Vec(expectedOps);
  const opKey = new Int32Vec(expectedOps);
  const opValue = new Int32Vec(expectedOps);
  const listStart = new Int32Vec(expectedOps + 1);
  const elems = new Int32Vec(1024);
  // Per key touched (maps: `--keys 10000000` made ten million empty lists up front): its committed
  // list, the list's lengths after each committed transaction's block, its aborted elements.
  const lists = new Map<number, number[]>();
  const blockEnds = new Map<number, number[]>();
  const aborted = new Map<number, number[]>();
  // Slot i holds key i until that key is retired; then the slot's key is in `replaced`.
  const replaced = new Map<number, number>();
  let nextKey = o.keys;
  const keyIn = (slot: number): number => replaced.get(slot) ?? slot;
  const ensure = (k: number): void => {
    if (lists.has(k)) return;
    lists.set(k, []);
    blockEnds.set(k, [0]);
    aborted.set(k, []);
  };
  let nextValue = 1;
  let clock = 0;
  const lastEnd = new Float64Array(o.sessions);
  for (let t = 0; t < n; t++) {
    const s = rng.below(o.sessions);
    txnSession[t] = s;
    const r = rng.float();
    const status = r < o.abortRatio ? TXN_FAIL : r < o.abortRatio + o.unknownRatio ? TXN_INFO : TXN_OK;
    txnStatus[t] = status;
    // Committed or not, as the store decided; an unknown outcome is a coin flip.
    const commits = status === TXN_OK || (status === TXN_INFO && rng.float() < 0.5);
    // The store runs transactions one at a time at `clock`, inside each one's interval.
    clock = Math.max(clock + 1 + rng.below(3), lastEnd[s] + 1);
    const start = Math.max(clock - rng.below(4), lastEnd[s] + 1);
    const end = clock + rng.below(4);
    txnStart[t] = start;
    txnEnd[t] = end;
    lastEnd[s] = end;
    const mine = new Map<number, number[]>();
    const size = o.fixedSize ? o.opsPerTxn : 1 + rng.below(o.opsPerTxn);
    for (let j = 0; j < size; j++) {
      const slot = rng.below(o.keys);
      const k = keyIn(slot);
      ensure(k);
      const op = opKind.length;
      if (rng.float() < o.readRatio) {
        opKind.push(LOP_READ);
        opKey.push(k);
        opValue.push(-1);
        listStart.push(elems.length);
        const list = lists.get(k) as number[];
        let cut = list.length;
        if (o.store === 'permissive') {
          const ends = blockEnds.get(k) as number[];
          cut = ends[ends.length - 1 - rng.below(Math.min(ends.length, 3))];
          if (rng.float() < 0.03 && list.length > 0) cut = rng.below(list.length + 1);
        }
        // Checked before the elements are pushed (the vector would double past the limit first).
        if (elems.length + cut + 1 + (mine.get(k)?.length ?? 0) > MAX_LIST_ELEMENTS) {
          throw new ListGenLimitError(`the reads came to more than ${MAX_LIST_ELEMENTS.toLocaleString('en-US')} list elements (lower --max-appends, --ops or --txns)`);
        }
        for (let i = 0; i < cut; i++) elems.push(list[i]);
        const lost = aborted.get(k) as number[];
        if (o.store === 'permissive' && rng.float() < 0.02 && lost.length > 0) elems.push(lost[rng.below(lost.length)]);
        for (const v of mine.get(k) ?? []) elems.push(v);
      } else {
        opKind.push(LOP_APPEND);
        opKey.push(k);
        const v = nextValue++;
        opValue.push(v);
        listStart.push(elems.length);
        if (!mine.has(k)) mine.set(k, []);
        const appended = mine.get(k) as number[];
        appended.push(v);
        // Retired when its list would reach --max-appends, inside this transaction too: one
        // transaction appending 100,000 times to a key made a list (and reads) of 100,000.
        if ((lists.get(k) as number[]).length + appended.length >= o.maxAppends) replaced.set(slot, nextKey++);
      }
      void op;
    }
    opStart[t + 1] = opKind.length;
    for (const [k, vs] of mine) {
      if (commits) {
        const list = lists.get(k) as number[];
        for (const v of vs) list.push(v);
        (blockEnds.get(k) as number[]).push(list.length);
      } else if (status === TXN_FAIL) for (const v of vs) (aborted.get(k) as number[]).push(v);
    }
  }
  listStart.push(elems.length);
  return {
    txnCount: n, sessionCount: o.sessions, txnSession, txnStatus, txnStart, txnEnd, opStart,
    opKind: opKind.toArray(), opKey: opKey.toArray(), opValue: opValue.toArray(), listStart: listStart.toArray(), elems: elems.toArray(),
  };
}

/** Writes the history as .hist text, session by session (so order), with statuses and times. */
export function writeListHist(d: ListHistoryData, sink: (chunk: string) => void, times = true): void {
  for (const chunk of listHistChunks(d, times)) sink(chunk);
}

/** The .hist text in pieces of about 64 KB, made as they are taken (a large history's text is never whole). */
export function* listHistChunks(d: ListHistoryData, times = true): Generator<string> {
  const bySession: number[][] = Array.from({ length: d.sessionCount }, () => []);
  for (let t = 0; t < d.txnCount; t++) bySession[d.txnSession[t]].push(t);
  let buf = '';
  for (let s = 0; s < d.sessionCount; s++) {
    if (bySession[s].length === 0) continue;
    buf += `session s${s}\n`;
    for (const t of bySession[s]) {
      const status = d.txnStatus[t] === TXN_FAIL ? ' aborted' : d.txnStatus[t] === TXN_INFO ? ' unknown' : '';
      buf += `  T${t + 1}${status}${times ? ` @ ${d.txnStart[t]}..${d.txnEnd[t]}` : ''}:`;
      for (let o = d.opStart[t]; o < d.opStart[t + 1]; o++) {
        if (d.opKind[o] === LOP_APPEND) buf += ` a(k${d.opKey[o]}, ${d.opValue[o]})`;
        else buf += ` r(k${d.opKey[o]}, [${d.elems.subarray(d.listStart[o], d.listStart[o + 1]).join(', ')}])`;
        // Inside a transaction too: one of 10^7 operations is longer than a string may be.
        if (buf.length > CHUNK_CHARS) {
          yield buf;
          buf = '';
        }
      }
      buf += '\n';
    }
  }
  if (buf.length > 0) yield buf;
}

/** The writers hand out a piece once it is longer than this. */
const CHUNK_CHARS = 1 << 16;

export function listHistToString(d: ListHistoryData, times = true): string {
  const parts: string[] = [];
  writeListHist(d, (c) => parts.push(c), times);
  return parts.join('');
}

/**
 * Writes the history as Jepsen events, one map per line, in time order: an :invoke at each
 * transaction's start (reads without values) and its completion (:ok with the values read, :fail,
 * or :info) at its end. A thread whose transaction ended :info goes on as a new process, as
 * Jepsen's do. format 'json': the same events as JSON lines.
 */
export function writeListEvents(d: ListHistoryData, format: 'edn' | 'json', sink: (chunk: string) => void): void {
  for (const chunk of listEventChunks(d, format)) sink(chunk);
}

/** The events (writeListEvents) in pieces of about 64 KB, made as they are taken. */
export function* listEventChunks(d: ListHistoryData, format: 'edn' | 'json'): Generator<string> {
  const n = d.txnCount;
  // Event e: transaction e >> 1, invoke (even) or completion (odd), sorted by time then by kind.
  const events = new Int32Array(2 * n);
  for (let i = 0; i < 2 * n; i++) events[i] = i;
  const timeOf = (e: number): number => ((e & 1) === 0 ? d.txnStart[e >> 1] : d.txnEnd[e >> 1]);
  // At equal times completions come first, except a transaction's own invoke before its completion.
  events.sort((a, b) => timeOf(a) - timeOf(b) || ((a >> 1) === (b >> 1) ? (a & 1) - (b & 1) : (b & 1) - (a & 1)) || a - b);
  const process = new Int32Array(n);
  const generation = new Int32Array(d.sessionCount);
  for (let t = 0; t < n; t++) {
    const s = d.txnSession[t];
    process[t] = s + d.sessionCount * generation[s];
    if (d.txnStatus[t] === TXN_INFO) generation[s]++;
  }
  let buf = '';
  for (let i = 0; i < 2 * n; i++) {
    const e = events[i];
    const t = e >> 1;
    const done = (e & 1) === 1;
    const type = !done ? 'invoke' : d.txnStatus[t] === TXN_OK ? 'ok' : d.txnStatus[t] === TXN_FAIL ? 'fail' : 'info';
    const withValues = done && d.txnStatus[t] === TXN_OK;
    buf += format === 'edn' ? `{:type :${type}, :f :txn, :value [` : `{"type":"${type}","f":"txn","value":[`;
    for (let o = d.opStart[t]; o < d.opStart[t + 1]; o++) {
      const k = d.opKey[o];
      if (o > d.opStart[t]) buf += format === 'edn' ? ' ' : ',';
      if (d.opKind[o] === LOP_APPEND) buf += format === 'edn' ? `[:append ${k} ${d.opValue[o]}]` : `["append",${k},${d.opValue[o]}]`;
      else {
        const list = withValues ? d.elems.subarray(d.listStart[o], d.listStart[o + 1]) : null;
        buf += format === 'edn' ? `[:r ${k} ${list ? `[${list.join(' ')}]` : 'nil'}]` : `["r",${k},${list ? `[${list.join(',')}]` : 'null'}]`;
      }
      // Inside an event too: one of 10^7 operations is longer than a string may be.
      if (buf.length > CHUNK_CHARS) {
        yield buf;
        buf = '';
      }
    }
    const time = timeOf(e);
    buf += format === 'edn'
      ? `], :time ${time}, :process ${process[t]}, :index ${i}}\n`
      : `],"time":${time},"process":${process[t]},"index":${i}}\n`;
    if (buf.length > CHUNK_CHARS) {
      yield buf;
      buf = '';
    }
  }
  if (buf.length > 0) yield buf;
}
