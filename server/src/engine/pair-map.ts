// Open-addressing hash map from a pair of int32 (e.g. key id, value) to an int32, on typed arrays.

const EMPTY = -1;

export class PairMap {
  private a: Int32Array;
  private b: Int32Array;
  private vals: Int32Array;
  private used: Uint8Array;
  private mask: number;
  size = 0;

  constructor(expected = 16) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
    this.vals = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
  }

  private slot(a: number, b: number): number {
    // Multiplicative mixing of both halves; Math.imul keeps it in 32-bit integer arithmetic.
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    let i = h & this.mask;
    while (this.used[i] === 1 && (this.a[i] !== a || this.b[i] !== b)) i = (i + 1) & this.mask;
    return i;
  }

  get(a: number, b: number): number {
    const i = this.slot(a, b);
    return this.used[i] === 1 ? this.vals[i] : EMPTY;
  }

  /** Sets the value; returns the previous one or -1. */
  set(a: number, b: number, v: number): number {
    let i = this.slot(a, b);
    if (this.used[i] === 1) {
      const prev = this.vals[i];
      this.vals[i] = v;
      return prev;
    }
    if ((this.size + 1) * 2 > this.mask + 1) {
      this.rehash();
      i = this.slot(a, b);
    }
    this.used[i] = 1;
    this.a[i] = a;
    this.b[i] = b;
    this.vals[i] = v;
    this.size++;
    return EMPTY;
  }

  private rehash(): void {
    const { a, b, vals, used } = this;
    const cap = (this.mask + 1) * 2;
    this.a = new Int32Array(cap);
    this.b = new Int32Array(cap);
    this.vals = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    for (let i = 0; i < used.length; i++) {
      if (used[i] !== 1) continue;
      const j = this.slot(a[i], b[i]);
      this.used[j] = 1;
      this.a[j] = a[i];
      this.b[j] = b[i];
      this.vals[j] = vals[i];
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
