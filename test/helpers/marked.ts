// Test helpers: source text with range markers, and findings as short readable strings.
//
//   const m = marked('session s2\n  T2: [[r(y, init)]] r(x, 1)');
//   m.text      // the text without the markers
//   m.ranges[0] // { start, end } of `r(y, init)` in m.text (UTF-16 offsets)
//   m.at(0)     // "[1:6..1:16]" (zero-based line:character)
//
// Markers are `[[ … ]]`, or `⟦ … ⟧` when the marked text itself ends with `]` (a tag `[RA]`,
// a list `[1, 2]`), so that the closing marker cannot be confused with the text. Markers may
// nest; ranges are numbered in the order their opening markers appear.

import type { Finding, Span } from '../../server/src/engine/model/diagnostics.ts';
import { LineIndex } from '../../server/src/engine/syntax/line-index.ts';

export interface Marked {
  /** The text with every marker removed. */
  text: string;
  /** The marked ranges, in the order of their opening markers. */
  ranges: Span[];
  /** The i-th range formatted like a finding's range: "[line:char..line:char]". */
  at(i: number): string;
  /** The text of the i-th range. */
  slice(i: number): string;
}

const OPENERS = ['[[', '⟦'];
const CLOSERS: Record<string, string> = { '[[': ']]', '⟦': '⟧' };

export function marked(source: string): Marked {
  let text = '';
  const ranges: Span[] = [];
  const open: { opener: string; index: number }[] = [];
  let i = 0;
  while (i < source.length) {
    const opener = OPENERS.find((o) => source.startsWith(o, i));
    const top = open[open.length - 1];
    if (top && source.startsWith(CLOSERS[top.opener], i)) {
      open.pop();
      ranges[top.index].end = text.length;
      i += CLOSERS[top.opener].length;
    } else if (opener) {
      open.push({ opener, index: ranges.length });
      ranges.push({ start: text.length, end: -1 });
      i += opener.length;
    } else {
      text += source[i];
      i++;
    }
  }
  if (open.length > 0) throw new Error(`marked(): ${open.length} unclosed marker(s) in ${JSON.stringify(source)}`);
  return {
    text,
    ranges,
    at: (n: number) => {
      if (!ranges[n]) throw new Error(`marked(): there is no range #${n} (only ${ranges.length})`);
      return fmtSpan(text, ranges[n]);
    },
    slice: (n: number) => text.slice(ranges[n].start, ranges[n].end),
  };
}

/** "[5:10..5:21]": a span as zero-based line:character positions. */
export function fmtSpan(text: string, span: Span): string {
  const r = LineIndex.ofText(text).range(span.start, span.end);
  return `[${r.start.line}:${r.start.character}..${r.end.line}:${r.end.character}]`;
}

/** "RA error [5:10..5:21]". */
export function fmtFinding(text: string, f: Pick<Finding, 'code' | 'severity' | 'span'>): string {
  return `${f.code} ${f.severity} ${fmtSpan(text, f.span)}`;
}

/** Every finding formatted, optionally only those with some codes; in the engine's order (by position). */
export function fmtFindings(text: string, findings: readonly Finding[], codes?: readonly string[]): string[] {
  return findings.filter((f) => !codes || codes.includes(f.code)).map((f) => fmtFinding(text, f));
}

/** The string fmtFinding() gives for a finding with this code and severity at the i-th marked range. */
export function expected(m: Marked, code: string, severity: string, i: number): string {
  return `${code} ${severity} ${m.at(i)}`;
}

/** Sorted copies, for comparisons where the order of findings at one place does not matter. */
export function sorted(list: readonly string[]): string[] {
  return [...list].sort();
}
