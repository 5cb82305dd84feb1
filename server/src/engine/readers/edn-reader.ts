// Reader for Jepsen's EDN histories (one map per line, or one vector of maps), straight from bytes.
//
// Written by hand for speed (measured in bench/edn-parsers.ts): the npm package edn-data (1.2.2)
// parses 13–19 MB/s on this machine into plain objects alone, so the 1,000,000-transaction history
// of bench/list-append.ts (511 MB) would take 25 s or more, against a 10 s budget for reading and
// the whole analysis; this reader takes it from bytes into the history's typed arrays in 4–5 s.
// This reader understands the EDN that Jepsen histories use (maps, vectors, lists, sets, keywords,
// integers, floats, strings, nil, booleans, #tags) and skips what it does not need.

import type { Finding } from '../model/diagnostics.ts';
import type { History } from '../model/history.ts';
import { LineIndex } from '../syntax/line-index.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { utf8 } from '../util/utf8.ts';
import { EV_FAIL, EV_INFO, EV_INVOKE, EV_OK, JepsenAssembler, looksListAppend, MOP_APPEND, MOP_READ, MOP_WRITE } from './jepsen-history.ts';

export interface JepsenFile {
  history: History;
  findings: Finding[];
  lines: LineIndex;
}

class EdnError extends Error {
  constructor(message: string, readonly at: number) {
    super(message);
  }
}

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

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9 || c === 44; // commas are whitespace in EDN
}

const DELIMITER = new Uint8Array(256);
for (const c of [32, 10, 13, 9, 44, C_LBRACE, C_RBRACE, C_LBRACK, C_RBRACK, C_LPAREN, C_RPAREN, C_QUOTE, 59]) DELIMITER[c] = 1;

function isDelimiter(c: number): boolean {
  return DELIMITER[c] === 1;
}

export function readJepsenEdn(bytes: Uint8Array): JepsenFile {
  const lineStarts = new Int32Vec(1024);
  lineStarts.push(0);
  // indexOf finds newlines natively: a JS loop over every byte took 0.6 s on the bench's 511 MB.
  for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, nl + 1)) lineStarts.push(nl + 1);
  const lines = LineIndex.ofLineStarts(lineStarts.toArray());
  const asm = new JepsenAssembler((bytes.length / 30) | 0, looksListAppend(bytes));
  const p = new EdnParser(bytes, asm, lineStarts);
  p.run();
  return { history: asm.finish(), findings: asm.findings, lines };
}

class EdnParser {
  private i = 0;
  private readonly n: number;

