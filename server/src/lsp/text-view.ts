// Where an analysed text's offsets stand in the text the client shows now: answers from an older analysis must use the client's lines.

import type { Position, Range } from 'vscode-languageserver-protocol';
import { LineIndex } from '../engine/syntax/line-index.ts';

/**
 * The analysed text and the current one differ in one region at most: an unchanged prefix
 * [0, prefix), the edited region, and an unchanged suffix that starts at `suffix` in the analysed
 * text and `delta` code units later in the current one. However many edits came between the two
 * versions, they fit in that region, so every offset outside it maps exactly and every offset in
 * it has no counterpart (the text there is not what was analysed).
 */
export class TextView {
  private constructor(private readonly analysed: LineIndex, private readonly current: LineIndex,
    private readonly prefix: number, private readonly suffix: number, private readonly delta: number) {}

  /** The client shows the analysed text itself. */
  static identity(lines: LineIndex): TextView {
    return new TextView(lines, lines, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 0);
  }

  /** From the analysed text (and its lines) to the current text. */
  static between(analysedLines: LineIndex, analysed: string, current: string): TextView {
    const n = Math.min(analysed.length, current.length);
    let prefix = 0;
    while (prefix < n && analysed.charCodeAt(prefix) === current.charCodeAt(prefix)) prefix++;
    // The suffix may not overlap the prefix in either text.
    let same = 0;
    while (same < n - prefix && analysed.charCodeAt(analysed.length - 1 - same) === current.charCodeAt(current.length - 1 - same)) same++;
    return new TextView(analysedLines, LineIndex.ofText(current), prefix, analysed.length - same, current.length - analysed.length);
  }

  /** The analysed offset of a position in the unchanged prefix (positions after it are not served from an old analysis). */
  offset(p: Position): number {
    return this.analysed.offset(p);
  }

  /** The current range of the analysed text's [start, end), or null when the edit touched it (its text is not what was analysed). */
  range(start: number, end: number): Range | null {
    if (end <= this.prefix) return this.analysed.range(start, end);
    if (start >= this.suffix) return this.current.range(start + this.delta, end + this.delta);
    return null;
  }

  /** The current line (0-based) of the analysed text's character at `offset`, or null when it was edited. */
  line(offset: number): number | null {
    if (offset < this.prefix) return this.analysed.position(offset).line;
    if (offset >= this.suffix) return this.current.position(offset + this.delta).line;
    return null;
  }
}
