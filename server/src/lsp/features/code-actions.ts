// Quick fixes for the common newcomer errors: each reads what it needs from the diagnostic and the text.

import type { CodeAction, Diagnostic, Position, Range, TextEdit } from 'vscode-languageserver-protocol';
import { LEVELS, levelRow } from '../../engine/levels/levels.ts';

/** Every quick fix for the given diagnostics (those the editor passes in the request's context). */
export function codeActions(uri: string, text: string, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  const lines = text.split('\n');
  for (const d of diagnostics) {
    if (d.source !== undefined && d.source !== 'isocheck') continue;
    const fix = (title: string, edits: TextEdit[]): void => {
      out.push({ title, kind: 'quickfix', diagnostics: [d], edit: { changes: { [uri]: edits } } });
    };
    switch (String(d.code)) {
      case 'thin-air': {
        const m = /read (\S+) = (.+?), but no transaction writes/.exec(d.message);
        if (m) fix(`Add ${m[1]} = ${m[2]} to init`, [addInit(lines, `${m[1]} = ${m[2]}`)]);
        break;
      }
      case 'unknown-level': {
        const word = textIn(lines, d.range);
        const best = nearestLevel(word);
        if (best) fix(`Change to ${best}`, [{ range: d.range, newText: best }]);
        break;
      }
      case 'expectation-failed': {
        const span = textIn(lines, d.range);
        const flipped = span.replace(/\b(ok|violated|found|absent)\b/i, (w) => FLIP[w.toLowerCase()] ?? w);
        if (flipped !== span) fix('Update expect to what was found', [{ range: d.range, newText: flipped }]);
        break;
      }
      case 'ambiguous-read': {
        const m = /^(\S+) = (.+?) is (?:both the initial value|written more than once)/.exec(d.message);
        if (!m) break;
        for (const t of writersOf(lines, m[1], m[2])) fix(`Read from ${t}: insert <- ${t}`, [{ range: { start: d.range.end, end: d.range.end }, newText: ` <- ${t}` }]);
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

/** Appends to the first `init` line, or adds one after the header directives (before the first session). */
function addInit(lines: readonly string[], binding: string): TextEdit {
  const initLine = lines.findIndex((l) => /^\s*init\b/i.test(l));
  if (initLine >= 0) {
    const l = lines[initLine] ?? '';
    const hash = l.indexOf('#');
    const end = (hash >= 0 ? l.slice(0, hash) : l).trimEnd().length;
    const at: Position = { line: initLine, character: end };
    return { range: { start: at, end: at }, newText: `, ${binding}` };
  }
  let after = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (/^\s*session\b/i.test(l) || /^\s*[^\s#:]+\s*:/.test(l)) break;
    if (/^\s*(history|level|check|expect)\b/i.test(l)) after = i;
  }
  const at: Position = { line: after + 1, character: 0 };
  return { range: { start: at, end: at }, newText: `init ${binding}\n` };
}

/** The canonical level name whose name or alias is nearest to word (edit distance), or null if none is close. */
export function nearestLevel(word: string): string | null {
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

/** Transactions whose text writes value to key, in order (a transaction header `Name:` starts each one). */
function writersOf(lines: readonly string[], key: string, value: string): string[] {
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const write = new RegExp(`\\bw\\(\\s*${esc(key)}\\s*,\\s*${esc(value)}\\s*\\)`);
  const header = /^\s*([A-Za-z_][\w.-]*)\s*(?:\[[^\]]*\])?\s*:/;
  const found: string[] = [];
  let current: string | null = null;
  for (const raw of lines) {
    const l = raw.split('#')[0] ?? '';
    if (/^\s*(session|history|level|check|expect|init)\b/i.test(l)) { current = null; continue; }
    const h = header.exec(l);
    if (h) current = h[1] ?? null;
    if (current && write.test(l) && !found.includes(current)) found.push(current);
  }
  return found;
}
