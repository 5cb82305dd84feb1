// Brute-force oracle for list-append histories: every choice of unknown outcomes, every commit order, the lists replayed, the axioms checked literally.

import { OP_APPEND, OP_LIST_READ, type History } from '../../server/src/engine/model/history.ts';
import { levelById } from '../../server/src/engine/levels/levels.ts';

interface Read { t: number; op: number; k: number; list: number[]; index: number; ownBefore: number }

/**
 * Whether some choice of outcomes for the unknown transactions and some commit order co of the
 * committed ones (so ⊆ co, each read's observed appenders before it) replays every key's appends
 * into lists such that each read returned the state after a whole transaction (or, after own
 * appends, the state before its own block plus them), and every external read's axiom at the
 * reader's level holds. lvl[t]: a level id.
 */
export function oracleHolds(h: History, lvl: ArrayLike<number>): boolean {
  const unknown: number[] = [];
  const sure: number[] = [];
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnAborted[t] === 1) continue;
    if (h.txnUnknown?.[t] === 1) unknown.push(t);
    else sure.push(t);
  }
  // Appends per transaction, reads per transaction; duplicate appends to a key: nothing holds.
  const appends: { k: number; v: number }[][] = Array.from({ length: h.txnCount }, () => []);
  const reads: Read[][] = Array.from({ length: h.txnCount }, () => []);
  const seenAppend = new Set<string>();
  for (let t = 1; t < h.txnCount; t++) {
    let index = 0;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const k = h.opKey[o];
      if (h.opKind[o] === OP_APPEND) {
        const id = `${k}:${h.opValue[o]}`;
        if (seenAppend.has(id)) return false;
        seenAppend.add(id);
        appends[t].push({ k, v: h.opValue[o] });
      } else if (h.opKind[o] === OP_LIST_READ) {
        const s = h.opListStart as Int32Array;
        const list = Array.from((h.listElems as Int32Array).subarray(s[o], s[o + 1]));
        const ownBefore = appends[t].filter((a) => a.k === k).length;
        reads[t].push({ t, op: o, k, list, index: index++, ownBefore });
      }
    }
  }
  const appenderOf = new Map<string, number>();
  for (let t = 1; t < h.txnCount; t++) for (const a of appends[t]) appenderOf.set(`${a.k}:${a.v}`, t);
  for (let mask = 0; mask < 1 << unknown.length; mask++) {
    const txns = [...sure, ...unknown.filter((_, i) => (mask >> i) & 1)].sort((a, b) => a - b);
    if (someOrder(h, txns, appends, reads, appenderOf, lvl)) return true;
  }
  return false;
}

function someOrder(h: History, txns: number[], appends: { k: number; v: number }[][], reads: Read[][],
  appenderOf: Map<string, number>, lvl: ArrayLike<number>): boolean {
  const n = h.txnCount;
  const inSet = new Array<boolean>(n).fill(false);
  for (const t of txns) inSet[t] = true;
  // so (transitive, over the chosen set) and wr (every appender a read of t observed).
  const so = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
  for (const a of txns) for (const b of txns) so[a][b] = a !== b && h.txnSession[a] === h.txnSession[b] && h.txnIndexInSession[a] < h.txnIndexInSession[b];
  const wr = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
  /** wrBefore[t][i]: appenders observed by t's reads with index < i. */
  for (const t of txns) {
    for (const r of reads[t]) {
      for (const v of r.list) {
        const u = appenderOf.get(`${r.k}:${v}`);
        if (u === undefined || !inSet[u]) return false; // a read of something not committed
        if (u !== t) wr[u][t] = true;
      }
    }
  }
  const conflict = (a: number, b: number): boolean => appends[a].some((x) => appends[b].some((y) => x.k === y.k));
  const placed: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const pos = new Array<number>(n).fill(-1);
  const step = (): boolean => {
    if (placed.length === txns.length) {
      placed.forEach((t, i) => (pos[t] = i));
      return check(h, txns, pos, so, wr, conflict, appends, reads, appenderOf, lvl);
    }
    for (const t of txns) {
      if (used[t]) continue;
      if (txns.some((u) => !used[u] && u !== t && (so[u][t] || wr[u][t]))) continue;
      used[t] = true;
      placed.push(t);
      if (step()) return true;
      placed.pop();
      used[t] = false;
    }
    return false;
  };
  return step();
}

