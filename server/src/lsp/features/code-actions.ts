// Quick fixes for the common newcomer errors: each reads what it needs from the diagnostic and the parsed text.

import type { CodeAction, Diagnostic, Position, Range, TextEdit } from 'vscode-languageserver-protocol';
import { histKey, histValue } from '../../engine/export/hist-writer.ts';
import { LEVELS, levelRow } from '../../engine/levels/levels.ts';
import { OP_READ, OP_WRITE, type History } from '../../engine/model/history.ts';
import { parseHist } from '../../engine/syntax/hist-parser.ts';
import { tokenize, TK_COMMA, TK_EQUALS, TK_IDENT, TK_NUMBER, TK_STRING, unquote } from '../../engine/syntax/hist-lexer.ts';
import { LineIndex } from '../../engine/syntax/line-index.ts';

/**
 * How many of the request's diagnostics get fixes. An editor passes those at the cursor or in the
 * selection (at most the 1,000 the server publishes), but the list is the client's: each entry may
 * cost a pass over the operations, and this runs on the message loop.
 */
export const MAX_FIXED_DIAGNOSTICS = 1000;

/** Every quick fix for the given diagnostics (those the editor passes in the request's context) in a .hist document. */
/**
 * Keeps what the fixes derive from one version of the text (its parse, lines, init bindings) for the next request
 * of that version: VS Code asks on every cursor move onto a diagnostic, and parsing a 100,000-operation document
 * took 0.5 s of the message loop each time. The server passes the version's DocModel cache.
 */
export type QuickFixMemo = <T>(key: string, make: () => T) => T;

export function codeActions(uri: string, text: string, diagnostics: readonly Diagnostic[], memo: QuickFixMemo = (_, make) => make()): CodeAction[] {
  const out: CodeAction[] = [];
  // Lines as LSP counts them (the diagnostics' positions): `\r\n`, `\r` and `\n` each end one. Split at `\n` alone, a
  // lone `\r` above (mixed line endings) shifted every later line: a failed `expect` was "fixed" with the next line's text.
  let lines: readonly string[] | null = null;
  const linesOf = (): readonly string[] => (lines ??= memo('quickfix:lines', () => text.split(/\r\n|\r|\n/)));
  // A new line (an `init` line) ends as the document's lines do.
  const eol = (): string => /\r\n|\r|\n/.exec(text)?.[0] ?? '\n';
  // The `init` bindings' values and where a new binding goes, found once for every thin-air fix.
  let bindings: Map<string, Range> | null = null;
  let initPlace: InitPlace | null = null;
  // Parsed and indexed once, on the first fix that needs the operations: a request may carry 1,000 diagnostics
  // (VS Code sends every one in a selection, Select All included), and a pass over the operations for each took
  // 5 s on the message loop for a 200,000-operation document.
  let parsed: Parsed | null = null;
  const readAt = (p: Position): { h: History; o: number; parsed: Parsed } | null => {
    parsed ??= memo('quickfix:parsed', () => indexed(parseHist(text).history, LineIndex.ofText(text)));
    const o = parsed.readAt.get(parsed.lines.offset(p));
    return o === undefined ? null : { h: parsed.h, o, parsed };
  };
  for (const d of diagnostics.slice(0, MAX_FIXED_DIAGNOSTICS)) {
    if (d.source !== undefined && d.source !== 'isocheck') continue;
    const fix = (title: string, edits: TextEdit[]): void => {
      out.push({ title, kind: 'quickfix', diagnostics: [d], edit: { changes: { [uri]: edits } } });
    };
    switch (String(d.code)) {
      case 'thin-air': {
        const read = readAt(d.range.start);
        if (!read) break;
        const { h, o } = read;
        const k = h.opKey[o];
        const binding = `${histKey(h.names.keyName(k))} = ${histValue(h.names.valueText(h.opValue[o]))}`;
        const old = h.initValues.get(k);
        if (old === undefined) {
          fix(`Add ${binding} to init`, [addInit((initPlace ??= memo('quickfix:init', () => initPlaceOf(linesOf()))), binding, eol())]);
          break;
        }
        // The key has an initial value already: change it, unless a read returns that one.
        const readsOld = read.parsed.readValues.has(pairKey(k, old));
        const edit = readsOld ? null : replaceInit((bindings ??= memo('quickfix:bindings', () => initBindings(text))), h.names.keyName(k), histValue(h.names.valueText(h.opValue[o])));
        if (edit) fix(`Change the initial value to ${binding}`, [edit]);
        break;
      }
      // A level word and an expect line are on one line: a range over many is no diagnostic of the server's.
      case 'unknown-level': {
        if (d.range.start.line !== d.range.end.line) break;
        const word = textIn(linesOf(), d.range);
        const best = nearestLevel(word);
        if (best) fix(`Change to ${best}`, [{ range: d.range, newText: best }]);
        break;
      }
      case 'expectation-failed': {
        if (d.range.start.line !== d.range.end.line) break;
        const span = textIn(linesOf(), d.range);
        const flipped = span.replace(/\b(ok|violated|found|absent)\b/i, (w) => FLIP[w.toLowerCase()] ?? w);
        if (flipped !== span) fix('Update expect to what was found', [{ range: d.range, newText: flipped }]);
        break;
      }
      case 'ambiguous-read': {
        const read = readAt(d.range.start);
        if (!read) break;
        for (const t of writersOf(read.parsed, read.o)) fix(`Read from ${t}: insert <- ${t}`, [{ range: { start: d.range.end, end: d.range.end }, newText: ` <- ${t}` }]);
        break;
      }
    }
  }
  return out;
}

