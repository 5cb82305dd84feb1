// AWDIT's test-history format: `r K V` / `w K V` lines, `-----` between transactions, `=====` between sessions.

import { HistoryBuilder, OP_READ, OP_WRITE } from '../model/history.ts';
import { MAX_NUMBER_DIGITS } from '../syntax/hist-parser.ts';
import { LineIndex } from '../syntax/line-index.ts';
import { eachLine, intern, withoutLeadingZeros } from '../util/text-lines.ts';
import { Problems } from './problems.ts';
import { textOf, type HistoryReader, type ReaderInput, type ReadSource } from './reader.ts';
import { stopDue } from '../util/stop.ts';

/** A line of AWDIT's test format: an event, or a separator of dashes or equals signs. */
const EVENT = /^[rw][ \t]+\d+[ \t]+\d+[ \t]*$/;
const SEPARATOR = /^(?:=+|-+)[ \t]*$/;

/**
 * Whether the first line with content other than separators is an event `r 3 1` / `w 3 1`
 * (dbcop's text form also has `---` lines), or the head holds separators only (an empty history).
 */
export function looksLikeAwditTest(head: string): boolean {
  let separators = false;
  for (const line of head.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const t = line.trim();
    if (t.length > 0 && !SEPARATOR.test(t)) return EVENT.test(t);
    separators ||= t.length > 0;
  }
  return separators;
}

/**
 * Reads the format as AWDIT does (its parse_test_history): a line of `=` ends a session, a line of
 * `-` a transaction, empty ones are skipped; every transaction is committed, and there is no
 * initial state — the histories write their initial values in a transaction of their own, so
 * every value is an ordinary one and a read of a value nobody wrote is `thin-air`. Transactions
 * are named T1, T2, … in file order, sessions s1, s2, … (empty ones left out). A bad line is a
 * `syntax` error (the first 100 are listed) and is left out.
 */
export function readAwditTest(input: ReaderInput, stop?: () => boolean): ReadSource {
  const text = textOf(input);
  const problems = new Problems();
  const keyIds = new Map<string, number>();
  const keyNames: string[] = [];
  const valueIds = new Map<string, number>();
  const valueNames: string[] = [];
  // The events as read: per event its transaction (numbered in file order), kind, key, value, span;
  // per transaction its session. Built once the spans of transactions and sessions are known.
  const ev = { txn: [] as number[], kind: [] as number[], key: [] as number[], value: [] as number[], start: [] as number[], end: [] as number[] };
  const txnSession: number[] = [];
  let sessions = 0;
  let inSession = false; // the current session block has a transaction already
  let inTxn = false; // the current transaction has an event already
  eachLine(text, (start, end, lineNumber) => {
    if (stopDue(stop, lineNumber)) return true; // ReaderOptions.stop
    const line = text.slice(start, end);
    const t = line.trim();
    const at = start + line.length - line.trimStart().length;
    const lineEnd = start + line.trimEnd().length;
    if (t.length === 0) return;
    if (SEPARATOR.test(t)) {
      inTxn = false;
      if (t.charCodeAt(0) === 61) inSession = false;
      return;
    }
    if (!EVENT.test(t)) {
      problems.add(`line ${lineNumber}: expected \`r KEY VALUE\`, \`w KEY VALUE\` (non-negative integers), or a line of \`-\` (next transaction) or \`=\` (next session)`, at, Math.max(at + 1, lineEnd));
      return;
    }
    const parts = t.split(/[ \t]+/);
    const key = withoutLeadingZeros(parts[1]);
    const value = withoutLeadingZeros(parts[2]);
    if (key.length > MAX_NUMBER_DIGITS || value.length > MAX_NUMBER_DIGITS) {
      problems.add(`line ${lineNumber}: numbers may have at most ${MAX_NUMBER_DIGITS} digits, as in .hist files`, at, lineEnd);
      return;
    }
    if (!inSession) sessions++;
    if (!inTxn) txnSession.push(sessions - 1);
    inSession = inTxn = true;
    ev.txn.push(txnSession.length - 1);
    ev.kind.push(parts[0] === 'r' ? OP_READ : OP_WRITE);
    ev.key.push(intern(keyIds, keyNames, key));
    ev.value.push(intern(valueIds, valueNames, value));
    ev.start.push(at);
    ev.end.push(lineEnd);
  });
  const builder = new HistoryBuilder(false, ev.txn.length);
  let e = 0;
  let session = -1;
  for (let t = 0; t < txnSession.length; t++) {
    if (t === 0 || txnSession[t] !== txnSession[t - 1]) {
      let last = e; // the session's last event: its span ends there
      while (last + 1 < ev.txn.length && txnSession[ev.txn[last + 1]] === txnSession[t]) last++;
      session = builder.addSession(`s${txnSession[t] + 1}`, ev.start[e], ev.end[last]);
    }
    let last = e;
    while (last + 1 < ev.txn.length && ev.txn[last + 1] === t) last++;
    const txn = builder.addTxn(session, false, -1, `T${t + 1}`, ev.start[e], ev.end[last]);
    for (; e <= last; e++) builder.addOp(txn, ev.kind[e], ev.key[e], ev.value[e], ev.start[e], ev.end[e]);
  }
  const history = builder.finish(keyNames.length, (k) => keyNames[k], (v) => valueNames[v] ?? String(v), new Map(), true, { valueCount: valueNames.length });
  return { history, lines: LineIndex.ofText(text), findings: problems.done(), directives: null, hasTags: false, firstListOp: null };
}

export const AWDIT_TEST_READER: HistoryReader = {
  name: 'awdit-test',
  description: "AWDIT's test histories: r KEY VALUE / w KEY VALUE lines, ----- between transactions, ===== between sessions; values as written (no initial state)",
  extensions: ['.txt'],
  sniff: looksLikeAwditTest,
  read: (input, options) => readAwditTest(input, options?.stop),
};
