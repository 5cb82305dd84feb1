// A map from integers to int32 ids: a flat, growable table for small dense numbers, a hash map for the rest.

import { PairMap } from './pair-map.ts';

/** Numbers below this index flat arrays (at most 64 MB each); larger ones go through a hash map. */
export const DIRECT_LIMIT = 1 << 24;

/**
 * A map from int32 numbers to int32 (-1 when absent): a flat, growable table below `limit` for
 * the usual small, dense numbers (keys, sessions, transaction ids, values), a hash map for the
 * rest. Measured: plume's transaction lookups through a hash map alone were ~10% of reading a
 * million-line file.
 */
export class IntTable {
  private direct = new Int32Array(1024).fill(-1);
  private readonly large = new PairMap(64);

  /** Numbers from `limit` on (at most DIRECT_LIMIT) use the hash map: a sparse numbering must not grow a huge table. */
  constructor(private readonly limit: number) {}

  get(k: number): number {
    if (k >= 0 && k < this.limit) return k < this.direct.length ? this.direct[k] : -1;
    return this.large.get(k, 0);
  }

  set(k: number, v: number): void {
    if (k < 0 || k >= this.limit) {
      this.large.set(k, 0, v);
      return;
    }
    if (k >= this.direct.length) {
      let size = this.direct.length;
      while (size <= k) size *= 2;
      const grown = new Int32Array(size).fill(-1);
      grown.set(this.direct);
      this.direct = grown;
    }
    this.direct[k] = v;
  }
}
