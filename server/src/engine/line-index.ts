// Converts UTF-16 offsets to zero-based line/character positions (LSP style), only at the edges.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export class LineIndex {
  private starts: Int32Array | null = null;

  /** The line table is built on first use: a clean million-line file never needs it. */
  private constructor(private readonly scan: () => Int32Array) {}

  static ofText(text: string): LineIndex {
    return new LineIndex(() => lineStarts(text.length, (i) => text.charCodeAt(i)));
  }

  /** For byte-offset sources (plume files), where offsets count bytes. */
  static ofBytes(bytes: Uint8Array): LineIndex {
    return new LineIndex(() => lineStarts(bytes.length, (i) => bytes[i]));
  }

  private get lineStarts(): Int32Array {
    this.starts ??= this.scan();
    return this.starts;
  }

  position(offset: number): Position {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - starts[lo] };
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }

  offset(p: Position): number {
    const line = Math.min(Math.max(p.line, 0), this.lineStarts.length - 1);
    return this.lineStarts[line] + p.character;
  }
}

function lineStarts(length: number, at: (i: number) => number): Int32Array {
  let count = 1;
  for (let i = 0; i < length; i++) if (at(i) === 10) count++;
  const starts = new Int32Array(count);
  let n = 1;
  for (let i = 0; i < length; i++) if (at(i) === 10) starts[n++] = i + 1;
  return starts;
}