  constructor(private readonly b: Uint8Array, private readonly asm: JepsenAssembler, private readonly lineStarts: Int32Vec) {
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

  run(): void {
    let eventNo = 0;
    this.ws();
    // A history written as one vector (or list) of maps: step inside it.
    if (this.i < this.n && (this.b[this.i] === C_LBRACK || this.b[this.i] === C_LPAREN)) {
      this.i++;
      this.ws();
    }
    while (this.i < this.n) {
      const c = this.b[this.i];
      if (c === C_RBRACK || c === C_RPAREN) {
        this.i++;
        this.ws();
        continue;
      }
      const start = this.i;
      try {
        if (c === C_HASH) this.skipTag();
        if (this.b[this.i] !== C_LBRACE) throw new EdnError(`expected an event map '{…}', found ${this.describe()}`, this.i);
        this.eventMap(eventNo++);
      } catch (e) {
        if (!(e instanceof EdnError)) throw e;
        // An error at the end of the file is shown on the last line that has something.
        let at = Math.min(e.at, this.n);
        if (at >= this.n) {
          at = this.n - 1;
          while (at > start && isSpace(this.b[at])) at--;
        }
        this.asm.problem(`malformed EDN at line ${this.lineOf(at)}: ${e.message}; the event is skipped`, start, Math.max(at, start + 1));
        // Resume at the next line.
        const nl = this.b.indexOf(10, Math.max(at, start));
        this.i = nl < 0 ? this.n : nl + 1;
      }
      this.ws();
    }
  }

  private describe(): string {
    if (this.i >= this.n) return 'the end of the file';
    let end = this.i + 1;
    while (end < this.n && end < this.i + 20 && !isDelimiter(this.b[end])) end++;
    return `'${utf8(this.b, this.i, end)}'`;
  }

  private ws(): void {
    const b = this.b;
    while (this.i < this.n) {
      const c = b[this.i];
      if (isSpace(c)) this.i++;
      else if (c === 59) {
        const nl = b.indexOf(10, this.i);
        this.i = nl < 0 ? this.n : nl + 1;
      } else break;
    }
  }

  /** `#tag` before a value (e.g. #jepsen.history.Op{…}): skipped. */
  private skipTag(): void {
    this.i++;
    if (this.i < this.n && this.b[this.i] === C_LBRACE) return; // a set would be #{…}: not an event
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

  /** An integer token's value, or NaN when the token is not a number. */
  private number(s: number, e: number): number {
    let j = s;
    let neg = false;
    if (this.b[j] === 45 || this.b[j] === 43) {
      neg = this.b[j] === 45;
      j++;
    }
    if (j >= e) return NaN;
    let v = 0;
    for (; j < e; j++) {
      const c = this.b[j];
      if (c < 48 || c > 57) {
        // Floats, ratios and suffixed numbers (42N, 1.5M): the generic parser.
        const x = Number(this.text(s, e).replace(/[NM]$/, ''));
        return x;
      }
      v = v * 10 + (c - 48);
    }
    return neg ? -v : v;
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
      if (DELIMITER[d] === 1) {
        this.ts = this.i;
        this.i = j;
        return ids.num(v);
      }
    }
    if (c === C_QUOTE) return ids.text(this.string());
    if (c === C_COLON) {
      const e = this.keyword();
      return ids.text(`:${this.text(this.ts, e)}`);
    }
    const e = this.token();
    const s = this.ts;
    if (this.b[s] === 110 && this.is(s, e, 'nil')) return -1;
    const v = this.number(s, e);
    return Number.isNaN(v) ? ids.text(this.text(s, e)) : ids.num(v);
  }

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
    if (this.i >= this.n) throw new EdnError('unterminated string', s - 1);
    const raw = this.text(s, this.i++);
    return escaped ? raw.replace(/\\(.)/g, (_m, ch: string) => (ch === 'n' ? '\n' : ch === 't' ? '\t' : ch)) : raw;
  }

