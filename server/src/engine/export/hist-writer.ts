// Writes a History (e.g. a minimised witness) as tidy `.hist` text that parses back to the same history.

import { INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, sourceOf, type History } from '../model/history.ts';
import { levelById } from '../levels/levels.ts';
import { MAX_NUMBER_DIGITS } from '../syntax/hist-parser.ts';
import { unquote } from '../syntax/hist-lexer.ts';
import type { Target } from '../witness/violation.ts';

const IDENT = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const KEYWORDS = new Set(['history', 'level', 'check', 'expect', 'init', 'session', 'committed', 'aborted', 'ok', 'violated', 'r', 'w', 'a', 'read', 'write', 'append']);

/**
 * Something the `.hist` language cannot say as it is (a number of more than 30 digits, a time
 * that is no integer): writing it anyway would make a file the parser refuses, so the writers
 * throw this instead and the caller reports the message.
 */
export class HistWriteError extends Error {
  override name = 'HistWriteError';
}

/** Quoted text cut for a message: what the history holds may be megabytes long. */
function shown(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}… (${text.length} characters)` : text;
}

/** Half a UTF-16 surrogate pair without its other half (a JSON `\ud800` escape): UTF-8 has no encoding for it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE, 'g');

/**
 * A `.hist` double-quoted string: only `\"` and `\\` are escapes; line breaks become spaces. A lone
 * surrogate becomes U+FFFD here, as writing the file as UTF-8 would make it anyway: the token is then
 * the text the file holds, so keyTokens and ValueTokens see two names that only it told apart.
 */
export function histString(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ').replace(LONE_SURROGATES, '\uFFFD')}"`;
}

/**
 * A string quoted for `.hist`. exact: a line break or a lone surrogate (which histString turns into a
 * space or U+FFFD, so two different strings could become one) is a HistWriteError instead.
 */
function quoted(s: string, exact: boolean, what: string): string {
  if (exact && /[\r\n]/.test(s)) throw new HistWriteError(`the ${what} ${JSON.stringify(shown(s))} contains a line break, which a .hist string cannot hold`);
  if (exact && LONE_SURROGATE.test(s)) {
    throw new HistWriteError(`the ${what} ${JSON.stringify(shown(s))} contains a lone surrogate (half a UTF-16 pair), which a UTF-8 .hist file cannot hold`);
  }
  return histString(s);
}

/** The string a model text stands for: the model keeps non-identifier names JSON-quoted ("user:42"). */
function unquoted(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const inner = JSON.parse(text) as unknown;
      if (typeof inner === 'string') return inner;
    } catch { /* not JSON: quote it as it is */ }
  }
  return text;
}

/** A key as the language accepts it: identifiers and integers bare, anything else quoted. */
export function histKey(name: string, exact = false): string {
  if ((IDENT.test(name) && !KEYWORDS.has(name.toLowerCase())) || /^-?\d+$/.test(name)) return name;
  return quoted(unquoted(name), exact, 'key');
}

/**
 * A value: integers bare, strings (kept JSON-quoted by the model) re-escaped for `.hist`. An
 * integer of more than MAX_NUMBER_DIGITS digits is a HistWriteError: the parser refuses it, and
 * quoting it would make it a string, a different value (docs/hist-language.md).
 */
export function histValue(text: string, exact = false): string {
  if (/^-?\d+$/.test(text)) {
    const digits = text.length - (text.charCodeAt(0) === 45 ? 1 : 0);
    if (digits > MAX_NUMBER_DIGITS) throw new HistWriteError(`the value ${shown(text)} has ${digits} digits; a .hist number may have at most ${MAX_NUMBER_DIGITS}`);
    return text;
  }
  // A bare non-integer (a Jepsen float or ratio: 1.5, 1/2) has no .hist form: as the string "1.5"
  // it would be the same value as a string "1.5" the history may also hold (found by fuzzing).
  if (exact && !text.startsWith('"') && /^[-+]?[\d.]/.test(text)) {
    throw new HistWriteError(`the value ${shown(text)} is a number but not an integer; .hist values are integers or strings, and as a string it could be confused with one`);
  }
  return quoted(unquoted(text), exact, 'value');
}

