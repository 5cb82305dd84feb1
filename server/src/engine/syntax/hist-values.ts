// The value ids of a .hist file: integers by their number, longer ones by their decimal text, strings by their content.

import { INIT_VALUE, NO_VALUE } from '../model/history.ts';
import { NumberIds, TextInterner } from '../util/interner.ts';

/**
 * Integers of at most 15 digits go through their number (no string per value: the measured bulk
 * of a large file), integers beyond 2^53 through their decimal text, strings through their
 * content; every kind in one id space. A value's text is made only when it is shown.
 */
export class HistValues {
  private readonly numbers = new NumberIds(1024);
  private readonly bigValues = new Map<string, number>();
  private readonly strings = new TextInterner();
  private readonly stringIds: number[] = [];
  /** Per id that is no safe integer: its text as shown. */
  private readonly shown = new Map<number, string>();

  get size(): number {
    return this.numbers.size;
  }

  /** The id of a safe integer. */
  number(n: number): number {
    return this.numbers.intern(n);
  }

  /** The id of an integer beyond 2^53, by its decimal text. */
  big(decimal: string): number {
    let id = this.bigValues.get(decimal);
    if (id === undefined) {
      id = this.newShown(decimal);
      this.bigValues.set(decimal, id);
    }
    return id;
  }

  /** The id of the string src[from, to) (no escapes), without making a string when it is known. */
  stringAt(src: string, from: number, to: number): number {
    const found = this.strings.find(src, from, to);
    return found >= 0 ? this.stringIds[found] : this.newString(src.slice(from, to));
  }

  /** The id of a string given whole (its escapes undone). */
  string(s: string): number {
    const found = this.strings.find(s, 0, s.length);
    return found >= 0 ? this.stringIds[found] : this.newString(s);
  }

  /** A value as the history shows it: `init`, `?` (no value), its digits, or its text. */
  text(v: number): string {
    if (v === INIT_VALUE) return 'init';
    if (v === NO_VALUE) return '?';
    const numbers = this.numbers.numbers.data;
    // A number's text is made when it is shown: String() of a safe integer is its decimal digits, as BigInt's was.
    return v >= 0 && v < this.numbers.size && numbers[v] === numbers[v] ? String(numbers[v]) : this.shown.get(v) as string;
  }

  private newString(s: string): number {
    this.strings.add(s);
    const id = this.newShown(JSON.stringify(s));
    this.stringIds.push(id);
    return id;
  }

  private newShown(shown: string): number {
    const id = this.numbers.other();
    this.shown.set(id, shown);
    return id;
  }
}
