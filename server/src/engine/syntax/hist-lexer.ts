// Tokenizer for the .hist language: token kinds and offsets in typed arrays, text sliced on demand.

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

/** Tokens a window holds at first; it grows only when one item (a line's header, a long `init`) spans more. */
const WINDOW_TOKENS = 4096;

/**
 * The tokens of a text, lexed on demand into a window of typed arrays, by absolute token index.
 * The parser tells it (release) which tokens it will not ask for again, and the window reuses
 * their slots. Measured: the whole file's token columns (9 bytes per token, ~6 tokens per
 * operation, doubled while growing) were most of the peak memory of reading a large .hist file
 * (170 MB of 290 MB on a 1M-operation file); the window keeps a few kilobytes.
 */
export class TokenStream {
  /** The window: token `base + i` is at slot i. */
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  base = 0;
  /** Tokens lexed so far (absolute); the last is EOF once `done`. */
  lexed = 0;
  done = false;
  /** The text offset the lexer goes on from. */
  private at = 0;
  /** Tokens below this index may be dropped. */
  private keep = 0;

  constructor(readonly text: string, capacity = WINDOW_TOKENS) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  /** Token i's slot in the window, lexing up to it; past the end of the text, EOF's slot. */
  slot(i: number): number {
    if (i >= this.lexed) {
      this.fill(i);
      if (i >= this.lexed) i = this.lexed - 1;
    }
    if (i < this.base) throw new Error(`token ${i} was released (the window starts at ${this.base})`);
    return i - this.base;
  }

  kind(i: number): number {
    const at = this.slot(i); // first: lexing may replace the arrays
    return this.kinds[at];
  }

  start(i: number): number {
    const at = this.slot(i); // first: lexing may replace the arrays
    return this.starts[at];
  }

  end(i: number): number {
    const at = this.slot(i); // first: lexing may replace the arrays
    return this.ends[at];
  }

  /** The parser will not ask for tokens below i again. */
  release(i: number): void {
    if (i > this.keep) this.keep = i;
  }

  /** Lexes until token i exists or the text ends: a window's worth at a time. */
  private fill(i: number): void {
    while (i >= this.lexed && !this.done) {
      if (this.lexed - this.base === this.kinds.length) this.makeRoom();
      this.lex(this.base + this.kinds.length);
    }
  }

  /** Drops the released tokens, or doubles the window when none is. */
  private makeRoom(): void {
    const drop = Math.min(this.keep, this.lexed) - this.base;
    const live = this.lexed - this.base;
    if (drop > 0) {
      this.kinds.copyWithin(0, drop, live);
      this.starts.copyWithin(0, drop, live);
      this.ends.copyWithin(0, drop, live);
      this.base += drop;
      return;
    }
    const grow = <T extends Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    this.kinds = grow(this.kinds, (n) => new Uint8Array(n));
    this.starts = grow(this.starts, (n) => new Int32Array(n));
    this.ends = grow(this.ends, (n) => new Int32Array(n));
  }

  /** Lexes tokens until `limit` (absolute, exclusive) or the end of the text (then EOF). */
  private lex(limit: number): void {
    const text = this.text;
    const kinds = this.kinds;
    const starts = this.starts;
    const ends = this.ends;
    const base = this.base;
    const n = text.length;
    let i = this.at;
    let t = this.lexed;
    while (t < limit) {
      if (i >= n) {
        kinds[t - base] = TK_EOF;
        starts[t - base] = n;
        ends[t - base] = n;
        t++;
        this.done = true;
        break;
      }
      const c = text.charCodeAt(i);
      let k: number;
      let s = i;
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 0xfeff) {
        i++;
        continue;
      } else if (c === 35 || (c === 47 && text.charCodeAt(i + 1) === 47)) {
        // A comment ends at \n, \r\n or a lone \r (old Mac files): all three end a line.
        while (i < n && text.charCodeAt(i) !== 10 && text.charCodeAt(i) !== 13) i++;
        continue;
      } else if (isIdentStart(c)) {
        i++;
        while (i < n && isIdentPart(text.charCodeAt(i))) i++;
        k = TK_IDENT;
      } else if (isDigit(c) || (c === 45 && isDigit(text.charCodeAt(i + 1)))) {
        i++;
        while (i < n && isDigit(text.charCodeAt(i))) i++;
        k = TK_NUMBER;
      } else if (c === 34) {
        i++;
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
        if (i > n) i = n;
        k = closed ? TK_STRING : TK_BAD;
      } else if (c === 60 && text.charCodeAt(i + 1) === 45) {
        i += 2;
        k = TK_ARROW;
      } else if (c === 46 && text.charCodeAt(i + 1) === 46) {
        i += 2;
        k = TK_DOTDOT;
      } else if (c === 64) {
        i++;
        k = TK_AT;
      } else if (c === 0x22a5) {
        i++;
        k = TK_BOTTOM;
      } else if (PUNCT[c] !== undefined) {
        i++;
        k = PUNCT[c];
      } else {
        // One bad token per run of unknown characters keeps a pasted blob to one error.
        s = i++;
        while (i < n) {
          const d = text.charCodeAt(i);
          if (d === 32 || d === 9 || d === 10 || d === 13 || isIdentStart(d) || isDigit(d) || PUNCT[d] !== undefined || d === 34 || d === 35 || d === 64) break;
          i++;
        }
        k = TK_BAD;
      }
      kinds[t - base] = k;
      starts[t - base] = s;
      ends[t - base] = i;
      t++;
    }
    this.at = i;
    this.lexed = t;
  }
}

/** The whole text's tokens at once (for tools that look around freely; the parser streams them). */
export function tokenize(text: string): Tokens {
  const stream = new TokenStream(text, Math.max(16, Math.ceil(text.length / 3) + 16));
  stream.slot(0x7fffffff);
  const count = stream.lexed;
  return { kind: stream.kinds.slice(0, count), start: stream.starts.slice(0, count), end: stream.ends.slice(0, count), count };
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
