// Small helpers of the text readers (dbcop, AWDIT test, Jepsen): lines, names, decimal digits.

/**
 * Calls visit(start, end, lineNumber) for every line of text (end excludes the line break; lines
 * end at \n, \r\n or a lone \r, as LSP counts them; lineNumber counts from 1); a visit that
 * returns true ends the walk there (a reader told to stop).
 */
export function eachLine(text: string, visit: (start: number, end: number, lineNumber: number) => boolean | void): void {
  let lineNumber = 0;
  for (let start = 0; start <= text.length;) {
    let end = start;
    while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
    const next = end < text.length && text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
    if (visit(start, end, ++lineNumber) === true) return;
    start = next;
  }
}

/** The id of text in a names table (ids 0, 1, … in order of first appearance). */
export function intern(ids: Map<string, number>, names: string[], text: string): number {
  let id = ids.get(text);
  if (id === undefined) {
    id = names.length;
    ids.set(text, id);
    names.push(text);
  }
  return id;
}

/** Decimal digits without leading zeros ("007" → "7", "0" stays). */
export function withoutLeadingZeros(digits: string): string {
  if (digits.length < 2 || digits.charCodeAt(0) !== 48) return digits;
  let i = 0;
  while (i < digits.length - 1 && digits.charCodeAt(i) === 48) i++;
  return digits.slice(i);
}
