// Converts UTF-16 offsets to zero-based line/character positions (LSP style), only at the edges.

import { lowerBound } from '../util/sorted.ts';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** The multi-byte UTF-8 sequences of a file: where each starts, and its bytes beyond its UTF-16 code units. */
export interface Utf8Sequences {
  at: Int32Array;
  extra: Uint8Array;
}

/**
 * Utf8Sequences of bytes, or null when they are all ASCII (the usual Jepsen history: checked four
 * bytes at a time, ~20 ms for 70 MB). A 2-byte sequence is 1 code unit (1 extra byte), 3 bytes 1
 * unit (2 extra), 4 bytes a surrogate pair (2 extra). Bytes that are not UTF-8 count as the
 * decoder (TextDecoder, WHATWG) shows them, one U+FFFD per maximal invalid subpart: counted as
 * well-formed sequences, a lone lead byte (0xef before ASCII, 0xff) made columns run backwards.
 * `fileStart`: the bytes open the file, whose byte order mark the decoder drops (3 bytes, no unit).
 */
const NO_WORDS = new Uint32Array(0);

export function utf8Sequences(bytes: Uint8Array, fileStart = true): Utf8Sequences | null {
  const n = bytes.length;
  let i = 0;
  const head = Math.min(n, (4 - (bytes.byteOffset & 3)) & 3);
  let ascii = true;
  for (; i < head && ascii; i++) ascii = bytes[i] < 0x80;
  if (ascii) {
    // Fewer bytes than the head (1–3, at an odd offset: a piece's last bytes) leave no word to view, and
    // a view at their unaligned offset throws even when empty.
    const words = n - i >= 4 ? new Uint32Array(bytes.buffer, bytes.byteOffset + i, (n - i) >> 2) : NO_WORDS;
    let w = 0;
    while (w < words.length && (words[w] & 0x80808080) === 0) w++;
    i += w * 4;
    while (i < n && bytes[i] < 0x80) i++;
    if (i >= n) return null;
  }
  const at: number[] = [];
  const extra: number[] = [];
  i = 0;
  if (fileStart && n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    at.push(0);
    extra.push(3);
    i = 3;
  }
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // The continuation bytes a lead byte needs, and the range of its first one (no overlong forms, surrogates or > U+10FFFF).
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : 0;
    let lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    let hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    let len = 1;
    while (len <= need && i + len < n && bytes[i + len] >= lo && bytes[i + len] <= hi) {
      len++;
      lo = 0x80;
      hi = 0xbf;
    }
    // A whole 4-byte sequence is a surrogate pair; anything else (a sequence, or an invalid subpart as U+FFFD) one unit.
    const units = need === 3 && len === 4 ? 2 : 1;
    if (len > units) {
      at.push(i);
      extra.push(len - units);
    }
    i += len;
  }
  return at.length === 0 ? null : { at: Int32Array.from(at), extra: Uint8Array.from(extra) };
}

export class LineIndex {
  private starts: Int32Array | null = null;

  /** The line table is built on first use: a clean million-line file never needs it. */
  private constructor(private readonly scan: () => Int32Array) {}

  static ofText(text: string): LineIndex {
    return new LineIndex(() => textLineStarts(text));
  }

  /**
   * From line starts a reader collected while it read (byte offsets). `wide`: where the file's
   * multi-byte UTF-8 sequences are (utf8Sequences), so that characters count UTF-16 code units as
   * LSP ranges do; null for an ASCII file.
   */
  static ofLineStarts(starts: Int32Array, wide: Utf8Sequences | null = null): LineIndex {
    const index = new LineIndex(() => starts);
    index.wide = wide !== null && wide.at.length > 0 ? wide : null;
    return index;
  }

  private wide: Utf8Sequences | null = null;

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
    // Offsets before the first line (a byte order mark a reader skipped) are its start.
    return { line: lo, character: Math.max(0, offset - starts[lo] - (this.wide ? this.extraBytes(starts[lo], offset) : 0)) };
  }

  /**
   * Bytes in [from, to) beyond the UTF-16 code units they encode. A sequence `to` cuts (a span a
   * reader ended one byte into `→`) counts only up to `to`: columns never run backwards, so a
   * range's end is never before its start.
   */
  private extraBytes(from: number, to: number): number {
    const { at, extra } = this.wide as Utf8Sequences;
    let sum = 0;
    for (let i = lowerBound(at, from); i < at.length && at[i] < to; i++) sum += Math.min(extra[i], to - at[i]);
    return sum;
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

/**
 * Where lines start in bytes after the first (pushed to `into`): `\n`, `\r\n` and a lone `\r`
 * each end a line, as in textLineStarts and LSP; readers of bytes that counted `\n` only put a
 * CR-only file on one line, and ranges past the ends of the lines an editor shows. Native searches
 * only: a file without `\r` costs one more scan.
 */
export function pushByteLineStarts(bytes: Uint8Array, into: { push(v: number): void }): void {
  let lf = bytes.indexOf(10);
  let cr = bytes.indexOf(13);
  while (lf >= 0 || cr >= 0) {
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      const end = bytes[cr + 1] === 10 ? cr + 1 : cr;
      into.push(end + 1);
      if (end !== cr) lf = bytes.indexOf(10, end + 1);
      cr = bytes.indexOf(13, end + 1);
    } else {
      into.push(lf + 1);
      lf = bytes.indexOf(10, lf + 1);
    }
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
