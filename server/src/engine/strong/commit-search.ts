// Exact search for a commit order with read points (PC, SI, SER and mixes of them), over session frontiers.

import { BOTTOM, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { FrontierMemo, frontierMix } from './frontier-memo.ts';

/** How a transaction's reads see the store: a snapshot at a read point, or fixed precedence only. */
export const MODE_SER = 0; // reads see everything committed before it: read point = commit point
export const MODE_SI = 1; // snapshot at a read point; no conflicting commit between read and commit point
export const MODE_PC = 2; // snapshot at a read point (a prefix of the commit order)
export const MODE_STATIC = 3; // not prefix-based (RC, RA): its reads are constrained by `precedence` only

export interface SearchInput {
  h: History;
  rf: ReadsFrom;
  /** Per transaction: MODE_*; aborted transactions are ignored. */
  mode: Uint8Array;
  /** Extra "commits before" edges (from, to) that every commit order must respect (weak readers' forced edges). */
  precedence: { from: Int32Array; to: Int32Array; length: number };
  /** Extra edges between events (2t: t's read point, 2t + 1: its commit point) that every valid order contains. */
  events?: { from: Int32Array; to: Int32Array; length: number };
  /** A plausible position per event (same numbering), e.g. a topological order of the known edges: the search tries lower first. */
  rank?: Int32Array;
  /** States explored after which the answer is 'unknown'. */
  budget: number;
  /** Most failed frontiers remembered (memory); the memo only prunes, so this never changes an answer. */
  memoEntries?: number;
  /** Date.now() after which the answer is 'unknown' (checked every few thousand states). */
  deadline?: number;
  /** Asked as often as the deadline: true stops the search ('unknown'), e.g. when the analysis was cancelled. */
  stop?: () => boolean;
}

const EV_COMMIT = 0;
const EV_SNAPSHOT = 1;

export type SearchResult =
  | { kind: 'consistent'; order: Int32Array } // commit order (committed transactions, ⊥ excluded)
  | { kind: 'violated' }
  | { kind: 'unknown'; states: number };

/**
 * Builds the commit order event by event: a read point rp(t) (its snapshot) and a commit point
 * cp(t). What may happen next depends only on which events happened — the session frontiers —
 * because of one rule: a writer of x may not commit while some reader of x whose writer has
 * already committed has not taken its snapshot yet (it would then read a stale value). So failed
 * frontiers are memoised, which makes the search polynomial for a bounded number of sessions.
 */
export function searchCommitOrder(input: SearchInput): SearchResult {
  // Restarts with growing budgets and shuffled tie-breaks: a depth-first search stuck below an
  // early wrong turn gets out of it. Failed frontiers stay failed whatever the exploration
  // order, so the memo carries over and no work is lost. The first attempt may take every event
  // twice over: with a good rank the search goes straight through and should not restart.
  const k = Math.max(1, input.h.sessionCount);
  const failed = new FrontierMemo(k, input.memoEntries ?? Math.floor(DEFAULT_MEMO_BYTES / (4 * k + 8)));
  let spent = 0;
  let slice = Math.max(RESTART_STATES, 4 * input.h.txnCount);
  for (let attempt = 0; ; attempt++) {
    const last = spent + slice * 2 > input.budget;
    const s = new SearchState(input, failed, attempt);
    const r = s.run(last ? input.budget - spent : slice);
    spent += s.states;
    if (r.kind !== 'unknown' || last || (input.deadline !== undefined && Date.now() > input.deadline) || input.stop?.() === true) {
      return r.kind === 'unknown' ? { kind: 'unknown', states: spent } : r;
    }
    slice *= 2;
  }
}

/** Adds seeded noise to ranks (within a window) so a restart breaks ties and near-ties differently. */
function perturb(rank: Int32Array, seed: number): void {
  let x = (seed * 0x9e3779b1) | 0;
  for (let i = 0; i < rank.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    rank[i] += (x >>> 0) % (16 * seed + 16);
  }
}

/** States of the first attempt at least; each restart doubles it. */
const RESTART_STATES = 5_000;
/** Default memory for the memo of failed frontiers. */
const DEFAULT_MEMO_BYTES = 256 * 1024 * 1024;
/** Key of a finished session (sorted last), and the largest rank an event gets (unranked events: cycles). */
const NO_RANK = 0x7fffffff;
const MAX_RANK = 0x3fffffff;

class SearchState {
  private readonly h: History;
  private readonly rf: ReadsFrom;
  private readonly mode: Uint8Array;
  private readonly sessions: Int32Array[]; // committed transactions of each session, in so order
  private readonly pos: Int32Array; // next transaction index per session
  private readonly open: Uint8Array; // 1 when that transaction took its read point
  private readonly front: Int32Array; // per session: pos * 2 + open (the memo key)
  private hash = 0;
  private readonly succStart: Int32Array; // successors CSR over events (2t read point, 2t + 1 commit)
  private readonly succ: Int32Array;
  private readonly unmet: Int32Array; // per event: predecessors not happened yet
  private readonly pending: Int32Array; // per key: snapshot readers whose writer committed, snapshot not taken
  private readonly openWriters: Int32Array; // per key: open SI transactions writing it
  private readonly readerStart: Int32Array; // per source txn: the snapshot reads that read from it
  private readonly readerOps: Int32Array;
  private readonly committedFlag: Uint8Array;
  private readonly order: number[] = [];
  /** Per event: its position in a plausible order (lower is tried first). */
  private readonly rank: Int32Array;
  /** Sessions sorted by the rank of their next event (ties by id), and each session's place in it. */
  private readonly sorted: Int32Array;
  private readonly place: Int32Array;
  private readonly key: Int32Array;

  states = 0;

  /** failed: frontiers known to fail (shared across restarts); attempt: 0 for the plain order, else a shuffle seed. */
  constructor(private readonly input: SearchInput, private readonly failed: FrontierMemo, attempt: number) {
    const { h, rf, mode } = input;
    this.h = h;
    this.rf = rf;
    this.mode = mode;
    const k = h.sessionCount;
    this.sessions = [];
    for (let s = 0; s < k; s++) {
      const list: number[] = [];
      for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) if (h.txnAborted[h.sessionTxns[i]] === 0) list.push(h.sessionTxns[i]);
      this.sessions.push(Int32Array.from(list));
    }
    this.pos = new Int32Array(k);
    this.open = new Uint8Array(k);
    this.front = new Int32Array(Math.max(1, k));
    for (let s = 0; s < k; s++) this.hash ^= frontierMix(s, 0);
    this.committedFlag = new Uint8Array(h.txnCount);
    this.committedFlag[BOTTOM] = 1;

    // Event precedence: wr and the extra commit edges (commit → commit), and the extra event edges.
    // Transactions without a read point of their own (RC, RA, CC, PSI) read at their commit.
    const snap = (t: number): boolean => mode[t] !== MODE_STATIC;
    const ev = (node: number): number => ((node & 1) === 0 && !snap(node >> 1) ? node + 1 : node);
    const from: number[] = [];
    const to: number[] = [];
    for (let t = 1; t < h.txnCount; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOTTOM) { from.push(2 * rf.wrSource[o] + 1); to.push(2 * t + 1); }
    }
    let intoBottom = false;
    for (let i = 0; i < input.precedence.length; i++) {
      if (input.precedence.to[i] === BOTTOM) intoBottom = true;
      if (input.precedence.from[i] === BOTTOM) continue;
      from.push(2 * input.precedence.from[i] + 1);
      to.push(2 * input.precedence.to[i] + 1);
    }
    const extra = input.events;
    if (extra) {
      for (let i = 0; i < extra.length; i++) {
        if (extra.from[i] < 2) continue;
        if (extra.to[i] < 2) intoBottom = true;
        const a = ev(extra.from[i]);
        const b = ev(extra.to[i]);
        if (a === b) continue;
        from.push(a);
        to.push(b);
      }
    }
    const nodes = 2 * h.txnCount;
    this.succStart = new Int32Array(nodes + 1);
    this.unmet = new Int32Array(nodes);
    for (let i = 0; i < from.length; i++) { this.succStart[from[i] + 1]++; this.unmet[to[i]]++; }
    for (let v = 0; v < nodes; v++) this.succStart[v + 1] += this.succStart[v];
    this.succ = new Int32Array(from.length);
    const fill = this.succStart.slice(0, nodes);
    for (let i = 0; i < from.length; i++) this.succ[fill[from[i]]++] = to[i];
    this.rank = input.rank ? input.rank.slice() : this.topologicalRank();
    for (let v = 0; v < nodes; v++) if (this.rank[v] > MAX_RANK || this.rank[v] < 0) this.rank[v] = MAX_RANK;
    if (attempt > 0) perturb(this.rank, attempt);
    // An edge into ⊥ can never be met: such a transaction never commits, and the search fails.
    if (intoBottom) this.unmet[1]++;
    this.sorted = new Int32Array(k);
    this.place = new Int32Array(k);
    this.key = new Int32Array(k);
    for (let s = 0; s < k; s++) {
      this.sorted[s] = s;
      this.key[s] = this.nextKey(s);
    }
    this.sorted.sort((a, b) => this.key[a] - this.key[b] || a - b);
    for (let i = 0; i < k; i++) this.place[this.sorted[i]] = i;

    // Snapshot readers by source; those reading the initial state are pending from the start.
    this.pending = new Int32Array(h.keyCount);
    this.openWriters = new Int32Array(h.keyCount);
    this.readerStart = new Int32Array(h.txnCount + 1);
    const readerOf: number[][] = [];
    for (let t = 1; t < h.txnCount; t++) {
      if (h.txnAborted[t] === 1 || mode[t] === MODE_STATIC) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
        const src = rf.wrSource[o];
        if (src < 0) continue;
        (readerOf[src] ??= []).push(o);
        if (src === BOTTOM) this.pending[h.opKey[o]]++;
      }
    }
    for (let t = 0; t < h.txnCount; t++) this.readerStart[t + 1] = this.readerStart[t] + (readerOf[t]?.length ?? 0);
    this.readerOps = new Int32Array(this.readerStart[h.txnCount]);
    for (let t = 0; t < h.txnCount; t++) this.readerOps.set(readerOf[t] ?? [], this.readerStart[t]);
  }

  /** Kahn's order over the events: sessions (r, c, r, c, …), wr into read points, and the precedence (cycles leave the rest last). */
  private topologicalRank(): Int32Array {
    const { h, rf } = this;
    const nodes = 2 * h.txnCount;
    const indeg = this.unmet.slice();
    const chainNext = new Int32Array(nodes).fill(-1);
    for (const list of this.sessions) {
      for (let i = 0; i < list.length; i++) {
        chainNext[2 * list[i]] = 2 * list[i] + 1;
        indeg[2 * list[i] + 1]++;
        if (i + 1 < list.length) {
          chainNext[2 * list[i] + 1] = 2 * list[i + 1];
          indeg[2 * list[i + 1]]++;
        }
      }
    }
    // wr into read points (the commit edges above already hold wr into commit points).
    const wrStart = new Int32Array(nodes + 1);
    for (let t = 1; t < h.txnCount; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOTTOM) { wrStart[2 * rf.wrSource[o] + 2]++; indeg[2 * t]++; }
    }
    for (let v = 0; v < nodes; v++) wrStart[v + 1] += wrStart[v];
    const wrSucc = new Int32Array(wrStart[nodes]);
    const at = wrStart.slice(0, nodes);
    for (let t = 1; t < h.txnCount; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOTTOM) wrSucc[at[2 * rf.wrSource[o] + 1]++] = 2 * t;
    }
    const rank = new Int32Array(nodes).fill(NO_RANK);
    const queue = new Int32Array(nodes);
    let tail = 0;
    for (let v = 2; v < nodes; v++) if (indeg[v] === 0 && h.txnAborted[v >> 1] === 0) queue[tail++] = v;
    const visit = (w: number): void => {
      if (--indeg[w] === 0) queue[tail++] = w;
    };
    for (let i = 0; i < tail; i++) {
      const v = queue[i];
      rank[v] = i;
      for (let p = this.succStart[v]; p < this.succStart[v + 1]; p++) visit(this.succ[p]);
      for (let p = wrStart[v]; p < wrStart[v + 1]; p++) visit(wrSucc[p]);
      if (chainNext[v] >= 0) visit(chainNext[v]);
    }
    return rank;
  }

  run(budget: number): SearchResult {
    if (this.unmet[1] > 0) return { kind: 'violated' };
    const k = this.sessions.length;
    const total = this.sessions.reduce((n, l) => n + l.length, 0);
    const failed = this.failed;
    // Explicit DFS stack of (session moved, what was done) and the next alternative per depth — no recursion.
    const chosen: number[] = []; // encoded event: session * 2 + EV_*
    const nextAlt: number[] = [0];
    let states = 0;
    for (;;) {
      if (this.order.length === total) return { kind: 'consistent', order: Int32Array.from(this.order) };
      const depth = chosen.length;
      let alt = nextAlt[depth];
      let applied = false;
      // Alternatives, most promising first: the session whose next event (its snapshot, or its
      // commit) comes first in the rank.
      while (alt < k) {
        const s = this.sorted[alt];
        alt++;
        if (this.key[s] === NO_RANK) break; // this one and the rest are finished sessions
        const done = this.tryEvent(s);
        if (done < 0) continue;
        if (failed.size > 0 && failed.has(this.hash, this.front)) {
          this.undoEvent(s, done);
          continue;
        }
        nextAlt[depth] = alt;
        chosen.push(s * 2 + done);
        nextAlt.push(0);
        applied = true;
        states++;
        break;
      }
      if (applied) {
        this.states = states;
        if (states > budget) return { kind: 'unknown', states };
        if ((states & 4095) === 0 && ((this.input.deadline !== undefined && Date.now() > this.input.deadline) || this.input.stop?.() === true)) return { kind: 'unknown', states };
        continue;
      }
      // Dead end: remember it and step back.
      failed.add(this.hash, this.front);
      if (chosen.length === 0) return { kind: 'violated' };
      nextAlt.pop();
      const e = chosen.pop()!;
      this.undoEvent(e >> 1, e & 1);
    }
  }

  /** The rank of session s's next event, or NO_RANK when it has none left. */
  private nextKey(s: number): number {
    const list = this.sessions[s];
    if (this.pos[s] >= list.length) return NO_RANK;
    const t = list[this.pos[s]];
    const m = this.mode[t];
    const split = m === MODE_SI || m === MODE_PC;
    return this.rank[split && this.open[s] === 0 ? 2 * t : 2 * t + 1];
  }

  /** Moves session s to (p, o): the memo key, its hash and the session's place in the sorted order. */
  private setFrontier(s: number, p: number, o: number): void {
    this.hash ^= frontierMix(s, this.front[s]);
    this.pos[s] = p;
    this.open[s] = o;
    this.front[s] = p * 2 + o;
    this.hash ^= frontierMix(s, this.front[s]);
    const key = this.nextKey(s);
    this.key[s] = key;
    const sorted = this.sorted;
    let i = this.place[s];
    // Insertion step: the order is a function of the keys alone, so undoing restores it exactly.
    while (i > 0 && (this.key[sorted[i - 1]] > key || (this.key[sorted[i - 1]] === key && sorted[i - 1] > s))) {
      sorted[i] = sorted[i - 1];
      this.place[sorted[i]] = i;
      i--;
    }
    while (i + 1 < sorted.length && (this.key[sorted[i + 1]] < key || (this.key[sorted[i + 1]] === key && sorted[i + 1] < s))) {
      sorted[i] = sorted[i + 1];
      this.place[sorted[i]] = i;
      i++;
    }
    sorted[i] = s;
    this.place[s] = i;
  }

  /**
   * Applies the next event of session s when allowed now: the snapshot of a PC or SI transaction
   * that has not taken it, else the commit (with the snapshot, at SER). Returns what was done
   * (EV_COMMIT or EV_SNAPSHOT, for the undo) or -1.
   */
  private tryEvent(s: number): number {
    const list = this.sessions[s];
    const p = this.pos[s];
    if (p >= list.length) return -1;
    const t = list[p];
    const m = this.mode[t];
    if ((m === MODE_SI || m === MODE_PC) && this.open[s] === 0) {
      if (!this.snapshotReady(t)) return -1;
      this.takeSnapshot(t, 1);
      this.setFrontier(s, p, 1);
      return EV_SNAPSHOT;
    }
    if (this.unmet[2 * t + 1] > 0) return -1;
    if (m === MODE_SER) {
      if (!this.snapshotReady(t)) return -1;
      this.takeSnapshot(t, 1);
    }
    if (!this.mayCommit(t)) {
      if (m === MODE_SER) this.takeSnapshot(t, -1);
      return -1;
    }
    this.commit(t, 1);
    this.setFrontier(s, p + 1, 0);
    return EV_COMMIT;
  }

  private undoEvent(s: number, done: number): void {
    if (done === EV_SNAPSHOT) {
      this.takeSnapshot(this.sessions[s][this.pos[s]], -1);
      this.setFrontier(s, this.pos[s], 0);
      return;
    }
    const p = this.pos[s] - 1;
    const t = this.sessions[s][p];
    const m = this.mode[t];
    this.commit(t, -1);
    if (m === MODE_SER) this.takeSnapshot(t, -1);
    this.setFrontier(s, p, m === MODE_SI || m === MODE_PC ? 1 : 0);
  }

  /** Every writer this transaction reads from has committed, and every event that must precede its read point happened. */
  private snapshotReady(t: number): boolean {
    const { h, rf } = this;
    if (this.unmet[2 * t] > 0) return false;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      const src = rf.wrSource[o];
      if (src >= 0 && this.committedFlag[src] === 0) return false;
    }
    return true;
  }

  /** dir +1 takes t's snapshot (its reads stop being pending); -1 undoes it. */
  private takeSnapshot(t: number, dir: number): void {
    const { h, rf } = this;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] >= 0) this.pending[h.opKey[o]] -= dir;
    if (this.mode[t] === MODE_SI) {
      for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) this.openWriters[rf.writeKeys[j]] += dir;
    }
    for (let p = this.succStart[2 * t]; p < this.succStart[2 * t + 1]; p++) this.unmet[this.succ[p]] -= dir;
  }

  /** No snapshot reader of a key t writes is waiting on an older version; SI: no open conflicting writer. */
  private mayCommit(t: number): boolean {
    const { rf } = this;
    const si = this.mode[t] === MODE_SI;
    for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) {
      const x = rf.writeKeys[j];
      if (this.pending[x] > 0) return false;
      if (this.openWriters[x] > (si ? 1 : 0)) return false;
    }
    return true;
  }

  private commit(t: number, dir: number): void {
    const { h } = this;
    this.committedFlag[t] = dir > 0 ? 1 : 0;
    for (let p = this.succStart[2 * t + 1]; p < this.succStart[2 * t + 2]; p++) this.unmet[this.succ[p]] -= dir;
    // Readers of t's versions that have not taken their snapshot are now pending.
    for (let i = this.readerStart[t]; i < this.readerStart[t + 1]; i++) {
      const o = this.readerOps[i];
      if (!this.snapshotTaken(h.opTxn[o])) this.pending[h.opKey[o]] += dir;
    }
    if (this.mode[t] === MODE_SI) {
      const { rf } = this;
      for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) this.openWriters[rf.writeKeys[j]] -= dir;
    }
    if (dir > 0) this.order.push(t);
    else this.order.pop();
  }

  /** Whether reader transaction u has taken its snapshot (committed, or open at its read point). */
  private snapshotTaken(u: number): boolean {
    if (this.committedFlag[u] === 1) return true;
    const s = this.h.txnSession[u];
    const list = this.sessions[s];
    return this.pos[s] < list.length && list[this.pos[s]] === u && this.open[s] === 1;
  }
}
