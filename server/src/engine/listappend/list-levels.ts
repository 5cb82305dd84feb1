// Levels on list-append histories, decided in polynomial time from the observed version order (ww ⊆ co).
//
// With every key's version order known, each axiom of the commit-order table reduces to one of two
// shapes (see docs/list-append.md): for RC, RA, CC and PSI readers a co-free premise that must not
// hold for any overwriter of the version read (checked directly, with vector clocks for the
// transitive ones); for PC, SI, SER and SSER readers a precedence "the reader's premise
// predecessors commit before every overwriter", so the level holds iff one graph is acyclic.

import { OP_APPEND, OP_LIST_READ, type History } from '../model/history.ts';
import { buildListCsr, topologicalOrder, type Csr } from '../util/graph.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { levelId } from '../levels/levels.ts';
import type { ListLevel } from './anomaly-table.ts';
import { LK_RW, LK_SO, LK_WR, LK_WW, type ListInference } from './infer.ts';
import { allEdgesAcyclic, allEdgesCsr, allEdgesWithRtAcyclic, edgeCsr, rtChain, unionAcyclic } from './list-graph.ts';

/** Level ids as in History.txnLevel (the level table's stable ids). */
export const L_RC = levelId('RC');
export const L_RA = levelId('RA');
export const L_CC = levelId('CC');
export const L_PC = levelId('PC');
export const L_PSI = levelId('PSI');
export const L_SI = levelId('SI');
export const L_SER = levelId('SER');
export const L_SSER = levelId('SSER');

/**
 * CC and PSI keep a vector clock per transaction (transactions × sessions entries, 256 MB here);
 * beyond it they go through the sessions a group at a time (a session's entries depend only on
 * the same session's entries of the predecessors), up to MAX_CLOCK_WORK entries computed, and
 * are undecided past that. Sessions multiply when crashed (unknown) processes go on as new ones.
 */
export const MAX_CLOCK_ENTRIES = 64 * 1024 * 1024;
/** Clock entries computed (transactions × sessions) by session groups: a work bound, so that past it the answer is undecided rather than slow. */
export const MAX_CLOCK_WORK = 256 * 1024 * 1024;

const BASE_KINDS = (1 << LK_SO) | (1 << LK_WR) | (1 << LK_WW);

/** Why a list level was undecided: the clock table's bound, the orientations of unread appends, or rw edges left out. */
export type ListUndecided = 'clocks' | 'orders' | 'unread-rw';

/** An unobserved append follows every observed version. */
const UNOBSERVED = 0x7fffffff;
const NONE = -1;

export function listLevelId(l: ListLevel): number {
  return levelId(l);
}

/** Shared, lazily built structures for deciding several levels on one inference. */
export class ListLevelContext {
  readonly h: History;
  private baseTopo: boolean | null = null;
  private base: Csr | null = null;
  private clocksSoWr: Int32Array | null = null;
  private clocksBase: Int32Array | null = null;
  /** Edges by kind, as CSRs keyed by the edge's target (in-edges) or source. */
  private inByKind = new Map<number, Csr>();
  private outByKind = new Map<number, Csr>();
  /** Per (txn, key): the largest version position of t's appends to k (UNOBSERVED, or NONE). */
  private readonly soPrev: Int32Array;
  /** Sessions scanned by the CC and PSI past checks, a work count (tests). */
  pastScans = 0;
  /** Clock entries kept at once (tests lower it to exercise the session groups). */
  clockEntries = MAX_CLOCK_ENTRIES;
  /** ww edges added to orient appends nobody read (decideListLevel), a work count (tests). */
  orientationEdges = 0;
  /** Why the last null from holds or decideListLevel was null. */
  undecidedWhy: ListUndecided | null = null;

  constructor(readonly inf: ListInference) {
    this.h = inf.h;
    const h = this.h;
    this.soPrev = new Int32Array(h.txnCount).fill(-1);
    this.seenStamp = new Int32Array(h.txnCount);
    const e = inf.edges;
    for (let i = 0; i < e.length; i++) if (e.kind.data[i] === LK_SO) this.soPrev[e.to.data[i]] = e.from.data[i];
  }

