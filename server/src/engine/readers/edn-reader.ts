// Reader for Jepsen's EDN histories (one map per line, or one vector of maps), straight from bytes.
//
// Written by hand for speed (measured in bench/edn-parsers.ts): the npm package edn-data (1.2.2)
// parses 13–19 MB/s on this machine into plain objects alone, so the 1,000,000-transaction history
// of bench/list-append.ts (511 MB) would take 25 s or more, against a 10 s budget for reading and
// the whole analysis; this reader takes it from bytes into the history's typed arrays in 4–5 s.
// This reader understands the EDN that Jepsen histories use (maps, vectors, lists, sets, keywords,
// integers, floats, strings, characters, nil, booleans, #tags, #_ discards) and skips what it does
// not need; micro-ops compare scalars only (a set or tagged value there is refused, not merged).
// Integers are exact up to MAX_INTEGER_DIGITS digits (beyond 2^53 interned by their decimal text).
// Values are equal as Clojure's = says: the string "a", the keyword :a and the symbol a differ, and
// so do the float 1.0 and the integer 1.

import type { Finding } from '../model/diagnostics.ts';
import type { History } from '../model/history.ts';
import { LineIndex, pushByteLineStarts, utf8Sequences } from '../syntax/line-index.ts';
import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';
import { utf8 } from '../util/utf8.ts';
import { stopDue } from '../util/stop.ts';
import {
  canonicalInteger, EV_FAIL, EV_INFO, EV_INVOKE, EV_OK, invalidEvent, JepsenAssembler, looksListAppend, MAX_INTEGER_DIGITS, MOP_APPEND, MOP_READ, MOP_WRITE,
  SKIP_NO_OPS, SKIP_NOT_TXN,
} from './jepsen-history.ts';

export interface JepsenFile {
  history: History;
  findings: Finding[];
  lines: LineIndex;
}

/**
 * A problem at `at`. `syntax`: the input is not EDN there ("malformed EDN"); otherwise it is
 * well-formed EDN that is no event IsoCheck can read, and messages must not call it malformed.
 */
class EdnError extends Error {
  constructor(message: string, readonly at: number, readonly syntax = false) {
    super(message);
  }
}

/** Work counts of the reader, for tests: duplicate-key tests of the other keys of event maps. */
export const ednWork = { keyTests: 0 };

/** Other keys of one event compared pairwise; past this many, by a set of their bytes. */
const OTHER_KEYS_PAIRWISE = 16;
const C_LBRACE = 123;
const C_RBRACE = 125;
const C_LBRACK = 91;
const C_RBRACK = 93;
const C_LPAREN = 40;
const C_RPAREN = 41;
const C_COLON = 58;
const C_QUOTE = 34;
const C_HASH = 35;

const K_OTHER = 0;
const K_TYPE = 1;
const K_F = 2;
const K_PROCESS = 3;
const K_TIME = 4;
const K_INDEX = 5;
const K_VALUE = 6;

/** An event's :f: absent (or nil), :txn, or anything else (the nemesis's :start, …). */
const F_ABSENT = 0;
const F_TXN = 1;
const F_OTHER = 2;
/** An event's :value: absent, a vector of micro-ops (its first element a vector, or empty), or anything else. */
const V_ABSENT = 0;
const V_OPS = 1;
const V_OTHER = 2;
/** scalar() at a closing bracket: no value there (Elle's two-element read [:r k]). */
const MISSING = -2;
/** skipForm()'s mark of an open map (bit 0 holds the parity of its forms). */
const MAP_FORM = 2;

/** A plain digit run this long or shorter is below 2^53 (the scalar fast path's bound). */
const SAFE_DIGITS = 15;
/** How much of an offending token a message quotes. */
const SHOWN_CHARS = 40;
/** EDN's floating-point literals (integers are read before): digits, then a fraction, an exponent or M. */
const FLOAT = /^[+-]?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?M?$/;
/** Clojure's ratios (1/2): no EDN number, kept as written. */
const RATIO = /^[+-]?\d+\/\d+$/;
/** EDN forbids leading zeros, and Clojure would read 017 as octal 15: refused rather than guessed. */
const LEADING_ZERO = (token: string): string => `the integer '${token}' starts with 0, which EDN does not allow (Clojure would read it as an octal number)`;
/** What a micro-op compares: scalars only. Sets, tags, maps and characters are refused rather than compared by their text (#{1 2} equals #{2 1}). */
const NOT_SCALAR = (what: string): string => `${what} as a micro-op's key, value or list element: IsoCheck compares integers, floats, strings, keywords and symbols there`;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 44; // commas are whitespace in EDN
}

const DELIMITER = new Uint8Array(256);
for (const c of [32, 10, 13, 9, 44, C_LBRACE, C_RBRACE, C_LBRACK, C_RBRACK, C_LPAREN, C_RPAREN, C_QUOTE, 59]) DELIMITER[c] = 1;

function isDelimiter(c: number): boolean {
  return DELIMITER[c] === 1;
}

