// Interning without a string per lookup: names looked up by their span of a text, numbers by value, on typed arrays.

import { Float64Vec } from './int-vec.ts';

/** Slots hold entry + 1 (0: empty); the table doubles at half load. */
function emptySlots(expected: number): Int32Array {
  let cap = 16;
  while (cap < expected * 2) cap *= 2;
  return new Int32Array(cap);
}

/** Final mixing of a 32-bit hash, so that the low bits (the slot) depend on every input bit. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  return h ^ (h >>> 16);
}

/**
 * Dense ids 0, 1, 2, … for names in order of first appearance, looked up by a span of a text
 * (code unit for code unit) without slicing it. Measured: a sliced string and a Map lookup per
 * key of a 1M-operation .hist file was ~15% of its parse time and most of its garbage.
 */
export class TextInterner {
  readonly names: string[] = [];
  private hashes: number[] = [];
  private slots: Int32Array;

  constructor(expected = 16) {
    this.slots = emptySlots(expected);
  }

  get size(): number {
    return this.names.length;
  }

  /** The id of src[start, end), or -1. */
  find(src: string, start: number, end: number): number {
    const h = hashSpan(src, start, end);
    const mask = this.slots.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = this.slots[i] - 1;
      if (e < 0) return -1;
      if (this.hashes[e] === h && equalSpan(this.names[e], src, start, end)) return e;
    }
  }

  /** The id of src[start, end), a new one (the span sliced once) when it is not there yet. */
  intern(src: string, start: number, end: number): number {
    const found = this.find(src, start, end);
    return found >= 0 ? found : this.add(src.slice(start, end));
  }

  /** Adds a name that find() does not know; returns its id. */
  add(name: string): number {
    const id = this.names.length;
    const h = hashSpan(name, 0, name.length);
    this.names.push(name);
    this.hashes.push(h);
    if (this.names.length * 2 > this.slots.length) this.rehash();
    else this.place(h, id);
    return id;
  }

  private place(h: number, id: number): void {
    const mask = this.slots.length - 1;
    let i = h & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = id + 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let id = 0; id < this.names.length; id++) this.place(this.hashes[id], id);
  }
}

function hashSpan(src: string, start: number, end: number): number {
  let h = 0x811c9dc5 ^ (end - start);
  for (let i = start; i < end; i++) h = Math.imul(h ^ src.charCodeAt(i), 0x01000193);
  return mix(h);
}

function equalSpan(name: string, src: string, start: number, end: number): boolean {
  if (name.length !== end - start) return false;
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) !== src.charCodeAt(start + i)) return false;
  return true;
}

/**
 * Ids 0, 1, 2, … for safe integers (|v| < 2^53) in order of first appearance, the numbers
 * themselves the only copy (`numbers`: the table's slots compare against it). Ids of other
 * values can be taken too (other(): NaN, which no lookup matches), so that one id space holds
 * numbers and strings. Measured: a canonical string per value ('n' + BigInt(text)) and a Map
 * entry per distinct value were ~40% of parsing a 1M-operation .hist file and ~60 bytes per value.
 */
export class NumberIds {
  readonly numbers: Float64Vec;
  private slots: Int32Array;

  constructor(expected = 16) {
    this.slots = emptySlots(expected);
    this.numbers = new Float64Vec(expected);
  }

  get size(): number {
    return this.numbers.length;
  }

  /** The id of v, a new one when it is not there yet. */
  intern(v: number): number {
    const numbers = this.numbers.data;
    const mask = this.slots.length - 1;
    let i = hashNumber(v) & mask;
    for (; ; i = (i + 1) & mask) {
      const id = this.slots[i] - 1;
      if (id < 0) break;
      if (numbers[id] === v) return id;
    }
    const id = this.numbers.length;
    this.numbers.push(v);
    if (this.numbers.length * 2 > this.slots.length) this.rehash();
    else this.slots[i] = id + 1;
    return id;
  }

  /** A new id for a value that is not a safe integer. */
  other(): number {
    this.numbers.push(NaN);
    return this.numbers.length - 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    const numbers = this.numbers.data;
    for (let id = 0; id < this.numbers.length; id++) {
      if (numbers[id] !== numbers[id]) continue;
      let i = hashNumber(numbers[id]) & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = id + 1;
    }
  }
}

/** A hash of a safe integer from its low and high 32 bits (-0 and 0 alike: keys compare with ===). */
function hashNumber(v: number): number {
  const hi = Math.floor(v / 4294967296);
  const lo = (v - hi * 4294967296) | 0;
  return mix(lo ^ Math.imul(hi | 0, 0x9e3779b1));
}
