// Exact SER, SSER, SI and PC oracles by dynamic programming over subsets and event states, from docs/semantics.md's axioms.
//
// Independent of the engine: the input is the generator's columns (plus optional real times),
// and the reads-from relation, read consistency, session order and the axioms are recomputed
// here from the spec's text. Only committed transactions take part in the orders; ⊥ (the
// initial values) is implicitly first. Masks are 32-bit, so at most 30 committed transactions.

import type { GeneratedHistory } from '../../server/src/engine/gen/generate.ts';

/** An external read of a committed transaction: `reader` read `key` from `source` (-1: ⊥). */
export interface OracleRead {
  reader: number;
  key: number;
  source: number;
}

/** A history reduced to what the strong axioms need, over committed transactions 0..n-1. */
export interface Prepared {
  /** Committed transaction i is the generator's transaction ids[i]. */
  ids: number[];
  n: number;
  /** The first read-consistency error (violates every level), or null. */
  violation: string | null;
  reads: OracleRead[];
  /** Session predecessors (transitively, across aborted transactions) as a mask. */
  soPred: Int32Array;
  /** wr sources (not ⊥) of each transaction's external reads, as a mask. */
  wrPred: Int32Array;
  /** Real-time predecessors (END < START, both timed), as a mask; all zero without times. */
  rtPred: Int32Array;
  /** Keys each transaction writes. */
  writeKeys: Set<number>[];
  /** Transactions that share a written key with t (t ⋈ u), as a mask, t excluded. */
  conflicts: Int32Array;
  /**
   * For each t: the reads t's commit would break if it came after their source and before their
   * reader, i.e. the reads of a key t writes, by another transaction, from a source other than t.
   */
  breaks: OracleRead[][];
}

/** Optional `@ START..END` times per generator transaction (NaN: untimed). */
export interface Times {
  start: Float64Array;
  end: Float64Array;
}

/**
 * Recovers wr and checks read consistency as docs/semantics.md's table says. Written values are
 * unique per history in the generator's output (checked: a duplicate throws), and 0 is initial.
 * thin-air, future-read and own-write are properties of any read; aborted-read and
 * intermediate-read are Adya's G1a/G1b, which concern committed readers, and an aborted
 * transaction's reads take part in no axiom (co orders committed transactions only).
 */
export function prepare(g: GeneratedHistory, times?: Times): Prepared {
  const committed: number[] = [];
  const index = new Int32Array(g.txnCount).fill(-1);
  for (let t = 0; t < g.txnCount; t++) {
    if (g.txnAborted[t] === 0) {
      index[t] = committed.length;
      committed.push(t);
    }
  }
  const n = committed.length;
  if (n > 30) throw new RangeError(`the subset oracles take at most 30 committed transactions (got ${n})`);
  // value → (op, txn); a write is final when it is its transaction's last write of the key.
  const writer = new Map<number, { op: number; txn: number; key: number; final: boolean }>();
  for (let t = 0; t < g.txnCount; t++) {
    const last = new Map<number, number>();
    for (let o = g.txnOpStart[t]; o < g.txnOpStart[t + 1]; o++) if (g.opIsWrite[o] === 1) last.set(g.opKey[o], o);
    for (let o = g.txnOpStart[t]; o < g.txnOpStart[t + 1]; o++) {
      if (g.opIsWrite[o] !== 1) continue;
      if (g.opValue[o] === 0 || writer.has(g.opValue[o])) throw new Error(`value ${g.opValue[o]} is written twice or is the initial value`);
      writer.set(g.opValue[o], { op: o, txn: t, key: g.opKey[o], final: last.get(g.opKey[o]) === o });
    }
  }
  let violation: string | null = null;
  const fail = (why: string): void => {
    violation ??= why;
  };
  const reads: OracleRead[] = [];
  const wrPred = new Int32Array(n);
  for (let t = 0; t < g.txnCount; t++) {
    const own = new Map<number, number>(); // this transaction's latest write of each key so far
    for (let o = g.txnOpStart[t]; o < g.txnOpStart[t + 1]; o++) {
      const x = g.opKey[o];
      const v = g.opValue[o];
      if (g.opIsWrite[o] === 1) {
        own.set(x, v);
        continue;
      }
      if (own.has(x)) {
        // Internal read: it must return the transaction's own latest write, and constrains no order.
        if (own.get(x) !== v) fail(`own-write: T${t} reads ${x}=${v} after writing ${own.get(x)}`);
        continue;
      }
      if (v === 0) {
        if (index[t] >= 0) reads.push({ reader: index[t], key: x, source: -1 });
        continue;
      }
      const w = writer.get(v);
      if (w === undefined || w.key !== x) {
        fail(`thin-air: T${t} reads ${x}=${v}`);
        continue;
      }
      if (w.txn === t) {
        fail(`future-read: T${t} reads its own later write ${x}=${v}`);
        continue;
      }
      if (index[t] < 0) continue;
      if (g.txnAborted[w.txn] === 1) {
        fail(`aborted-read: T${t} reads ${x}=${v} from aborted T${w.txn}`);
        continue;
      }
      if (!w.final) {
        fail(`intermediate-read: T${t} reads ${x}=${v}, overwritten later in T${w.txn}`);
        continue;
      }
      reads.push({ reader: index[t], key: x, source: index[w.txn] });
      wrPred[index[t]] |= 1 << index[w.txn];
    }
  }
  // Session order: each session's committed transactions in generator order (transitive).
  const soPred = new Int32Array(n);
  const sessionSoFar = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const s = g.txnSession[committed[i]];
    const before = sessionSoFar.get(s) ?? 0;
    soPred[i] = before;
    sessionSoFar.set(s, before | (1 << i));
  }
  const rtPred = new Int32Array(n);
  if (times) {
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const end = times.end[committed[a]];
        const start = times.start[committed[b]];
        if (!Number.isNaN(end) && !Number.isNaN(start) && end < start) rtPred[b] |= 1 << a;
      }
    }
  }
  const writeKeys: Set<number>[] = committed.map((t) => {
    const keys = new Set<number>();
    for (let o = g.txnOpStart[t]; o < g.txnOpStart[t + 1]; o++) if (g.opIsWrite[o] === 1) keys.add(g.opKey[o]);
    return keys;
  });
  const conflicts = new Int32Array(n);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a !== b && [...writeKeys[a]].some((x) => writeKeys[b].has(x))) conflicts[a] |= 1 << b;
    }
  }
  const breaks = writeKeys.map((keys, t) => reads.filter((r) => keys.has(r.key) && r.reader !== t && r.source !== t));
  return { ids: committed, n, violation, reads, soPred, wrPred, rtPred, writeKeys, conflicts, breaks };
}

