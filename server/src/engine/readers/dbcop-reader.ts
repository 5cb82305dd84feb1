// The dbcop reader: dbcop's text form and its JSON form (chosen by the first characters), with spans for diagnostics.

import { buildDbcop, DbcopDraft, Problems } from './dbcop-draft.ts';
import { scanDbcopJson } from './dbcop-json.ts';
import { scanDbcopText } from './dbcop-text.ts';
import { textOf, type HistoryReader, type ReaderInput, type ReadSource } from './reader.ts';

/** The first line that is not blank and not a `//` comment. */
function firstContent(head: string): string {
  for (const line of head.split(/\r\n|\r|\n/)) {
    const t = line.trim();
    if (t.length > 0 && !t.startsWith('//')) return t;
  }
  return '';
}

/** JSON: `[` or `{` followed by a nested array, object, string or the end of the array, and dbcop's `"events"`. */
export function looksLikeDbcopJson(head: string): boolean {
  return jsonStart(head) && /"events"\s*:/.test(head);
}

/** Whether a dbcop file is JSON rather than text: it opens an array or object like JSON does. */
function jsonStart(head: string): boolean {
  return /^\uFEFF?\s*[[{]\s*(?:[[{"\]]|$)/.test(head);
}

/** The text form: a line starting with a transaction `[x:=1` or `[x==1`. */
export function looksLikeDbcopText(head: string): boolean {
  return /^\[\s*\w+\s*(?::=|==)/.test(firstContent(head.replace(/^\uFEFF/, '')));
}

export function readDbcop(input: ReaderInput): ReadSource {
  const text = textOf(input);
  const problems = new Problems();
  const draft = new DbcopDraft();
  if (jsonStart(text.slice(0, 4096))) scanDbcopJson(text, draft, problems);
  else scanDbcopText(text, draft, problems);
  return buildDbcop(draft, text, problems.done());
}

export const DBCOP_READER: HistoryReader = {
  name: 'dbcop',
  description: "dbcop's histories: the text form ([x:=1 y==2] transactions, --- between sessions) or its JSON",
  extensions: ['.dbcop', '.txt', '.json'],
  sniff: (head) => looksLikeDbcopText(head) || looksLikeDbcopJson(head),
  read: (input) => readDbcop(input),
};
