// Anomalies injected into generated histories, for the strong-level bench and tests.

import type { GeneratedHistory } from '../../server/src/engine/gen/generate.ts';

/**
 * A lost update: T2 reads x from T1 and then writes x (a read-modify-write), T1 wrote x without
 * reading it. T1 gets a first read of x returning the version before its own (by value order,
 * values grow with time in the generator; or the initial value), and T2 is changed to read that
 * version too: both now overwrite the same version (SI, PSI and SER are violated, whatever the
 * rest of the history). Returns the history with the extra read, or null when no such pair exists.
 */
export function injectLostUpdate(g: GeneratedHistory): GeneratedHistory | null {
  const writerOf = new Map<number, number>(); // value → writing txn
  const versions = new Map<number, number[]>(); // key → values written, sorted
  for (let t = 0; t < g.txnCount; t++) {
    for (let o = g.txnOpStart[t]; o < g.txnOpStart[t + 1]; o++) {
      if (g.opIsWrite[o] === 0) continue;
      writerOf.set(g.opValue[o], t);
      (versions.get(g.opKey[o]) ?? versions.set(g.opKey[o], []).get(g.opKey[o])!).push(g.opValue[o]);
    }
  }
  for (const v of versions.values()) v.sort((a, b) => a - b);
  const firstOp = (t: number, x: number): number => {
    for (let o = g.txnOpStart[t]; o < g.txnOpStart[t + 1]; o++) if (g.opKey[o] === x) return o;
    return -1;
  };
  // The first such T2 past the middle of the history.
  for (let t2 = g.txnCount >> 1; t2 < g.txnCount; t2++) {
    if (g.txnAborted[t2] === 1) continue;
    for (let o = g.txnOpStart[t2]; o < g.txnOpStart[t2 + 1]; o++) {
      if (g.opIsWrite[o] === 1 || g.opValue[o] === 0 || firstOp(t2, g.opKey[o]) !== o) continue;
      const x = g.opKey[o];
      let writes = false;
      for (let p = o + 1; p < g.txnOpStart[t2 + 1]; p++) writes ||= g.opIsWrite[p] === 1 && g.opKey[p] === x;
      const t1 = writerOf.get(g.opValue[o]);
      if (!writes || t1 === undefined || t1 === t2 || g.opIsWrite[firstOp(t1, x)] !== 1) continue;
      const vs = versions.get(x)!;
      const at = vs.indexOf(g.opValue[o]);
      const v0 = at > 0 ? vs[at - 1] : 0;
      // Copy with one more op: T1 starts with r(x) = v0.
      const ins = g.txnOpStart[t1];
      const copy = <A extends Int32Array | Uint8Array>(a: A, extra: number): A => {
        const out = new (a.constructor as { new (n: number): A })(a.length + 1);
        out.set(a.subarray(0, ins), 0);
        out[ins] = extra;
        out.set(a.subarray(ins), ins + 1);
        return out;
      };
      const out: GeneratedHistory = {
        ...g, opCount: g.opCount + 1,
        opIsWrite: copy(g.opIsWrite, 0), opKey: copy(g.opKey, x), opValue: copy(g.opValue, v0),
        txnOpStart: g.txnOpStart.map((s, t) => (t > t1 ? s + 1 : s)),
      };
      out.opValue[o >= ins ? o + 1 : o] = v0;
      return out;
    }
  }
  return null;
}

