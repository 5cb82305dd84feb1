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

/** What the text just before the cursor asks for. */
export type CompletionContext = 'levels' | 'expect' | 'keys' | 'transactions' | 'any';

export function contextOf(linePrefix: string): CompletionContext {
  const before = linePrefix.replace(/[A-Za-z0-9_.-]*$/, '');
  if (/<-\s*$/.test(before)) return 'transactions';
  if (/\b(?:[rwa]|read|write|append)\(\s*$/i.test(before)) return 'keys';
  if (/^\s*expect\s+$/i.test(before)) return 'expect';
  if (/\[\s*$/.test(before) || /^\s*(?:level|check)\b[^#]*$/i.test(before)) return 'levels';
  return 'any';
}

/** Names offered per kind; a huge generated file has tens of thousands (the client filters as one types on). */
const MAX_NAMES = 2000;

export function completions(m: DocModel | null, linePrefix: string): CompletionList {
  let isIncomplete = false;
  const capped = (names: string[]): string[] => {
    if (names.length <= MAX_NAMES) return names;
    isIncomplete = true;
    return names.slice(0, MAX_NAMES);
  };
  const items = completionItems(m, contextOf(linePrefix), capped);
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
