// Growable typed arrays: append-only buffers for building large histories without per-item objects.

export class Int32Vec {
  data: Int32Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = new Int32Array(Math.max(4, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) this.reserve(this.data.length * 2);
    this.data[this.length++] = v;
  }
  /** Grows the buffer to hold at least `capacity` items. */
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new Int32Array(capacity);
    next.set(this.data);
    this.data = next;
  }
  /** A trimmed copy holding exactly the pushed items. */
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export class Uint8Vec {
  data: Uint8Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = new Uint8Array(Math.max(4, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) this.reserve(this.data.length * 2);
    this.data[this.length++] = v;
  }
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new Uint8Array(capacity);
    next.set(this.data);
    this.data = next;
  }
  toArray(): Uint8Array {
    return this.data.slice(0, this.length);
  }
}

export class Float64Vec {
  data: Float64Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = new Float64Array(Math.max(4, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) this.reserve(this.data.length * 2);
    this.data[this.length++] = v;
  }
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new Float64Array(capacity);
    next.set(this.data);
    this.data = next;
  }
}