/**
 * utf8: the bytes are the file's UTF-8 (false: one byte per UTF-16 code unit, bytesOf a text, whose
 * offsets already count code units). stop: polled every STOP_POLL_ITEMS events; true ends the read
 * there, with the events read so far (ReaderOptions.stop).
 */
export function readJepsenEdn(bytes: Uint8Array, utf8 = true, stop?: () => boolean): JepsenFile {
  const lineStarts = new Int32Vec(1024);
  lineStarts.push(0);
  // indexOf finds line ends natively: a JS loop over every byte took 0.6 s on the bench's 511 MB.
  // A lone \r ends a line too, as editors count lines (a CR-only file is not one long line).
  pushByteLineStarts(bytes, lineStarts);
  // Columns in UTF-16 code units, as LSP ranges count them (the reader's offsets are bytes).
  const lines = LineIndex.ofLineStarts(lineStarts.toArray(), utf8 ? utf8Sequences(bytes) : null);
  const asm = new JepsenAssembler((bytes.length / 30) | 0, looksListAppend(bytes));
  const p = new EdnParser(bytes, asm, lineStarts, stop);
  p.run();
  return { history: asm.finish(), findings: asm.findings, lines };
}

class EdnParser {
  private i = 0;
  private readonly n: number;

  constructor(private readonly b: Uint8Array, private readonly asm: JepsenAssembler, private readonly lineStarts: Int32Vec, private readonly stop?: () => boolean) {
    this.n = b.length;
  }