/**
 * Each key's token, refusing two keys that would become one: `.hist` reads `x` and `"x"` as the
 * same key, where a Jepsen history may hold the number 1 and the string "1" apart.
 */
export function keyTokens(h: History, exact: boolean): string[] {
  const seen = new Map<string, number>();
  const keys: string[] = [];
  for (let k = 0; k < h.keyCount; k++) {
    const token = histKey(h.names.keyName(k), exact);
    const identity = token.startsWith('"') ? unquote(token) : token;
    const other = seen.get(identity);
    if (other !== undefined) {
      throw new HistWriteError(`the keys ${h.names.keyName(other)} and ${h.names.keyName(k)} would both be the key ${token} in .hist, which does not tell them apart`);
    }
    seen.set(identity, k);
    keys.push(token);
  }
  return keys;
}

/**
 * The tokens of a history's values (not the initial value), refusing two values that would become
 * one: a Jepsen history may hold the keyword :a and the string ":a" apart, which .hist both
 * writes as ":a".
 */
export class ValueTokens {
  private readonly tokens = new Map<number, string>();
  private readonly owners = new Map<string, number>();

  constructor(private readonly h: History, private readonly exact: boolean) {}

  of(v: number): string {
    let token = this.tokens.get(v);
    if (token !== undefined) return token;
    token = histValue(this.h.names.valueText(v), this.exact);
    const other = this.owners.get(token);
    if (other !== undefined && other !== v) {
      throw new HistWriteError(`the values ${this.h.names.valueText(other)} and ${this.h.names.valueText(v)} would both be the value ${token} in .hist, which does not tell them apart`);
    }
    this.tokens.set(v, token);
    this.owners.set(token, v);
    return token;
  }
}

/** A transaction's real-time interval as ` @ START..END`, '' without one; refused unless the parser reads it back. */
export function histInterval(h: History, t: number): string {
  const start = h.txnTimeStart?.[t] ?? NaN;
  const end = h.txnTimeEnd?.[t] ?? NaN;
  if (Number.isNaN(start) && Number.isNaN(end)) return '';
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start > end) {
    throw new HistWriteError(`the real-time interval ${start}..${end} of transaction ${shown(h.names.txnName(t))} is not two integers START ≤ END below 2^53, which a .hist interval needs`);
  }
  return ` @ ${start}..${end}`;
}

/**
 * Names made into identifiers (plume's `aborted@line7` → `aborted_line7`), unique. A name that is
 * an identifier already is kept (the first of names equal but for case); the others are renamed
 * around them, so no renamed name takes another's (`T` and `T1` stay `T` and `T1`).
 */
export function identifiers(names: string[], prefix: string): string[] {
  const used = new Set<string>();
  const valid = (n: string): boolean => IDENT.test(n) && !KEYWORDS.has(n.toLowerCase());
  const out = names.map((n) => {
    if (!valid(n) || used.has(n.toLowerCase())) return null;
    used.add(n.toLowerCase());
    return n;
  });
  // Per base name, the first suffix not yet tried: names only ever become used, so the search for
  // the next one resumes there. Restarting at 2 made n copies of one name quadratic (20,000
  // transactions named `a`: 13 s to convert a 60 KB file).
  const nextSuffix = new Map<string, number>();
  return names.map((n, i) => {
    const kept = out[i];
    if (kept !== null) return kept;
    let id = valid(n) ? n : n.replace(/[^A-Za-z0-9_.-]/g, '_');
    if (!/^[A-Za-z_]/.test(id)) id = `${prefix}${id}`;
    if (id === prefix) id = `${prefix}${i}`;
    let unique = id;
    let k = nextSuffix.get(id.toLowerCase()) ?? 2;
    for (; used.has(unique.toLowerCase()); k++) unique = `${id}_${k}`;
    nextSuffix.set(id.toLowerCase(), k);
    used.add(unique.toLowerCase());
    return unique;
  });
}

export interface HistWriteOptions {
  title: string | null;
  target: Target;
  /** What the leading comment says: the anomaly and its one-line explanation. */
  anomaly: string;
  message: string;
  /** Where the history came from, for the comment. */
  source: string;
}

