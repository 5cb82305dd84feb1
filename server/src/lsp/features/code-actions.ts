// Quick fixes for the common newcomer errors: each reads what it needs from the diagnostic, the client's text and the analysed history.

import type { CodeAction, Diagnostic, Position, Range, TextEdit } from 'vscode-languageserver-protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { histKey, histValue } from '../../engine/export/hist-writer.ts';
import { LEVELS, levelRow } from '../../engine/levels/levels.ts';
import { OP_READ, OP_WRITE, type History } from '../../engine/model/history.ts';
import { tokenize, TK_COMMA, TK_EQUALS, TK_IDENT, TK_NUMBER, TK_STRING, unquote, type Tokens } from '../../engine/syntax/hist-lexer.ts';
import type { FixSource } from './fix-source.ts';

/**
 * How many of the request's diagnostics get fixes. An editor passes those at the cursor or in the
 * selection (at most the 1,000 the server publishes), but the list is the client's: each entry may
 * cost a binary search, and this runs on the message loop.
 */
export const MAX_FIXED_DIAGNOSTICS = 1000;

/**
 * Every quick fix for the given diagnostics (those the editor passes in the request's context) in a .hist document.
 * Nothing here is proportional to the text but one pass over the operations' columns when a fix needs the writers
 * or readers of a value: each read is found by a binary search, lines through the document's own table, `init`
 * lines by one search of the text. (The text was parsed on the message loop, 0.65 s for 7.9 MB.)
 */
export function codeActions(uri: string, src: FixSource, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const { doc, history: h } = src;
  // Each derived value once per request (a request may carry 1,000 thin-air reads), and kept for the next when the text is the analysed one.
  const local = new Map<string, unknown>();
  const memo = <T>(key: string, make: () => T): T => {
    if (!local.has(key)) local.set(key, src.memo(key, make));
    return local.get(key) as T;
  };
  const asked = diagnostics.slice(0, MAX_FIXED_DIAGNOSTICS).filter((d) => d.source === undefined || d.source === 'isocheck');
  // The read each thin-air or ambiguous-read diagnostic names, then one pass for the (key, value) pairs they ask about.
  const reads = asked.map((d) => (h && (d.code === 'thin-air' || d.code === 'ambiguous-read') ? src.readAt(d.range.start) : -1));
  const pairs = h ? pairsOf(h, asked, reads) : null;
  const text = doc.getText();
  // A new line (an `init` line) ends as the document's lines do.
  const eol = (): string => /\r\n|\r|\n/.exec(text)?.[0] ?? '\n';
  const out: CodeAction[] = [];
  asked.forEach((d, i) => {
    const fix = (title: string, edits: TextEdit[]): void => {
      out.push({ title, kind: 'quickfix', diagnostics: [d], edit: { changes: { [uri]: edits } } });
    };
    const o = reads[i];
    switch (String(d.code)) {
      case 'thin-air': {
        if (!h || !pairs || o < 0) break;
        const k = h.opKey[o];
        const binding = `${histKey(h.names.keyName(k))} = ${histValue(h.names.valueText(h.opValue[o]))}`;
        const old = h.initValues.get(k);
        if (old === undefined) {
          fix(`Add ${binding} to init`, [addInit(memo('init', () => initPlaceOf(doc)), binding, eol())]);
          break;
        }
        // The key has an initial value already: change it, unless a read returns that one.
        const readsOld = pairs.read.has(pairKey(k, old));
        const edit = readsOld ? null : replaceInit(memo('bindings', () => initBindings(doc)), h.names.keyName(k), histValue(h.names.valueText(h.opValue[o])));
        if (edit) fix(`Change the initial value to ${binding}`, [edit]);
        break;
      }
      // A level word and an expect line are on one line: a range over many is no diagnostic of the server's.
      case 'unknown-level': {
        if (d.range.start.line !== d.range.end.line) break;
        const best = nearestLevel(lineText(doc, d.range));
        if (best) fix(`Change to ${best}`, [{ range: d.range, newText: best }]);
        break;
      }
      case 'expectation-failed': {
        if (d.range.start.line !== d.range.end.line) break;
        const span = lineText(doc, d.range);
        const flipped = span.replace(/\b(ok|violated|found|absent)\b/i, (w) => FLIP[w.toLowerCase()] ?? w);
        if (flipped !== span) fix('Update expect to what was found', [{ range: d.range, newText: flipped }]);
        break;
      }
      case 'ambiguous-read': {
        if (!h || !pairs || o < 0) break;
        for (const t of writersOf(h, pairs, o)) fix(`Read from ${t}: insert <- ${t}`, [{ range: { start: d.range.end, end: d.range.end }, newText: ` <- ${t}` }]);
        break;
      }
    }
  });
  return out;
}

/** For the (key, value) pairs the fixes ask about: whether a read returns each, and the transactions that write each. */
interface Pairs {
  read: Set<string>;
  writers: Map<string, number[]>;
}

const pairKey = (k: number, v: number): string => `${k} ${v}`;

/**
 * One pass over the operations for the pairs the reads ask about (a thin-air read's key and its initial value, an
 * ambiguous read's key and value), however many diagnostics ask: a pass per diagnostic took 2.5 s for 1,000 of them
 * on a 100,000-operation document. No pass when none asks.
 */
