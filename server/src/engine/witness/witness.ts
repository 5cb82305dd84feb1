// Witness cycles as data, and the plain sentence that justifies each of their edges.

import { mergeRuns } from '../util/cycle-runs.ts';
import type { Span } from '../model/diagnostics.ts';
import { EK_CO, EK_INIT, EK_SO, EK_WR, PREMISE_HB, PREMISE_SO, type EdgeRef } from '../model/edges.ts';
import type { Csr } from '../util/graph.ts';
import { BOTTOM, type History } from '../model/history.ts';
import { opSpan, txnSpan, type ReadsFrom } from '../model/reads-from.ts';

export type WitnessEdgeKind = 'so' | 'wr' | 'co' | 'ww' | 'rw';

export interface WitnessEdge {
  from: number;
  to: number;
  kind: WitnessEdgeKind;
  /** The key read (wr) or the key whose read forced the edge (co); -1 for so. */
  key: number;
  /** The read behind a wr or co edge, -1 for so. */
  readOp: number;
  because: string;
  span: Span;
  /**
   * A co edge of a strong level forced by a third transaction's snapshot: u must commit before t2
   * because t3, whose snapshot holds u, read a version t2 overwrites. Not an anti-dependency of u
   * (u need not read the key), so its kind is co; the anomaly names count it with the rw edges.
   */
  bySnapshot?: true;
}

export interface Witness {
  /** The anomaly: a level name for a commit-order cycle, or a read-consistency code. */
  anomaly: string;
  edges: WitnessEdge[];
  /** A witness that is not a cycle (thin-air read, …) explains itself here. */
  message: string;
  span: Span;
  /** Strong levels without a forced cycle: for each way to order the transactions left, the read that fails. */
  explanation?: string[];
  /** The reads the violation is reported at, when it is not the co edges' reads. */
  readOps?: number[];
}

/** How edges are phrased for people: names from the file, "the initial state" for ⊥. */
export class Explainer {
  /** hb: builds the so ∪ wr graph for happens-before paths in CC sentences, called on first need (at most once). */
  constructor(private readonly h: History, private readonly rf: ReadsFrom, private readonly hb: (() => Csr) | null) {}

  private hbGraph: Csr | null = null;

  txn(t: number): string {
    return t === BOTTOM ? 'the initial state' : this.h.names.txnName(t);
  }

  key(x: number): string {
    const name = this.h.names.keyName(x);
    return /^-?\d+$/.test(name) ? `key ${name}` : name;
  }

  /** "read x from T1" or "read the initial value of x". */
  readPhrase(o: number): string {
    const src = this.rf.observedTxn[o];
    const x = this.h.opKey[o];
    if (src === BOTTOM) return `read the initial value of ${this.key(x)}`;
    return `read ${this.key(x)} from ${this.txn(src)}`;
  }

  /** readerLevel: for mixed witnesses, the level whose axiom each reading transaction obeys. */
  edge(e: EdgeRef, readerLevel: ((t: number) => string) | null = null): WitnessEdge {
    const { h } = this;
    switch (e.kind) {
      case EK_SO:
        return { from: e.from, to: e.to, kind: 'so', key: -1, readOp: -1, span: txnSpan(h, e.to),
          because: `${this.txn(e.from)} precedes ${this.txn(e.to)} in session ${h.names.sessionName(h.txnSession[e.to])}` };
      case EK_INIT:
        return { from: e.from, to: e.to, kind: 'so', key: -1, readOp: -1, span: txnSpan(h, e.to),
          because: `the initial state precedes ${this.txn(e.to)}` };
      case EK_WR:
        return { from: e.from, to: e.to, kind: 'wr', key: h.opKey[e.a], readOp: e.a, span: opSpan(h, e.a),
          because: `${this.txn(e.to)} ${this.readPhrase(e.a)}${e.from === BOTTOM ? '' : ` (${h.names.valueText(h.opValue[e.a])})`}` };
      default:
        return { from: e.from, to: e.to, kind: 'co', key: h.opKey[e.a], readOp: e.a, span: opSpan(h, e.a), because: this.forced(e, readerLevel) };
    }
  }

