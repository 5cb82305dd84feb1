// Finds the write of (key, value) for every read: the recovery of wr from unique values.

import { OP_WRITE, type History } from './history.ts';
import { PairMap } from '../util/pair-map.ts';

/** Index to the first write of each (key, value), plus the pairs written more than once. */
export class WriterIndex {
  /**
   * Small non-negative values (unique counters, the usual case) index a flat array: value →
   * write op, -1 for none, SHARED when several keys write that value (those go to `map`).
   * A flat array has none of a hash table's cache misses on million-operation histories.
   */
  private readonly direct: Int32Array;
  private readonly map = new PairMap(64);
  private readonly duplicated = new PairMap(16);
  /** (first write, later write) for every write of a pair already written. */
  readonly duplicates: [number, number][] = [];

  constructor(private readonly h: History) {
    const { opCount, opKind, opValue } = h;
    let max = -1;
    for (let o = 0; o < opCount; o++) if (opKind[o] === OP_WRITE && opValue[o] > max) max = opValue[o];
    this.direct = new Int32Array(max >= 0 && max <= 4 * opCount + 1024 ? max + 1 : 0).fill(-1);
    for (let o = 0; o < opCount; o++) if (opKind[o] === OP_WRITE) this.add(o);
  }

  private add(o: number): void {
    const x = this.h.opKey[o];
    const v = this.h.opValue[o];
    if (v >= 0 && v < this.direct.length) {
      const d = this.direct[v];
      if (d === -1) {
        this.direct[v] = o;
        return;
      }
      if (d >= 0) {
        if (this.h.opKey[d] === x) return this.duplicate(x, v, d, o);
        this.map.set(this.h.opKey[d], v, d);
        this.direct[v] = SHARED;
      }
    }
    const prev = this.map.get(x, v);
    if (prev >= 0) this.duplicate(x, v, prev, o);
    else this.map.set(x, v, o);
  }

  private duplicate(x: number, v: number, first: number, o: number): void {
    this.duplicated.set(x, v, 1);
    this.duplicates.push([first, o]);
  }

  /** The first write of value v to key x, or -1. */
  get(x: number, v: number): number {
    if (v >= 0 && v < this.direct.length) {
      const d = this.direct[v];
      if (d !== SHARED) return d >= 0 && this.h.opKey[d] === x ? d : -1;
    }
    return this.map.get(x, v);
  }

  isDuplicated(x: number, v: number): boolean {
    return this.duplicates.length > 0 && this.duplicated.get(x, v) >= 0;
  }
}

const SHARED = -2;
