// Exact search for a commit order with read points (PC, SI, SER and mixes of them), over session frontiers.

import { BOTTOM, type History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';

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
  /** States explored after which the answer is 'unknown'. */
  budget: number;
  /** Date.now() after which the answer is 'unknown' (checked every few thousand states). */
  deadline?: number;
  /** Asked as often as the deadline: true stops the search ('unknown'), e.g. when the analysis was cancelled. */
  stop?: () => boolean;
}

const EV_COMMIT = 0;
const EV_SNAPSHOT = 1;
const EV_BOTH = 2;
const EV_ADVANCE = 3; // a request: commit, or snapshot and commit

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
  // order, so the memo carries over and no work is lost.
  const failed = new Set<string>();
  let spent = 0;
  let slice = RESTART_STATES;
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

/** States of the first attempt; each restart doubles it. */
const RESTART_STATES = 5_000;

class SearchState {
  private readonly h: History;
  private readonly rf: ReadsFrom;
  private readonly mode: Uint8Array;
  private readonly sessions: Int32Array[]; // committed transactions of each session, in so order
  private readonly pos: Int32Array; // next transaction index per session
  private readonly open: Uint8Array; // 1 when that transaction took its read point
  private readonly predStart: Int32Array; // successors CSR of the precedence relation
  private readonly predSucc: Int32Array;
  private readonly unmet: Int32Array; // per txn: precedence predecessors not committed yet
  private readonly pending: Int32Array; // per key: snapshot readers whose writer committed, snapshot not taken
  private readonly openWriters: Int32Array; // per key: open SI transactions writing it
  private readonly readerStart: Int32Array; // per source txn: the snapshot reads that read from it
  private readonly readerOps: Int32Array;
  private readonly committedFlag: Uint8Array;
  private readonly order: number[] = [];
  /** Position of each transaction in a topological order of the precedence relation. */
  private readonly rank: Int32Array;
  private readonly sessionIds: number[];

  states = 0;

  /** failed: frontiers known to fail (shared across restarts); attempt: 0 for the plain order, else a shuffle seed. */
  constructor(private readonly input: SearchInput, private readonly failed: Set<string>, attempt: number) {
    const { h, rf, mode } = input;
    this.h = h;
    this.rf = rf;
    this.mode = mode;
    this.sessions = [];
    for (let s = 0; s < h.sessionCount; s++) {
      const list: number[] = [];
      for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) if (h.txnAborted[h.sessionTxns[i]] === 0) list.push(h.sessionTxns[i]);
      this.sessions.push(Int32Array.from(list));
    }
    this.pos = new Int32Array(h.sessionCount);
    this.open = new Uint8Array(h.sessionCount);
    this.committedFlag = new Uint8Array(h.txnCount);
    this.committedFlag[BOTTOM] = 1;

