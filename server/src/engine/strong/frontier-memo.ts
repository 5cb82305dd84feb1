// Memo of failed search frontiers (one position per session): open addressing over an int arena, exact keys.

/**
 * The commit-order search fails at a frontier whatever path led there, so failed frontiers are
 * remembered. A frontier is k small integers; keys are compared in full (a hash collision can
 * never turn an answer), and the hash is kept incrementally by the caller (xor of mix(s, v)).
 * Adding stops at `maxEntries`: the memo only prunes, so a full memo costs time, never exactness.
 */
export class FrontierMemo {
  private arena: Int32Array;
  private hashes: Int32Array;
  private table: Int32Array; // entry index + 1, or 0
  private count = 0;

  constructor(private readonly k: number, private readonly maxEntries: number) {
    this.arena = new Int32Array(k * 64);
    this.hashes = new Int32Array(64);
    this.table = new Int32Array(256);
  }

  get size(): number {
    return this.count;
  }

  has(hash: number, front: Int32Array): boolean {
    const mask = this.table.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const e = this.table[i];
      if (e === 0) return false;
      if (this.hashes[e - 1] === hash && this.same(e - 1, front)) return true;
    }
  }

  add(hash: number, front: Int32Array): void {
    if (this.count >= this.maxEntries || this.has(hash, front)) return;
    const k = this.k;
    if ((this.count + 1) * k > this.arena.length) {
      const a = new Int32Array(this.arena.length * 2);
      a.set(this.arena);
      this.arena = a;
      const hs = new Int32Array(this.hashes.length * 2);
      hs.set(this.hashes);
      this.hashes = hs;
    }
    this.arena.set(front, this.count * k);
    this.hashes[this.count] = hash;
    this.count++;
    if (this.count * 2 > this.table.length) this.rehash(this.table.length * 2);
    else this.insert(this.count);
  }

  private insert(e: number): void {
    const mask = this.table.length - 1;
    let i = this.hashes[e - 1] & mask;
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = e;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    for (let e = 1; e <= this.count; e++) this.insert(e);
  }

  private same(entry: number, front: Int32Array): boolean {
    const base = entry * this.k;
    for (let s = 0; s < this.k; s++) if (this.arena[base + s] !== front[s]) return false;
    return true;
  }
}

/** The hash contribution of session s at frontier value v (a 32-bit mix; xor-combined by the caller). */
export function frontierMix(s: number, v: number): number {
  let z = Math.imul(v + 0x7f4a7c15, 0x9e3779b1) ^ Math.imul(s + 1, 0x85ebca77);
  z ^= z >>> 15;
  z = Math.imul(z, 0x2c1b3c6d);
  z ^= z >>> 12;
  z = Math.imul(z, 0x297a2d39);
  return z ^ (z >>> 15);
}
