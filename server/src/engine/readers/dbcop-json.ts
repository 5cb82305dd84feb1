// dbcop's JSON form: sessions of `{events, committed}` (or the older `{events, success}` with `{write, variable, value, success}` events).

import { createScanner, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { MAX_VERSION_DIGITS, versionTooLong, type DbcopDraft } from './dbcop-draft.ts';
import type { Problems } from './problems.ts';
import { STOP_POLL_ITEMS, stopDue } from '../util/stop.ts';

/** dbcop's JSON nests 7 levels at most (wrapper, sessions, session, transaction, events, event, Write). */
const MAX_DEPTH = 32;
/** jsonc-parser's SyntaxKind values (a const enum, which isolated modules cannot import). */
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;
/** Tokens the nesting check scans between two polls of stop: about a thousand transactions' worth. */
const STOP_POLL_TOKENS = 16 * STOP_POLL_ITEMS;

/**
 * Where the nesting first exceeds MAX_DEPTH, or -1. Checked with the (iterative) scanner before
 * parsing, because the parser recurses per level and 100k brackets would overflow the stack.
 */
function nestedTooDeep(text: string, stop?: () => boolean): number {
  const scanner = createScanner(text, true);
  let depth = 0;
  let tokens = 0;
  for (let k: number = scanner.scan(); k !== EOF; k = scanner.scan()) {
    if (++tokens % STOP_POLL_TOKENS === 0 && stop?.() === true) return -1;
    if (k === OPEN_BRACE || k === OPEN_BRACKET) {
      if (++depth > MAX_DEPTH) return scanner.getTokenOffset();
    } else if (k === CLOSE_BRACE || k === CLOSE_BRACKET) {
      depth--;
    }
  }
  return -1;
}

/** The value of an object's property; a name given twice keeps its last value, as JSON parsers do. */
function prop(node: Node, name: string): Node | undefined {
  if (node.type !== 'object') return undefined;
  let found: Node | undefined;
  for (const p of node.children ?? []) if (p.children?.[0]?.value === name) found = p.children[1];
  return found;
}

/**
 * Accepts the file `dbcop generate` writes (`{"params": …, "data": [sessions]}`) and the bare
 * sessions array; events `{"Write": {"variable": V, "version": N}}` and `{"Read": {"variable": V,
 * "version": N | null}}`, or the older `{"write": bool, "variable": V, "value": N, "success": bool}`.
 * stop (ReaderOptions.stop): polled while the nesting is checked, once the tree is parsed (the
 * parser itself cannot be interrupted) and every STOP_POLL_ITEMS transactions.
 */
export function scanDbcopJson(text: string, d: DbcopDraft, problems: Problems, stop?: () => boolean): void {
  // Once it said stop, it is not asked again: every later check returns at once.
  let halted = false;
  const stopped = stop ? (): boolean => (halted ||= stop()) : undefined;
  const tooDeep = nestedTooDeep(text, stopped);
  if (tooDeep >= 0) {
    problems.add(`JSON nested deeper than ${MAX_DEPTH} levels (dbcop histories nest 7 at most)`, tooDeep, tooDeep + 1);
    return;
  }
  const errors: ParseError[] = [];
  if (stopped?.() === true) return;
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (stopped?.() === true) return;
  for (const e of errors) problems.add(`JSON: ${printParseErrorCode(e.error)}`, e.offset, e.offset + Math.max(1, e.length));
  if (!root || errors.length > 0) return;
  const data = root.type === 'object' ? prop(root, 'data') : root;
  if (!data || data.type !== 'array') {
    problems.add('expected an array of sessions, or an object whose `data` is one (as `dbcop generate` writes)', root.offset, root.offset + 1);
    return;
  }
  let txns = 0;
  for (const s of data.children ?? []) {
    d.newSession();
    if (s.type !== 'array') {
      problems.add('expected a session: an array of transactions', s.offset, s.offset + s.length);
      continue;
    }
    for (const t of s.children ?? []) {
      if (stopDue(stopped, ++txns)) return;
      transaction(text, t, d, problems);
    }
  }
}

function transaction(text: string, t: Node, d: DbcopDraft, problems: Problems): void {
  const events = prop(t, 'events');
  if (!events || events.type !== 'array') {
    problems.add('expected a transaction: {"events": [...], "committed": true}', t.offset, t.offset + t.length);
    return;
  }
  const field = prop(t, 'committed') !== undefined ? 'committed' : 'success';
  const flag = prop(t, field);
  // Absent: committed (older files); anything but a boolean is no outcome at all.
  if (flag && flag.type !== 'boolean') {
    problems.add(`a transaction's "${field}" must be true or false`, flag.offset, flag.offset + flag.length);
    return;
  }
  const committed = flag ? flag.value === true : true;
  const txn = d.addTxn(committed, t.offset);
  d.endTxn(txn, t.offset + t.length, committed);
  for (const e of events.children ?? []) event(text, e, txn, d, problems);
}

function event(text: string, e: Node, txn: number, d: DbcopDraft, problems: Problems): void {
  const start = e.offset;
  const end = e.offset + e.length;
  const bad = (message: string): void => problems.add(message, start, end);
  if (prop(e, 'Write') && prop(e, 'Read')) return bad('an event is a "Write" or a "Read", not both');
  const tagged = prop(e, 'Write') ?? prop(e, 'Read');
  let write: boolean;
  let variable: Node | undefined;
  let version: Node | undefined;
  if (tagged) {
    write = prop(e, 'Write') !== undefined;
    variable = prop(tagged, 'variable');
    version = prop(tagged, 'version');
  } else {
    const w = prop(e, 'write');
    if (w?.type !== 'boolean') return bad('expected an event: {"Write": {"variable": …, "version": …}} or {"Read": {…}}');
    // The older format records every planned event; one that did not run (success false) is left out.
    const success = prop(e, 'success');
    if (success && success.type !== 'boolean') return bad('an event\'s "success" must be true or false');
    if (success?.value === false) return;
    write = w.value === true;
    variable = prop(e, 'variable');
    version = prop(e, 'value');
  }
  if (!variable || (variable.type !== 'number' && variable.type !== 'string')) return bad('expected the event\'s variable (a non-negative integer or a string)');
  const rawVariable = text.slice(variable.offset, variable.offset + variable.length);
  if (variable.type === 'number' && !/^\d+$/.test(rawVariable)) return bad('expected the event\'s variable (a non-negative integer or a string)');
  // The number 0 and the string "0" are two variables: a string of digits, or one that starts with a
  // quote, is named by its JSON text (which starts with a quote: no other name can equal it).
  const str = String(variable.value);
  const key = variable.type === 'number' ? rawVariable : /^\d+$/.test(str) || str.startsWith('"') ? JSON.stringify(str) : str;
  if (!version || version.type === 'null') {
    if (write) return bad('a write needs a version');
    d.addEvent(txn, write, key, null, start, end);
    return;
  }
  const raw = text.slice(version.offset, version.offset + version.length);
  if (version.type !== 'number' || !/^\d+$/.test(raw)) return bad('expected a version: a non-negative integer');
  if (raw.length > MAX_VERSION_DIGITS) return bad(versionTooLong(raw.length));
  d.addEvent(txn, write, key, raw, start, end);
}
