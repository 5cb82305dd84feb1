// The dbcop reader: dbcop's text form and its JSON form (chosen by the first characters), with spans for diagnostics.

import { buildDbcop, DbcopDraft } from './dbcop-draft.ts';
import { Problems } from './problems.ts';
import { scanDbcopJson } from './dbcop-json.ts';
import { scanDbcopText } from './dbcop-text.ts';
import { textOf, type HistoryReader, type ReaderInput, type ReaderOptions, type ReadSource } from './reader.ts';

/** JSON: `[` or `{` followed by a nested array, object, string or the end of the array, and dbcop's `"events"`. */
export function looksLikeDbcopJson(head: string): boolean {
  // Sessions with events, or nothing but empty sessions (`[]`, `[[], []]`: dbcop's own tests
  // have both; a Jepsen history is objects).
  return jsonStart(head) && (/"events"\s*:/.test(head) || /^\uFEFF?\s*\[\s*(?:\[\s*\]\s*,?\s*)*\]\s*$/.test(head));
}

/**
 * Whether a dbcop file is JSON rather than text: it opens an array or object like JSON does. `[]`
 * with anything after it is the text form's empty first transaction: JSON allows nothing after
 * its one top-level value, so only a lone `[]` is the empty JSON array.
 */
function jsonStart(text: string): boolean {
  return /^\uFEFF?\s*[[{]\s*(?:[[{"\]]|$)/.test(text) && !/^\uFEFF?\s*\[\s*\]\s*\S/.test(text);
}

/** Empty transactions `[]` or `[]!` at the start of a line: not events, so they say nothing about the form. */
const EMPTY_TXNS = /^(?:\[[ \t]*\]!?[ \t]*)+/;

/** The text form: a transaction `[x:=1` or `[x==1` opens the first line that has one (leading `[]` and `---` passed over). */
export function looksLikeDbcopText(head: string): boolean {
  for (const line of head.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const t = line.trim();
    if (t.length === 0 || t.startsWith('//') || /^-+$/.test(t)) continue; // a session separator says nothing yet
    const events = t.replace(EMPTY_TXNS, '');
    // A line of empty transactions only: the next content line decides.
    if (events.length > 0) return /^\[\s*\w+\s*(?::=|==)/.test(events);
  }
  return false;
}

export function readDbcop(input: ReaderInput, options?: ReaderOptions): ReadSource {
  const text = textOf(input);
  const problems = new Problems();
  const draft = new DbcopDraft();
  if (jsonStart(text)) scanDbcopJson(text, draft, problems, options?.stop);
  else scanDbcopText(text, draft, problems, options?.stop);
  return buildDbcop(draft, text, problems.done());
}

export const DBCOP_READER: HistoryReader = {
  name: 'dbcop',
  description: "dbcop's histories: the text form ([x:=1 y==2] transactions, --- between sessions) or its JSON",
  extensions: ['.dbcop', '.txt', '.json'],
  sniff: (head) => looksLikeDbcopText(head) || looksLikeDbcopJson(head),
  read: (input, options) => readDbcop(input, options),
};
