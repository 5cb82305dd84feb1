// Literal transcriptions of the RC, RA and CC axioms (quadratic loops, plain cycle check) for differential tests.

import { BOTTOM, OP_WRITE, type History } from '../../server/src/engine/model/history.ts';
import type { ReadsFrom } from '../../server/src/engine/model/reads-from.ts';

export type NaiveRule = 'RC' | 'RA' | 'CC';

/** Does t write x? A scan of its operations, no indexes. */
function writes(h: History, t: number, x: number): boolean {
  if (t === BOTTOM) return true;
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (h.opKind[o] === OP_WRITE && h.opKey[o] === x) return true;
  return false;
}

function committed(h: History, t: number): boolean {
  return t !== BOTTOM && h.txnAborted[t] === 0;
}

function externalReads(h: History, rf: ReadsFrom, t: number): number[] {
  const out: number[] = [];
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] >= 0) out.push(o);
  return out;
}

/** so ∪ wr as adjacency sets over all transactions, with ⊥ before everything committed. */
function baseRelation(h: History, rf: ReadsFrom): Set<number>[] {
  const adj: Set<number>[] = Array.from({ length: h.txnCount }, () => new Set<number>());
  for (let t = 1; t < h.txnCount; t++) {
    if (!committed(h, t)) continue;
    adj[BOTTOM].add(t);
    const s = h.txnSession[t];
    for (let i = h.sessionTxnStart[s]; h.sessionTxns[i] !== t; i++) if (committed(h, h.sessionTxns[i])) adj[h.sessionTxns[i]].add(t);
    for (const o of externalReads(h, rf, t)) adj[rf.wrSource[o]].add(t);
  }
  return adj;
}

function reachableFrom(adj: Set<number>[], a: number): Uint8Array {
  const seen = new Uint8Array(adj.length);
  const stack = [a];
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (const w of adj[v]) {
      if (seen[w] === 0) {
        seen[w] = 1;
        stack.push(w);
      }
    }
  }
  return seen;
}

function hasCycle(adj: Set<number>[]): boolean {
  for (let v = 0; v < adj.length; v++) if (reachableFrom(adj, v)[v] === 1) return true;
  return false;
}

/**
 * The relations of the axioms, literally: `base` is so ∪ wr (so transitive, ⊥ before every committed
 * transaction) and `forced` the co edges t2 → t1 each read's rule forces (t3 reads x from t1, t2 also
 * writes x, the premise holds). Premises use the base relation (happens-before for CC).
 */
export function naiveRelations(h: History, rf: ReadsFrom, ruleOf: (t: number) => NaiveRule | null): { base: Set<number>[]; forced: Set<number>[] } {
  const base = baseRelation(h, rf);
  const forced: Set<number>[] = Array.from({ length: h.txnCount }, () => new Set<number>());
  const hbCache = new Map<number, Uint8Array>();
  // Strict happens-before of t3: everything that reaches t3 in so ∪ wr.
  const reaches = (t2: number, t3: number): boolean => {
    let r = hbCache.get(t2);
    if (!r) {
      r = reachableFrom(base, t2);
      hbCache.set(t2, r);
    }
    return r[t3] === 1;
  };
  for (let t3 = 1; t3 < h.txnCount; t3++) {
    const rule = committed(h, t3) ? ruleOf(t3) : null;
    if (!rule) continue;
    const reads = externalReads(h, rf, t3);
    for (let j = 0; j < reads.length; j++) {
      const r = reads[j];
      const x = h.opKey[r];
      const t1 = rf.wrSource[r];
      for (let t2 = 1; t2 < h.txnCount; t2++) {
        if (t2 === t1 || !committed(h, t2) || !writes(h, t2, x)) continue;
        let premise = false;
        if (rule === 'RC') {
          for (let i = 0; i < j && !premise; i++) premise = rf.wrSource[reads[i]] === t2;
        } else if (rule === 'RA') {
          premise = base[t2].has(t3);
        } else {
          premise = reaches(t2, t3);
        }
        if (premise) forced[t2].add(t1);
      }
    }
  }
  return { base, forced };
}

/**
 * Whether the history satisfies the rules: each committed transaction's reads obey the rule
 * `ruleOf(t)` (null: the transaction is not constrained). Read-consistency problems are the
 * caller's (they violate every level); so ∪ wr must be acyclic.
 */
export function naiveConsistent(h: History, rf: ReadsFrom, ruleOf: (t: number) => NaiveRule | null): boolean {
  const { base, forced } = naiveRelations(h, rf, ruleOf);
  if (hasCycle(base)) return false;
  return !hasCycle(base.map((s, t) => new Set([...s, ...forced[t]])));
}