  /** Edge indexes of one kind, grouped by target (in = true) or source. */
  private byKind(kind: number, inward: boolean): Csr {
    const cache = inward ? this.inByKind : this.outByKind;
    let g = cache.get(kind);
    if (g) return g;
    g = edgeCsr(this.h.txnCount, this.inf.edges, kind, inward);
    cache.set(kind, g);
    return g;
  }

  private readonly seenStamp: Int32Array;
  private stampNo = 0;

  /**
   * Calls visit(u) once for each transaction u ≠ t whose append a list read of t returned (only
   * the read `onlyOp` when it is ≥ 0): every observed appender, a wr predecessor of t.
   */
  forEachObserved(t: number, onlyOp: number, visit: (u: number) => void): void {
    const { h, inf } = this;
    const stamp = ++this.stampNo;
    const seen = this.seenStamp;
    const ls = h.opListStart as Int32Array;
    const elems = h.listElems as Int32Array;
    const from = onlyOp >= 0 ? onlyOp : h.txnOpStart[t];
    const to = onlyOp >= 0 ? onlyOp + 1 : h.txnOpStart[t + 1];
    for (let o = from; o < to; o++) {
      if (h.opKind[o] !== OP_LIST_READ) continue;
      const k = h.opKey[o];
      for (let j = ls[o]; j < ls[o + 1]; j++) {
        const a = inf.appenderOf(k, elems[j]);
        if (a < 0) continue;
        const u = h.opTxn[a];
        if (u === t || seen[u] === stamp || inf.included[u] === 0) continue;
        seen[u] = stamp;
        visit(u);
      }
    }
  }

  /** so ∪ wr ∪ ww as one CSR over transactions. */
  baseGraph(): Csr {
    if (this.base) return this.base;
    const e = this.inf.edges;
    const from = new Int32Vec(e.length + 1);
    const to = new Int32Vec(e.length + 1);
    for (let i = 0; i < e.length; i++) {
      const k = e.kind.data[i];
      if (k === LK_SO || k === LK_WR || k === LK_WW) {
        from.push(e.from.data[i]);
        to.push(e.to.data[i]);
      }
    }
    this.base = buildListCsr(this.h.txnCount, from.data, to.data, from.length, 0);
    return this.base;
  }

  /** so ∪ wr ∪ ww ∪ rw: acyclic exactly when SER holds (on a consistent history). */
  serGraph(): Csr {
    const e = this.inf.edges;
    const from = new Int32Vec(e.length + 1);
    const to = new Int32Vec(e.length + 1);
    for (let i = 0; i < e.length; i++) {
      from.push(e.from.data[i]);
      to.push(e.to.data[i]);
    }
    return buildListCsr(this.h.txnCount, from.data, to.data, from.length, 0);
  }

  baseAcyclic(): boolean {
    if (this.baseTopo === null) this.baseTopo = this.baseOrder().count === this.h.txnCount;
    return this.baseTopo;
  }

  /** topologicalOrder(baseGraph()), read off the shared all-edges CSR without building baseGraph. */
  private baseOrder(): { order: Int32Array; count: number } {
    const g = allEdgesCsr(this.inf);
    return topologicalOrder(g, { kind: g.kind, kinds: BASE_KINDS });
  }

