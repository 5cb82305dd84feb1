// Finds the operations the tests point at by their text, so edits to the example's comments and directives don't break them.

export interface Span {
  line: number;
  start: number;
  end: number;
}

/** 0-based line and characters of `needle` on the first line whose trimmed text starts with `lineStart`. */
export function locate(text: string, lineStart: string, needle: string): Span {
  const lines = text.split(/\r?\n/);
  const line = lines.findIndex((l) => l.trimStart().startsWith(lineStart));
  if (line < 0) throw new Error(`no line starts with ${JSON.stringify(lineStart)}`);
  const start = lines[line].indexOf(needle);
  if (start < 0) throw new Error(`${JSON.stringify(needle)} is not on line ${line + 1}`);
  return { line, start, end: start + needle.length };
}

/** examples/fractured-read.hist: `T1: w(x, 1) w(y, 1)` and `T2: r(y, init) r(x, 1)`. */
export function fracturedRead(text: string): { readYInit: Span; readX1: Span; writeX1: Span } {
  return {
    readYInit: locate(text, 'T2:', 'r(y, init)'),
    readX1: locate(text, 'T2:', 'r(x, 1)'),
    writeX1: locate(text, 'T1:', 'w(x, 1)'),
  };
}
