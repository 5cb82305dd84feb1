// The engine's one delta-debugging minimiser: the smallest sub-history that keeps a property, within a work budget.

import type { History } from '../model/history.ts';
import { computeReadsFrom, type ReadsFrom } from '../model/reads-from.ts';
import { composeOrigin, restrictWithOrigin, unrestricted, type Restricted } from '../model/restrict.ts';
import { unreadUnknowns } from '../model/unknown-txns.ts';

export interface ShrinkBudget {
  /**
   * Work units: each candidate sub-history checked costs its operations plus its transactions.
   * A count of steps, not milliseconds, so the result is the same on every machine and run.
   */
  work: number;
  /**
   * Also charge each candidate its transactions × sessions / CLOCK_ENTRIES_PER_UNIT: for properties
   * whose check builds vector clocks (CC) or event clocks (the strong levels), tables of that size.
   */
  clocks?: boolean;
  /** Polled between candidates: true abandons the shrinking (the caller then discards the result). */
  stop?: () => boolean;
}

export interface Shrunk extends Restricted {
  rf: ReadsFrom;
  /** Candidate sub-histories checked. */
  checks: number;
  /** Whether shrinking ran to its end (else the work budget ran out and it kept what it had). */
  complete: boolean;
  /** Whether `stop` ended it. */
  stopped: boolean;
}

/**
 * Clock entries per work unit. The work counted ops + txns alone, but a strong level's check builds
 * clock tables of txns × sessions entries (EventGraph, CC's vector clocks), at ~80 ns an entry
 * here: on a write-skew ring of 1,000 one-transaction sessions (59 KB) each candidate was charged
 * 4,000 units for 77 ms of work, and SER's witness took 20–35 s of a check whose verdict took 0.1 s.
 * 16 entries cost about what a unit of the rest does (~1.3 µs, measured on rings of 125 to 1,000).
 */
export const CLOCK_ENTRIES_PER_UNIT = 16;

/** Transactions per window of the first pass over a large history (see shrinkHistory). */
const WINDOW = 256;

/**
 * On a history of more than 2 × WINDOW transactions, first checks the `seeds` (sets of transaction
 * ids, witness/seeds.ts: an anomaly's transactions wherever they lie), then looks for a window of
 * WINDOW consecutive transactions that keeps the property. Then removes chunks of transactions (halving
 * the chunk size down to one), then single operations (last first), then transactions left empty,
 * as long as `keeps` holds of the candidate. With a property closed under adding back what was
 * removed (a violation of a sub-history is one of the history: dropping transactions and reads
 * only removes constraints), the result is 1-minimal for transactions when the budget allows. Ids of the result map back through txnOrigin/opOrigin.
 */
export function shrinkHistory(h: History, rf: ReadsFrom, keeps: (sub: History, subRf: ReadsFrom) => boolean, budget: ShrinkBudget,
  seeds: readonly Int32Array[] = []): Shrunk {
  let cur: Restricted & { rf: ReadsFrom } = { ...unrestricted(h), rf };
  let work = budget.work;
  let checks = 0;
  let stopped = false;
  const open = (): boolean => {
    if (budget.stop?.() === true) stopped = true;
    return work > 0 && !stopped;
  };
  /** Checks one candidate; adopts it when the property holds. */
  const attempt = (keep: Uint8Array, drop: Uint8Array | null): boolean => {
    let sub = restrictWithOrigin(cur.h, cur.rf, keep, drop);
    let subRf = computeReadsFrom(sub.h);
    // An `unknown` transaction whose readers were all removed never ran (spec): the candidate is
    // what a reader of it sees, else a witness written out could hold (its unknown writer gone).
    const unread = unreadUnknowns(sub.h, subRf);
    if (unread) {
      const inner = restrictWithOrigin(sub.h, subRf, unread.txns.map((x, t) => (t === 0 || x === 0 ? 1 : 0)), unread.ops, unread.aborted);
      sub = composeOrigin(sub, inner);
      subRf = computeReadsFrom(sub.h);
    }
    checks++;
    work -= sub.h.opCount + sub.h.txnCount + (budget.clocks ? Math.ceil((sub.h.txnCount * sub.h.sessionCount) / CLOCK_ENTRIES_PER_UNIT) : 0);
    if (!keeps(sub.h, subRf)) return false;
    cur = { ...composeOrigin(cur, sub), rf: subRf };
    return true;
  };
  const allTxns = (): Uint8Array => new Uint8Array(cur.h.txnCount).fill(1);

  // A large history first: windows of WINDOW consecutive transactions (in canonical order, which is
  // time order for recorded histories), half overlapping, for at most half the work. Violations of
  // a real run are mostly local in time, and halving a 100,000-transaction history checks
  // candidates of tens of thousands of transactions, each costing as much: measured on a 1M-operation
  // history, the halving alone ended at 2,440 transactions where the first window violated.
  if (cur.h.txnCount - 1 > 2 * WINDOW) {
    for (const seed of seeds) {
      if (!open()) break;
      const keep = new Uint8Array(cur.h.txnCount);
      for (const t of seed) keep[t] = 1;
      if (attempt(keep, null)) break;
    }
  }
  if (cur.h.txnCount - 1 > 2 * WINDOW) {
    const n = cur.h.txnCount - 1;
    const stopAt = work - budget.work / 2;
    for (let start = 1; start <= n && open() && work > stopAt; start += WINDOW / 2) {
      const keep = new Uint8Array(cur.h.txnCount);
      keep.fill(1, start, Math.min(n + 1, start + WINDOW));
      if (attempt(keep, null) || start + WINDOW > n) break; // a later window would be part of this one
    }
  }

  let chunk = Math.max(1, Math.floor((cur.h.txnCount - 1) / 2));
  while (chunk >= 1 && open()) {
    let removed = false;
    const n = cur.h.txnCount - 1;
    for (let start = 1; start <= n && open(); start += chunk) {
      const keep = allTxns();
      for (let t = start; t < Math.min(n + 1, start + chunk); t++) keep[t] = 0;
      if (attempt(keep, null)) {
        removed = true;
        break;
      }
    }
    if (!removed) chunk = chunk === 1 ? 0 : Math.max(1, Math.floor(chunk / 2));
    else chunk = Math.min(chunk, Math.max(1, Math.floor((cur.h.txnCount - 1) / 2)));
  }
  // Operations one at a time, last first (ids below stay valid after each removal).
  for (let op = cur.h.opCount - 1; op >= 0 && open(); op--) {
    if (op >= cur.h.opCount) continue;
    const drop = new Uint8Array(cur.h.opCount);
    drop[op] = 1;
    attempt(allTxns(), drop);
  }
  // A transaction left without operations says nothing: drop it when that keeps the property.
  for (let t = cur.h.txnCount - 1; t >= 1 && open(); t--) {
    if (cur.h.txnOpStart[t] !== cur.h.txnOpStart[t + 1]) continue;
    const keep = allTxns();
    keep[t] = 0;
    attempt(keep, null);
  }
  return { ...cur, checks, complete: open(), stopped };
}
