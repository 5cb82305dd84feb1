// Small sub-histories the minimiser checks first: transactions that an anomaly's shape ties together wherever they lie.

import { BOTTOM, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';

/**
 * Lost-update seeds: two committed transactions that read the same version of a key before
 * writing that key, with the version's writer (none for the initial value), ascending ids. Found
 * in one pass. The minimiser's windows only find violations whose transactions are close in
 * canonical order; a lost update between transactions 50,000 apart (an injected one, or two
 * clients whose sessions start far apart) was left as the whole history's "no commit order".
 * A seed is only a candidate: the minimiser keeps it when the violation holds there. `eligible`:
 * only these transactions (1) are paired (strong-check.ts: those at levels where a lost update is one).
 */
export function lostUpdateSeeds(h: History, rf: ReadsFrom, max: number, eligible: Uint8Array | null = null): Int32Array[] {
  const { txnCount, keyCount, txnOpStart, opKind, opKey, txnAborted } = h;
  const seenIn = new Int32Array(keyCount).fill(-1);
  const firstRead = new Int32Array(keyCount);
  // The first reader of each version read before an overwrite, by key × transactions + writer (⊥ is 0).
  const firstReader = new Map<number, number>();
  const seeds: Int32Array[] = [];
  for (let t = 1; t < txnCount && seeds.length < max; t++) {
    if (txnAborted[t] === 1 || (eligible !== null && eligible[t] === 0)) continue;
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) {
      const x = opKey[o];
      if (seenIn[x] !== t) {
        seenIn[x] = t;
        firstRead[x] = opKind[o] === OP_READ && rf.wrSource[o] >= 0 ? o : -1;
        continue;
      }
      if (opKind[o] !== OP_WRITE || firstRead[x] < 0) continue;
      const read = firstRead[x];
      firstRead[x] = -1;
      // A version is its writer's final write of x (a read of another write is not in wrSource).
      const writer = rf.wrSource[read];
      const version = x * txnCount + writer;
      const other = firstReader.get(version);
      if (other === undefined) {
        firstReader.set(version, t);
        continue;
      }
      seeds.push(Int32Array.from(writer === BOTTOM ? [other, t] : [writer, other, t]).sort());
      if (seeds.length >= max) break;
    }
  }
  return seeds;
}
