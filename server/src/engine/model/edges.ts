// Edge lists of the dependency graph (so, wr, ⊥ and inferred co edges) with their justifications.

import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';

export const EK_SO = 0;
export const EK_WR = 1;
export const EK_CO = 2;
/** ⊥ precedes every transaction; shown as an so edge from the initial state. */
export const EK_INIT = 3;

/** co premise: t2 precedes t3 in session order (RA). */
export const PREMISE_SO = -1;
/** co premise: t2 happens before t3, a path of so ∪ wr (CC). */
export const PREMISE_HB = -2;

/**
 * Edges as parallel arrays. For wr edges `a` is the read op. For co edges `a` is the read r (in t3)
 * whose axiom forced the edge, and `b` the premise: a read op of t3 that read from t2 (RC, RA),
 * PREMISE_SO or PREMISE_HB.
 */
export class EdgeList {
  readonly from = new Int32Vec(256);
  readonly to = new Int32Vec(256);
  readonly kind = new Uint8Vec(256);
  readonly a = new Int32Vec(256);
  readonly b = new Int32Vec(256);

  get length(): number {
    return this.from.length;
  }

  add(from: number, to: number, kind: number, a = -1, b = -1): void {
    this.from.push(from);
    this.to.push(to);
    this.kind.push(kind);
    this.a.push(a);
    this.b.push(b);
  }

  /** A copy with room for `spare` more edges: one bulk copy per column (a CC list can hold a million edges). */
  copy(spare = 0): EdgeList {
    const c = new EdgeList();
    const n = this.length;
    for (const [to, from] of [[c.from, this.from], [c.to, this.to], [c.a, this.a], [c.b, this.b]] as const) {
      to.reserve(n + spare);
      to.data.set(from.data.subarray(0, n));
      to.length = n;
    }
    c.kind.reserve(n + spare);
    c.kind.data.set(this.kind.data.subarray(0, n));
    c.kind.length = n;
    return c;
  }
}

/** One edge, materialised only for witnesses and explanations. */
export interface EdgeRef {
  from: number;
  to: number;
  kind: number;
  a: number;
  b: number;
}

/**
 * The dependency graph's edges under one id space: ids below opCount are wr edges (the id is the
 * read op), the next txnCount ids are so edges (into the transaction id - opCount), and the rest
 * index `extra` (a level's inferred edges). The base edges are never stored as a list.
 */
export class EdgeView {
  readonly soBase: number;
  readonly extraBase: number;

  constructor(
    private readonly opTxn: Int32Array,
    private readonly wrSource: Int32Array,
    private readonly soPrev: Int32Array,
    readonly extra: EdgeList,
  ) {
    this.soBase = opTxn.length;
    this.extraBase = opTxn.length + soPrev.length;
  }

  withExtra(extra: EdgeList): EdgeView {
    return new EdgeView(this.opTxn, this.wrSource, this.soPrev, extra);
  }

  kind(e: number): number {
    return e < this.soBase ? EK_WR : e < this.extraBase ? EK_SO : this.extra.kind.data[e - this.extraBase];
  }

  ref(e: number): EdgeRef {
    if (e < this.soBase) return { from: this.wrSource[e], to: this.opTxn[e], kind: EK_WR, a: e, b: -1 };
    if (e < this.extraBase) {
      const t = e - this.soBase;
      return { from: this.soPrev[t], to: t, kind: EK_SO, a: -1, b: -1 };
    }
    const l = this.extra;
    const i = e - this.extraBase;
    return { from: l.from.data[i], to: l.to.data[i], kind: l.kind.data[i], a: l.a.data[i], b: l.b.data[i] };
  }
}