function has(mask: number, i: number): boolean {
  return ((mask >>> i) & 1) === 1;
}

/** Whether a read's source is in `done` (⊥ always is). */
function sourceIn(r: OracleRead, done: number): boolean {
  return r.source < 0 || has(done, r.source);
}

/** Largest visited table kept as a typed array (3^16 states); larger searches use a Set. */
const TABLE_LIMIT = 43046721;
let seenBuffer = new Uint8Array(0);

/**
 * Visited states: one shared byte table for up to TABLE_LIMIT states, cleared after each search
 * through the list of marked entries (so a search costs what it visits, not the table's size).
 */
class Visited {
  private readonly table: Uint8Array | null;
  private readonly set = new Set<number>();
  private readonly marked: number[] = [];

  constructor(size: number) {
    if (size <= TABLE_LIMIT) {
      if (seenBuffer.length < size) seenBuffer = new Uint8Array(size);
      this.table = seenBuffer;
    } else {
      this.table = null;
    }
  }

  /** Marks k; false when it was already marked. */
  mark(k: number): boolean {
    if (this.table === null) {
      if (this.set.has(k)) return false;
      this.set.add(k);
      return true;
    }
    if (this.table[k] === 1) return false;
    this.table[k] = 1;
    this.marked.push(k);
    return true;
  }

  /** The states marked so far. */
  get size(): number {
    return this.table === null ? this.set.size : this.marked.length;
  }

  clear(): void {
    if (this.table !== null) for (const k of this.marked) this.table[k] = 0;
  }
}

/** States the last serOrder / siOrder call explored (for reports on the search's size). */
export let lastStates = 0;

/**
 * SER (with `realTime`, SSER): the axiom "t2 co t3 ⇒ t2 co t1" for every read of x in t3 from
 * t1 and writer t2 ≠ t1 of x says that no other writer of x lies between t1 and t3 in co (and,
 * with t1 = ⊥, none before t3). Commit orders are built front to back; a prefix is a set S (⊥
 * always in it). t may follow S iff its so ∪ wr (∪ rt) predecessors are in S, and t lands between
 * no read's source (in S or ⊥) and its reader (not in S): such a read of a key t writes, by another
 * transaction, from a source other than t would have t2 = t between t1 and t3. Whether a suffix
 * can complete depends only on S, so each set is explored once: 2^n states.
 * Returns a satisfying order (committed indices), or null when there is none.
 */
