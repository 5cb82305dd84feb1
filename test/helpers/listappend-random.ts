// Small random list-append histories from the permissive list store, for the differential and invariant tests.

import { generateListHistory, listHistToString, DEFAULT_LIST_GEN } from '../../server/src/engine/gen/list-append-store.ts';
import { Rng } from '../../server/src/engine/gen/generate.ts';

/** 2–6 transactions, 1–3 sessions, 1–2 keys; aborted and unknown outcomes; times on most. */
export function smallListHistory(seed: number): string {
  const rng = new Rng(seed * 7919 + 13);
  return listHistToString(generateListHistory({
    ...DEFAULT_LIST_GEN, seed, transactions: 2 + rng.below(5), sessions: 1 + rng.below(3), keys: 1 + rng.below(2),
    maxAppends: 100, opsPerTxn: 3, readRatio: 0.5, abortRatio: 0.08, unknownRatio: 0.15, store: 'permissive', times: rng.float() < 0.7,
  }));
}

