// Necessary commit-order edges for PC, SI and SER at scale: read and commit events on session chains, incremental vector clocks.

import type { History } from '../model/history.ts';
import type { ReadsFrom } from '../model/reads-from.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { MODE_PC as PC, MODE_SER as SER, MODE_SI as SI, MODE_STATIC as STATIC } from './commit-search.ts';

export interface EventGraphInput {
  h: History;
  rf: ReadsFrom;
  /** Per transaction: MODE_*. */
  mode: Uint8Array;
  /** Commit-before edges between transactions (weak readers' forced edges). */
  precedence: { from: Int32Array; to: Int32Array; length: number };
  /** Largest clock table (nodes × sessions entries) allowed; two such tables are kept. */
  maxEntries: number;
  /**
   * Per transaction, 1 for a PSI reader (MODE_STATIC in `mode`): its reads of keys it also writes
   * obey the SER rule. A writer t2 of x that commits before t3 conflicts with t3 (both write x), so
   * NoConflict makes it visible and Ext wants it older than t1 (no lost update).
   */
  psi?: Uint8Array;
}

// Module-local copies of the modes: imported bindings can be getter calls (tsx's CommonJS output), measured in the hot loops.
const MODE_PC: number = PC;
const MODE_SER: number = SER;
const MODE_SI: number = SI;
const MODE_STATIC: number = STATIC;
const INF = 0x7fffffff;
const BOT = 0; // ⊥ (model/history.ts BOTTOM), a local constant for the hot loops
/** Re-examination work items: the reads of a transaction, the reads from it, an SI transaction's writes. */
const EX_READER = 0;
const EX_SOURCE = 1;
const EX_SI = 2;
/** Trail entries: table number * TABLE_SPAN + index (the tables hold at most this many entries). */
const TABLE_SPAN = 1 << 27;
const T_BWD = 0;
const T_FWD = 1;
const T_LOOK_R = 2;
const T_LOOK_C = 3;
const T_LOOK_SI_B = 4;
const T_LOOK_SI_F = 5;
const SEEN_NONE = -2;
/** Back to exact clocks once a round brings fewer new edges than 1/BATCH_RATIO of all edges (measured: after the first round). */
const BATCH_RATIO = 5;

/**
 * The event model the commit-order search decides exactly: node 2t is t's read point r(t) (its
 * snapshot), 2t + 1 its commit c(t); an SER transaction reads at c(t) itself. A session's events
 * form a chain r, c, r, c, … (earlier commits precede later snapshots), and a read of x in t3 from
 * t1 needs c(t1) < R(t3), where R is r(t3), or c(t3) at SER. For every other committed writer t2 of
 * x: c(t2) < c(t1) or R(t3) < c(t2) (t2 is older than t1, or not in the snapshot). SI adds, for
 * each pair of transactions writing a common key, c(t2) < r(t3) or c(t3) < c(t2) (NoConflict).
 * Each disjunction whose one side is refuted by reachability forces the other — unit propagation
 * over a polygraph, as Cobra and PolySI prune — so the edges found hold in every valid order and
 * a cycle proves a violation.
 *
 * Reachability is exact and cheap because every node lies on one of k session chains: a node's
 * clock holds, per session, the last chain position reaching it (bwd) and the first one reached
 * from it (fwd). A query is one array read, and one edge per session suffices for each rule (the
 * rest follows along the chain). Clocks are built once, then kept up to date edge by edge: a new
 * edge a → b raises the bwd clocks of b's descendants and lowers the fwd clocks of a's ancestors,
 * only as far as they change, and only the reads whose clocks changed are looked at again.
 *
 * Guesses (guess()) are propagated the same way on a trail that undo() rolls back, like a SAT
 * solver's decisions; edges derived while a guess stands are not sound (soundEdges() leaves them out).
 */
