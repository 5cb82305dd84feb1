// Anomalies injected into generated histories, for the strong-level bench and tests.

import type { GeneratedHistory } from '../../server/src/engine/gen/generate.ts';

/** Per key, the values written to it in value order (values grow with time in the generator). */
function versionsByKey(g: GeneratedHistory): Map<number, number[]> {
  const versions = new Map<number, number[]>();
  for (let o = 0; o < g.opCount; o++) if (g.opIsWrite[o] === 1) (versions.get(g.opKey[o]) ?? versions.set(g.opKey[o], []).get(g.opKey[o])!).push(g.opValue[o]);
  for (const v of versions.values()) v.sort((a, b) => a - b);
  return versions;
}

/**
 * A lost update: T2 reads x from T1 and then writes x (a read-modify-write), T1 wrote x without
 * reading it. T1 gets a first read of x returning the version before its own (by value order,
 * values grow with time in the generator; or the initial value), and T2 is changed to read that
 * version too: both now overwrite the same version (SI, PSI and SER are violated, whatever the
 * rest of the history). Returns the history with the extra read, or null when no such pair exists.
 */
export function injectLostUpdate(g: GeneratedHistory): GeneratedHistory | null {
  const writerOf = new Map<number, number>(); // value → writing txn
  for (let t = 0; t < g.txnCount; t++) for (let o = g.txnOpStart[t]; o < g.txnOpStart[t + 1]; o++) if (g.opIsWrite[o] === 1) writerOf.set(g.opValue[o], t);
  const versions = versionsByKey(g);
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


/**
 * A lost update between concurrent transactions: T1 (a writer of x whose first op writes it) gets a
 * first read of the version before its own, and a new transaction in a new session reads that
 * version too and writes x. The new transaction's causal past is its writer's, so CC (and PC)
 * still hold and only PSI, SI and SER break; injectLostUpdate's changed read may break CC instead,
 * as its reader often follows T1 already. Null when no writer of a second version exists.
 */
export function injectConcurrentLostUpdate(g: GeneratedHistory): GeneratedHistory | null {
  let maxValue = 0;
  for (let o = 0; o < g.opCount; o++) maxValue = Math.max(maxValue, g.opValue[o]);
  const versions = versionsByKey(g);
  // T1: the first committed transaction past the middle whose first op writes a key's second version or later.
  for (let t1 = g.txnCount >> 1; t1 < g.txnCount; t1++) {
    const o = g.txnOpStart[t1];
    if (g.txnAborted[t1] === 1 || o === g.txnOpStart[t1 + 1] || g.opIsWrite[o] !== 1) continue;
    const x = g.opKey[o];
    const vs = versions.get(x)!;
    const v0 = vs[vs.indexOf(g.opValue[o]) - 1] ?? 0;
    const ops = g.opCount;
    const grow = <A extends Int32Array | Uint8Array>(a: A, at: number, inserted: number, appended: number[]): A => {
      const out = new (a.constructor as { new (n: number): A })(a.length + 1 + appended.length);
      out.set(a.subarray(0, at), 0);
      out[at] = inserted;
      out.set(a.subarray(at), at + 1);
      out.set(appended, a.length + 1);
      return out;
    };
    return {
      ...g, sessionCount: g.sessionCount + 1, txnCount: g.txnCount + 1, opCount: ops + 3,
      txnSession: Int32Array.from([...g.txnSession, g.sessionCount]),
      txnAborted: Uint8Array.from([...g.txnAborted, 0]),
      txnOpStart: Int32Array.from([...g.txnOpStart.map((s, t) => (t > t1 ? s + 1 : s)), ops + 3]),
      opIsWrite: grow(g.opIsWrite, o, 0, [0, 1]),
      opKey: grow(g.opKey, o, x, [x, x]),
      opValue: grow(g.opValue, o, v0, [v0, maxValue + 1]),
    };
  }
  return null;
}
