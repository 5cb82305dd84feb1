// The .hist language for CodeMirror: a stream tokenizer whose patterns come from the TextMate grammar's rules (syntaxes/).

import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StreamParser } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import grammar from '../../syntaxes/hist.tmLanguage.json';

interface Rule { match?: string; begin?: string }
const repo = grammar.repository as unknown as Record<string, Rule & { patterns?: Rule[] }>;

/**
 * A TextMate (Oniguruma) pattern as a sticky JS regex: a leading (?i) becomes the i flag; ^ / $ keep
 * their meaning per line. A case-insensitive group (?i:…) becomes a plain group under the i flag:
 * JavaScript has such groups only since ES2025 (Safari and older browsers throw on them, and the
 * playground lost its highlighting; the grammar's patterns that use them match either case anyway).
 */
export function sticky(source: string): RegExp {
  const ci = source.startsWith('(?i)') || source.includes('(?i:');
  const body = (source.startsWith('(?i)') ? source.slice(4) : source).replaceAll('(?i:', '(?:');
  return new RegExp(body, ci ? 'iy' : 'y');
}

const LEVEL = sticky(repo.level.match!);
const SESSION = sticky(repo.session.match!);
const TRANSACTION = sticky(repo.transaction.match!);
const OPERATION = sticky(repo.operation.begin!);
const NUMBER = sticky(repo.values.patterns![0].match!);
const DIRECTIVE = /(history|level|check|expect|init)\b/iy;
const WORD = /(committed|aborted|unknown|info|indeterminate|ok|violated|found|absent|init)\b/iy;

const parser: StreamParser<{ inString: boolean }> = {
  name: 'hist',
  startState: () => ({ inString: false }),
  token(stream, state) {
    if (state.inString || stream.peek() === '"') {
      if (!state.inString) stream.next();
      state.inString = true;
      while (!stream.eol()) {
        const ch = stream.next();
        if (ch === '\\') stream.next();
        else if (ch === '"') { state.inString = false; break; }
      }
      if (stream.eol()) state.inString = false;
      return 'string';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('#') || stream.match('//')) { stream.skipToEnd(); return 'comment'; }
    const at = (re: RegExp): RegExpExecArray | null => { re.lastIndex = stream.pos; return re.exec(stream.string); };
    if (stream.sol() || /^\s*$/.test(stream.string.slice(0, stream.pos))) {
      const d = at(DIRECTIVE);
      if (d) { stream.pos += d[0].length; return 'keyword'; }
      const s = at(SESSION);
      if (s) { stream.pos += s[1].length; return 'keyword'; }
    }
    const op = at(OPERATION);
    if (op) { stream.pos += op[1].length; return 'operatorKeyword'; }
    const tx = at(TRANSACTION);
    // Tag names with a modifier are written tag.modifier: 'definition' alone is no tag (CodeMirror warns, colours nothing).
    if (tx) { stream.pos += tx[1].length; return 'variableName.definition'; }
    if (stream.match('<-')) return 'operator';
    const lv = at(LEVEL);
    if (lv) { stream.pos += lv[0].length; return 'atom'; }
    const w = at(WORD);
    if (w) { stream.pos += w[0].length; return 'keyword'; }
    const n = at(NUMBER);
    if (n && n[0].length > 0) { stream.pos += n[0].length; return 'number'; }
    if (/[A-Za-z_]/.test(stream.peek() ?? '')) { stream.match(/^[A-Za-z0-9_.-]+/); return 'variableName'; }
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
};

export const histLanguage = StreamLanguage.define(parser);

/** Token colours from the page's CSS variables, so light and dark both read well. */
export const histHighlighting = syntaxHighlighting(HighlightStyle.define([
  { tag: tags.comment, color: 'var(--pg-comment)' },
  { tag: tags.keyword, color: 'var(--pg-keyword)' },
  { tag: tags.operatorKeyword, color: 'var(--pg-keyword)', fontWeight: '600' },
  { tag: tags.atom, color: 'var(--pg-atom)', fontWeight: '600' },
  { tag: tags.string, color: 'var(--pg-string)' },
  { tag: tags.number, color: 'var(--pg-number)' },
  { tag: tags.definition(tags.variableName), color: 'var(--pg-definition)' },
  { tag: tags.operator, color: 'var(--pg-keyword)' },
]));