export class EventGraph {
  readonly k: number;
  readonly nodes: number;
  /** Committed transactions' nodes. */
  readonly live: number;
  private readonly h: History;
  /** h.txnCount, read once (a getter on the history, measured in enqueue). */
  private readonly n: number;
  private readonly rf: ReadsFrom;
  private readonly mode: Uint8Array;
  private readonly psi: Uint8Array | null;
  private readonly nodeIdx: Int32Array; // chain position (-1: ⊥ or aborted)
  private readonly nodeSess: Int32Array;
  private readonly sessNodes: Int32Array; // nodes per session chain
  private readonly chainPrev: Int32Array; // the node before on its session chain, or -1
  private readonly chainNext: Int32Array; // the node after, or -1
  // Base edges (chains, wr, precedence) as CSR in both directions.
  private readonly outStart: Int32Array;
  private readonly outTo: Int32Array;
  private readonly inStart: Int32Array;
  private readonly inFrom: Int32Array;
  // Added edges as linked lists (newest first), so the trail can pop them.
  private readonly outHead: Int32Array;
  private readonly inHead: Int32Array;
  private readonly addFrom = new Int32Vec(1024);
  private readonly addTo = new Int32Vec(1024);
  private readonly addOutNext = new Int32Vec(1024);
  private readonly addInNext = new Int32Vec(1024);
  /** Added edges that hold in every valid order (those found before the first guess). */
  private sound = 0;
  private guessing = false;
  /** While true, new edges wait for the next recompute() instead of updating the clocks. */
  private batch = false;
  private readonly trailAt = new Int32Vec(1024); // table * TABLE_SPAN + entry index
  private readonly trailOld = new Int32Vec(1024);
  /** Every table the trail restores: the clocks, then the rows each rule last looked at. */
  private readonly tables: Int32Array[];
  private readonly writers: Int32Array; // per key, grouped by session, in chain order
  private readonly writerPos: Int32Array; // chain position of each writer's commit node
  private readonly segStart: Int32Array; // per key: its segments (one per session with writers)
  private readonly segFrom: Int32Array;
  private readonly segEnd: Int32Array;
  private readonly segSess: Int32Array;
  private readonly segOf: Int32Array; // per (key, session): its segment, or -1
  private readonly readerStart: Int32Array; // snapshot reads by source transaction
  private readonly readerOps: Int32Array;
  private readonly bwd: Int32Array;
  private readonly fwd: Int32Array;
  // The clock rows each rule last looked at (per transaction): only sessions whose entry moved
  // since can change the rule's outcome, so a look skips the rest. SEEN_NONE: never looked.
  private readonly lookR: Int32Array; // bwd of a reader's read point
  private readonly lookC: Int32Array; // fwd of a source's commit
  private readonly lookSiB: Int32Array; // bwd of an SI transaction's commit
  private readonly lookSiF: Int32Array; // fwd of an SI transaction's read point
  private readonly moved: Uint8Array; // scratch: sessions whose entry moved
  private readonly moved2: Uint8Array;
  private readonly movedList: Int32Array; // the sessions marked in `moved` by the last look, in order
  private movedCount = 0;
  private readonly movedList2: Int32Array; // the same for `moved2`
  private movedCount2 = 0;
  // Work: re-examination items (kind * n + t), deduplicated by a flag per item.
  private readonly queued: Uint8Array;
  private readonly work = new Int32Vec(1024);
  private workHead = 0;
  /** Work items looked at (for the bench). */
  examined = 0;
  private readonly nodeQueue = new Int32Vec(1024);
  /** Clock entries merged so far: a machine-independent measure of the work done. */
  steps = 0;
  /** Edges added by the rules (sound and not). */
  get edgeCount(): number {
    return this.addFrom.length;
  }

  private constructor(input: EventGraphInput, k: number) {
    const { h, rf, mode } = input;
    this.h = h;
    this.n = h.txnCount;
    this.rf = rf;
    this.mode = mode;
    this.psi = input.psi ?? null;
    this.k = k;
    const n = h.txnCount;
    const nodes = 2 * n;
    this.nodes = nodes;
    this.nodeIdx = new Int32Array(nodes).fill(-1);
    this.nodeSess = new Int32Array(nodes).fill(-1);
    this.sessNodes = new Int32Array(k);
    this.chainPrev = new Int32Array(nodes).fill(-1);
    this.chainNext = new Int32Array(nodes).fill(-1);
    const from = new Int32Vec(4 * n);
    const to = new Int32Vec(4 * n);
    const edge = (a: number, b: number): void => {
      from.push(a);
      to.push(b);
    };
    let live = 0;
    for (let s = 0; s < h.sessionCount; s++) {
      let i = 0;
      let prev = -1;
      for (let j = h.sessionTxnStart[s]; j < h.sessionTxnStart[s + 1]; j++) {
        const t = h.sessionTxns[j];
        if (h.txnAborted[t] === 1) continue;
        this.nodeIdx[2 * t] = 2 * i;
        this.nodeIdx[2 * t + 1] = 2 * i + 1;
        this.nodeSess[2 * t] = s;
        this.nodeSess[2 * t + 1] = s;
        edge(2 * t, 2 * t + 1);
        this.chainPrev[2 * t + 1] = 2 * t;
        this.chainNext[2 * t] = 2 * t + 1;
        if (prev >= 0) {
          edge(2 * prev + 1, 2 * t);
          this.chainPrev[2 * t] = 2 * prev + 1;
          this.chainNext[2 * prev + 1] = 2 * t;
        }
        prev = t;
        i++;
      }
      this.sessNodes[s] = 2 * i;
      live += 2 * i;
    }
    this.live = live;
    for (let t = 1; t < n; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOT) edge(2 * rf.wrSource[o] + 1, 2 * t);
    }
    for (let i = 0; i < input.precedence.length; i++) {
      const a = input.precedence.from[i];
      if (a !== BOT) edge(2 * a + 1, 2 * input.precedence.to[i] + 1);
    }
    [this.outStart, this.outTo] = csr(nodes, from, to);
    [this.inStart, this.inFrom] = csr(nodes, to, from);
    this.outHead = new Int32Array(nodes).fill(-1);
    this.inHead = new Int32Array(nodes).fill(-1);

