// Random cases for the subset oracles: generator histories, some with mutated reads or real times, as columns and .hist text.

import { generateHistory, Rng, type GeneratedHistory, type GenOptions, type StoreKind } from '../../server/src/engine/gen/generate.ts';
import { toHistString } from '../../server/src/engine/gen/history-writers.ts';
import { randomOptions } from './differential.ts';
import type { Times } from './subset-oracle.ts';

export interface OracleCase {
  seed: number;
  g: GeneratedHistory;
  times?: Times;
  text: string;
  /** Whether a read was given another value (to reach intermediate, future, aborted and thin-air reads). */
  mutated: boolean;
}

/**
 * Stores by weight: permissive violates nearly everything, causal (prefix consistency, lost
 * updates) separates PC from SI, snapshot separates SI from SER (write skew), serial holds.
 */
const STORES: StoreKind[] = ['permissive', 'permissive', 'read-committed', 'causal', 'causal', 'snapshot', 'snapshot', 'snapshot', 'serial'];

/**
 * A history of about `transactions` transactions (the snapshot store drops first-committer-wins
 * losers, aborts are left out of the orders) with randomOptions(seed)'s shape, and a store drawn
 * from STORES unless `store` is given. One case in
 * five has one read's value replaced by another value of its key (initial, any write of it,
 * including overwritten, aborted and the reader's own later writes, or an unwritten one); one in
 * three gets `@ START..END` times on most transactions, near the generator's order (so SSER
 * often holds on the serial store) with random overlaps.
 */
export function oracleCase(seed: number, transactions: number, store?: StoreKind): OracleCase {
  const rng = new Rng(seed ^ 0x3c6ef372);
  return caseOf(seed, { ...randomOptions(seed), transactions, store: store ?? STORES[rng.below(STORES.length)] }, rng);
}

/**
 * Contended histories: more sessions (2–8), few keys (1–4) and short transactions, so that
 * many transactions write a common key and the order search, not propagation, decides: the
 * snapshot store's write skews (SI holds, SER not) and the causal store's lost updates (PC
 * holds, SI not) are frequent here.
 */
export function contendedCase(seed: number, transactions: number): OracleCase {
  const rng = new Rng(seed ^ 0x1b873593);
  const stores: StoreKind[] = ['snapshot', 'snapshot', 'causal', 'causal', 'permissive', 'serial', 'read-committed'];
  return caseOf(seed, {
    sessions: 2 + rng.below(7), transactions, opsPerTxn: 1.5 + rng.below(3), keys: 1 + rng.below(4), distribution: 'uniform', zipfS: 0.8,
    readRatio: 0.3 + rng.below(5) / 10, store: stores[rng.below(stores.length)], seed, abortRatio: rng.below(5) === 0 ? 0.1 : 0,
  }, rng);
}

function caseOf(seed: number, options: GenOptions, rng: Rng): OracleCase {
  const g = generateHistory(options);
  let mutated = false;
  if (rng.below(5) === 0) {
    const readOps: number[] = [];
    for (let o = 0; o < g.opCount; o++) if (g.opIsWrite[o] === 0) readOps.push(o);
    if (readOps.length > 0) {
      const o = readOps[rng.below(readOps.length)];
      const candidates = [0, 1_000_000];
      for (let w = 0; w < g.opCount; w++) if (g.opIsWrite[w] === 1 && g.opKey[w] === g.opKey[o]) candidates.push(g.opValue[w]);
      const opValue = g.opValue.slice();
      opValue[o] = candidates[rng.below(candidates.length)];
      mutated = opValue[o] !== g.opValue[o];
      g.opValue = opValue;
    }
  }
  let times: Times | undefined;
  if (rng.below(3) === 0) {
    const start = new Float64Array(g.txnCount).fill(NaN);
    const end = new Float64Array(g.txnCount).fill(NaN);
    for (let t = 0; t < g.txnCount; t++) {
      if (rng.below(6) === 0) continue;
      start[t] = Math.max(0, 4 * t + rng.below(6) - (rng.below(4) === 0 ? rng.below(20) : 0));
      end[t] = start[t] + rng.below(8);
    }
    times = { start, end };
  }
  let text = toHistString(g);
  if (times) {
    const { start, end } = times;
    text = text.replace(/^(\s*)T(\d+)( aborted)?:/gm, (m, indent: string, id: string, aborted: string | undefined) => {
      const t = Number(id);
      return Number.isNaN(start[t]) ? m : `${indent}T${id}${aborted ?? ''} @ ${start[t]}..${end[t]}:`;
    });
  }
  return { seed, g, times, text, mutated };
}

/**
 * Causal-visibility histories, which the generator's stores never make: transactions run one at
 * a time (arbitration = run order), each seeing its session's past, a random set of earlier
 * transactions, and everything those saw (a causally closed set that need not be a prefix), and
 * reading each key's latest visible write. CC holds by construction; PC, SI and SER fail
 * through long forks that only the order search finds (CC does not imply them).
 */
export function causalVisibilityCase(seed: number, transactions: number): OracleCase {
  const rng = new Rng(seed ^ 0x27d4eb2f);
  const sessions = 2 + rng.below(4);
  const keys = 1 + rng.below(4);
  const readRatio = 0.4 + rng.below(4) / 10;
  const txnSession = new Int32Array(transactions);
  const txnOpStart = new Int32Array(transactions + 1);
  const opIsWrite: number[] = [];
  const opKey: number[] = [];
  const opValue: number[] = [];
  const seen: Set<number>[] = [];
  const lastOfSession = new Int32Array(sessions).fill(-1);
  // The final value each transaction wrote per key, for later readers.
  const finals: Map<number, number>[] = [];
  for (let t = 0; t < transactions; t++) {
    const s = rng.below(sessions);
    txnSession[t] = s;
    txnOpStart[t] = opIsWrite.length;
    const visible = new Set<number>();
    const include = (u: number): void => {
      if (visible.has(u)) return;
      visible.add(u);
      for (const v of seen[u]) visible.add(v); // seen[u] is already closed
    };
    if (lastOfSession[s] >= 0) include(lastOfSession[s]);
    for (let u = 0; u < t; u++) if (rng.below(5) === 0) include(u);
    seen.push(visible);
    const own = new Map<number, number>();
    const size = 1 + rng.below(4);
    for (let i = 0; i < size; i++) {
      const x = rng.below(keys);
      opKey.push(x);
      if (rng.float() >= readRatio) {
        opIsWrite.push(1);
        opValue.push(opValue.length + 1);
        own.set(x, opValue[opValue.length - 1]);
      } else {
        opIsWrite.push(0);
        let v = own.get(x);
        for (let u = t - 1; v === undefined && u >= 0; u--) if (visible.has(u)) v = finals[u].get(x);
        opValue.push(v ?? 0);
      }
    }
    finals.push(own);
    lastOfSession[s] = t;
  }
  txnOpStart[transactions] = opIsWrite.length;
  const g: GeneratedHistory = {
    sessionCount: sessions, txnCount: transactions, opCount: opIsWrite.length, keyCount: keys, txnSession, txnOpStart,
    txnAborted: new Uint8Array(transactions), opIsWrite: Uint8Array.from(opIsWrite), opKey: Int32Array.from(opKey), opValue: Int32Array.from(opValue),
  };
  return { seed, g, text: toHistString(g), mutated: false };
}
