// Completion: keywords, levels, anomaly names after `expect`, `@` intervals, and the keys, transaction ids and sessions the file already has.

import { CompletionItemKind, InsertTextFormat, type CompletionItem, type CompletionList } from 'vscode-languageserver-protocol';
import { LEVELS, levelRow } from '../../engine/levels/levels.ts';
import { ANOMALIES } from '../../engine/listappend/anomaly-table.ts';
import type { DocModel } from '../doc-model.ts';

const DIRECTIVES = ['history', 'level', 'check', 'expect', 'init', 'session'];
const WORDS = ['committed', 'aborted', 'unknown', 'ok', 'violated', 'found', 'absent', 'init'];
/** The table's aliases that are not just the level's name in lower case. */
const LEVEL_ALIASES = LEVELS.flatMap((l) => levelRow(l).aliases.filter((a) => a !== l.toLowerCase()));
/** `@ START..END` after a transaction's status: its real-time interval (SSER). */
const INTERVAL: CompletionItem = {
  label: '@', kind: CompletionItemKind.Snippet, detail: 'real-time interval: @ START..END', insertText: '@ ${1:START}..${2:END}', insertTextFormat: InsertTextFormat.Snippet,
};
const OPERATIONS: CompletionItem[] = [
  { label: 'r', kind: CompletionItemKind.Function, detail: 'read: r(key, value)', insertText: 'r(' },
  { label: 'w', kind: CompletionItemKind.Function, detail: 'write: w(key, value)', insertText: 'w(' },
  { label: 'a', kind: CompletionItemKind.Function, detail: 'append: a(key, value)', insertText: 'a(' },
];

/**
 * What the text just before the cursor asks for. 'values': inside an operation after its key (a
 * value, a list, a name), in a comment, a new session's name or a title: nothing to offer; 'operations': after a transaction's `:`, where only
 * more operations fit.
 */
export type CompletionContext = 'levels' | 'expect' | 'keys' | 'values' | 'transactions' | 'operations' | 'any';

export function contextOf(linePrefix: string): CompletionContext {
  // Linear in the line, on purpose: this runs on the message loop at every trigger character, and
  // patterns such as /[\w.-]*$/ or /^\s*[^\s:]+[^:]*:/ backtrack quadratically on a long line
  // (40,000 characters: 3.6 s, every other request waiting).
  if (linePrefix.includes('#')) return 'values'; // in a comment: nothing fits
  let w = linePrefix.length;
  while (w > 0 && isNameChar(linePrefix.charCodeAt(w - 1))) w--;
  const before = linePrefix.slice(0, w);
  const trimmed = before.trimEnd();
  if (trimmed.endsWith('<-')) return 'transactions';
  if (trimmed.endsWith('(') && /\b(?:[rwa]|read|write|append)$/i.test(trimmed.slice(Math.max(0, trimmed.length - 8), -1))) return 'keys';
  if (before.lastIndexOf('(') > before.lastIndexOf(')')) return 'values';
  // A new session's name or a title is the user's own: a keyword offered there was accepted by the
  // Enter that ends the line (`session reader` became `session read`).
  if (/^\s*session\s+$/i.test(before) || /^\s*history\s/i.test(before)) return 'values';
  if (/^\s*expect\s+$/i.test(before)) return 'expect';
  if (trimmed.endsWith('[') || /^\s*(?:level|check)\b/i.test(before)) return 'levels';
  if (afterHeader(before)) return 'operations';
  return 'any';
}

/** A character of a name being typed: [A-Za-z0-9_.-]. */
function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}

/** Whether the line starts with a transaction's header and its `:` (`  T3: `): a name, then a `:` before any parenthesis. */
function afterHeader(before: string): boolean {
  const rest = before.trimStart();
  if (rest === '' || rest[0] === ':' || rest[0] === '(' || rest[0] === ')') return false;
  const stop = rest.search(/[:()]/);
  return stop > 0 && rest[stop] === ':';
}

/** Names offered per kind; a huge generated file has tens of thousands (the client filters as one types on). */
const MAX_NAMES = 2000;

/** trigger: the character that asked (a `-` asks only inside a level or anomaly name: `read-atomic`, `G-single`). */
export function completions(m: DocModel | null, linePrefix: string, trigger?: string): CompletionList {
  let isIncomplete = false;
  const context = contextOf(linePrefix);
  if (trigger === '-' && context !== 'levels' && context !== 'expect') return { isIncomplete, items: [] };
  const capped = (names: string[]): string[] => {
    if (names.length <= MAX_NAMES) return names;
    isIncomplete = true;
    return names.slice(0, MAX_NAMES);
  };
  const items = completionItems(m, context, capped);
  return { isIncomplete, items };
}

function completionItems(m: DocModel | null, context: CompletionContext, capped: (names: string[]) => string[]): CompletionItem[] {
  const levels = (): CompletionItem[] => [
    ...LEVELS.map((l) => ({ label: l, kind: CompletionItemKind.EnumMember, detail: 'isolation level' })),
    ...LEVEL_ALIASES.map((l) => ({ label: l, kind: CompletionItemKind.EnumMember, detail: 'isolation level (alias)' })),
  ];
  const keys = (): CompletionItem[] => (m ? capped(unique(m.snapshot.history.keyNames)).map((k) => ({ label: k, kind: CompletionItemKind.Field, detail: 'key' })) : []);
  const txns = (): CompletionItem[] => (m ? capped(unique(m.snapshot.history.txnNames.slice(1))).map((t) => ({ label: t, kind: CompletionItemKind.Event, detail: 'transaction' })) : []);
  switch (context) {
    case 'levels':
      return levels();
    case 'expect':
      return [...levels(), ...ANOMALIES.map((a) => ({ label: a.code, kind: CompletionItemKind.EnumMember, detail: `anomaly: ${a.meaning}` }))];
    case 'keys':
      return keys();
    case 'transactions':
      return txns();
    case 'values':
      return [];
    case 'operations':
      return OPERATIONS;
    case 'any':
      return [
        ...DIRECTIVES.map((d) => ({ label: d, kind: CompletionItemKind.Keyword })),
        ...WORDS.map((d) => ({ label: d, kind: CompletionItemKind.Keyword })),
        ...OPERATIONS, INTERVAL, ...levels(), ...keys(), ...txns(),
      ];
  }
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
