// Brute-force isolation checking for small histories: every commit order, the axioms checked literally.

import { BOTTOM, OP_WRITE, type History } from '../../server/src/engine/model/history.ts';
import { LEVELS, type Level } from '../../server/src/engine/levels/levels.ts';
import type { ReadsFrom } from '../../server/src/engine/model/reads-from.ts';

interface Prepared {
  txns: number[]; // committed transactions
  soWr: boolean[][]; // direct so ∪ wr (⊥ excluded)
  writes: (t: number, x: number) => boolean;
  reads: { t3: number; op: number; x: number; t1: number; index: number }[]; // external reads, with their index in t3
}

function prepare(h: History, rf: ReadsFrom): Prepared {
  const txns: number[] = [];
  for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0) txns.push(t);
  const soWr = Array.from({ length: h.txnCount }, () => new Array<boolean>(h.txnCount).fill(false));
  const reads: Prepared['reads'] = [];
  for (const t of txns) {
    const s = h.txnSession[t];
    for (let i = h.sessionTxnStart[s]; h.sessionTxns[i] !== t; i++) if (h.txnAborted[h.sessionTxns[i]] === 0) soWr[h.sessionTxns[i]][t] = true;
    let index = 0;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (rf.wrSource[o] < 0) continue;
      if (rf.wrSource[o] !== BOTTOM) soWr[rf.wrSource[o]][t] = true;
      reads.push({ t3: t, op: o, x: h.opKey[o], t1: rf.wrSource[o], index: index++ });
    }
  }
  const writes = (t: number, x: number): boolean => {
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (h.opKind[o] === OP_WRITE && h.opKey[o] === x) return true;
    return false;
  };
  return { txns, soWr, writes, reads };
}

/** Every linear extension of so ∪ wr over the committed transactions (stops when `visit` returns true). */
function forEachOrder(p: Prepared, visit: (pos: Int32Array) => boolean): boolean {
  const n = p.txns.length;
  const placed: number[] = [];
  const used = new Set<number>();
  const pos = new Int32Array(p.soWr.length).fill(-1);
  const step = (): boolean => {
    if (placed.length === n) {
      pos.fill(-1);
      pos[BOTTOM] = -1;
      placed.forEach((t, i) => (pos[t] = i));
      return visit(pos);
    }
    for (const t of p.txns) {
      if (used.has(t)) continue;
      if (p.txns.some((u) => !used.has(u) && u !== t && p.soWr[u][t])) continue;
      used.add(t);
      placed.push(t);
      if (step()) return true;
      placed.pop();
      used.delete(t);
    }
    return false;
  };
  return step();
}

/**
 * a rt b: a ended before b started (both have times); the literal definition, no reduction. An
 * `unknown` a has no known completion (its end is when the client gave up): it precedes nothing.
 */
function realTime(h: History, a: number, b: number): boolean {
  const ts = h.txnTimeStart;
  const te = h.txnTimeEnd;
  return ts !== undefined && te !== undefined && h.txnUnknown?.[a] !== 1 && !Number.isNaN(te[a]) && !Number.isNaN(ts[b]) && te[a] < ts[b];
}

/** SSER's extra axiom: every rt edge into a transaction at SSER is a co edge. */
function extendsRealTime(h: History, p: Prepared, pos: Int32Array, strict: (t: number) => boolean): boolean {
  for (const a of p.txns) for (const b of p.txns) if (strict(b) && realTime(h, a, b) && !before(pos, a, b)) return false;
  return true;
}

/** a co b, with ⊥ before everything. */
function before(pos: Int32Array, a: number, b: number): boolean {
  if (a === b) return false;
  if (a === BOTTOM) return true;
  if (b === BOTTOM) return false;
  return pos[a] < pos[b];
}

function closure(n: number, edge: (a: number, b: number) => boolean, txns: number[]): boolean[][] {
  const r = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
  for (const a of txns) for (const b of txns) r[a][b] = edge(a, b);
  for (const k of txns) for (const a of txns) if (r[a][k]) for (const b of txns) if (r[k][b]) r[a][b] = true;
  return r;
}