  /** Largest version position of t's appends to k: UNOBSERVED when one was never read, NONE without appends. */
  maxPos(t: number, k: number): number {
    const h = this.h;
    let best = NONE;
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (h.opKind[o] !== OP_APPEND || h.opKey[o] !== k) continue;
      const p = this.inf.appendPos[o] >= 0 ? this.inf.appendPos[o] : UNOBSERVED;
      if (p > best) best = p;
    }
    return best;
  }

  /**
   * Vector clocks (per transaction, per session: the largest session index in its strict past)
   * over so ∪ wr (withWw false) or so ∪ wr ∪ ww; needs that graph acyclic.
   */
  private clocks(withWw: boolean): Int32Array {
    const cached = withWw ? this.clocksBase : this.clocksSoWr;
    if (cached) return cached;
    const c = this.clockColumns(withWw, 0, this.h.sessionCount, null);
    if (withWw) this.clocksBase = c;
    else this.clocksSoWr = c;
    return c;
  }

  /**
   * clocks() for the sessions first .. end only: row t is c[t * (end - first) ..], entry s - first
   * for session s. `reuse`: the previous group's table, filled again (two at once would double the peak).
   */
  private clockColumns(withWw: boolean, first: number, end: number, reuse: Int32Array | null): Int32Array {
    const h = this.h;
    const S = end - first;
    const order = this.baseOrder().order;
    const size = h.txnCount * S;
    const c = (reuse && reuse.length >= size ? reuse.subarray(0, size) : new Int32Array(size)).fill(-1);
    const e = this.inf.edges;
    const inWr = this.byKind(LK_WR, true);
    const inWw = this.byKind(LK_WW, true);
    const included = this.inf.included;
    const from = e.from.data;
    const session = h.txnSession;
    const indexIn = h.txnIndexInSession;
    const preds = new Int32Vec(64);
    for (let i = 0; i < h.txnCount; i++) {
      const t = order[i];
      if (t === 0 || included[t] === 0) continue;
      const base = t * S;
      preds.length = 0;
      if (this.soPrev[t] >= 0) preds.push(this.soPrev[t]);
      // CC's past runs through every observed appender; PSI's through ww too, which implies them.
      if (withWw) for (let p = inWr.start[t]; p < inWr.start[t + 1]; p++) preds.push(from[inWr.edgeId[p]]);
      else this.forEachObserved(t, -1, (u) => preds.push(u));
      if (withWw) for (let p = inWw.start[t]; p < inWw.start[t + 1]; p++) preds.push(from[inWw.edgeId[p]]);
      // Join the predecessors' clocks (hot: transactions × predecessors × sessions).
      for (let q = 0; q < preds.length; q++) {
        const u = preds.data[q];
        const ub = u * S;
        for (let s = 0; s < S; s++) {
          const x = c[ub + s];
          if (x > c[base + s]) c[base + s] = x;
        }
        const su = session[u] - first;
        if (su >= 0 && su < S && indexIn[u] > c[base + su]) c[base + su] = indexIn[u];
      }
    }
    return c;
  }

  /**
   * Whether the history holds with transaction t at level lvl[t] (level ids; SSER's rt
   * applies to transactions at SSER). The mixed verdict and each homogeneous one.
   */
  holds(lvl: Int8Array): boolean | null {
    const { h, inf } = this;
    if (inf.inconsistent) return false;
    // so ∪ wr ∪ ww must be acyclic: precedenceAcyclic() tests it (its graph contains that one),
    // after the RC and RA checks, which only ever say false (and then the answer is false anyway).
    const rwOut = this.byKind(LK_RW, false);
    let needSoWrClocks = false;
    let needBaseClocks = false;
    for (let t = 1; t < h.txnCount; t++) {
      if (inf.included[t] === 0 || rwOut.start[t] === rwOut.start[t + 1]) continue;
      if (lvl[t] === L_CC) needSoWrClocks = true;
      if (lvl[t] === L_PSI) needBaseClocks = true;
    }
    // RC, RA: the premise's transactions, their appends' positions against the version read. The
    // axioms' overwriter is another transaction than the read's source: per key, the largest
    // position (curMax, by curTxn) and the largest of any other transaction (curMax2).
    const curMax = new Int32Array(h.keyCount).fill(NONE);
    const curTxn = new Int32Array(h.keyCount).fill(-1);
    const curMax2 = new Int32Array(h.keyCount).fill(NONE);
    const touched = new Int32Vec(16);
    const reset = (): void => {
      for (let i = 0; i < touched.length; i++) {
        curMax[touched.data[i]] = NONE;
        curMax2[touched.data[i]] = NONE;
        curTxn[touched.data[i]] = -1;
      }
      touched.length = 0;
    };
    const absorb = (u: number): void => {
      for (let o = h.txnOpStart[u]; o < h.txnOpStart[u + 1]; o++) {
        if (h.opKind[o] !== OP_APPEND) continue;
        const k = h.opKey[o];
        const p = inf.appendPos[o] >= 0 ? inf.appendPos[o] : UNOBSERVED;
        if (curMax[k] === NONE) touched.push(k);
        if (curTxn[k] === u) {
          if (p > curMax[k]) curMax[k] = p;
        } else if (p > curMax[k]) {
          curMax2[k] = curMax[k];
          curMax[k] = p;
          curTxn[k] = u;
        } else if (p > curMax2[k]) curMax2[k] = p;
      }
    };
    const source = this.inf.source;
    /** The largest position of k a premise transaction other than read o's source appended. */
    const premiseMax = (o: number, k: number): number => (curTxn[k] === source[o] ? curMax2[k] : curMax[k]);
    /** The version position an external read r returned (its length - 1). */
    const readPos = (r: number): number => ((h.opListStart as Int32Array)[r + 1] - (h.opListStart as Int32Array)[r]) - 1;
    for (let t = 1; t < h.txnCount; t++) {
      if (inf.included[t] === 0 || rwOut.start[t] === rwOut.start[t + 1]) continue;
      const l = lvl[t];
      if (l === L_RC) {
        reset();
        for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
          if (h.opKind[o] !== OP_LIST_READ) continue;
          if (inf.external[o] === 1 && premiseMax(o, h.opKey[o]) > readPos(o)) return false;
          // This read's observed writers join the premise of the reads after it.
          this.forEachObserved(t, o, absorb);
        }
      } else if (l === L_RA) {
        reset();
        this.forEachObserved(t, -1, absorb);
        const s = h.txnSession[t];
        const before = h.txnIndexInSession[t] - 1;
        for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
          if (h.opKind[o] !== OP_LIST_READ || inf.external[o] === 0) continue;
          const k = h.opKey[o];
          if (premiseMax(o, k) > readPos(o)) return false;
          if (before >= 0 && this.sessionOverwrites(s, before, k, readPos(o), source[o])) return false;
        }
      }
    }
    // CC (over so ∪ wr) and PSI (over so ∪ wr ∪ ww, cf being ww here): an overwriter in the reader's past.
    // PC, SI, SER, SSER: precedence edges, then one acyclicity test.
    if (!this.precedenceAcyclic(lvl, rwOut)) return false;
    const entries = h.txnCount * h.sessionCount;
    if ((needSoWrClocks || needBaseClocks) && entries > this.clockEntries && (entries > MAX_CLOCK_WORK || h.txnCount > this.clockEntries)) {
      this.undecidedWhy = 'clocks';
      return null;
    }
    if (needSoWrClocks && !this.pastCheckAll(lvl, L_CC, false)) return false;
    if (needBaseClocks && !this.pastCheckAll(lvl, L_PSI, true)) return false;
    return true;
  }

  /** pastCheck over every session: with the whole clock table when it fits, else a group of sessions at a time. */
  private pastCheckAll(lvl: Int8Array, level: number, withWw: boolean): boolean {
    const S = this.h.sessionCount;
    if (this.h.txnCount * S <= this.clockEntries) return this.pastCheck(lvl, level, this.clocks(withWw), 0, S);
    const group = Math.floor(this.clockEntries / this.h.txnCount);
    let table: Int32Array | null = null;
    for (let first = 0; first < S; first += group) {
      const end = Math.min(S, first + group);
      table = this.clockColumns(withWw, first, end, table);
      if (!this.pastCheck(lvl, level, table, first, end)) return false;
    }
    return true;
  }

  /** No reader at `level` has an overwriter of a version it read in its past (per clocks of the sessions first .. end). */
  private pastCheck(lvl: Int8Array, level: number, c: Int32Array, first: number, end: number): boolean {
    const { h, inf } = this;
    const S = end - first;
    const e = inf.edges;
    const rwOut = this.byKind(LK_RW, false);
    const source = this.inf.source;
    // The sessions' scan depends on the read alone (its key, version and source): once per read,
    // not once per rw edge (a read of the last version has one to every unread append).
    const scannedFor = new Int32Array(h.opCount).fill(-1);
    for (let t = 1; t < h.txnCount; t++) {
      if (inf.included[t] === 0 || lvl[t] !== level) continue;
      for (let p = rwOut.start[t]; p < rwOut.start[t + 1]; p++) {
        // Every overwriter follows the rw edge's target in ww, which is in the past too then.
        const u = e.to.data[rwOut.edgeId[p]];
        const su = h.txnSession[u] - first;
        if (su >= 0 && su < S && h.txnIndexInSession[u] <= c[t * S + su]) return false;
        const read = e.op.data[rwOut.edgeId[p]];
        if (scannedFor[read] === t) continue;
        scannedFor[read] = t;
        // A later overwriter in the past: it is ww-after u; past sets are so-closed, so check each
        // session's latest past transaction's appends to the key.
        const k = e.key.data[rwOut.edgeId[p]];
        const pos = this.readPosOfEdge(rwOut.edgeId[p]);
        const src = source[e.op.data[rwOut.edgeId[p]]];
        this.pastScans += S;
        for (let s = 0; s < S; s++) {
          const idx = c[t * S + s];
          if (idx < 0) continue;
          // The session's appenders of k up to idx: positions grow along so when the base graph is acyclic.
          if (this.sessionOverwrites(first + s, idx, k, pos, src)) return false;
        }
      }
    }
    return true;
  }

  private readPosOfEdge(i: number): number {
    const h = this.h;
    const r = this.inf.edges.op.data[i];
    return ((h.opListStart as Int32Array)[r + 1] - (h.opListStart as Int32Array)[r]) - 1;
  }

  /**
   * Whether a transaction of session s up to index idx other than `except` (a read's source: the
   * axioms' overwriter is another transaction) appended k past version position pos. The prefix
   * maxima answer it, unless they count `except`'s appends: then its session's records are scanned
   * (a source that also appended past what was read of it: rare).
   */
  private sessionOverwrites(s: number, idx: number, k: number, pos: number, except: number): boolean {
    if (this.latestPosInSession(s, idx, k) <= pos) return false;
    const h = this.h;
    if (except < 0 || h.txnSession[except] !== s || h.txnIndexInSession[except] > idx) return true;
    const ks = this.keySess as NonNullable<typeof this.keySess>;
    for (let i = ks.start[k]; i < ks.start[k + 1]; i++) {
      if (ks.sess[i] === s && ks.idx[i] <= idx && ks.txn[i] !== except && this.maxPos(ks.txn[i], k) > pos) return true;
    }
    return false;
  }

  /** Per (key, session): appenders' session indexes and prefix-max positions, for latestPosInSession. */
  private keySess: { start: Int32Array; sess: Int32Array; idx: Int32Array; pos: Int32Array; txn: Int32Array } | null = null;

  private latestPosInSession(s: number, idx: number, k: number): number {
    const ks = this.keySess ?? this.buildKeySess();
    // Records of key k are sorted by (session, index): binary search the last one ≤ (s, idx).
    let lo = ks.start[k];
    let hi = ks.start[k + 1] - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ks.sess[mid] < s || (ks.sess[mid] === s && ks.idx[mid] <= idx)) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found >= 0 && ks.sess[found] === s ? ks.pos[found] : NONE;
  }

  private buildKeySess(): { start: Int32Array; sess: Int32Array; idx: Int32Array; pos: Int32Array; txn: Int32Array } {
    const { h, inf } = this;
    const start = new Int32Array(h.keyCount + 1);
    const seenTxn = new Int32Array(h.keyCount).fill(-1);
    const visit = (f: (t: number, k: number, s: number) => void): void => {
      seenTxn.fill(-1);
      for (let s = 0; s < h.sessionCount; s++) {
        for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
          const t = h.sessionTxns[i];
          if (inf.included[t] === 0) continue;
          for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
            if (h.opKind[o] !== OP_APPEND || seenTxn[h.opKey[o]] === t) continue;
            seenTxn[h.opKey[o]] = t;
            f(t, h.opKey[o], s);
          }
        }
      }
    };
    visit((_t, k) => start[k + 1]++);
    for (let k = 0; k < h.keyCount; k++) start[k + 1] += start[k];
    const n = start[h.keyCount];
    const sess = new Int32Array(n);
    const idx = new Int32Array(n);
    const pos = new Int32Array(n);
    const txn = new Int32Array(n);
    const fill = start.slice(0, h.keyCount);
    visit((t, k, s) => {
      const i = fill[k]++;
      txn[i] = t;
      sess[i] = s;
      idx[i] = h.txnIndexInSession[t];
      const p = this.maxPos(t, k);
      pos[i] = i > start[k] && sess[i - 1] === s && pos[i - 1] > p ? pos[i - 1] : p;
    });
    this.keySess = { start, sess, idx, pos, txn };
    return this.keySess;
  }

  /**
   * so ∪ wr ∪ ww plus, per reader: SER/SSER: reader → overwriters (rw); PC: so/wr predecessors →
   * overwriters; SI: so/wr/ww predecessors → overwriters (through one virtual node per reader);
   * SSER readers: rt into them (through a chain of virtual nodes sorted by end time).
   */
  private precedenceAcyclic(lvl: Int8Array, rwOut: Csr): boolean {
    const { h, inf } = this;
    const n = h.txnCount;
    const e = inf.edges;
    // so ∪ wr ∪ ww and the SER/SSER readers' rw edges are read off the all-edges CSR (useRw);
    // the other precedence edges (through virtual nodes) go to a small extra graph.
    const from = new Int32Vec(1024);
    const to = new Int32Vec(1024);
    const add = (a: number, b: number): void => {
      from.push(a);
      to.push(b);
    };
    const useRw = new Uint8Array(n);
    let extra = false;
    let nodes = n;
    for (let t = 1; t < n; t++) {
      if (inf.included[t] === 0 || rwOut.start[t] === rwOut.start[t + 1]) continue;
      const l = lvl[t];
      if (l === L_SER || l === L_SSER) {
        useRw[t] = 1;
        extra = true;
      } else if (l === L_PC || l === L_SI) {
        const v = nodes++;
        if (this.soPrev[t] >= 0) add(this.soPrev[t], v);
        // Built on first use: only PC and SI readers need their wr and ww predecessors.
        const wrIn = this.byKind(LK_WR, true);
        const wwIn = this.byKind(LK_WW, true);
        for (let p = wrIn.start[t]; p < wrIn.start[t + 1]; p++) add(e.from.data[wrIn.edgeId[p]], v);
        if (l === L_SI) for (let p = wwIn.start[t]; p < wwIn.start[t + 1]; p++) add(e.from.data[wwIn.edgeId[p]], v);
        for (let p = rwOut.start[t]; p < rwOut.start[t + 1]; p++) add(v, e.to.data[rwOut.edgeId[p]]);
        extra = true;
      }
    }
    // Every rw edge and no virtual node: the whole graph, with real time into every timed
    // transaction or into none, is shared with the cycle search (rtChain is the same relation).
    if (extra && nodes === n && allRw(inf, useRw)) {
      const rt = rtTargets(h, inf.included, lvl);
      if (rt === RT_NONE) return allEdgesAcyclic(inf);
      if (rt === RT_ALL && rtChain(inf) !== null) return allEdgesWithRtAcyclic(inf);
    }
    if (h.txnTimeStart && h.txnTimeEnd) {
      const added = addRealTime(h, inf.included, lvl, nodes, add);
      if (added > nodes) extra = true;
      nodes = added;
    }
    if (!extra) return this.baseAcyclic();
    return unionAcyclic(allEdgesCsr(inf), LK_RW, useRw, nodes, buildListCsr(nodes, from.data, to.data, from.length, 0));
  }
}