const FLIP: Record<string, string> = { ok: 'violated', violated: 'ok', found: 'absent', absent: 'found' };

function textIn(lines: readonly string[], r: Range): string {
  if (r.start.line === r.end.line) return (lines[r.start.line] ?? '').slice(r.start.character, r.end.character);
  const parts = [(lines[r.start.line] ?? '').slice(r.start.character)];
  for (let l = r.start.line + 1; l < r.end.line; l++) parts.push(lines[l] ?? '');
  parts.push((lines[r.end.line] ?? '').slice(0, r.end.character));
  return parts.join('\n');
}

/** Where a new `init` binding goes: after the first `init` line's last binding, or on a new line after the header directives. */
type InitPlace = { append: Position } | { newLine: Position };

function initPlaceOf(lines: readonly string[]): InitPlace {
  const initLine = lines.findIndex((l) => /^\s*init\b/i.test(l));
  if (initLine >= 0) {
    const l = lines[initLine] ?? '';
    const hash = l.indexOf('#');
    const end = (hash >= 0 ? l.slice(0, hash) : l).trimEnd().length;
    return { append: { line: initLine, character: end } };
  }
  let after = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (/^\s*session\b/i.test(l) || /^\s*[^\s#:]+\s*:/.test(l)) break;
    if (/^\s*(history|level|check|expect)\b/i.test(l)) after = i;
  }
  return { newLine: { line: after + 1, character: 0 } };
}

/** Appends to the first `init` line, or adds one after the header directives (before the first session). */
function addInit(place: InitPlace, binding: string, eol: string): TextEdit {
  if ('append' in place) return { range: { start: place.append, end: place.append }, newText: `, ${binding}` };
  return { range: { start: place.newLine, end: place.newLine }, newText: `init ${binding}${eol}` };
}

/** The canonical level name whose name or alias is nearest to word (edit distance), or null if none is close. */
export function nearestLevel(word: string): string | null {
  // No name or alias is longer than LONGEST_LEVEL_NAME: a word this long is further from each than the bound below allows.
  if (word.length > 2 * LONGEST_LEVEL_NAME + 2) return null;
  const w = word.toLowerCase();
  let best: string | null = null;
  let bestCost = Infinity;
  const consider = (name: string, level: string): void => {
    const c = editDistance(w, name.toLowerCase());
    if (c < bestCost) { bestCost = c; best = level; }
  };
  for (const l of LEVELS) for (const a of [l, ...levelRow(l).aliases]) consider(a, l);
  consider('SSER', 'SSER');
  return bestCost <= Math.max(2, Math.ceil(w.length / 2)) ? best : null;
}

const LONGEST_LEVEL_NAME = Math.max(...LEVELS.flatMap((l) => [l, ...levelRow(l).aliases]).map((n) => n.length));

/** Levenshtein distance; the strings are level names, a few characters long. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** The parsed text and, built in one pass, what the fixes look up: reads by their first offset, the (key, value) pairs reads return, writers by (key, value). */
interface Parsed {
  h: History;
  lines: LineIndex;
  readAt: Map<number, number>;
  readValues: Set<string>;
  writers: Map<string, number[]>;
}

const pairKey = (k: number, v: number): string => `${k} ${v}`;

function indexed(h: History, lines: LineIndex): Parsed {
  const readAt = new Map<number, number>();
  const readValues = new Set<string>();
  const writers = new Map<string, number[]>();
  const r = h.ranges;
  for (let o = 0; o < h.opCount; o++) {
    if (h.opKind[o] === OP_READ) {
      if (r && !readAt.has(r.opStart[o])) readAt.set(r.opStart[o], o);
      readValues.add(pairKey(h.opKey[o], h.opValue[o]));
    } else if (h.opKind[o] === OP_WRITE) {
      const key = pairKey(h.opKey[o], h.opValue[o]);
      const ws = writers.get(key);
      if (ws) ws.push(h.opTxn[o]);
      else writers.set(key, [h.opTxn[o]]);
    }
  }
  return { h, lines, readAt, readValues, writers };
}

/** The transactions that write what read o returned, in the order of their headers in the text. */
function writersOf(p: Parsed, o: number): string[] {
  const h = p.h;
  const found = new Set(p.writers.get(pairKey(h.opKey[o], h.opValue[o])) ?? []);
  const start = h.ranges?.txnStart;
  return [...found].sort((a, b) => (start ? start[a] - start[b] : a - b)).map((t) => h.names.txnName(t));
}

/**
 * The range of each key's value on the `init` lines (found by the language's tokens, so any spelling and quoting of
 * the key matches; the first binding of a key), by the key's name.
 */
function initBindings(text: string): Map<string, Range> {
  const tk = tokenize(text);
  const lines = LineIndex.ofText(text);
  const out = new Map<string, Range>();
  const tokenText = (i: number): string => text.slice(tk.start[i], tk.end[i]);
  const lineOf = (i: number): number => lines.position(tk.start[i]).line;
  for (let i = 0; i < tk.count; i++) {
    // `init` first on its line, then `key = value` bindings separated by commas.
    if (tk.kind[i] !== TK_IDENT || tokenText(i).toLowerCase() !== 'init' || (i > 0 && lineOf(i - 1) === lineOf(i))) continue;
    for (let b = i + 1; b + 2 < tk.count && tk.kind[b + 1] === TK_EQUALS; b += 4) {
      const name = tk.kind[b] === TK_STRING ? unquote(tokenText(b)) : tk.kind[b] === TK_IDENT || tk.kind[b] === TK_NUMBER ? tokenText(b) : null;
      if (name !== null && !out.has(name) && (tk.kind[b + 2] === TK_NUMBER || tk.kind[b + 2] === TK_STRING)) {
        out.set(name, { start: lines.position(tk.start[b + 2]), end: lines.position(tk.end[b + 2]) });
      }
      if (tk.kind[b + 3] !== TK_COMMA) break;
    }
  }
  return out;
}

/**
 * Replaces the value of `key`'s binding on an `init` line; null when there is none. keyName: as the model names
 * keys (JSON-quoted when not an identifier or integer).
 */
function replaceInit(bindings: Map<string, Range>, keyName: string, value: string): TextEdit | null {
  const key = keyName.startsWith('"') ? (JSON.parse(keyName) as string) : keyName;
  const range = bindings.get(key);
  return range ? { range, newText: value } : null;
}