    // Committed writers of each key, grouped by session and in chain order within a session.
    const writerStart = new Int32Array(h.keyCount + 1);
    for (let t = 1; t < n; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) writerStart[rf.writeKeys[j] + 1]++;
    }
    for (let x = 0; x < h.keyCount; x++) writerStart[x + 1] += writerStart[x];
    this.writers = new Int32Array(writerStart[h.keyCount]);
    this.writerPos = new Int32Array(writerStart[h.keyCount]);
    const fill = writerStart.slice(0, h.keyCount);
    for (let s = 0; s < h.sessionCount; s++) {
      for (let j = h.sessionTxnStart[s]; j < h.sessionTxnStart[s + 1]; j++) {
        const t = h.sessionTxns[j];
        if (h.txnAborted[t] === 1) continue;
        for (let q = rf.writeKeyStart[t]; q < rf.writeKeyStart[t + 1]; q++) {
          const at = fill[rf.writeKeys[q]]++;
          this.writers[at] = t;
          this.writerPos[at] = this.nodeIdx[2 * t + 1];
        }
      }
    }
    this.segStart = new Int32Array(h.keyCount + 1);
    const segFrom = new Int32Vec(1024);
    const segSess = new Int32Vec(1024);
    for (let x = 0; x < h.keyCount; x++) {
      this.segStart[x] = segFrom.length;
      for (let i = writerStart[x]; i < writerStart[x + 1]; i++) {
        if (i === writerStart[x] || h.txnSession[this.writers[i]] !== h.txnSession[this.writers[i - 1]]) {
          segFrom.push(i);
          segSess.push(h.txnSession[this.writers[i]]);
        }
      }
    }
    this.segStart[h.keyCount] = segFrom.length;
    this.segFrom = segFrom.toArray();
    this.segSess = segSess.toArray();
    this.segOf = new Int32Array(h.keyCount * k).fill(-1);
    this.segEnd = new Int32Array(segFrom.length);
    for (let x = 0; x < h.keyCount; x++) {
      for (let g = this.segStart[x]; g < this.segStart[x + 1]; g++) {
        this.segEnd[g] = g + 1 < this.segStart[x + 1] ? this.segFrom[g + 1] : writerStart[x + 1];
        this.segOf[x * k + this.segSess[g]] = g;
      }
    }
    // Snapshot reads (and PSI reads of written keys) by source.
    this.readerStart = new Int32Array(n + 1);
    for (let t = 1; t < n; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOT && this.ruled(o)) this.readerStart[rf.wrSource[o] + 1]++;
    }
    for (let t = 0; t < n; t++) this.readerStart[t + 1] += this.readerStart[t];
    this.readerOps = new Int32Array(this.readerStart[n]);
    const rfill = this.readerStart.slice(0, n);
    for (let t = 1; t < n; t++) {
      if (h.txnAborted[t] === 1) continue;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > BOT && this.ruled(o)) this.readerOps[rfill[rf.wrSource[o]]++] = o;
    }
    this.bwd = new Int32Array(nodes * k);
    this.fwd = new Int32Array(nodes * k);
    this.lookR = new Int32Array(n * k).fill(SEEN_NONE);
    this.lookC = new Int32Array(n * k).fill(SEEN_NONE);
    const si = mode.includes(MODE_SI);
    this.lookSiB = new Int32Array(si ? n * k : 0).fill(SEEN_NONE);
    this.lookSiF = new Int32Array(si ? n * k : 0).fill(SEEN_NONE);
    this.moved = new Uint8Array(k);
    this.moved2 = new Uint8Array(k);
    this.movedList = new Int32Array(k);
    this.movedList2 = new Int32Array(k);
    this.tables = [this.bwd, this.fwd, this.lookR, this.lookC, this.lookSiB, this.lookSiF];
    this.queued = new Uint8Array(3 * n);
  }

  /** Whether external read o takes part in the read rule: a snapshot reader's, or a PSI reader's of a key it writes. */
  private ruled(o: number): boolean {
    const t = this.h.opTxn[o];
    if (this.mode[t] !== MODE_STATIC) return true;
    return this.psi !== null && this.psi[t] === 1 && writes(this.rf, t, this.h.opKey[o]);
  }

  /** The node at which t3's reads are taken: r(t3) for PC and SI, c(t3) for SER and PSI. */
  private readPoint(t3: number): number {
    const m = this.mode[t3];
    return m === MODE_PC || m === MODE_SI ? 2 * t3 : 2 * t3 + 1;
  }

  /**
   * 'violated' when an edge of the precedence enters ⊥ or the base edges close a cycle; past the
   * memory bound, which clock table would be too large (a clause for an undecided reason).
   */
  static build(input: EventGraphInput): EventGraph | 'violated' | { tooLarge: string } {
    const k = Math.max(1, input.h.sessionCount);
    const limit = Math.min(input.maxEntries, TABLE_SPAN);
    if (2 * input.h.txnCount * k > limit) return { tooLarge: `${2 * input.h.txnCount} events × ${k} sessions is more than their ${limit} clock entries` };
    if (input.h.keyCount * k > input.maxEntries) return { tooLarge: `${input.h.keyCount} keys × ${k} sessions is more than their ${input.maxEntries} clock entries` };
    for (let i = 0; i < input.precedence.length; i++) if (input.precedence.to[i] === BOT) return 'violated';
    const g = new EventGraph(input, k);
    // No edge is added yet: the full recomputation is the base edges' clocks.
    return g.recompute() ? g : 'violated';
  }

  /** Derived edges that hold in every valid order. */
  soundEdges(): { from: Int32Array; to: Int32Array; length: number } {
    const n = this.guessing ? this.sound : this.addFrom.length;
    return { from: this.addFrom.data.slice(0, n), to: this.addTo.data.slice(0, n), length: n };
  }

  /** a = b, or a precedes b in every order known so far. */
  reach(a: number, b: number): boolean {
    return this.bwd[b * this.k + this.nodeSess[a]] >= this.nodeIdx[a];
  }

  /**
   * Every rule on every read, then on whatever changed, until nothing new follows ('violated':
   * a cycle), `maxSteps` clock entries have been merged ('stopped', a work bound) or time is up.
   */
  propagateAll(maxSteps: number, timeUp: () => boolean, log?: (line: string) => void): 'violated' | 'done' | 'stopped' | 'timeout' {
    const n = this.n;
    for (let t = 1; t < n; t++) {
      if (this.h.txnAborted[t] === 1) continue;
      const m = this.mode[t];
      if (m !== MODE_STATIC || this.psi?.[t] === 1) this.enqueue(EX_READER, t);
      if (this.readerStart[t + 1] > this.readerStart[t]) this.enqueue(EX_SOURCE, t);
      if (m === MODE_SI) this.enqueue(EX_SI, t);
    }
    // In rounds: edges found in a round are inserted without touching the clocks (reachability
    // then lags behind, which only delays conclusions: a stale "reaches" is still true), and the
    // clocks are rebuilt once per round — cheaper than keeping them exact edge by edge while
    // thousands of edges arrive. Then only rules whose clock rows moved are looked at again.
    // Once a round brings few edges, the clocks are kept exact edge by edge again for the tail.
    this.batch = true;
    try {
      for (;;) {
        const before = this.addFrom.length;
        const looks = this.examined;
        const r = this.drain(maxSteps, timeUp);
        log?.(`  round: ${this.examined - looks} looks, ${this.addFrom.length - before} edges`);
        if (r !== 'done') return r;
        if (this.addFrom.length === before) return 'done';
        // A recomputation merges every edge's row and cannot stop halfway: one that would cross the
        // bound is not started (it ran to its end first: 4,000,000 derived edges × 2,000 sessions,
        // 16·10⁹ steps against a bound of 6·10⁹, took 56 s on an 86 KB file, past every budget).
        // The edges found so far are sound without it; only the clocks lag behind.
        if (this.steps + this.recomputeSteps() > maxSteps) return 'stopped';
        if (!this.recompute()) return 'violated';
        if (this.steps > maxSteps) return 'stopped';
        if (timeUp()) return 'timeout';
        if ((this.addFrom.length - before) * BATCH_RATIO < this.addFrom.length + this.outTo.length) this.batch = false;
        for (let t = 1; t < n; t++) {
          if (this.h.txnAborted[t] === 1) continue;
          const m = this.mode[t];
          if ((m !== MODE_STATIC || this.psi?.[t] === 1) && this.differs(this.lookR, t, this.bwd, this.readPoint(t))) this.enqueue(EX_READER, t);
          if (this.readerStart[t + 1] > this.readerStart[t] && this.differs(this.lookC, t, this.fwd, 2 * t + 1)) this.enqueue(EX_SOURCE, t);
          if (m === MODE_SI && (this.differs(this.lookSiB, t, this.bwd, 2 * t + 1) || this.differs(this.lookSiF, t, this.fwd, 2 * t))) this.enqueue(EX_SI, t);
        }
        if (!this.batch) return this.drain(maxSteps, timeUp);
      }
    } finally {
      this.batch = false;
    }
  }

  /** Whether clock row `node` differs from look row t. */
  private differs(look: Int32Array, t: number, clock: Int32Array, node: number): boolean {
    const k = this.k;
    for (let s = 0; s < k; s++) if (look[t * k + s] !== clock[node * k + s]) return true;
    return false;
  }

  /** The steps recompute() counts: every edge's merge, both ways. */
  private recomputeSteps(): number {
    return 2 * (this.outTo.length + this.addTo.length) * this.k;
  }

  /** Clocks from scratch over every edge (false: a cycle). */
  private recompute(): boolean {
    const { nodes, k, nodeIdx, nodeSess, bwd, fwd, outStart, outTo } = this;
    const addTo = this.addTo.data;
    const addNext = this.addOutNext.data;
    const indeg = new Int32Array(nodes);
    for (let p = 0; p < outTo.length; p++) indeg[outTo[p]]++;
    for (let e = 0; e < this.addTo.length; e++) indeg[addTo[e]]++;
    const order = new Int32Array(this.live);
    let head = 0;
    let tail = 0;
    for (let v = 2; v < nodes; v++) if (nodeIdx[v] >= 0 && indeg[v] === 0) order[tail++] = v;
    while (head < tail) {
      const v = order[head++];
      for (let p = outStart[v]; p < outStart[v + 1]; p++) if (--indeg[outTo[p]] === 0) order[tail++] = outTo[p];
      for (let f = this.outHead[v]; f >= 0; f = addNext[f]) if (--indeg[addTo[f]] === 0) order[tail++] = addTo[f];
    }
    if (tail < this.live) return false;
    bwd.fill(-1);
    fwd.fill(INF);
    // Each row is pulled into place (it stays in cache while merged): first a copy of the chain
    // neighbour's, then the other edges, each skipped on one entry's test when its merge cannot
    // change anything (measured: most wr and derived edges are implied by others). bwd, in
    // topological order: a row is complete when its node is taken, and bwd[v][sess u] ≥ idx u
    // (v's own entry is written last) means a merged predecessor p is reached from u's chain at or
    // after u, so bwd[p] ≥ bwd[u] entry by entry already. fwd is the mirror image.
    const { chainPrev, chainNext, inStart, inFrom } = this;
    const addFrom = this.addFrom.data;
    const addInNext = this.addInNext.data;
    for (let i = 0; i < tail; i++) {
      const v = order[i];
      const row = v * k;
      const cp = chainPrev[v];
      if (cp >= 0) {
        const src = cp * k;
        for (let j = 0; j < k; j++) bwd[row + j] = bwd[src + j];
      }
      for (let p = inStart[v]; p < inStart[v + 1]; p++) {
        const u = inFrom[p];
        if (u === cp || bwd[row + nodeSess[u]] >= nodeIdx[u]) continue;
        const src = u * k;
        for (let j = 0; j < k; j++) if (bwd[row + j] < bwd[src + j]) bwd[row + j] = bwd[src + j];
      }
      for (let f = this.inHead[v]; f >= 0; f = addInNext[f]) {
        const u = addFrom[f];
        if (bwd[row + nodeSess[u]] >= nodeIdx[u]) continue;
        const src = u * k;
        for (let j = 0; j < k; j++) if (bwd[row + j] < bwd[src + j]) bwd[row + j] = bwd[src + j];
      }
      bwd[row + nodeSess[v]] = nodeIdx[v];
    }
    for (let i = tail - 1; i >= 0; i--) {
      const v = order[i];
      const row = v * k;
      const cn = chainNext[v];
      if (cn >= 0) {
        const src = cn * k;
        for (let j = 0; j < k; j++) fwd[row + j] = fwd[src + j];
      }
      for (let p = outStart[v]; p < outStart[v + 1]; p++) {
        const w = outTo[p];
        if (w === cn || fwd[row + nodeSess[w]] <= nodeIdx[w]) continue;
        const src = w * k;
        for (let j = 0; j < k; j++) if (fwd[src + j] < fwd[row + j]) fwd[row + j] = fwd[src + j];
      }
      for (let f = this.outHead[v]; f >= 0; f = addNext[f]) {
        const w = addTo[f];
        if (fwd[row + nodeSess[w]] <= nodeIdx[w]) continue;
        const src = w * k;
        for (let j = 0; j < k; j++) if (fwd[src + j] < fwd[row + j]) fwd[row + j] = fwd[src + j];
      }
      fwd[row + nodeSess[v]] = nodeIdx[v];
    }
    // The work measure counts every edge's merge, skipped or not: budgets stay where they were.
    this.steps += this.recomputeSteps();
    return true;
  }

  /** Adds the guess a → b and propagates it. */
  guess(a: number, b: number, maxSteps: number, timeUp: () => boolean): 'violated' | 'done' | 'stopped' | 'timeout' {
    if (this.reach(b, a)) return 'violated';
    if (!this.reach(a, b)) this.addEdge(a, b);
    return this.drain(maxSteps, timeUp);
  }

  /** Rolls back to a mark: clocks and the edges added since. */
  undo(trailMark: number, edgeMark: number): void {
    const at = this.trailAt.data;
    const old = this.trailOld.data;
    for (let i = this.trailAt.length - 1; i >= trailMark; i--) {
      const table = (at[i] / TABLE_SPAN) | 0;
      this.tables[table][at[i] - table * TABLE_SPAN] = old[i];
    }
    this.trailAt.length = trailMark;
    this.trailOld.length = trailMark;
    for (let e = this.addFrom.length - 1; e >= edgeMark; e--) {
      this.outHead[this.addFrom.data[e]] = this.addOutNext.data[e];
      this.inHead[this.addTo.data[e]] = this.addInNext.data[e];
    }
    this.addFrom.length = edgeMark;
    this.addTo.length = edgeMark;
    this.addOutNext.length = edgeMark;
    this.addInNext.length = edgeMark;
    // Work left over from a contradiction is void.
    for (let i = this.workHead; i < this.work.length; i++) this.queued[this.work.data[i]] = 0;
    this.work.length = 0;
    this.workHead = 0;
  }

  /** Opens a decision; undo(…checkpoint) returns to this point. Edges derived from here on are not sound. */
  checkpoint(): [number, number] {
    if (!this.guessing) {
      this.guessing = true;
      this.sound = this.addFrom.length;
    }
    return [this.trailAt.length, this.addFrom.length];
  }

  private enqueue(kind: number, t: number): void {
    const item = kind * this.n + t;
    if (this.queued[item] === 1) return;
    this.queued[item] = 1;
    this.work.push(item);
  }

  private drain(maxSteps: number, timeUp: () => boolean): 'violated' | 'done' | 'stopped' | 'timeout' {
    const n = this.n;
    let polled = 0;
    // First in, first out: an item waiting in the queue absorbs every change made meanwhile.
    while (this.workHead < this.work.length) {
      if (this.steps > maxSteps) return 'stopped';
      if ((++polled & 1023) === 0 && timeUp()) return 'timeout';
      const item = this.work.data[this.workHead++];
      if (this.workHead === this.work.length) {
        this.workHead = 0;
        this.work.length = 0;
      }
      this.queued[item] = 0;
      this.examined++;
      const kind = (item / n) | 0;
      const t = item - kind * n;
      let ok = true;
      if (kind === EX_READER) {
        const first = this.look(T_LOOK_R, t, this.bwd, this.readPoint(t), this.moved);
        for (let o = this.h.txnOpStart[t]; o < this.h.txnOpStart[t + 1] && ok; o++) if (this.rf.wrSource[o] >= 0 && this.ruled(o)) ok = this.wwRule(o, first);
      } else if (kind === EX_SOURCE) {
        this.look(T_LOOK_C, t, this.fwd, 2 * t + 1, this.moved);
        for (let i = this.readerStart[t]; i < this.readerStart[t + 1] && ok; i++) ok = this.rwRule(this.readerOps[i]);
      } else {
        this.look(T_LOOK_SI_B, t, this.bwd, 2 * t + 1, this.moved);
        this.look(T_LOOK_SI_F, t, this.fwd, 2 * t, this.moved2);
        ok = this.siRule(t);
      }
      if (!ok) return 'violated';
    }
    return 'done';
  }

  /** a must precede b: false on a contradiction (b already precedes a). */
  private require(a: number, b: number): boolean {
    if (this.reach(b, a)) return false;
    if (!this.reach(a, b)) this.addEdge(a, b);
    return true;
  }

  /**
   * Copies clock row `node` of `clock` into the look table's row t, marking in `moved` the sessions
   * whose entry differs from the last look. True on the first look (every session then moved).
   */
  private look(table: number, t: number, clock: Int32Array, node: number, moved: Uint8Array): boolean {
    const { k } = this;
    const seen = this.tables[table];
    const row = t * k;
    const first = seen[row] === SEEN_NONE;
    const src = node * k;
    const first2 = moved === this.moved2;
    if (first2) this.movedCount2 = 0;
    else this.movedCount = 0;
    for (let s = 0; s < k; s++) {
      const v = clock[src + s];
      if (seen[row + s] === v) {
        moved[s] = 0;
        continue;
      }
      moved[s] = 1;
      if (first2) this.movedList2[this.movedCount2++] = s;
      else this.movedList[this.movedCount++] = s;
      if (this.guessing) {
        this.trailAt.push(table * TABLE_SPAN + row + s);
        this.trailOld.push(seen[row + s]);
      }
      seen[row + s] = v;
    }
    return first;
  }

  /**
   * ww: for a read of x in t3 from t1, the last writer of x in each session committing before R
   * precedes t1. Since c(t1) → R, bwd[c(t1)] ≤ bwd[R] entry by entry, and where the two are equal
   * every such writer already precedes t1: only sessions with a gap (that moved since the last
   * look) need a search.
   */
  private wwRule(o: number, first: boolean): boolean {
    const { h, rf, k, bwd, writers, writerPos, segFrom, segEnd, segOf } = this;
    const list = this.movedList;
    const count = this.movedCount;
    const t3 = h.opTxn[o];
    const t1 = rf.wrSource[o];
    const x = h.opKey[o];
    const R = this.readPoint(t3);
    const c1 = 2 * t1 + 1;
    const rRow = R * k;
    const cRow = c1 * k;
    // A read of the initial state: the first writer in each session commits after R (once).
    if (t1 === BOT && first) {
      for (let g = this.segStart[x]; g < this.segStart[x + 1]; g++) {
        let b = segFrom[g];
        if (writers[b] === t3) b++;
        if (b < segEnd[g] && !this.require(R, 2 * writers[b] + 1)) return false;
      }
    }
    for (let i = 0; i < count; i++) {
      const s = list[i];
      const seen = bwd[rRow + s];
      if (t1 !== BOT && seen <= bwd[cRow + s]) continue;
      const g = segOf[x * k + s];
      if (g < 0) continue;
      const lo = segFrom[g];
      const hi = segEnd[g];
      // No writer up to `seen`, or every one at or below c(t1)'s entry: the search would find nothing.
      if (writerPos[lo] > seen || (t1 !== BOT && writerPos[hi - 1] <= bwd[cRow + s])) continue;
      let a = upperBound(writerPos, lo, hi, seen);
      a--;
      if (a >= lo && writers[a] === t3) a--;
      // (Already before t1 when at or below c(t1)'s entry: nothing to add.)
      if (a >= lo && writers[a] !== t1 && (t1 === BOT || writerPos[a] > bwd[cRow + s])) {
        if (t1 === BOT || !this.require(2 * writers[a] + 1, c1)) return false;
      }
    }
    return true;
  }

  /**
   * rw: for a read of x in t3 from t1, the first writer of x in each session after t1 commits
   * after R. Since c(t1) → R, fwd[c(t1)] ≤ fwd[R]; where they are equal it already does.
   */
  private rwRule(o: number): boolean {
    const { h, rf, k, fwd, writers, writerPos, segFrom, segEnd, segOf } = this;
    const list = this.movedList;
    const count = this.movedCount;
    const t3 = h.opTxn[o];
    const t1 = rf.wrSource[o];
    const x = h.opKey[o];
    const R = this.readPoint(t3);
    const c1 = 2 * t1 + 1;
    const rRow = R * k;
    const cRow = c1 * k;
    for (let i = 0; i < count; i++) {
      const s = list[i];
      const after = fwd[cRow + s];
      if (after >= fwd[rRow + s]) continue;
      const g = segOf[x * k + s];
      if (g < 0) continue;
      const lo = segFrom[g];
      const hi = segEnd[g];
      // No writer from `after` on, or every one at or past R's entry: the search would find nothing.
      if (writerPos[hi - 1] < after || writerPos[lo] >= fwd[rRow + s]) continue;
      let b = lowerBound(writerPos, lo, hi, after);
      if (b < hi && writers[b] === t1) b++;
      if (b < hi && writers[b] === t3) b++;
      // (Already after R when at or past R's entry: nothing to add.)
      if (b < hi && writerPos[b] < fwd[rRow + s] && !this.require(R, 2 * writers[b] + 1)) return false;
    }
    return true;
  }

  /**
   * NoConflict of SI transaction t3, for every key it writes, in the sessions whose clock entries
   * moved since the last look: a writer committed before c(t3) precedes r(t3) (it is in the
   * snapshot); one not committed before r(t3) follows c(t3). (r3 → c3: where their clocks
   * agree, everything these rules could ask already holds.)
   */
  private siRule(t3: number): boolean {
    const { rf, k, bwd, fwd, writers, writerPos, segFrom, segEnd, segOf } = this;
    const r3 = 2 * t3;
    const c3 = r3 + 1;
    const k0 = rf.writeKeyStart[t3];
    const k1 = rf.writeKeyStart[t3 + 1];
    for (let i = 0; i < this.movedCount; i++) {
      const s = this.movedList[i];
      const seen = bwd[c3 * k + s];
      if (seen <= bwd[r3 * k + s]) continue;
      const known = bwd[r3 * k + s];
      for (let q = k0; q < k1; q++) {
        const g = segOf[rf.writeKeys[q] * k + s];
        if (g < 0) continue;
        const lo = segFrom[g];
        if (writerPos[lo] > seen || writerPos[segEnd[g] - 1] <= known) continue;
        let a = upperBound(writerPos, lo, segEnd[g], seen);
        a--;
        if (a >= lo && writers[a] === t3) a--;
        if (a >= lo && writerPos[a] > known && !this.require(2 * writers[a] + 1, r3)) return false;
      }
    }
    for (let i = 0; i < this.movedCount2; i++) {
      const s = this.movedList2[i];
      const after = fwd[r3 * k + s];
      if (after >= fwd[c3 * k + s]) continue;
      const known = fwd[c3 * k + s];
      for (let q = k0; q < k1; q++) {
        const g = segOf[rf.writeKeys[q] * k + s];
        if (g < 0) continue;
        const hi = segEnd[g];
        if (writerPos[hi - 1] < after || writerPos[segFrom[g]] >= known) continue;
        let b = lowerBound(writerPos, segFrom[g], hi, after);
        if (b < hi && writers[b] === t3) b++;
        if (b < hi && writerPos[b] < known && !this.require(c3, 2 * writers[b] + 1)) return false;
      }
    }
    return true;
  }

  /** Inserts a → b (neither reaches the other's wrong way) and brings the clocks up to date. */
  private addEdge(a: number, b: number): void {
    const e = this.addFrom.length;
    this.addFrom.push(a);
    this.addTo.push(b);
    this.addOutNext.push(this.outHead[a]);
    this.addInNext.push(this.inHead[b]);
    this.outHead[a] = e;
    this.inHead[b] = e;
    if (this.batch) return;
    const { outStart, outTo, inStart, inFrom } = this;
    const q = this.nodeQueue;
    // bwd: b and its descendants learn what reaches a.
    q.length = 0;
    if (this.mergeBwd(b, a)) q.push(b);
    while (q.length > 0) {
      const v = q.data[--q.length];
      this.changedBwd(v);
      for (let p = outStart[v]; p < outStart[v + 1]; p++) if (this.mergeBwd(outTo[p], v)) q.push(outTo[p]);
      for (let f = this.outHead[v]; f >= 0; f = this.addOutNext.data[f]) if (this.mergeBwd(this.addTo.data[f], v)) q.push(this.addTo.data[f]);
    }
    // fwd: a and its ancestors learn what b reaches.
    if (this.mergeFwd(a, b)) q.push(a);
    while (q.length > 0) {
      const v = q.data[--q.length];
      this.changedFwd(v);
      for (let p = inStart[v]; p < inStart[v + 1]; p++) if (this.mergeFwd(inFrom[p], v)) q.push(inFrom[p]);
      for (let f = this.inHead[v]; f >= 0; f = this.addInNext.data[f]) if (this.mergeFwd(this.addFrom.data[f], v)) q.push(this.addFrom.data[f]);
    }
  }

  /** bwd[w] := max(bwd[w], bwd[v]); true when something changed. */
  private mergeBwd(w: number, v: number): boolean {
    const { k, bwd } = this;
    const rw = w * k;
    const rv = v * k;
    let changed = false;
    for (let j = 0; j < k; j++) {
      if (bwd[rw + j] < bwd[rv + j]) {
        if (this.guessing) {
          this.trailAt.push(T_BWD * TABLE_SPAN + rw + j);
          this.trailOld.push(bwd[rw + j]);
        }
        bwd[rw + j] = bwd[rv + j];
        changed = true;
      }
    }
    this.steps += k;
    return changed;
  }

  /** fwd[w] := min(fwd[w], fwd[v]); true when something changed. */
  private mergeFwd(w: number, v: number): boolean {
    const { k, fwd } = this;
    const rw = w * k;
    const rv = v * k;
    let changed = false;
    for (let j = 0; j < k; j++) {
      if (fwd[rw + j] > fwd[rv + j]) {
        if (this.guessing) {
          this.trailAt.push(T_FWD * TABLE_SPAN + rw + j);
          this.trailOld.push(fwd[rw + j]);
        }
        fwd[rw + j] = fwd[rv + j];
        changed = true;
      }
    }
    this.steps += k;
    return changed;
  }

  /** What to look at again when the bwd clock of v grew: the reads at v (R), an SI transaction's commit. */
  private changedBwd(v: number): void {
    const t = v >> 1;
    const m = this.mode[t];
    if (m === MODE_STATIC && this.psi?.[t] !== 1) return;
    const isCommit = (v & 1) === 1;
    if (this.readPoint(t) === v) this.enqueue(EX_READER, t);
    if (isCommit && m === MODE_SI) this.enqueue(EX_SI, t);
  }

  /** When the fwd clock of v shrank: the reads from t (at its commit), an SI transaction's read point. */
  private changedFwd(v: number): void {
    const t = v >> 1;
    if ((v & 1) === 1) {
      if (this.readerStart[t + 1] > this.readerStart[t]) this.enqueue(EX_SOURCE, t);
    } else if (this.mode[t] === MODE_SI) this.enqueue(EX_SI, t);
  }

  /** Estimated time of a node: its place along its session, as a fraction of the session (sessions run side by side). */
  private estimate(v: number): number {
    return this.nodeIdx[v] / Math.max(1, this.sessNodes[this.nodeSess[v]]);
  }

  /**
   * A topological order of every edge so far that takes, among the events ready, the one
   * earliest along its session: recorded sessions run side by side, so this is close to the
   * order the events happened in.
   */
  linearOrder(): Int32Array {
    const { nodes, nodeIdx, outStart, outTo } = this;
    const indeg = new Int32Array(nodes);
    for (let p = 0; p < outTo.length; p++) indeg[outTo[p]]++;
    for (let e = 0; e < this.addTo.length; e++) indeg[this.addTo.data[e]]++;
    const key = new Float64Array(nodes);
    for (let v = 2; v < nodes; v++) if (nodeIdx[v] >= 0) key[v] = this.estimate(v);
    const heap = new Int32Array(this.live);
    let size = 0;
    const less = (a: number, b: number): boolean => key[a] < key[b] || (key[a] === key[b] && a < b);
    const push = (v: number): void => {
      let i = size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!less(v, heap[parent])) break;
        heap[i] = heap[parent];
        i = parent;
      }
      heap[i] = v;
    };
    const pop = (): number => {
      const top = heap[0];
      const last = heap[--size];
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        if (c + 1 < size && less(heap[c + 1], heap[c])) c++;
        if (!less(heap[c], last)) break;
        heap[i] = heap[c];
        i = c;
      }
      heap[i] = last;
      return top;
    };
    for (let v = 2; v < nodes; v++) if (nodeIdx[v] >= 0 && indeg[v] === 0) push(v);
    const out = new Int32Array(this.live);
    let count = 0;
    while (size > 0) {
      const v = pop();
      out[count++] = v;
      for (let p = outStart[v]; p < outStart[v + 1]; p++) if (--indeg[outTo[p]] === 0) push(outTo[p]);
      for (let f = this.outHead[v]; f >= 0; f = this.addOutNext.data[f]) if (--indeg[this.addTo.data[f]] === 0) push(this.addTo.data[f]);
    }
    return out;
  }

  /**
   * Checks an event order against the event model (exact for PC, SI and SER readers; other
   * readers are left to their precedence edges): every snapshot read sees its writer as the
   * latest commit of its key, and no writer of an SI transaction's keys commits between its two
   * events. For each failure, `fix(a, b, c, d)` is offered the two ways out (a before b, or c
   * before d). Returns the number of failures.
   */
  check(order: Int32Array, fix: ((a: number, b: number, c: number, d: number) => void) | null): number {
    const { h, rf, mode } = this;
    const latest = new Int32Array(h.keyCount); // the last committed writer per key (⊥ at first)
    const commits = new Int32Array(h.keyCount);
    const atSnapshot = new Int32Array(rf.writeKeys.length);
    let failures = 0;
    const reads = (t: number, R: number): void => {
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
        const t1 = rf.wrSource[o];
        if (t1 < 0) continue;
        const t2 = latest[h.opKey[o]];
        if (t2 === t1) continue;
        failures++;
        // t2 committed after t1: t2 before t1, or after R.
        if (t2 !== BOT) fix?.(2 * t2 + 1, 2 * t1 + 1, R, 2 * t2 + 1);
      }
    };
    if (order.length !== this.live) return 1;
    for (let i = 0; i < order.length; i++) {
      const v = order[i];
      const t = v >> 1;
      const m = mode[t];
      if ((v & 1) === 0) {
        if (m === MODE_PC || m === MODE_SI) reads(t, v);
        if (m === MODE_SI) for (let q = rf.writeKeyStart[t]; q < rf.writeKeyStart[t + 1]; q++) atSnapshot[q] = commits[rf.writeKeys[q]];
        continue;
      }
      if (m === MODE_SER) reads(t, v);
      for (let q = rf.writeKeyStart[t]; q < rf.writeKeyStart[t + 1]; q++) {
        const y = rf.writeKeys[q];
        if (m === MODE_SI && commits[y] !== atSnapshot[q]) {
          failures++;
          // latest[y] committed between t's snapshot and its commit: before the snapshot, or after the commit.
          fix?.(2 * latest[y] + 1, v - 1, v, 2 * latest[y] + 1);
        }
        latest[y] = t;
        commits[y]++;
      }
    }
    return failures;
  }

  /** The heuristic's choice between a → b and c → d: the side that moves the events least in the order (pos: a position per node). */
  prefer(a: number, b: number, c: number, d: number, pos: Int32Array): [number, number] {
    return pos[a] - pos[b] < pos[c] - pos[d] ? [a, b] : [c, d];
  }
}

