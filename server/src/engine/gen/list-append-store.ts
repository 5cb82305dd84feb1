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
  const rng = new Rng(o.seed);
  const n = o.transactions;
  const txnSession = new Int32Array(n);
  const txnStatus = new Uint8Array(n);
  const txnStart = new Float64Array(n);
  const txnEnd = new Float64Array(n);
  const opStart = new Int32Array(n + 1);
  const opKind = new Uint8Vec(n * o.opsPerTxn + 1);
  const opKey = new Int32Vec(n * o.opsPerTxn + 1);
  const opValue = new Int32Vec(n * o.opsPerTxn + 1);
  const listStart = new Int32Vec(n * o.opsPerTxn + 2);
  const elems = new Int32Vec(1024);
  // Per key: its committed list and, per element, whether it ends its appender's block in that list.
  const lists: number[][] = [];
  const blockEnds: number[][] = []; // lengths after each committed transaction's block
  const aborted: number[][] = []; // elements of aborted transactions, per key
  const live = new Int32Array(o.keys);
  let nextKey = 0;
  for (let i = 0; i < o.keys; i++) live[i] = nextKey++;
  const ensure = (k: number): void => {
    while (lists.length <= k) {
      lists.push([]);
      blockEnds.push([0]);
      aborted.push([]);
    }
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
      const k = live[slot];
      ensure(k);
      const op = opKind.length;
      if (rng.float() < o.readRatio) {
        opKind.push(LOP_READ);
        opKey.push(k);
        opValue.push(-1);
        listStart.push(elems.length);
        const list = lists[k];
        let cut = list.length;
        if (o.store === 'permissive') {
          const ends = blockEnds[k];
          cut = ends[ends.length - 1 - rng.below(Math.min(ends.length, 3))];
          if (rng.float() < 0.03 && list.length > 0) cut = rng.below(list.length + 1);
        }
        for (let i = 0; i < cut; i++) elems.push(list[i]);
        if (o.store === 'permissive' && rng.float() < 0.02 && aborted[k].length > 0) elems.push(aborted[k][rng.below(aborted[k].length)]);
        for (const v of mine.get(k) ?? []) elems.push(v);
      } else {
        opKind.push(LOP_APPEND);
        opKey.push(k);
        const v = nextValue++;
        opValue.push(v);
        listStart.push(elems.length);
        if (!mine.has(k)) mine.set(k, []);
        (mine.get(k) as number[]).push(v);
      }
      void op;
    }
    opStart[t + 1] = opKind.length;
    for (const [k, vs] of mine) {
      if (commits) {
        lists[k].push(...vs);
        blockEnds[k].push(lists[k].length);
        if (lists[k].length >= o.maxAppends) {
          for (let i = 0; i < o.keys; i++) if (live[i] === k) live[i] = nextKey++;
        }
      } else if (status === TXN_FAIL) aborted[k].push(...vs);
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
        else buf += ` r(k${d.opKey[o]}, [${Array.from(d.elems.subarray(d.listStart[o], d.listStart[o + 1])).join(', ')}])`;
      }
      buf += '\n';
      if (buf.length > 1 << 16) {
        yield buf;
        buf = '';
      }
    }
  }
  if (buf.length > 0) yield buf;
}

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
    const ops: string[] = [];
    for (let o = d.opStart[t]; o < d.opStart[t + 1]; o++) {
      const k = d.opKey[o];
      if (d.opKind[o] === LOP_APPEND) ops.push(format === 'edn' ? `[:append ${k} ${d.opValue[o]}]` : `["append",${k},${d.opValue[o]}]`);
      else {
        const list = withValues ? Array.from(d.elems.subarray(d.listStart[o], d.listStart[o + 1])) : null;
        ops.push(format === 'edn' ? `[:r ${k} ${list ? `[${list.join(' ')}]` : 'nil'}]` : `["r",${k},${list ? `[${list.join(',')}]` : 'null'}]`);
      }
    }
    const time = timeOf(e);
    buf += format === 'edn'
      ? `{:type :${type}, :f :txn, :value [${ops.join(' ')}], :time ${time}, :process ${process[t]}, :index ${i}}\n`
      : `{"type":"${type}","f":"txn","value":[${ops.join(',')}],"time":${time},"process":${process[t]},"index":${i}}\n`;
    if (buf.length > 1 << 16) {
      yield buf;
      buf = '';
    }
  }
  if (buf.length > 0) yield buf;
}
