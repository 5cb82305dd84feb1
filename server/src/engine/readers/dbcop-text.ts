// dbcop's compact text form: `[x:=1 y==2] [z==?]!` transactions, one session's lines, `---` between sessions, `//` comments.

import { MAX_VERSION_DIGITS, versionTooLong, type DbcopDraft } from './dbcop-draft.ts';
import type { Problems } from './problems.ts';
import { eachLine } from '../util/text-lines.ts';
import { stopDue } from '../util/stop.ts';

const isWord = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isBlank = (c: number): boolean => c === 32 || c === 9;

/** A line's problem: where it starts and what was expected; the line is then left out. */
class LineError extends Error {
  constructor(readonly at: number, message: string) {
    super(message);
  }
}

/** Reads the text form into the draft; a bad line is reported once and left out. stop: polled every STOP_POLL_ITEMS lines (ReaderOptions.stop). */
export function scanDbcopText(text: string, d: DbcopDraft, problems: Problems, stop?: () => boolean): void {
  d.newSession();
  eachLine(text, (start, end, lineNumber) => {
    if (stopDue(stop, lineNumber)) return true;
    let p = start;
    while (p < end && isBlank(text.charCodeAt(p))) p++;
    const c = text.charCodeAt(p);
    if (p === end || (c === 47 && text.charCodeAt(p + 1) === 47)) {
      // blank line or comment
    } else if (c === 45 && /^-+[ \t]*$/.test(text.slice(p, end))) {
      d.newSession();
    } else {
      const mark = d.mark();
      try {
        scanLine(text, p, end, d);
      } catch (e) {
        if (!(e instanceof LineError)) throw e;
        d.rollback(mark);
        problems.add(`line ${lineNumber}: ${e.message}`, e.at, Math.max(e.at + 1, end));
      }
    }
    return false;
  });
}

/** One line of transactions into the draft; throws a LineError at the first problem. */
function scanLine(text: string, from: number, end: number, d: DbcopDraft): void {
  let p = from;
  const at = (q: number): number => (q < end ? text.charCodeAt(q) : -1);
  while (p < end) {
    if (at(p) !== 91) throw new LineError(p, 'expected a transaction `[x:=1 y==2]` (or `---` between sessions, `//` for a comment)');
    const txn = d.addTxn(true, p++);
    let events = 0;
    for (;;) {
      while (isBlank(at(p))) p++;
      if (at(p) === 93 && events > 0) break;
      const eventStart = p;
      while (isWord(at(p))) p++;
      if (p === eventStart) throw new LineError(p, events === 0 ? 'expected an event such as `x:=1`, `x==1` or `x==?`' : 'expected an event or `]`');
      const key = text.slice(eventStart, p);
      let write: boolean;
      if (at(p) === 58 && at(p + 1) === 61) write = true;
      else if (at(p) === 61 && at(p + 1) === 61) write = false;
      else throw new LineError(p, `expected \`:=\` (write) or \`==\` (read) after \`${key}\``);
      p += 2;
      let version: string | null = null;
      if (!write && at(p) === 63) {
        p++;
      } else {
        const digits = p;
        while (isDigit(at(p))) p++;
        if (p === digits) throw new LineError(p, write ? 'expected a version (a non-negative integer)' : 'expected a version (a non-negative integer) or `?`');
        if (p - digits > MAX_VERSION_DIGITS) throw new LineError(digits, versionTooLong(p - digits));
        version = text.slice(digits, p);
      }
      d.addEvent(txn, write, key, version, eventStart, p);
      events++;
      if (!isBlank(at(p)) && at(p) !== 93) throw new LineError(p, 'expected a space between events or `]`');
    }
    p++; // ]
    let committed = true;
    if (at(p) === 33) {
      committed = false;
      p++;
    }
    d.endTxn(txn, p, committed);
    while (isBlank(at(p))) p++;
  }
}