const RT_NONE = 0;
const RT_ALL = 1;
const RT_SOME = 2;

/** Whether rt edges go into none of the included timed transactions, into all of them (all at SSER), or some. */
function rtTargets(h: History, included: Uint8Array, lvl: Int8Array): number {
  if (!h.txnTimeStart || !h.txnTimeEnd) return RT_NONE;
  let sser = 0;
  let timed = 0;
  for (let t = 1; t < h.txnCount; t++) {
    if (included[t] === 0 || Number.isNaN(h.txnTimeStart[t])) continue;
    timed++;
    if (lvl[t] === L_SSER) sser++;
  }
  return sser === 0 ? RT_NONE : sser === timed ? RT_ALL : RT_SOME;
}

/** Whether every rw edge leaves a transaction marked in useRw. */
function allRw(inf: ListInference, useRw: Uint8Array): boolean {
  const e = inf.edges;
  for (let i = 0; i < e.length; i++) if (e.kind.data[i] === LK_RW && useRw[e.from.data[i]] === 0) return false;
  return true;
}

/**
 * rt into SSER transactions: t1 → t2 when t1 ended before t2 started, as a chain of virtual nodes
 * (one per distinct end time) so the edges stay linear. An unknown transaction has no known end:
 * no rt edges leave it. Returns the new node count.
 */