    // Precedence: so, wr and the extra edges, as successor lists with predecessor counts.
    const from: number[] = [];
    const to: number[] = [];
    for (const list of this.sessions) for (let i = 1; i < list.length; i++) { from.push(list[i - 1]); to.push(list[i]); }
    for (let t = 1; t < h.txnCount; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOTTOM) { from.push(rf.wrSource[o]); to.push(t); }
    }
    for (let i = 0; i < input.precedence.length; i++) {
      if (input.precedence.from[i] === BOTTOM) continue;
      from.push(input.precedence.from[i]);
      to.push(input.precedence.to[i]);
    }
    this.predStart = new Int32Array(h.txnCount + 1);
    this.unmet = new Int32Array(h.txnCount);
    for (let i = 0; i < from.length; i++) { this.predStart[from[i] + 1]++; this.unmet[to[i]]++; }
    for (let t = 0; t < h.txnCount; t++) this.predStart[t + 1] += this.predStart[t];
    this.predSucc = new Int32Array(from.length);
    const fill = this.predStart.slice(0, h.txnCount);
    for (let i = 0; i < from.length; i++) this.predSucc[fill[from[i]]++] = to[i];
    this.rank = this.topologicalRank();
    if (attempt > 0) perturb(this.rank, attempt);
    this.sessionIds = Array.from({ length: h.sessionCount }, (_, s) => s);
    // An edge into ⊥ can never be met: such a transaction never commits, and the search fails.
    for (let i = 0; i < input.precedence.length; i++) if (input.precedence.to[i] === BOTTOM) this.unmet[BOTTOM]++;

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

  /** Kahn's order over the precedence successors (cycles leave the rest at the end). */
  private topologicalRank(): Int32Array {
    const n = this.h.txnCount;
    const indeg = this.unmet.slice();
    const rank = new Int32Array(n).fill(n);
    const queue: number[] = [];
    for (let t = 1; t < n; t++) if (indeg[t] === 0) queue.push(t);
    for (let i = 0; i < queue.length; i++) {
      const t = queue[i];
      rank[t] = i;
      for (let p = this.predStart[t]; p < this.predStart[t + 1]; p++) if (--indeg[this.predSucc[p]] === 0) queue.push(this.predSucc[p]);
    }
    return rank;
  }

  run(budget: number): SearchResult {
    if (this.unmet[BOTTOM] > 0) return { kind: 'violated' };
    const k = this.sessions.length;
    const total = this.sessions.reduce((n, l) => n + l.length, 0);
    const failed = this.failed;
    // Explicit DFS stack of (event applied, next alternative to try) — no recursion.
    const chosen: number[] = []; // encoded event: session * 4 + EV_*
    const nextAlt: number[] = [0];
    let states = 0;
    for (;;) {
      if (this.order.length === total) return { kind: 'consistent', order: Int32Array.from(this.order) };
      const depth = chosen.length;
      let alt = nextAlt[depth];
      let applied = false;
      // Alternatives, most promising first: move a session on (commit an open transaction, or
      // snapshot and commit at once, as a serial execution would), then a snapshot alone; among
      // sessions, the one whose next transaction comes first in a topological order of the
      // precedence edges (a plausible commit order).
      const bySession = this.sessionsByRank();
      while (alt < 2 * k) {
        const s = bySession[alt < k ? alt : alt - k];
        const ev = alt < k ? EV_ADVANCE : EV_SNAPSHOT;
        alt++;
        const done = this.tryEvent(s, ev);
        if (done < 0) continue;
        if (failed.has(this.stateKey())) {
          this.undoEvent(s, done);
          continue;
        }
        nextAlt[depth] = alt;
        chosen.push(s * 4 + done);
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
      failed.add(this.stateKey());
      if (chosen.length === 0) return { kind: 'violated' };
      nextAlt.pop();
      const e = chosen.pop()!;
      this.undoEvent(e >> 2, e & 3);
    }
  }

  private sessionsByRank(): number[] {
    const next = (s: number): number => {
      const list = this.sessions[s];
      return this.pos[s] < list.length ? this.rank[list[this.pos[s]]] : Number.MAX_SAFE_INTEGER;
    };
    return this.sessionIds.slice().sort((a, b) => next(a) - next(b) || a - b);
  }

  private stateKey(): string {
    let key = '';
    for (let s = 0; s < this.pos.length; s++) key += `${this.pos[s] * 2 + this.open[s]},`;
    return key;
  }

  /**
   * Applies an event of session s when allowed now. Returns what was done (EV_COMMIT, EV_SNAPSHOT
   * or EV_BOTH, for the undo) or -1.
   */
  private tryEvent(s: number, ev: number): number {
    const list = this.sessions[s];
    if (this.pos[s] >= list.length) return -1;
    const t = list[this.pos[s]];
    const m = this.mode[t];
    const split = m === MODE_SI || m === MODE_PC; // a read point before the commit point
    if (ev === EV_SNAPSHOT) {
      if (!split || this.open[s] === 1 || !this.snapshotReady(t)) return -1;
      this.takeSnapshot(t, 1);
      this.open[s] = 1;
      return EV_SNAPSHOT;
    }
    let both = false;
    if (split && this.open[s] === 0) {
      if (!this.snapshotReady(t)) return -1;
      this.takeSnapshot(t, 1);
      this.open[s] = 1;
      both = true;
    }
    if (this.commitIfAllowed(s, t)) return both ? EV_BOTH : EV_COMMIT;
    if (both) {
      this.takeSnapshot(t, -1);
      this.open[s] = 0;
    }
    return -1;
  }

  private commitIfAllowed(s: number, t: number): boolean {
    const m = this.mode[t];
    if (this.unmet[t] > 0) return false;
    if (m === MODE_SER) {
      if (!this.snapshotReady(t)) return false;
      this.takeSnapshot(t, 1);
    }
    if (!this.mayCommit(t)) {
      if (m === MODE_SER) this.takeSnapshot(t, -1);
      return false;
    }
    this.commit(t, 1);
    this.open[s] = 0;
    this.pos[s]++;
    return true;
  }

  private undoEvent(s: number, done: number): void {
    if (done === EV_SNAPSHOT) {
      this.takeSnapshot(this.sessions[s][this.pos[s]], -1);
      this.open[s] = 0;
      return;
    }
    this.pos[s]--;
    const t = this.sessions[s][this.pos[s]];
    const m = this.mode[t];
    this.commit(t, -1);
    if (m === MODE_SER || done === EV_BOTH) {
      this.takeSnapshot(t, -1);
      this.open[s] = 0;
    } else if (m !== MODE_STATIC) this.open[s] = 1;
  }

  /** Every writer this transaction reads from has committed. */
  private snapshotReady(t: number): boolean {
    const { h, rf } = this;
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
    for (let p = this.predStart[t]; p < this.predStart[t + 1]; p++) this.unmet[this.predSucc[p]] -= dir;
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
