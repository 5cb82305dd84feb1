// RA's shortest witnesses: a transaction that reads one key from two writers forces a two-cycle of co edges.

import { EK_CO } from '../model/edges.ts';
import { BOTTOM } from '../model/history.ts';
import { subject, type SaturationInput, EdgeList } from './saturation-context.ts';

/**
 * Non-repeatable reads as RA witnesses. When t3 reads x first from t1 and later from t2 ≠ t1 (both
 * real transactions), RA forces t2 co t1 (t2 wr t3, t2 writes x, t3 read x from t1) and t1 co t2:
 * a cycle of two co edges, the least a level witness can weigh (cycle-search.ts). These are exactly
 * two of the edges saturateRA adds for t3 (same endpoints and reads: the key's first read, the
 * first read from a second source, each source's first read in t3), so the verdict needs no
 * saturation and no cycle search — which on histories full of stale reads is most of RA's time.
 *
 * Returns the edges (two per witness) and the cycles (pairs of indexes into them), in transaction
 * order, at most `max`; empty when no committed transaction reads a key from two real writers.
 */
export function nonRepeatableCycles(input: SaturationInput, max: number): { edges: EdgeList; cycles: [number, number][] } {
  const { h, rf } = input;
  const { txnOpStart, opKey } = h;
  const wrSource = rf.wrSource;
  const edges = new EdgeList();
  const cycles: [number, number][] = [];
  const keyStamp = new Int32Array(h.keyCount).fill(-1);
  const firstOp = new Int32Array(h.keyCount); // the key's first read in t3
  const secondStamp = new Int32Array(h.keyCount).fill(-1); // t3 once the key was read from a second source
  // One pass over the reads, straight from the columns: on histories without such a read this
  // scan is all that RA pays for the shortcut (measured ~10 ms per million operations).
  for (let t3 = 1; t3 < h.txnCount && cycles.length < max; t3++) {
    if (!subject(input, t3)) continue;
    let found = -1; // the first read from its key's second source
    for (let o = txnOpStart[t3]; o < txnOpStart[t3 + 1]; o++) {
      const s = wrSource[o];
      if (s < 0) continue;
      const x = opKey[o];
      if (keyStamp[x] !== t3) {
        keyStamp[x] = t3;
        firstOp[x] = o;
      } else if (secondStamp[x] !== t3 && wrSource[firstOp[x]] !== s) {
        // The key's second source (saturateRA's srcB): a witness unless either source is ⊥.
        secondStamp[x] = t3;
        if (wrSource[firstOp[x]] !== BOTTOM && s !== BOTTOM) {
          found = o;
          break;
        }
      }
    }
    if (found < 0) continue;
    const a = firstOp[opKey[found]];
    const t1 = wrSource[a];
    const t2 = wrSource[found];
    const i = edges.length;
    // Listed from the smaller transaction first, as the cycle search's closing edges are.
    if (t1 < t2) {
      edges.add(t1, t2, EK_CO, found, firstReadFrom(h, rf, t3, t1));
      edges.add(t2, t1, EK_CO, a, firstReadFrom(h, rf, t3, t2));
    } else {
      edges.add(t2, t1, EK_CO, a, firstReadFrom(h, rf, t3, t2));
      edges.add(t1, t2, EK_CO, found, firstReadFrom(h, rf, t3, t1));
    }
    cycles.push([i, i + 1]);
  }
  return { edges, cycles };
}

/** t3's first checkable read from t (saturateRA's firstReadFrom[t]). */
function firstReadFrom(h: SaturationInput['h'], rf: SaturationInput['rf'], t3: number, t: number): number {
  for (let o = h.txnOpStart[t3]; o < h.txnOpStart[t3 + 1]; o++) if (rf.wrSource[o] === t) return o;
  return -1;
}