function pairsOf(h: History, asked: readonly Diagnostic[], reads: readonly number[]): Pairs {
  const wanted = new Map<number, Set<number>>();
  const want = (k: number, v: number | undefined): void => {
    if (v === undefined) return;
    const vs = wanted.get(k);
    if (vs) vs.add(v);
    else wanted.set(k, new Set([v]));
  };
  asked.forEach((d, i) => {
    const o = reads[i];
    if (o < 0) return;
    if (d.code === 'thin-air') want(h.opKey[o], h.initValues.get(h.opKey[o]));
    else want(h.opKey[o], h.opValue[o]);
  });
  const out: Pairs = { read: new Set(), writers: new Map() };
  if (wanted.size === 0) return out;
  for (let o = 0; o < h.opCount; o++) {
    const vs = wanted.get(h.opKey[o]);
    if (!vs || !vs.has(h.opValue[o])) continue;
    const key = pairKey(h.opKey[o], h.opValue[o]);
    if (h.opKind[o] === OP_READ) out.read.add(key);
    else if (h.opKind[o] === OP_WRITE) {
      const ws = out.writers.get(key);
      if (ws) ws.push(h.opTxn[o]);
      else out.writers.set(key, [h.opTxn[o]]);
    }
  }
  return out;
}

/** The transactions that write what read o returned, in the order of their headers in the text. */
function writersOf(h: History, pairs: Pairs, o: number): string[] {
  const found = new Set(pairs.writers.get(pairKey(h.opKey[o], h.opValue[o])) ?? []);
  const start = h.ranges?.txnStart;
  return [...found].sort((a, b) => (start ? start[a] - start[b] : a - b)).map((t) => h.names.txnName(t));
}

const FLIP: Record<string, string> = { ok: 'violated', violated: 'ok', found: 'absent', absent: 'found' };

/** The text of a one-line range of the document, as far as the line goes (its line break left out). */
function lineText(doc: TextDocument, r: Range): string {
  return lineAt(doc, r.start.line).slice(r.start.character, r.end.character);
}

/** Line `line` of the document without its line break, from the document's own line table (no split of the whole text). */
function lineAt(doc: TextDocument, line: number): string {
  return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r\n$|\r$|\n$/, '');
}

/** Where a new `init` binding goes: after the first `init` line's last binding, or on a new line after the header directives. */
type InitPlace = { append: Position } | { newLine: Position };

function initPlaceOf(doc: TextDocument): InitPlace {
  const first = INIT_LINE.exec(doc.getText());
  if (first) {
    const initLine = doc.positionAt(first.index + first[0].length).line;
    const l = lineAt(doc, initLine);
    const hash = l.indexOf('#');
    const end = (hash >= 0 ? l.slice(0, hash) : l).trimEnd().length;
    return { append: { line: initLine, character: end } };
  }
  // The header directives stand before the first session or transaction: only those lines are read.
  let after = -1;
  for (let i = 0; i < doc.lineCount; i++) {
    const l = lineAt(doc, i);
    if (/^\s*session\b/i.test(l) || /^\s*[^\s#:]+\s*:/.test(l)) break;
    if (/^\s*(history|level|check|expect)\b/i.test(l)) after = i;
  }
  return { newLine: { line: after + 1, character: 0 } };
}

/** An `init` line (keywords are case-insensitive): `init` first on its line (after blanks, a byte order mark), as a whole word. */
const INIT_LINE = /^[^\S\r\n]*init\b/im;

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

/**
 * The range of each key's value on the `init` lines (found by the language's tokens, so any spelling and quoting of
 * the key matches; the first binding of a key), by the key's name. Only those lines are read and tokenised (a
 * binding list may go on over the next line after a comma), not the whole text.
 */
function initBindings(doc: TextDocument): Map<string, Range> {
  const out = new Map<string, Range>();
  const text = doc.getText();
  const all = new RegExp(INIT_LINE.source, 'gim');
  for (let m = all.exec(text); m; m = all.exec(text)) {
    const first = doc.positionAt(m.index + m[0].length).line;
    // The directive's lines: its own, and the next one for as long as the last token is a comma.
    let last = first;
    let lines = lineAt(doc, first);
    let tk = tokenize(lines);
    while (tk.count > 1 && tk.kind[tk.count - 2] === TK_COMMA && last + 1 < doc.lineCount) {
      lines += '\n' + lineAt(doc, ++last);
      tk = tokenize(lines);
    }
    const base = doc.offsetAt({ line: first, character: 0 });
    bindingsOn(lines, tk, (start, end) => ({ start: doc.positionAt(base + start), end: doc.positionAt(base + end) }), out);
    // Continue after the lines read: a binding list is read once, whatever the next `init` is.
    all.lastIndex = Math.max(all.lastIndex, doc.offsetAt({ line: last + 1, character: 0 }));
  }
  return out;
}

/** The `key = value` bindings after the `init` that starts `text` (its tokens tk), each key's first, into out. */
function bindingsOn(text: string, tk: Tokens, range: (start: number, end: number) => Range, out: Map<string, Range>): void {
  const tokenText = (i: number): string => text.slice(tk.start[i], tk.end[i]);
  if (tk.kind[0] !== TK_IDENT || tokenText(0).toLowerCase() !== 'init') return;
  for (let b = 1; b + 2 < tk.count && tk.kind[b + 1] === TK_EQUALS; b += 4) {
    const name = tk.kind[b] === TK_STRING ? unquote(tokenText(b)) : tk.kind[b] === TK_IDENT || tk.kind[b] === TK_NUMBER ? tokenText(b) : null;
    if (name !== null && !out.has(name) && (tk.kind[b + 2] === TK_NUMBER || tk.kind[b + 2] === TK_STRING)) out.set(name, range(tk.start[b + 2], tk.end[b + 2]));
    if (tk.kind[b + 3] !== TK_COMMA) break;
  }
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
