// Open-addressing hash map from a pair of int32 (e.g. key id, value) to an int32, on typed arrays.

const EMPTY = -1;

/**
 * Slots are [used, a, b, value] quadruples in one Int32Array, so a probe touches one cache line
 * instead of four arrays: the map sits on the per-operation path of every large history.
 */
export class PairMap {
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(expected = 16) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.slots = new Int32Array(cap * 4);
    this.mask = cap - 1;
  }

  private find(a: number, b: number): number {
    // Multiplicative mixing of both halves; Math.imul keeps it in 32-bit integer arithmetic.
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    const s = this.slots;
    let i = h & this.mask;
    while (s[i * 4] === 1 && (s[i * 4 + 1] !== a || s[i * 4 + 2] !== b)) i = (i + 1) & this.mask;
    return i * 4;
  }

  get(a: number, b: number): number {
    const i = this.find(a, b);
    return this.slots[i] === 1 ? this.slots[i + 3] : EMPTY;
  }

  /** Sets the value; returns the previous one or -1. */
  set(a: number, b: number, v: number): number {
    let i = this.find(a, b);
    if (this.slots[i] === 1) {
      const prev = this.slots[i + 3];
      this.slots[i + 3] = v;
      return prev;
    }
    if ((this.size + 1) * 2 > this.mask + 1) {
      this.rehash();
      i = this.find(a, b);
    }
    const s = this.slots;
    s[i] = 1;
    s[i + 1] = a;
    s[i + 2] = b;
    s[i + 3] = v;
    this.size++;
    return EMPTY;
  }

  private rehash(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = (this.mask + 1) * 2 - 1;
    for (let i = 0; i < old.length; i += 4) {
      if (old[i] !== 1) continue;
      const j = this.find(old[i + 1], old[i + 2]);
      this.slots[j] = 1;
      this.slots[j + 1] = old[i + 1];
      this.slots[j + 2] = old[i + 2];
      this.slots[j + 3] = old[i + 3];
    }
  }
}

/** Interns int32 values into dense ids 0, 1, 2, … in order of first appearance. */
export class IntInterner {
  private map = new PairMap(64);
  readonly originals: number[] = [];
  intern(v: number): number {
    const got = this.map.get(v, 0);
    if (got !== EMPTY) return got;
    const id = this.originals.length;
    this.map.set(v, 0, id);
    this.originals.push(v);
    return id;
  }
}
