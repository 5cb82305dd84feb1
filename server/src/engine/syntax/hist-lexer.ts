// Tokenizer for the .hist language: token kinds and offsets in typed arrays, text sliced on demand.

import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';

export const TK_EOF = 0;
export const TK_IDENT = 1;
export const TK_NUMBER = 2;
export const TK_STRING = 3;
export const TK_LPAREN = 4;
export const TK_RPAREN = 5;
export const TK_LBRACKET = 6;
export const TK_RBRACKET = 7;
export const TK_COMMA = 8;
export const TK_COLON = 9;
export const TK_EQUALS = 10;
export const TK_ARROW = 11;
export const TK_BOTTOM = 12; // ⊥
export const TK_BAD = 13; // a character the language does not use, or an unterminated string
export const TK_AT = 14; // '@' before a real-time interval
export const TK_DOTDOT = 15; // '..' inside a real-time interval

export const TOKEN_NAMES = ['end of file', 'name', 'number', 'string', "'('", "')'", "'['", "']'", "','", "':'", "'='", "'<-'", "'⊥'", 'character', "'@'", "'..'"];

export interface Tokens {
  kind: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  count: number; // includes the final EOF token
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

const PUNCT: Record<number, number> = {
  40: TK_LPAREN, 41: TK_RPAREN, 91: TK_LBRACKET, 93: TK_RBRACKET, 44: TK_COMMA, 58: TK_COLON, 61: TK_EQUALS,
};

export function tokenize(text: string): Tokens {
  const kind = new Uint8Vec(text.length / 3 + 16);
  const start = new Int32Vec(text.length / 3 + 16);
  const end = new Int32Vec(text.length / 3 + 16);
  const push = (k: number, s: number, e: number): void => {
    kind.push(k);
    start.push(s);
    end.push(e);
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) {
      i++;
    } else if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
      // A comment ends at \n, \r\n or a lone \r (old Mac files): all three end a line.
      while (i < n && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
    } else if (isIdentStart(c)) {
      const s = i++;
      while (i < n && isIdentPart(text.charCodeAt(i))) i++;
      push(TK_IDENT, s, i);
    } else if (isDigit(c) || (c === 45 && isDigit(text.charCodeAt(i + 1)))) {
      const s = i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      push(TK_NUMBER, s, i);
    } else if (c === 34) {
      const s = i++;
      let closed = false;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) {
          i++;
          closed = true;
          break;
        } else if (d === 10 || d === 13) break;
        else i++;
      }
      push(closed ? TK_STRING : TK_BAD, s, Math.min(i, n));
    } else if (c === 60 && text.charCodeAt(i + 1) === 45) {
      push(TK_ARROW, i, i + 2);
      i += 2;
    } else if (c === 46 && text.charCodeAt(i + 1) === 46) {
      push(TK_DOTDOT, i, i + 2);
      i += 2;
    } else if (c === 64) {
      push(TK_AT, i, i + 1);
      i++;
    } else if (c === 0x22a5) {
      push(TK_BOTTOM, i, i + 1);
      i++;
    } else if (PUNCT[c] !== undefined) {
      push(PUNCT[c], i, i + 1);
      i++;
    } else {
      // One bad token per run of unknown characters keeps a pasted blob to one error.
      const s = i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 32 || d === 9 || d === 10 || d === 13 || isIdentStart(d) || isDigit(d) || PUNCT[d] !== undefined || d === 34 || d === 35 || d === 64) break;
        i++;
      }
      push(TK_BAD, s, i);
    }
  }
  push(TK_EOF, n, n);
  return { kind: kind.toArray(), start: start.toArray(), end: end.toArray(), count: kind.length };
}

/** The content of a string token: `\"` and `\\` resolved (the only escapes); any other backslash stays. */
export function unquote(raw: string): string {
  let out = '';
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i];
    const d = raw[i + 1];
    if (c === '\\' && (d === '"' || d === '\\') && i + 1 < raw.length - 1) {
      out += d;
      i++;
    } else out += c;
  }
  return out;
}