  /** Skips one value of any shape (no recursion: a depth counter). */
  private skipValue(): void {
    let depth = 0;
    do {
      this.ws();
      if (this.i >= this.n) throw new EdnError('the file ends inside a value', this.i);
      const c = this.b[this.i];
      if (c === C_LBRACE || c === C_LBRACK || c === C_LPAREN) {
        depth++;
        this.i++;
      } else if (c === C_RBRACE || c === C_RBRACK || c === C_RPAREN) {
        if (depth === 0) throw new EdnError(`unexpected '${String.fromCharCode(c)}'`, this.i);
        depth--;
        this.i++;
      } else if (c === C_QUOTE) this.string();
      else if (c === C_HASH) {
        this.i++;
        if (this.b[this.i] !== C_LBRACE) this.token();
      } else this.token();
    } while (depth > 0);
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

  private eventMap(eventNo: number): void {
    const asm = this.asm;
    const start = this.i++;
    asm.resetScratch();
    let type = -2;
    let isTxn = false;
    let process = -1;
    let time = NaN;
    let index = -1;
    let hasValue = false;
    for (;;) {
      this.ws();
      if (this.i >= this.n) throw new EdnError("the file ends inside an event: expected '}'", this.i);
      if (this.b[this.i] === C_RBRACE) {
        this.i++;
        break;
      }
      const ke = this.keyword();
      const ks = this.ts;
      this.ws();
      if (this.i >= this.n) throw new EdnError('the file ends after a key', this.i);
      // Which key: by length and first letter, then one comparison (this runs per key of every event).
      const key = this.eventKey(ks, ke);
      if (key === K_TYPE) {
        const e = this.keyword();
        const s = this.ts;
        const c = this.b[s];
        type = c === 105 ? (this.is(s, e, 'invoke') ? EV_INVOKE : this.is(s, e, 'info') ? EV_INFO : -1)
          : c === 111 && this.is(s, e, 'ok') ? EV_OK : c === 102 && this.is(s, e, 'fail') ? EV_FAIL : -1;
        if (type < 0) throw new EdnError(`unknown :type :${this.text(s, e)} (expected :invoke, :ok, :fail or :info)`, s);
      } else if (key === K_F) {
        if (this.b[this.i] === C_COLON) {
          const e = this.keyword();
          isTxn = this.is(this.ts, e, 'txn');
        } else this.skipValue();
      } else if (key === K_PROCESS) {
        if (this.b[this.i] === C_COLON) this.keyword(); // :nemesis
        else if (this.b[this.i] === C_QUOTE || this.b[this.i] === C_LBRACK || this.b[this.i] === C_LBRACE) {
          throw new EdnError(`:process must be a non-negative integer or a keyword, found ${this.describe()}`, this.i);
        } else {
          const e = this.token();
          const s = this.ts;
          const v = this.number(s, e);
          if (!Number.isInteger(v) || v < 0) throw new EdnError(`:process must be a non-negative integer or a keyword, found '${this.text(s, e)}'`, s);
          process = v;
        }
      } else if (key === K_TIME) {
        const e = this.token();
        const s = this.ts;
        time = this.number(s, e);
        if (Number.isNaN(time)) throw new EdnError(`:time must be a number, found '${this.text(s, e)}'`, s);
      } else if (key === K_INDEX) {
        const e = this.token();
        const s = this.ts;
        index = this.number(s, e);
        if (!Number.isInteger(index)) throw new EdnError(`:index must be an integer, found '${this.text(s, e)}'`, s);
      } else if (key === K_VALUE) {
        hasValue = true;
        this.txnValue();
      } else this.skipValue();
    }
    if (type === -2) throw new EdnError('an event without :type', start);
    if (!isTxn) return; // nemesis and other non-transaction operations
    if (!hasValue) throw new EdnError('a :txn event without :value', start);
    if (index < 0) index = eventNo;
    asm.event(type, process, Number.isNaN(time) ? index : time, index, start, this.i);
  }

  /** `[[:append k v] [:r k [..]] [:r k nil] [:w k v] [:r k v] …]` into the assembler's scratch. */
  private txnValue(): void {
    const asm = this.asm;
    if (this.b[this.i] === C_HASH) this.skipTag();
    if (this.b[this.i] !== C_LBRACK && this.b[this.i] !== C_LPAREN) {
      if (this.is(this.i, this.peekEnd(), 'nil')) {
        this.token();
        return;
      }
      throw new EdnError(`expected the transaction's micro-ops as a vector, found ${this.describe()}`, this.i);
    }
    this.i++;
    for (;;) {
      this.ws();
      if (this.i >= this.n) throw new EdnError('the file ends inside :value', this.i);
      const c = this.b[this.i];
      if (c === C_RBRACK || c === C_RPAREN) {
        this.i++;
        return;
      }
      if (c !== C_LBRACK && c !== C_LPAREN) throw new EdnError(`expected a micro-op like [:append k v], found ${this.describe()}`, this.i);
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
      if (key < 0) throw new EdnError('a micro-op on the key nil', this.i);
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
          if (this.i >= this.n) throw new EdnError('the file ends inside a list', this.i);
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
        value = this.scalar(asm.values);
        if (value < 0 && kind !== MOP_READ) throw new EdnError(`:${this.text(fs, fe)} of nil`, this.i);
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
