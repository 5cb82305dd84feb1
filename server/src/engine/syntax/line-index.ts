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
    return new LineIndex(() => textLineStarts(text));
  }

  /** From line starts a reader collected while it read (plume files: byte offsets). */
  static ofLineStarts(starts: Int32Array): LineIndex {
    return new LineIndex(() => starts);
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

  /** The offset of a position; a character past the end of its line stays at the line's end. */
  offset(p: Position): number {
    const starts = this.lineStarts;
    const line = Math.min(Math.max(p.line, 0), starts.length - 1);
    const at = starts[line] + Math.max(0, p.character);
    return line + 1 < starts.length ? Math.min(at, starts[line + 1] - 1) : at;
  }
}

/** Where lines start in a text; `\n`, `\r\n` and a lone `\r` each end a line, as in LSP. */
export function textLineStarts(text: string): Int32Array {
  const starts = [0];
  // Fast path: no carriage returns at all (the usual case) needs only the native search.
  if (text.indexOf('\r') < 0) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return Int32Array.from(starts);
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return Int32Array.from(starts);
}