/** The commit-order table of semantics.md, homogeneous: does some co satisfy the level? */
export function bruteForceHomogeneous(h: History, rf: ReadsFrom, level: Level): boolean {
  const p = prepare(h, rf);
  const n = h.txnCount;
  const conflict = (a: number, b: number): boolean => {
    for (let o = h.txnOpStart[a]; o < h.txnOpStart[a + 1]; o++) if (h.opKind[o] === OP_WRITE && p.writes(b, h.opKey[o])) return true;
    return false;
  };
  const hb = closure(n, (a, b) => p.soWr[a][b], p.txns);
  return forEachOrder(p, (pos) => {
    if (level === 'SSER' && !extendsRealTime(h, p, pos, () => true)) return false;
    const cf = (a: number, b: number): boolean => conflict(a, b) && before(pos, a, b);
    const psi = level === 'PSI' ? closure(n, (a, b) => p.soWr[a][b] || cf(a, b), p.txns) : null;
    for (const r of p.reads) {
      for (const t2 of p.txns) {
        if (t2 === r.t1 || !p.writes(t2, r.x)) continue;
        let premise: boolean;
        switch (level) {
          case 'RC': premise = p.reads.some((q) => q.t3 === r.t3 && q.index < r.index && q.t1 === t2); break;
          case 'RA': premise = p.soWr[t2][r.t3]; break;
          case 'CC': premise = hb[t2][r.t3]; break;
          case 'PC': premise = p.txns.some((u) => (u === t2 || before(pos, t2, u)) && p.soWr[u][r.t3]); break;
          case 'PSI': premise = psi![t2][r.t3]; break;
          case 'SI': premise = p.txns.some((u) => (u === t2 || before(pos, t2, u)) && (p.soWr[u][r.t3] || cf(u, r.t3))); break;
          case 'SER': case 'SSER': premise = before(pos, t2, r.t3); break;
        }
        if (premise && !before(pos, t2, r.t1)) return false;
      }
    }
    return true;
  });
}

/**
 * MixIso: each transaction at `levelOf(t)`. For each commit order AR, the least visibility
 * fixpoint started from so ∪ wr (RC transactions: their so ∪ wr predecessors, their reads by the
 * RC row), then Ext on every non-RC transaction.
 */
export function bruteForceMixed(h: History, rf: ReadsFrom, levelOf: (t: number) => Level): boolean {
  const p = prepare(h, rf);
  const n = h.txnCount;
  const conflict = (a: number, b: number): boolean => {
    for (let o = h.txnOpStart[a]; o < h.txnOpStart[a + 1]; o++) if (h.opKind[o] === OP_WRITE && p.writes(b, h.opKey[o])) return true;
    return false;
  };
  return forEachOrder(p, (pos) => {
    if (!extendsRealTime(h, p, pos, (t) => levelOf(t) === 'SSER')) return false;
    const vis = Array.from({ length: n }, () => new Set<number>());
    for (const a of p.txns) for (const b of p.txns) if (p.soWr[a][b]) vis[b].add(a);
    for (let changed = true; changed;) {
      changed = false;
      const add = (t: number, u: number): void => {
        if (!vis[t].has(u)) {
          vis[t].add(u);
          changed = true;
        }
      };
      for (const t of p.txns) {
        const l = levelOf(t);
        if (l === 'RC' || l === 'RA') continue;
        for (const s of [...vis[t]]) {
          if (l === 'CC' || l === 'PSI') for (const u of vis[s]) add(t, u);
          if (l === 'PC' || l === 'SI') for (const u of p.txns) if (before(pos, u, s)) add(t, u);
        }
        if (l === 'PSI' || l === 'SI') for (const u of p.txns) if (u !== t && conflict(u, t) && before(pos, u, t)) add(t, u);
        if (l === 'SER' || l === 'SSER') for (const u of p.txns) if (before(pos, u, t)) add(t, u);
      }
    }
    for (const t of p.txns) for (const u of vis[t]) if (!before(pos, u, t)) return false; // VIS ⊆ AR
    for (const r of p.reads) {
      const l = levelOf(r.t3);
      for (const t2 of p.txns) {
        if (t2 === r.t1 || !p.writes(t2, r.x)) continue;
        const premise = l === 'RC'
          ? p.reads.some((q) => q.t3 === r.t3 && q.index < r.index && q.t1 === t2)
          : vis[r.t3].has(t2);
        if (premise && !before(pos, t2, r.t1)) return false;
      }
    }
    return true;
  });
}

export { LEVELS };