export function addRealTime(h: History, included: Uint8Array, lvl: Int8Array, firstNode: number, add: (a: number, b: number) => void): number {
  const ts = h.txnTimeStart as Float64Array;
  const te = h.txnTimeEnd as Float64Array;
  const unknown = h.txnUnknown;
  const enders: number[] = [];
  let anyTarget = false;
  for (let t = 1; t < h.txnCount; t++) {
    if (included[t] === 0 || Number.isNaN(ts[t])) continue;
    if (unknown?.[t] !== 1) enders.push(t);
    if (lvl[t] === L_SSER) anyTarget = true;
  }
  if (!anyTarget || enders.length === 0) return firstNode;
  enders.sort((a, b) => te[a] - te[b] || a - b);
  const m = enders.length;
  for (let j = 0; j < m; j++) {
    add(enders[j], firstNode + j);
    if (j + 1 < m) add(firstNode + j, firstNode + j + 1);
  }
  for (let t = 1; t < h.txnCount; t++) {
    if (included[t] === 0 || Number.isNaN(ts[t]) || lvl[t] !== L_SSER) continue;
    // The last ender whose end is strictly before t's start.
    let lo = 0;
    let hi = m - 1;
    let j = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (te[enders[mid]] < ts[t]) {
        j = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (j >= 0) add(firstNode + j, t);
  }
  return firstNode + m;
}

/** The per-transaction levels of a homogeneous verdict. */
export function uniformLevels(h: History, level: ListLevel): Int8Array {
  return new Int8Array(h.txnCount).fill(listLevelId(level));
}

/** Orientations of unordered append pairs are tried one by one while 2^pairs × edges stays under this (work steps, not time). */
const MAX_ORIENTATION_WORK = 64_000_000;

/**
 * The verdict with transaction t at lvl[t]: true, false, or null when undecided. PSI and SI
 * readers see cf, the commit order between transactions appending a common key; between two
 * appends nobody read that order is free. It is chosen along a topological order of the
 * constraints (which decides the common case), else every orientation is tried (bounded work).
 */
export function decideListLevel(ctx: ListLevelContext, lvl: Int8Array): boolean | null {
  const v = decideWithAllEdges(ctx, lvl);
  // Some rw edges were left out (MAX_UNREAD_RW): a violation found without them stands, a level
  // that holds without them may not.
  if (v !== true || ctx.inf.unreadRwLeftOut === 0) return v;
  ctx.undecidedWhy = 'unread-rw';
  return null;
}

function decideWithAllEdges(ctx: ListLevelContext, lvl: Int8Array): boolean | null {
  const inf = ctx.inf;
  const h = inf.h;
  const plain = ctx.holds(lvl);
  if (plain !== true) return plain;
  let cfReaders = false;
  for (let t = 1; t < h.txnCount && !cfReaders; t++) cfReaders = inf.included[t] === 1 && (lvl[t] === L_PSI || lvl[t] === L_SI);
  if (!cfReaders) return true;
  const chains = unreadAppenders(inf);
  if (chains.count === 0) return true;
  const holdsWith = (add: (edges: ListInference['edges']) => void): boolean => {
    const edges = inf.edges.clone();
    add(edges);
    ctx.orientationEdges += edges.length - inf.edges.length;
    return new ListLevelContext({ ...inf, edges }).holds(lvl) === true;
  };
  // First along a serial order when there is one (it satisfies every level but SSER), then along
  // so ∪ wr ∪ ww. Orienting every pair of a key's unread appends along a total order is the chain
  // of them in that order (the same order between transactions, so the same reachability, and no
  // read observes these versions): one edge per appender, where the pairs were quadratic (3,000
  // unread appends of one key: 4.5M pairs, 25 s).
  for (const g of [ctx.serGraph(), ctx.baseGraph()]) {
    const topo = topologicalOrder(g);
    if (topo.count < h.txnCount) continue;
    const at = new Int32Array(h.txnCount);
    for (let i = 0; i < h.txnCount; i++) at[topo.order[i]] = i;
    if (holdsWith((edges) => addChains(edges, chains, at))) return true;
  }
  const pairs = freePairs(inf, MAX_FREE_PAIRS);
  const count = pairs === null ? 0 : pairs.length / 3;
  if (pairs === null || 2 ** count * (inf.edges.length + h.txnCount) > MAX_ORIENTATION_WORK) {
    ctx.undecidedWhy = 'orders';
    return null;
  }
  for (let mask = 0; mask < 1 << count; mask++) {
    const orient = (edges: ListInference['edges']): void => {
      for (let i = 0; i < pairs.length; i += 3) {
        const [a, b, k] = [pairs[i], pairs[i + 1], pairs[i + 2]];
        if (((mask >> (i / 3)) & 1) === 0) edges.add(a, b, LK_WW, k, -1, -1, -1);
        else edges.add(b, a, LK_WW, k, -1, -1, -1);
      }
    };
    if (holdsWith(orient)) return true;
  }
  return false;
}

/** Orientations are tried one by one for at most this many unordered pairs (2^30 is out of reach anyway). */
const MAX_FREE_PAIRS = 30;

/** Per key, the distinct included transactions whose appends to it nobody read (CSR), and how many keys have two or more. */
function unreadAppenders(inf: ListInference): { start: Int32Array; txns: Int32Array; count: number } {
  const keys = inf.h.keyCount;
  const start = new Int32Array(keys + 1);
  const txns = new Int32Array(inf.unTxns.length);
  const last = new Int32Array(inf.h.txnCount).fill(-1);
  let n = 0;
  let count = 0;
  for (let k = 0; k < keys; k++) {
    start[k] = n;
    for (let i = inf.unStart[k]; i < inf.unStart[k + 1]; i++) {
      const t = inf.unTxns[i];
      if (last[t] === k) continue;
      last[t] = k;
      txns[n++] = t;
    }
    if (n - start[k] >= 2) count++;
  }
  start[keys] = n;
  return { start, txns, count };
}

/** ww edges chaining each key's unread appenders in the order `at`. */
function addChains(edges: ListInference['edges'], chains: { start: Int32Array; txns: Int32Array }, at: Int32Array): void {
  for (let k = 0; k + 1 < chains.start.length; k++) {
    const group = chains.txns.slice(chains.start[k], chains.start[k + 1]);
    if (group.length < 2) continue;
    group.sort((a, b) => at[a] - at[b]);
    for (let i = 0; i + 1 < group.length; i++) edges.add(group[i], group[i + 1], LK_WW, k, -1, -1, -1);
  }
}

/**
 * Pairs (a, b, key) of included transactions whose appends to a key nobody read: flat triples,
 * each pair once; null as soon as there are more than `max` (a key with n such appends has n²/2).
 */
export function freePairs(inf: ListInference, max = Number.POSITIVE_INFINITY): number[] | null {
  const out: number[] = [];
  const seen = new Set<number>();
  const n = inf.h.txnCount;
  for (let k = 0; k < inf.h.keyCount; k++) {
    for (let i = inf.unStart[k]; i < inf.unStart[k + 1]; i++) {
      for (let j = i + 1; j < inf.unStart[k + 1]; j++) {
        const a = Math.min(inf.unTxns[i], inf.unTxns[j]);
        const b = Math.max(inf.unTxns[i], inf.unTxns[j]);
        if (a === b || seen.has(a * n + b)) continue;
        seen.add(a * n + b);
        out.push(a, b, k);
        if (seen.size > max) return null;
      }
    }
  }
  return out;
}