export function serOrder(p: Prepared, realTime = false): number[] | null {
  if (p.violation !== null) return null;
  const n = p.n;
  const full = (1 << n) - 1;
  const pred = new Int32Array(n);
  for (let t = 0; t < n; t++) pred[t] = p.soPred[t] | p.wrPred[t] | (realTime ? p.rtPred[t] : 0);
  const seen = new Visited(1 << n);
  // Parent links rebuild the order: how each set was first reached.
  const parent = new Map<number, number>();
  const stack: number[] = [0];
  seen.mark(0);
  let found = n === 0;
  while (stack.length > 0 && !found) {
    const s = stack.pop()!;
    for (let t = 0; t < n && !found; t++) {
      if (has(s, t) || (pred[t] & ~s) !== 0) continue;
      if (p.breaks[t].some((r) => !has(s, r.reader) && sourceIn(r, s))) continue;
      const next = s | (1 << t);
      if (!seen.mark(next)) continue;
      parent.set(next, s);
      if (next === full) found = true;
      stack.push(next);
    }
  }
  lastStates = seen.size;
  seen.clear();
  if (!found) return null;
  const order: number[] = [];
  for (let s = full; s !== 0; ) {
    const prev = parent.get(s)!;
    order.push(31 - Math.clz32(s ^ prev));
    s = prev;
  }
  return order.reverse();
}

/**
 * SI (conflicts = true) and PC (false) over events: each committed t has a start s(t) before its
 * commit c(t); so: c(t) before s(t') for t so t'; a read of x in t3 from t1 sees the snapshot at
 * s(t3): c(t1) before s(t3) and no other writer of x commits between them (with ⊥: none before
 * s(t3)); SI also forbids two writers of a common key to overlap (first-committer-wins).
 *
 * Why this is the spec's SI ("t2 co* ; (so ∪ wr ∪ cf) t3 ⇒ t2 co t1", cf = ⋈ ∩ co) with co the
 * order of commits:
 * (events ⇒ axiom) so, wr and cf edges t4 → t3 all give c(t4) before s(t3) (for cf: t4 ⋈ t3,
 *   c(t4) before c(t3), and the two do not overlap). With t2 co* t4, c(t2) is before s(t3)
 *   too, so the snapshot rule puts c(t2) before c(t1), i.e. t2 co t1 (with t1 = ⊥ the premise
 *   cannot hold, as the rule allows no writer of x before s(t3)).
 * (axiom ⇒ events) Given co, let V(t) = {u : u co* ; (so ∪ wr ∪ cf) t}: a co-prefix of t's
 *   predecessors (every premise edge is in co, and co* closes it downwards). Commit in co order
 *   and put s(t) just after the last commit of V(t). Then so and wr sources commit before s(t3);
 *   a writer t2 ≠ t1 of x committing before s(t3) is in V(t3), so the axiom gives t2 co t1 (and
 *   with t1 = ⊥ it would violate it); and for t ⋈ t' with t co t', t cf t' puts c(t) before
 *   s(t'), so they do not overlap. PC is the same without cf (MixIso's Prefix, no NoConflict).
 *
 * The search keeps, for each transaction, not started / started / committed (at most 3^n
 * states) and explores each state once. `canonical` restricts it to orders where every start
 * is as late as possible, with no loss: moving s(t) later keeps c(t1) before it, can only shrink
 * overlaps, and stays valid up to c(t) or up to the first commit c(u) that would put u between
 * one of t's sources (already committed) and s(t). So each step commits one transaction u,
 * starting at that moment exactly the transactions that must have started before c(u) (and u
 * itself if it had not started).
 */