  /**
   * The cycle with each run of consecutive so edges as one edge (T3 → T9 [so]): session order is
   * transitive, and the searches count a run once. ⊥'s edges are not runs.
   */
  sessionRuns(edges: WitnessEdge[]): WitnessEdge[] {
    return mergeRuns(edges, (e) => e.kind === 'so' && e.from !== BOTTOM, (first, last) => this.edge({ from: first.from, to: last.to, kind: EK_SO, a: -1, b: -1 }));
  }

  /** "T2 must commit before T1: T3 read x from T1 after it read y from T2, and T2 also writes x". */
  private forced(e: EdgeRef, readerLevel: ((t: number) => string) | null): string {
    const { h } = this;
    const t3 = h.opTxn[e.a];
    const x = this.key(h.opKey[e.a]);
    const reader = readerLevel ? `${this.txn(t3)} (at ${readerLevel(t3)})` : this.txn(t3);
    const head = `${this.txn(e.from)} must commit before ${this.txn(e.to)}: ${reader} ${this.readPhrase(e.a)}`;
    if (e.b === PREMISE_SO) {
      return `${head}, but ${this.txn(e.from)}, which precedes ${this.txn(t3)} in session ${h.names.sessionName(h.txnSession[t3])}, also writes ${x}`;
    }
    if (e.b === PREMISE_HB) {
      return `${head}, but ${this.txn(e.from)}, which happens before ${this.txn(t3)} (${this.hbPath(e.from, t3)}), also writes ${x}`;
    }
    const poAfter = h.opTxn[e.b] === t3 && e.b < e.a;
    return poAfter
      ? `${head} after it ${this.readPhrase(e.b)}, and ${this.txn(e.from)} also writes ${x}`
      : `${head} and ${this.readPhrase(e.b)}, and ${this.txn(e.from)} also writes ${x}`;
  }

  /**
   * A shortest so ∪ wr path from a to b, as "T2 → T5 → T3": a BFS over the base graph where session
   * order is transitive (a visited transaction reaches every later one of its session in one step,
   * each handed out once per session), so "T1 → T4 → T5", not every transaction of T1's session between.
   */
  private hbPath(a: number, b: number): string {
    const { h } = this;
    if (this.hb) this.hbGraph ??= this.hb();
    const g = this.hbGraph;
    if (!g) return `${this.txn(a)} → … → ${this.txn(b)}`;
    const prev = new Int32Array(g.nodeCount).fill(-1);
    const queue = new Int32Array(g.nodeCount);
    // Per session: positions from here on are queued already (by an earlier, so no later, step).
    const handedOut = Int32Array.from({ length: h.sessionCount }, (_, s) => h.sessionTxnStart[s + 1]);
    let head = 0;
    let tail = 0;
    queue[tail++] = a;
    prev[a] = a;
    while (head < tail && prev[b] < 0) {
      const v = queue[head++];
      for (let p = g.start[v]; p < g.start[v + 1]; p++) {
        const w = g.target[p];
        if (prev[w] < 0) {
          prev[w] = v;
          queue[tail++] = w;
        }
      }
      const s = v === BOTTOM ? -1 : h.txnSession[v];
      if (s < 0 || h.txnAborted[v] === 1) continue;
      const from = h.sessionTxnStart[s] + h.txnIndexInSession[v] + 1;
      for (let i = from; i < handedOut[s]; i++) {
        const w = h.sessionTxns[i];
        if (h.txnAborted[w] === 0 && prev[w] < 0) {
          prev[w] = v;
          queue[tail++] = w;
        }
      }
      handedOut[s] = Math.min(handedOut[s], from);
    }
    if (prev[b] < 0) return `${this.txn(a)} → … → ${this.txn(b)}`;
    const path: string[] = [];
    for (let v = b; v !== a; v = prev[v]) path.push(this.txn(v));
    path.push(this.txn(a));
    return path.reverse().join(' → ');
  }
}

export function isCoEdge(e: EdgeRef): boolean {
  return e.kind === EK_CO;
}