/**
 * The first index in [lo, hi) (non-empty, ascending) whose position exceeds v, else hi. Branch-free
 * halving (the sign bit of a difference picks the half): the searches' branches were mispredicted
 * in the profile. Positions and v lie well inside int32, so the differences do not overflow.
 */
function upperBound(pos: Int32Array, lo: number, hi: number, v: number): number {
  let base = lo;
  let len = hi - lo;
  while (len > 1) {
    const half = len >>> 1;
    base += half & ((pos[base + half] - v - 1) >> 31);
    len -= half;
  }
  return base + ((pos[base] - v - 1) >>> 31);
}

/** The first index in [lo, hi) (non-empty, ascending) whose position is at least v, else hi (as upperBound). */
function lowerBound(pos: Int32Array, lo: number, hi: number, v: number): number {
  let base = lo;
  let len = hi - lo;
  while (len > 1) {
    const half = len >>> 1;
    base += half & ((pos[base + half] - v) >> 31);
    len -= half;
  }
  return base + ((pos[base] - v) >>> 31);
}

function writes(rf: ReadsFrom, t: number, x: number): boolean {
  for (let j = rf.writeKeyStart[t]; j < rf.writeKeyStart[t + 1]; j++) if (rf.writeKeys[j] === x) return true;
  return false;
}

function csr(nodes: number, from: Int32Vec, to: Int32Vec): [Int32Array, Int32Array] {
  const start = new Int32Array(nodes + 1);
  for (let i = 0; i < from.length; i++) start[from.data[i] + 1]++;
  for (let v = 0; v < nodes; v++) start[v + 1] += start[v];
  const out = new Int32Array(from.length);
  const at = start.slice(0, nodes);
  for (let i = 0; i < from.length; i++) out[at[from.data[i]]++] = to.data[i];
  return [start, out];
}