/**
 * A litmus file: a comment naming the anomaly and the level, `history`, `init` values of the keys
 * used, `expect L violated` (homogeneous) or `level L` with the tags (mixed), then the sessions.
 * List-append operations, `unknown` statuses and real-time intervals are kept.
 */
export function writeHistText(h: History, o: HistWriteOptions): string {
  const lines: string[] = [];
  const levelText = o.target.level === 'mixed' ? `the mixed levels (untagged transactions at ${o.target.fallback})` : o.target.level;
  lines.push(o.anomaly === o.target.level
    ? `# Minimised witness: a violation of ${levelText}.`
    : `# Minimised witness: a violation of ${levelText} (${o.anomaly}).`);
  lines.push(`# ${o.message.replace(/[\r\n]+/g, ' ')}`);
  lines.push(`# Shrunk from ${o.source.replace(/[\r\n]+/g, ' ')} by isocheck (delta debugging: transactions, then operations).`);
  lines.push(`history ${histString(`${o.title ?? 'witness'} (minimised)`)}`);
  const mixed = o.target.level === 'mixed';
  if (o.target.level === 'mixed') lines.push(`level ${o.target.fallback}`);
  else lines.push(`expect ${o.target.level} violated`);

  // Two keys or values of the history written alike would make another history: refused (HistWriteError).
  const keys = keyTokens(h, false);
  const values = new ValueTokens(h, false);
  const usedKeys = new Set<number>();
  for (let op = 0; op < h.opCount; op++) usedKeys.add(h.opKey[op]);
  const inits = [...h.initValues].filter(([k]) => usedKeys.has(k)).sort((a, b) => a[0] - b[0]);
  if (inits.length > 0) lines.push(`init ${inits.map(([k, v]) => `${keys[k]} = ${values.of(v)}`).join(', ')}`);

  const txnNames = identifiers(Array.from({ length: h.txnCount }, (_, t) => (t === 0 ? 'init_' : h.names.txnName(t))), 'T');
  const sessionNames = identifiers(Array.from({ length: h.sessionCount }, (_, s) => h.names.sessionName(s)), 's');
  for (let s = 0; s < h.sessionCount; s++) {
    if (h.sessionTxnStart[s] === h.sessionTxnStart[s + 1]) continue;
    lines.push('', `session ${sessionNames[s]}`);
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      const tag = mixed && h.txnLevel[t] >= 0 ? ` [${levelById(h.txnLevel[t])}]` : '';
      const status = h.txnAborted[t] === 1 ? ' aborted' : h.txnUnknown?.[t] === 1 ? ' unknown' : '';
      const time = histInterval(h, t);
      const ops: string[] = [];
      for (let op = h.txnOpStart[t]; op < h.txnOpStart[t + 1]; op++) {
        const kind = h.opKind[op];
        const key = keys[h.opKey[op]];
        const v = h.opValue[op];
        if (kind === OP_LIST_READ) {
          const ls = h.opListStart as Int32Array;
          const items = Array.from((h.listElems as Int32Array).subarray(ls[op], ls[op + 1]), (x) => values.of(x));
          const named = sourceOf(h, op);
          ops.push(`r(${key}, [${items.join(', ')}])${named >= 0 ? ` <- ${txnNames[named]}` : ''}`);
        } else if (kind === OP_APPEND) {
          ops.push(`a(${key}, ${values.of(v)})`);
        } else if (kind === OP_READ) {
          const named = sourceOf(h, op);
          const src = named >= 0 ? ` <- ${txnNames[named]}` : '';
          const value = v === INIT_VALUE ? ', init' : v === NO_VALUE ? '' : `, ${values.of(v)}`;
          ops.push(`r(${key}${value})${src}`);
        } else {
          ops.push(`w(${key}, ${values.of(v)})`);
        }
      }
      lines.push(`  ${txnNames[t]}${tag}${status}${time}: ${ops.join(' ')}`.trimEnd());
    }
  }
  return lines.join('\n') + '\n';
}