  private lineOf(at: number): number {
    const s = this.lineStarts.data;
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The start of the line after the one holding `at` (a comment's end, where reading resumes after an error): after its \n, \r\n or lone \r, as lineStarts counts them. */
  private nextLine(at: number): number {
    const s = this.lineStarts.data;
    const next = this.lineOf(at);
    return next < this.lineStarts.length ? s[next] : this.n;
  }

  /** Where the last skipped (malformed) stretch ended: a closing bracket in it was lost, not missing. */
  private skippedTo = -1;

  /** Reports a syntax error at `at` (the event from `start` is skipped) and resumes at the next line. */
  private malformed(message: string, start: number, at: number): void {
    // An error at the end of the file is shown on the last line that has something.
    at = Math.min(at, this.n);
    if (at >= this.n) {
      at = this.n - 1;
      while (at > start && isSpace(this.b[at])) at--;
    }
    this.asm.problem(`malformed EDN at line ${this.lineOf(at)}: ${message}; the event is skipped`, at, this.tokenEnd(at));
    this.i = this.nextLine(Math.max(at, start));
    this.skippedTo = this.i;
  }

  /** ws() between events: a malformed #_ discard there is reported like a malformed event. */
  private topWs(): void {
    for (;;) {
      const start = this.i;
      try {
        this.ws();
        return;
      } catch (e) {
        if (!(e instanceof EdnError)) throw e;
        this.malformed(e.message, start, e.at);
      }
    }
  }

  run(): void {
    let eventNo = 0;
    // A UTF-8 byte order mark (editors on Windows write one) is no part of the first event.
    if (this.n >= 3 && this.b[0] === 0xef && this.b[1] === 0xbb && this.b[2] === 0xbf) this.i = 3;
    this.topWs();
    // A history written as one vector (or list) of maps: step inside it, and expect it closed.
    let open = -1;
    if (this.i < this.n && (this.b[this.i] === C_LBRACK || this.b[this.i] === C_LPAREN)) {
      open = this.i++;
      this.topWs();
    }
    for (let items = 1; this.i < this.n; items++) {
      // A stopped read is dropped (nothing is analysed), so the unclosed history vector is not reported.
      if (stopDue(this.stop, items)) return;
      const c = this.b[this.i];
      if (c === C_RBRACK || c === C_RPAREN) {
        const want = open < 0 ? -1 : this.b[open] === C_LBRACK ? C_RBRACK : C_RPAREN;
        if (c !== want) {
          const what = open < 0 ? 'no history vector is open' : `the history opened with '${String.fromCharCode(this.b[open])}' at line ${this.lineOf(open)} closes with '${String.fromCharCode(want)}'`;
          this.asm.problem(`malformed EDN at line ${this.lineOf(this.i)}: unexpected '${String.fromCharCode(c)}' (${what})`, this.i, this.i + 1);
        }
        open = -1;
        this.i++;
        this.topWs();
        continue;
      }
      const start = this.i;
      this.eventType = -2;
      try {
        if (c === C_HASH) this.skipTag("an event map '{…}'");
        if (this.b[this.i] !== C_LBRACE) throw new EdnError(`expected an event map '{…}', found ${this.describe()}`, this.i);
        this.eventMap(eventNo++);
      } catch (e) {
        if (!(e instanceof EdnError)) throw e;
        if (this.eventType === EV_INVOKE) this.asm.markInvoke();
        this.failed(e, start);
      }
      this.topWs();
    }
    if (open >= 0) {
      let last = this.n - 1;
      while (last > open && isSpace(this.b[last])) last--;
      const lost = last < this.skippedTo && this.b[last] === (this.b[open] === C_LBRACK ? C_RBRACK : C_RPAREN);
      if (!lost) {
        const close = this.b[open] === C_LBRACK ? ']' : ')';
        this.asm.problem(`malformed EDN at line ${this.lineOf(last)}: the history's '${String.fromCharCode(this.b[open])}' at line ${this.lineOf(open)} is never closed (expected '${close}' at the end of the file)`,
          last, last + 1);
      }
    }
  }

  /**
   * An event from `start` that could not be read. Unless the error is a syntax error already, the
   * form is checked from its start: well-formed EDN is an invalid event and reading resumes right
   * after it (a pretty-printed event spans lines); a form that is not EDN is malformed, and
   * reading resumes at the next line.
   */
  private failed(e: EdnError, start: number): void {
    if (!e.syntax) {
      this.i = start;
      try {
        this.skipForm();
      } catch (s) {
        if (!(s instanceof EdnError)) throw s;
        this.malformed(s.message, start, s.at);
        return;
      }
      const at = Math.max(start, Math.min(e.at, this.i - 1));
      this.asm.problem(invalidEvent(this.lineOf(at), e.message), at, this.tokenEnd(at));
      return;
    }
    this.malformed(e.message, start, e.at);
  }

  /**
   * The end of the token at `at`, where a problem's range ends: the range is the token the message
   * names (an editor's squiggle, the CLI's line:column), not the event from its start up to it
   * (a bad value at column 86 was reported at column 1). At least one byte, at most SHOWN_CHARS.
   */
  private tokenEnd(at: number): number {
    let end = at + 1;
    while (end < this.n && end < at + SHOWN_CHARS && !isDelimiter(this.b[end]) && this.b[end] !== 10 && this.b[end] !== 13) end++;
    while (end < this.n && (this.b[end] & 0xc0) === 0x80) end++; // not inside a character
    return Math.min(end, Math.max(this.n, at + 1));
  }

  /** The token [s, e) for a message, cut at SHOWN_CHARS bytes. */
  private shown(s: number, e: number): string {
    return e - s > SHOWN_CHARS ? `${this.text(s, s + SHOWN_CHARS)}…` : this.text(s, e);
  }

  private describe(): string {
    if (this.i >= this.n) return 'the end of the file';
    let end = this.i + 1;
    while (end < this.n && end < this.i + 20 && !isDelimiter(this.b[end])) end++;
    return `'${utf8(this.b, this.i, end)}'`;
  }

  /** Whitespace, commas, comments, and #_ discards (the form after #_ is EDN's whitespace, in effect). */
  private ws(): void {
    for (;;) {
      this.wsPlain();
      if (this.b[this.i] !== C_HASH || this.b[this.i + 1] !== 95) return;
      this.i += 2;
      this.skipForm(); // iterative, and it never calls ws(): #_#_#_… cannot nest calls
    }
  }

  /** ws() without discards, for skipForm(), which counts #_ itself. */
  private wsPlain(): void {
    const b = this.b;
    while (this.i < this.n) {
      const c = b[this.i];
      if (isSpace(c)) this.i++;
      else if (c === 59) this.i = this.nextLine(this.i);
      else break;
    }
  }

  /** `#tag` before a value (e.g. #jepsen.history.Op{…}): skipped. A set #{…} is refused: `expected` is no set. */
  private skipTag(expected: string): void {
    this.i++;
    if (this.i < this.n && this.b[this.i] === C_LBRACE) throw new EdnError(`expected ${expected}, found a set '#{…}'`, this.i - 1);
    while (this.i < this.n && !isDelimiter(this.b[this.i])) this.i++;
    this.ws();
  }

  /** Where the last token() or keyword() started; they return where it ends (no tuple: this is hot). */
  private ts = 0;

  /** The symbol or keyword token at i (without the colon): [ts, returned end). */
  private token(): number {
    const s = this.i;
    const b = this.b;
    while (this.i < this.n && !isDelimiter(b[this.i])) this.i++;
    if (this.i === s) throw new EdnError(`expected a value, found ${this.describe()}`, s);
    this.ts = s;
    return this.i;
  }

  private is(s: number, e: number, word: string): boolean {
    if (e - s !== word.length) return false;
    for (let j = 0; j < word.length; j++) if (this.b[s + j] !== word.charCodeAt(j)) return false;
    return true;
  }

  private text(s: number, e: number): string {
    return utf8(this.b, s, e);
  }

  private keyword(): number {
    if (this.b[this.i] !== C_COLON) throw new EdnError(`expected a keyword, found ${this.describe()}`, this.i);
    this.i++;
    return this.token();
  }

  /**
   * The exact decimal text (canonicalInteger) of an integer token `[+-]digits[N]` at [s, e), or
   * null when the token is not an integer. More than MAX_INTEGER_DIGITS digits is an error.
   */
  private integerText(s: number, e: number): string | null {
    const b = this.b;
    let j = s;
    const neg = b[j] === 45;
    if (neg || b[j] === 43) j++;
    const end = e > j && b[e - 1] === 78 ? e - 1 : e; // 42N: a bigint, the same integer
    if (j >= end) return null;
    for (let k = j; k < end; k++) if (b[k] < 48 || b[k] > 57) return null;
    if (b[j] === 48 && end - j > 1) throw new EdnError(LEADING_ZERO(this.shown(s, e)), s, true);
    if (end - j > MAX_INTEGER_DIGITS) throw new EdnError(`a number may have at most ${MAX_INTEGER_DIGITS} digits (this one has ${end - j})`, s);
    return canonicalInteger(neg, this.text(j, end));
  }

  /** An integer token within ±(2^53−1) (:time, :index, :process), or NaN. */
  private safeInteger(s: number, e: number): number {
    const b = this.b;
    let j = s;
    const neg = b[j] === 45;
    if (neg || b[j] === 43) j++;
    const end = e > j && b[e - 1] === 78 ? e - 1 : e;
    if (j >= end || end - j > 20 || (b[j] === 48 && end - j > 1)) return NaN;
    let v = 0;
    for (; j < end; j++) {
      const c = b[j];
      if (c < 48 || c > 57) return NaN;
      v = v * 10 + (c - 48);
    }
    // Exact while below 2^53; past it the rounded sum stays past it (rounding is monotone).
    return Number.isSafeInteger(v) ? (neg ? -v : v) : NaN;
  }

  /**
   * A non-integer token that starts like a number (after its sign, a digit): an EDN float (1.5,
   * 1e3, 2.) as a double, a BigDecimal (1.5M) as a double and `decimal` set, or a ratio (1/2,
   * Clojure's) as NaN: it is kept as written. Anything else (0x1F, 1e, 1.2.3) is an error: Clojure
   * would read some of these as other numbers (0x1F is 31). Returns null for a symbol.
   */
  private number(s: number, e: number): { x: number; decimal: boolean } | null {
    const b = this.b;
    const d = b[s] === 45 || b[s] === 43 ? s + 1 : s;
    if (d >= e || b[d] < 48 || b[d] > 57) return null; // symbols (Infinity, -foo) are not numbers
    const token = this.text(s, e);
    if (RATIO.test(token)) return { x: NaN, decimal: false };
    if (!FLOAT.test(token)) throw new EdnError(`'${this.shown(s, e)}' is not a number EDN knows (integers, floats such as 1.5 or 1e3, decimals such as 1.5M)`, s, true);
    const decimal = token.endsWith('M');
    const x = Number(decimal ? token.slice(0, -1) : token);
    if (x === Infinity || x === -Infinity) throw new EdnError(`the number '${this.shown(s, e)}' is out of range`, s);
    return { x, decimal };
  }

  /** A scalar (number, string, keyword, symbol) as an id of `ids`; nil yields -1. */
  private scalar(ids: JepsenAssembler['keys']): number {
    const b = this.b;
    const c = b[this.i];
    // Fast path (most keys and list elements): a plain non-negative integer, digits up to a delimiter.
    if (c >= 48 && c <= 57) {
      let j = this.i;
      let v = 0;
      let d = c;
      while (d >= 48 && d <= 57) {
        v = v * 10 + (d - 48);
        d = ++j < this.n ? b[j] : 32;
      }
      if (DELIMITER[d] === 1 && j - this.i <= SAFE_DIGITS && (c !== 48 || j - this.i === 1)) {
        this.ts = this.i;
        this.i = j;
        return ids.num(v);
      }
    }
    if (c === C_QUOTE) return ids.text(this.string());
    if (c === C_COLON) {
      const e = this.keyword();
      return ids.keyword(this.text(this.ts, e));
    }
    if (c === C_RBRACK || c === C_RPAREN) return MISSING;
    if (c === C_HASH || c === C_LBRACE || c === C_LBRACK || c === C_LPAREN || c === 92) throw new EdnError(NOT_SCALAR(this.notScalar()), this.i);
    const e = this.token();
    const s = this.ts;
    if (this.b[s] === 110 && this.is(s, e, 'nil')) return -1;
    const int = this.integerText(s, e);
    if (int !== null) return ids.integer(int);
    const n = this.number(s, e);
    if (n === null || Number.isNaN(n.x)) return ids.symbol(this.text(s, e));
    return n.decimal ? ids.decimal(n.x) : ids.float(n.x);
  }

  /** What the composite or tagged form at i is, for NOT_SCALAR. */
  private notScalar(): string {
    const c = this.b[this.i];
    if (c === C_LBRACE) return 'a map';
    if (c === C_LBRACK) return 'a vector';
    if (c === C_LPAREN) return 'a list';
    if (c === 92) return `the character '${this.shown(this.i, Math.max(this.peekEnd(), this.i + 2))}'`;
    const d = this.b[this.i + 1];
    if (d === C_LBRACE) return 'a set #{…}';
    if (d === C_HASH) return `the symbolic value '${this.shown(this.i, this.peekEnd())}'`; // ##Inf, ##NaN (NaN equals nothing)
    return `the tagged value '${this.shown(this.i, Math.max(this.peekEnd(), this.i + 1))} …'`;
  }

  /** The string at i (at its '"'), its escapes decoded. */
  private string(): string {
    const s = ++this.i;
    let escaped = false;
    while (this.i < this.n && this.b[this.i] !== C_QUOTE) {
      if (this.b[this.i] === 92) {
        escaped = true;
        this.i++;
      }
      this.i++;
    }
    if (this.i >= this.n) throw new EdnError('unterminated string', s - 1, true);
    const e = this.i++;
    return escaped ? this.unescape(s, e) : this.text(s, e);
  }

  /** The string body [s, e) with EDN's escapes: \t \r \n \\ \" and \uXXXX; any other is an error. */
  private unescape(s: number, e: number): string {
    const b = this.b;
    let out = '';
    let from = s;
    for (let j = s; j < e; j++) {
      if (b[j] !== 92) continue;
      out += this.text(from, j); // a backslash is ASCII: no UTF-8 sequence is cut
      const c = b[j + 1];
      if (c === 110) out += '\n';
      else if (c === 116) out += '\t';
      else if (c === 114) out += '\r';
      else if (c === 92) out += '\\';
      else if (c === C_QUOTE) out += '"';
      else if (c === 117) {
        let code = 0;
        for (let k = j + 2; k < j + 6; k++) {
          const h = k < e ? b[k] : -1;
          const digit = h >= 48 && h <= 57 ? h - 48 : h >= 97 && h <= 102 ? h - 87 : h >= 65 && h <= 70 ? h - 55 : -1;
          if (digit < 0) throw new EdnError(`'\\u' in a string must be followed by four hexadecimal digits, found '\\u${this.text(j + 2, Math.min(k + 1, e))}'`, j, true);
          code = code * 16 + digit;
        }
        out += String.fromCharCode(code); // a surrogate pair comes as two escapes, joined here
        j += 4;
      } else {
        let ce = j + 2; // the whole character after the backslash (UTF-8 continuation bytes)
        while (ce < e && (b[ce] & 0xc0) === 0x80) ce++;
        throw new EdnError(`unknown escape '\\${this.text(j + 1, ce)}' in a string (EDN has \\t, \\r, \\n, \\\\, \\" and \\uXXXX)`, j, true);
      }
      j++;
      from = j + 1;
    }
    return out + this.text(from, e);
  }

  /** skipForm()'s stack: per open form its closing bracket, and a map's state (MAP_FORM, its parity in bit 0). */
  private readonly closers = new Uint8Vec(16);
  private readonly mapState = new Uint8Vec(16);

  /**
   * Skips one form of any shape and checks that it is EDN: brackets that match, maps of pairs,
   * strings with valid escapes; sets, tags (#inst "…", #uuid "…", #jepsen.history.Op{…}, any
   * #tag form), ##Inf, characters (\a, \() and #_ discards included. Tokens are not checked (a
   * skipped value may hold Clojure's #object[… 0x1f …]). Every error it throws is a syntax error.
   * No recursion (a stack of open brackets): values may nest without bound.
   */
  private skipForm(): void {
    const b = this.b;
    const closers = this.closers;
    const maps = this.mapState;
    closers.length = maps.length = 0;
    let discards = 0; // #_ before the form itself: that many more forms to skip
    for (;;) {
      this.wsPlain();
      if (this.i >= this.n) throw new EdnError('the file ends inside a value', this.i, true);
      const c = b[this.i];
      if (c === C_LBRACE || c === C_LBRACK || c === C_LPAREN) {
        closers.push(c === C_LBRACE ? C_RBRACE : c === C_LBRACK ? C_RBRACK : C_RPAREN);
        maps.push(c === C_LBRACE ? MAP_FORM : 0);
        this.i++;
        continue;
      }
      if (c === C_RBRACE || c === C_RBRACK || c === C_RPAREN) {
        const top = closers.length - 1;
        if (top < 0) throw new EdnError(`unexpected '${String.fromCharCode(c)}'`, this.i, true);
        if (c !== closers.data[top]) throw new EdnError(`unexpected '${String.fromCharCode(c)}' (expected '${String.fromCharCode(closers.data[top])}')`, this.i, true);
        if (maps.data[top] === (MAP_FORM | 1)) throw new EdnError('a map with an odd number of forms (a key without its value)', this.i, true);
        closers.length = maps.length = top;
        this.i++;
      } else if (c === C_HASH) {
        const d = this.i + 1 < this.n ? b[this.i + 1] : 32;
        if (d === C_LBRACE) { // a set
          closers.push(C_RBRACE);
          maps.push(0);
          this.i += 2;
          continue;
        }
        if (d === 95) { // #_: the next form is discarded, and counts for nothing in a map
          this.i += 2;
          if (closers.length === 0) discards++;
          else maps.data[closers.length - 1] ^= 1;
          continue;
        }
        if (d === C_QUOTE) { // #"regex" (Clojure's): its backslashes are the regex's, not string escapes
          this.i++;
          this.rawString();
        } else if (d === C_HASH) { // ##Inf, ##NaN
          this.i++;
          this.token();
        } else { // #tag: the form it tags follows
          if (isDelimiter(d)) throw new EdnError("a '#' without a tag", this.i, true);
          this.i++;
          this.token();
          continue;
        }
      } else if (c === C_QUOTE) this.string();
      else if (c === 92) { // a character: \a, \newline, or any one character (\( included)
        this.i = Math.min(this.i + 2, this.n);
        while (this.i < this.n && !isDelimiter(b[this.i])) this.i++;
      } else this.token(); // not a delimiter (wsPlain and the cases above took those): never empty
      // One whole form ended.
      if (closers.length === 0) {
        if (discards === 0) return;
        discards--;
      } else maps.data[closers.length - 1] ^= 1;
    }
  }

  /** A string whose backslashes are not decoded (Clojure's #"regex"): to its closing '"'. */
  private rawString(): void {
    const s = this.i++;
    while (this.i < this.n && this.b[this.i] !== C_QUOTE) this.i += this.b[this.i] === 92 ? 2 : 1;
    if (this.i >= this.n) throw new EdnError('unterminated string', s, true);
    this.i++;
  }

  /** The event map key spelled by [s, e): one of K_*. */
  private eventKey(s: number, e: number): number {
    const c = this.b[s];
    switch (e - s) {
      case 1:
        return c === 102 ? K_F : K_OTHER;
      case 4:
        return c === 116 ? (this.is(s, e, 'type') ? K_TYPE : this.is(s, e, 'time') ? K_TIME : K_OTHER) : K_OTHER;
      case 5:
        return c === 118 ? (this.is(s, e, 'value') ? K_VALUE : K_OTHER) : c === 105 && this.is(s, e, 'index') ? K_INDEX : K_OTHER;
      case 7:
        return c === 112 && this.is(s, e, 'process') ? K_PROCESS : K_OTHER;
      default:
        return K_OTHER;
    }
  }

  /**
   * One event map. Which events are transactions: :f :txn, or no :f and micro-ops as :value (as
   * Elle reads its tests' ops). Another :f (the nemesis's) is skipped whatever well-formed values
   * it carries, and so is an event with neither. :f may come after the fields it decides about:
   * until it is known, a field that cannot be read is skipped and its problem kept for the end.
   */
  /** The current event's :type once read (-2 before): a refused invoke still counts as one (markInvoke). */
  private eventType = -2;

  private eventMap(eventNo: number): void {
    const asm = this.asm;
    const start = this.i++;
    asm.resetScratch();
    let type = -2;
    let f = F_ABSENT;
    let value = V_ABSENT;
    let process = -1;
    /** A process that is not a safe integer: its label and session name (namedProcessSlot). */
    let processLabel: string | null = null;
    let processSession = '';
    let time = NaN;
    let index = -1;
    /** The first problem of a field read before :f: an error if the event turns out a transaction. */
    let pending: EdnError | null = null;
    /** The known keys seen (bit K_*), and the other keys' spans: EDN forbids a key twice in a map. */
    let seen = 0;
    this.otherKeys.length = 0;
    for (;;) {
      this.ws();
      if (this.i >= this.n) throw new EdnError("the file ends inside an event: expected '}'", this.i, true);
      if (this.b[this.i] === C_RBRACE) {
        this.i++;
        break;
      }
      const ke = this.keyword();
      const ks = this.ts;
      this.ws();
      if (this.i >= this.n) throw new EdnError('the file ends after a key', this.i, true);
      // Which key: by length and first letter, then one comparison (this runs per key of every event).
      const key = this.eventKey(ks, ke);
      if (key !== K_OTHER) {
        if ((seen & (1 << key)) !== 0) throw new EdnError(`the key :${this.text(ks, ke)} appears twice in an event map (EDN forbids duplicate keys)`, ks - 1, true);
        seen |= 1 << key;
      } else this.otherKey(ks, ke);
      if (key === K_TYPE) {
        // Every Jepsen operation has one of the four types, the nemesis's too: checked on all events.
        const e = this.keyword();
        const s = this.ts;
        const c = this.b[s];
        type = c === 105 ? (this.is(s, e, 'invoke') ? EV_INVOKE : this.is(s, e, 'info') ? EV_INFO : -1)
          : c === 111 && this.is(s, e, 'ok') ? EV_OK : c === 102 && this.is(s, e, 'fail') ? EV_FAIL : -1;
        if (type < 0) throw new EdnError(`unknown :type :${this.text(s, e)} (expected :invoke, :ok, :fail or :info)`, s);
        this.eventType = type;
      } else if (key === K_F) {
        const c = this.b[this.i];
        if (c === C_COLON) {
          const e = this.keyword();
          f = this.is(this.ts, e, 'txn') ? F_TXN : F_OTHER;
        } else if (c === C_QUOTE) {
          // "txn" as a string would be skipped as a non-transaction operation: its transaction
          // would never be checked (a false clean verdict). Said instead.
          const fs = this.string();
          if (fs === 'txn' || fs === ':txn') throw new EdnError(`:f is the string ${JSON.stringify(fs)}; a transaction is :f :txn (a keyword)`, start);
          f = F_OTHER;
        } else if (this.is(this.i, this.peekEnd(), 'nil')) this.token(); // :f nil: as if absent
        else {
          this.skipForm();
          f = F_OTHER;
        }
      } else if (key === K_OTHER || f === F_OTHER) this.skipForm(); // not read: a non-transaction's fields may hold anything
      else {
        const vs = this.i;
        try {
          if (key === K_PROCESS) {
            // A process is a session whatever its spelling: 3 is `p3`, :p2 is `:p2`, "p2" is `"p2"`.
            const c = this.b[this.i];
            if (c === C_COLON) {
              const e = this.keyword();
              processLabel = processSession = `:${this.text(this.ts, e)}`;
            } else if (c === C_QUOTE) processLabel = processSession = JSON.stringify(this.string());
            else if (c === C_LBRACK || c === C_LBRACE || c === C_LPAREN || c === C_HASH) {
              throw new EdnError(`:process must be a non-negative integer, a keyword or a string, found ${this.describe()}`, this.i);
            } else {
              const e = this.token();
              const s = this.ts;
              process = this.safeInteger(s, e);
              if (Number.isNaN(process)) {
                process = -1;
                if (!this.is(s, e, 'nil')) { // nil: no process, as if the key were absent
                  const int = this.integerText(s, e);
                  if (int === null || int.charCodeAt(0) === 45) throw new EdnError(`:process must be a non-negative integer, a keyword or a string, found '${this.shown(s, e)}'`, s);
                  processLabel = int; // beyond 2^53: named by its exact digits
                  processSession = `p${int}`;
                }
              } else if (process < 0) throw new EdnError(`:process must be a non-negative integer, a keyword or a string, found '${this.shown(s, e)}'`, s);
            }
          } else if (key === K_TIME) {
            // As .hist's `@ START..END` (a converted history must parse back): integers within ±(2^53−1).
            const e = this.token();
            const s = this.ts;
            time = this.safeInteger(s, e);
            if (Number.isNaN(time)) throw new EdnError(`:time must be an integer of magnitude at most 2^53−1 (9007199254740991), found '${this.shown(s, e)}'`, s);
          } else if (key === K_INDEX) {
            const e = this.token();
            const s = this.ts;
            index = this.safeInteger(s, e);
            if (Number.isNaN(index) || index < 0) throw new EdnError(`:index must be a non-negative integer of at most 2^53−1, found '${this.shown(s, e)}'`, s);
          } else {
            value = V_OTHER;
            this.txnValue();
            value = this.valueShape;
          }
        } catch (e) {
          if (!(e instanceof EdnError) || e.syntax || f === F_TXN) throw e;
          // Not known yet to be a transaction: the field is skipped (checked to be EDN), its problem kept.
          if (key === K_VALUE) value = this.valueShape;
          this.i = vs;
          this.skipForm();
          pending ??= e;
        }
      }
    }
    if (type === -2) throw new EdnError('an event without :type', start);
    if (f !== F_TXN && (f === F_OTHER || value !== V_OPS)) {
      asm.skipped(f === F_OTHER ? SKIP_NOT_TXN : SKIP_NO_OPS); // the nemesis and other non-transaction operations
      return;
    }
    if (pending !== null) throw pending;
    if (value === V_ABSENT) throw new EdnError('a :txn event without :value', start);
    if (process < 0 && processLabel === null) throw new EdnError('a :txn event without :process (its session)', start);
    if (index < 0) index = eventNo;
    const slot = processLabel === null ? asm.processSlot(process) : asm.namedProcessSlot(processLabel, processSession);
    asm.event(type, slot, Number.isNaN(time) ? index : time, index, start, this.i);
  }

  /** Spans of the current event's keys other than the K_* ones (rare: :error, :node…), pairwise. */
  private readonly otherKeys = new Int32Vec(16);
  /** The other keys' text once an event has more than OTHER_KEYS_PAIRWISE of them (null: not yet). */
  private otherKeySet: Set<string> | null = null;

  /** The bytes [s, e) one character each: equal strings exactly when the bytes are equal. */
  private bytesKey(s: number, e: number): string {
    let out = '';
    for (let i = s; i < e; i += 4096) out += String.fromCharCode(...this.b.subarray(i, Math.min(e, i + 4096)));
    return out;
  }

  /** Records the other key [ks, ke), or throws when the event already has it. */
  private otherKey(ks: number, ke: number): void {
    const o = this.otherKeys;
    if (o.length === 0) this.otherKeySet = null;
    // A map of thousands of keys is compared by hash, not pairwise (quadratic in the event's size).
    if (o.length >= 2 * OTHER_KEYS_PAIRWISE) {
      let set = this.otherKeySet;
      if (set === null) {
        set = new Set<string>();
        for (let k = 0; k < o.length; k += 2) set.add(this.bytesKey(o.data[k], o.data[k + 1]));
        this.otherKeySet = set;
      }
      const key = this.bytesKey(ks, ke);
      ednWork.keyTests++;
      if (set.has(key)) throw new EdnError(`the key :${this.shown(ks, ke)} appears twice in an event map (EDN forbids duplicate keys)`, ks - 1, true);
      set.add(key);
      o.push(ks);
      o.push(ke);
      return;
    }
    const len = ke - ks;
    for (let k = 0; k < o.length; k += 2) {
      const s = o.data[k];
      ednWork.keyTests++;
      if (o.data[k + 1] - s !== len) continue;
      let j = 0;
      while (j < len && this.b[s + j] === this.b[ks + j]) j++;
      if (j === len) throw new EdnError(`the key :${this.shown(ks, ke)} appears twice in an event map (EDN forbids duplicate keys)`, ks - 1, true);
    }
    o.push(ks);
    o.push(ke);
  }

  /** The last txnValue()'s :value: V_OPS when a vector of micro-ops (its first element a vector, or empty), else V_OTHER; set before it may throw. */
  private valueShape = V_OTHER;

  /** `[[:append k v] [:r k [..]] [:r k nil] [:r k] [:w k v] [:r k v] …]` into the assembler's scratch. */
  private txnValue(): void {
    const asm = this.asm;
    this.valueShape = V_OTHER;
    if (this.b[this.i] === C_HASH) this.skipTag("the transaction's micro-ops as a vector");
    if (this.b[this.i] !== C_LBRACK && this.b[this.i] !== C_LPAREN) {
      if (this.is(this.i, this.peekEnd(), 'nil')) {
        this.token();
        return;
      }
      throw new EdnError(`expected the transaction's micro-ops as a vector, found ${this.describe()}`, this.i);
    }
    this.i++;
    this.valueShape = V_OPS; // until its first element says otherwise (below)
    for (;;) {
      this.ws();
      if (this.i >= this.n) throw new EdnError('the file ends inside :value', this.i, true);
      const c = this.b[this.i];
      if (c === C_RBRACK || c === C_RPAREN) {
        this.i++;
        return;
      }
      if (c !== C_LBRACK && c !== C_LPAREN) {
        if (asm.mKind.length === 0) this.valueShape = V_OTHER; // [:isolated {…}], ["n1" "n2"]: not micro-ops at all
        throw new EdnError(`expected a micro-op like [:append k v], found ${this.describe()}`, this.i);
      }
      const opStart = this.i++;
      this.ws();
      // Fast path: `:r`, `:w` or `:append` then a delimiter, byte by byte (this loop runs per micro-op).
      const b = this.b;
      const q = this.i;
      const fs = q + 1;
      let fe = -1;
      let kind = -1;
      if (b[q] === C_COLON) {
        const c1 = b[q + 1];
        if ((c1 === 114 || c1 === 119) && q + 2 < this.n && DELIMITER[b[q + 2]] === 1) {
          kind = c1 === 114 ? MOP_READ : MOP_WRITE;
          fe = q + 2;
        } else if (c1 === 97 && q + 7 < this.n && b[q + 2] === 112 && b[q + 3] === 112 && b[q + 4] === 101 && b[q + 5] === 110 && b[q + 6] === 100 && DELIMITER[b[q + 7]] === 1) {
          kind = MOP_APPEND;
          fe = q + 7;
        }
      }
      if (kind >= 0) this.i = fe;
      else {
        fe = this.keyword();
        kind = this.is(fs, fe, 'append') ? MOP_APPEND : this.is(fs, fe, 'r') ? MOP_READ : this.is(fs, fe, 'w') ? MOP_WRITE : -1;
        if (kind < 0) throw new EdnError(`unknown micro-op :${this.text(fs, fe)} (expected :append, :r or :w)`, fs);
      }
      this.ws();
      const key = this.scalar(asm.keys);
      if (key < 0) throw new EdnError(key === MISSING ? `the micro-op :${this.text(fs, fe)} has no key` : 'a micro-op on the key nil', this.i);
      this.ws();
      let value = -1;
      let listStart = -1;
      let listLen = 0;
      const v = this.b[this.i];
      if (v === C_LBRACK || v === C_LPAREN) {
        if (kind !== MOP_READ) throw new EdnError(`:${this.text(fs, fe)} takes a single value, found a list`, this.i);
        this.i++;
        listStart = asm.mElems.length;
        for (;;) {
          this.ws();
          if (this.i >= this.n) throw new EdnError('the file ends inside a list', this.i, true);
          const d = this.b[this.i];
          if (d === C_RBRACK || d === C_RPAREN) {
            this.i++;
            break;
          }
          const e = this.scalar(asm.values);
          if (e < 0) throw new EdnError('nil inside a read list', this.i);
          const el = asm.mElems;
          if (el.length === el.data.length) el.reserve(el.length * 2);
          el.data[el.length++] = e;
          listLen++;
        }
      } else {
        // [:r k] (no value) is a read of nil, as Elle writes reads in its tests' invokes.
        value = this.scalar(asm.values);
        if (value < 0) {
          if (kind !== MOP_READ) throw new EdnError(value === MISSING ? `:${this.text(fs, fe)} without a value` : `:${this.text(fs, fe)} of nil`, this.i);
          value = -1;
        }
      }
      this.ws();
      if (this.b[this.i] !== C_RBRACK && this.b[this.i] !== C_RPAREN) throw new EdnError(`expected ']' to close the micro-op, found ${this.describe()}`, this.i);
      this.i++;
      asm.addMicroOp(kind, key, value, listStart, listLen, opStart, this.i);
    }
  }

  private peekEnd(): number {
    let e = this.i;
    while (e < this.n && !isDelimiter(this.b[e])) e++;
    return e;
  }
}