export function siOrder(p: Prepared, conflicts: boolean, canonical = true): number[] | null {
  if (p.violation !== null) return null;
  const n = p.n;
  if (n > 19) throw new RangeError('the event search takes at most 19 committed transactions (3^n must stay an int32)');
  const full = (1 << n) - 1;
  const pow3 = new Int32Array(n + 1);
  pow3[0] = 1;
  for (let i = 1; i <= n; i++) pow3[i] = pow3[i - 1] * 3;
  // t may start once its so predecessors and wr sources have committed.
  const startPred = new Int32Array(n);
  for (let t = 0; t < n; t++) startPred[t] = p.soPred[t] | p.wrPred[t];
  const canStart = (t: number, done: number): boolean => (startPred[t] & ~done) === 0;
  const seen = new Visited(pow3[n]);
  const parent = new Map<number, { from: number; committed: number }>();
  // A state is (started, done); its index is Σ 3^t · (0 not started, 1 running, 2 committed).
  const key = (started: number, done: number): number => {
    let k = 0;
    for (let t = 0; t < n; t++) k += pow3[t] * ((has(started, t) ? 1 : 0) + (has(done, t) ? 1 : 0));
    return k;
  };
  const stackStarted: number[] = [0];
  const stackDone: number[] = [0];
  seen.mark(0);
  let goal = n === 0 ? 0 : -1;
  const visit = (fromKey: number, started: number, done: number, committedTxn: number): void => {
    const k = key(started, done);
    if (!seen.mark(k)) return;
    parent.set(k, { from: fromKey, committed: committedTxn });
    if (done === full) goal = k;
    stackStarted.push(started);
    stackDone.push(done);
  };
  // Committing u with `started` running: no running writer of a shared key (SI), and no read it
  // would break whose reader has not started.
  const mayCommit = (u: number, started: number, done: number): boolean => {
    if (conflicts && (p.conflicts[u] & started & ~done) !== 0) return false;
    return !p.breaks[u].some((r) => !has(started, r.reader) && sourceIn(r, done));
  };
  while (stackStarted.length > 0 && goal < 0) {
    const started = stackStarted.pop()!;
    const done = stackDone.pop()!;
    const fromKey = key(started, done);
    for (let u = 0; u < n && goal < 0; u++) {
      if (has(done, u)) continue;
      if (canonical) {
        // Start u if need be and every transaction whose read c(u) would otherwise break.
        let now = started;
        let ok = true;
        if (!has(now, u)) {
          ok = canStart(u, done);
          now |= 1 << u;
        }
        for (const r of p.breaks[u]) {
          if (!ok) break;
          if (has(now, r.reader) || !sourceIn(r, done)) continue;
          ok = canStart(r.reader, done);
          now |= 1 << r.reader;
        }
        if (ok && mayCommit(u, now, done)) visit(fromKey, now, done | (1 << u), u);
      } else {
        if (!has(started, u)) {
          if (canStart(u, done)) visit(fromKey, started | (1 << u), done, -1);
        } else if (mayCommit(u, started, done)) {
          visit(fromKey, started, done | (1 << u), u);
        }
      }
    }
  }
  lastStates = seen.size;
  seen.clear();
  if (goal < 0) return null;
  const order: number[] = [];
  for (let k = goal; k !== 0; ) {
    const step = parent.get(k)!;
    if (step.committed >= 0) order.push(step.committed);
    k = step.from;
  }
  return order.reverse();
}

/** The SER axiom checked literally on an order (for the oracles' own orders): every premise, no search. */
export function satisfiesSer(p: Prepared, order: number[], realTime = false): boolean {
  const pos = positions(p, order);
  if (pos === null) return false;
  for (let t = 0; t < p.n; t++) {
    const pred = p.soPred[t] | p.wrPred[t] | (realTime ? p.rtPred[t] : 0);
    for (let u = 0; u < p.n; u++) if (has(pred, u) && pos[u] >= pos[t]) return false;
  }
  for (const r of p.reads) {
    for (let t2 = 0; t2 < p.n; t2++) {
      if (t2 === r.source || !p.writeKeys[t2].has(r.key)) continue;
      if (pos[t2] < pos[r.reader] && !(r.source >= 0 && pos[t2] < pos[r.source])) return false;
    }
  }
  return true;
}

/** The SI (or PC) axiom of the spec's table checked literally on a commit order. */
export function satisfiesPrefix(p: Prepared, order: number[], conflicts: boolean): boolean {
  const pos = positions(p, order);
  if (pos === null) return false;
  const before = (a: number, b: number): boolean => pos[a] < pos[b];
  for (let t = 0; t < p.n; t++) for (let u = 0; u < p.n; u++) if (has(p.soPred[t] | p.wrPred[t], u) && !before(u, t)) return false;
  const edge = (a: number, b: number): boolean => has(p.soPred[b] | p.wrPred[b], a) || (conflicts && has(p.conflicts[a], b) && before(a, b));
  for (const r of p.reads) {
    for (let t2 = 0; t2 < p.n; t2++) {
      if (t2 === r.source || !p.writeKeys[t2].has(r.key)) continue;
      let premise = false;
      for (let t4 = 0; t4 < p.n && !premise; t4++) premise = (t4 === t2 || before(t2, t4)) && edge(t4, r.reader);
      if (premise && !(r.source >= 0 && before(t2, r.source))) return false;
    }
  }
  return true;
}

function positions(p: Prepared, order: number[]): Int32Array | null {
  if (order.length !== p.n || new Set(order).size !== p.n) return null;
  const pos = new Int32Array(p.n);
  order.forEach((t, i) => (pos[t] = i));
  return pos;
}