function check(h: History, txns: number[], pos: number[], so: boolean[][], wr: boolean[][], conflict: (a: number, b: number) => boolean,
  appends: { k: number; v: number }[][], reads: Read[][], appenderOf: Map<string, number>, lvl: ArrayLike<number>): boolean {
  const n = h.txnCount;
  const order = [...txns].sort((a, b) => pos[a] - pos[b]);
  const co = (a: number, b: number): boolean => a !== b && (a === 0 || (b !== 0 && pos[a] < pos[b]));
  // Replay: each key's final list, and where each transaction's block of it starts and ends.
  const final = new Map<number, number[]>();
  const blockStart = new Map<string, number>();
  const blockEnd = new Map<number, Map<number, number>>(); // key → (length after t's block → t)
  for (const t of order) {
    const keys = new Set(appends[t].map((a) => a.k));
    for (const k of keys) {
      const list = final.get(k) ?? [];
      blockStart.set(`${t}:${k}`, list.length);
      for (const a of appends[t]) if (a.k === k) list.push(a.v);
      final.set(k, list);
      if (!blockEnd.has(k)) blockEnd.set(k, new Map());
      (blockEnd.get(k) as Map<number, number>).set(list.length, t);
    }
  }
  // Relations for the premises.
  const sw = (a: number, b: number): boolean => so[a][b] || wr[a][b];
  const closure = (edge: (a: number, b: number) => boolean): boolean[][] => {
    const r = Array.from({ length: n }, () => new Array<boolean>(n).fill(false));
    for (const a of txns) for (const b of txns) r[a][b] = edge(a, b);
    for (const k of txns) for (const a of txns) if (r[a][k]) for (const b of txns) if (r[k][b]) r[a][b] = true;
    return r;
  };
  const cf = (a: number, b: number): boolean => conflict(a, b) && co(a, b);
  let hb: boolean[][] | null = null;
  let hbCf: boolean[][] | null = null;
  const coStar = (a: number, b: number): boolean => a === b || co(a, b);
  for (const t3 of txns) {
    const level = levelById(lvl[t3]);
    for (const r of reads[t3]) {
      const fin = final.get(r.k) ?? [];
      // The read is a prefix of the final list.
      if (r.list.length > fin.length || r.list.some((v, i) => fin[i] !== v)) return false;
      if (r.ownBefore > 0) {
        const start = blockStart.get(`${t3}:${r.k}`) as number;
        if (r.list.length !== start + r.ownBefore) return false;
        continue; // internal: no axiom
      }
      // External: the state after a whole transaction t1 (⊥ for []), committed before t3.
      let t1 = 0;
      if (r.list.length > 0) {
        const b = blockEnd.get(r.k)?.get(r.list.length);
        if (b === undefined || !co(b, t3)) return false;
        t1 = b;
      }
      for (const t2 of txns) {
        if (t2 === t1 || !appends[t2].some((a) => a.k === r.k)) continue;
        let premise: boolean;
        switch (level) {
          case 'RC': premise = reads[t3].some((q) => q.index < r.index && q.list.some((v) => appenderOf.get(`${q.k}:${v}`) === t2 && t2 !== t3)); break;
          case 'RA': premise = sw(t2, t3); break;
          case 'CC': premise = (hb ??= closure(sw))[t2][t3]; break;
          case 'PC': premise = txns.some((t4) => coStar(t2, t4) && sw(t4, t3)); break;
          case 'PSI': premise = (hbCf ??= closure((a, b) => sw(a, b) || cf(a, b)))[t2][t3]; break;
          case 'SI': premise = txns.some((t4) => coStar(t2, t4) && (sw(t4, t3) || cf(t4, t3))); break;
          case 'SER': case 'SSER': premise = co(t2, t3); break;
        }
        if (premise && !co(t2, t1)) return false;
      }
    }
  }
  // SSER: rt into SSER transactions (an unknown transaction has no known end).
  const ts = h.txnTimeStart;
  const te = h.txnTimeEnd;
  if (ts && te) {
    for (const a of txns) {
      if (Number.isNaN(ts[a]) || h.txnUnknown?.[a] === 1) continue;
      for (const b of txns) {
        if (a === b || Number.isNaN(ts[b]) || levelById(lvl[b]) !== 'SSER') continue;
        if (te[a] < ts[b] && !co(a, b)) return false;
      }
    }
  }
  return true;
}
