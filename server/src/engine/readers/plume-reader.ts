// Reader for the AWDIT/Plume text format, `r(key,value,session,txn)` per line, straight from bytes.

import { finding, type Finding } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import { Int32Vec, Uint8Vec } from '../util/int-vec.ts';
import { LineIndex, utf8Sequences } from '../syntax/line-index.ts';
import { DIRECT_LIMIT, IntTable } from '../util/int-table.ts';

export interface PlumeFile {
  history: History;
  findings: Finding[];
  /** Where each line starts (byte offsets), collected on the way: positions for diagnostics. */
  lines: LineIndex;
}

const MAX_REPORTED = 100;
const INT32_MAX = 2147483647;
/** 2^63−1, the largest number a plume field may hold (64-bit signed, as the recorders write them). */
const INT64_MAX_TEXT = '9223372036854775807';

export interface PlumeOptions {
  /**
   * What a value of 0 means: 'zero' (the default, the AWDIT/Plume convention) reads it as the
   * initial value of the key; 'none' reads it as an ordinary written value, and keys have no
   * initial write (PolySI and IsoVista files write 0 explicitly).
   */
  init?: 'zero' | 'none';
  /**
   * Whether the bytes are the file's UTF-8 (default), whose multi-byte sequences columns count as
   * one or two UTF-16 code units; false: bytesOf a text, one byte per code unit already.
   */
  utf8?: boolean;
  /** Polled every PLUME_STOP_PIECE bytes: true ends the read there, with the lines read so far (ReaderOptions.stop). */
  stop?: () => boolean;
}

/** How many bytes readPlume reads between two polls of `stop`: about 25 ms of reading. */
const PLUME_STOP_PIECE = 256 * 1024;

/** Decimal texts of the rare numbers above 2^31−1, interned to dense ids (the hot path stays on int32). */
class TextIds {
  private readonly map = new Map<string, number>();
  readonly texts: string[] = [];

  id(text: string): number {
    let id = this.map.get(text);
    if (id === undefined) {
      id = this.texts.length;
      this.map.set(text, id);
      this.texts.push(text);
    }
    return id;
  }
}
/** Numbers of a file of `lines` lines that index flat tables: dense numberings stay below a few times its line count. */
function plumeLimit(lines: number): number {
  return Math.min(DIRECT_LIMIT, Math.max(1 << 16, 4 * lines));
}

/** Dense ids 0, 1, 2, … for plume's integers (keys, sessions) in order of first appearance. */
class DenseIds {
  private readonly table: IntTable;
  readonly originals: number[] = [];

  constructor(lines: number) {
    this.table = new IntTable(plumeLimit(lines));
  }

  /** n: a plume number, or a negative stand-in for one above 2^31−1 (see TextIds). */
  id(n: number): number {
    let id = this.table.get(n);
    if (id < 0) {
      id = this.originals.length;
      this.table.set(n, id);
      this.originals.push(n);
    }
    return id;
  }
}

/**
 * The strict form `r(k,v,s,t)` / `w(…)` ending at a line feed or the file's end, what AWDIT and
 * the generators write: fields into out (kind, key, value, session, txn) and the position of the
 * line's end, or -1 when the line needs the lenient parser (whitespace, upper case, \r, a sign
 * other than txn's, numbers of 10 digits or more, anything malformed). A measured bottleneck:
 * the lenient loop's whitespace and field dispatch cost a third of reading a million-line file.
 */
function strictLine(bytes: Uint8Array, i: number, out: Int32Array): number {
  const c0 = bytes[i];
  const kind = c0 === 114 ? OP_READ : c0 === 119 ? OP_WRITE : -1;
  if (kind < 0 || bytes[i + 1] !== 40) return -1;
  out[0] = kind;
  let j = i + 2;
  for (let f = 1; f <= 4; f++) {
    let c = bytes[j];
    const neg = f === 4 && c === 45;
    if (neg) c = bytes[++j];
    const start = j;
    let v = 0;
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      c = bytes[++j];
    }
    if (j === start || j - start > 9 || c !== (f === 4 ? 41 : 44)) return -1;
    out[f] = neg ? -v : v;
    j++;
  }
  return j === bytes.length || bytes[j] === 10 ? j : -1;
}

/** The start of the line after the one at i: lines end at \n, \r\n or a lone \r, as LSP counts them. */
function nextLine(bytes: Uint8Array, i: number): number {
  const n = bytes.length;
  while (i < n && bytes[i] !== 10 && bytes[i] !== 13) i++;
  if (bytes[i] === 13 && bytes[i + 1] === 10) i++;
  return i + 1;
}

/**
 * Lenient on input (spaces, blank lines, upper-case letters, `#` comments, a byte order mark, any
 * line ending are accepted); value 0 is the initial value (unless options.init is 'none'); `txn =
 * -1` marks an aborted write, kept as its own aborted transaction. Keys, values and sessions may
 * be up to 2^63−1: those above 2^31−1 get negative stand-ins (keys and sessions -1, -2, …,
 * values -3, -4, …, below INIT_VALUE and NO_VALUE) with their text kept for names.
 */
export function readPlume(bytes: Uint8Array, options: PlumeOptions = {}): PlumeFile {
  const reader = new PlumeReader(options, bytes.length);
  const stop = options.stop;
  if (!stop) {
    reader.push(bytes, 0, true);
    return reader.finish();
  }
  // In pieces, as readPlumeInPieces reads (the same history byte for byte), polling stop between them.
  let at = 0;
  let piece = PLUME_STOP_PIECE;
  for (;;) {
    const end = Math.min(bytes.length, at + piece);
    const final = end === bytes.length;
    const used = reader.push(bytes.subarray(at, end), at, final);
    if (final) break;
    // A line longer than the piece: no line of it ended, so the piece grows.
    if (used === 0) {
      piece *= 2;
      continue;
    }
    at += used;
    if (stop()) {
      reader.push(bytes.subarray(at, at), at, true); // the file ends here for this reader
      break;
    }
  }
  return reader.finish();
}

/**
 * Reads a plume file through one buffer: `buf` holds its first `filled` bytes, and fill(buf, at)
 * fills buf from `at` on and returns how many bytes it then holds, fewer than buf.length only at
 * the file's end. Each piece gives the reader the lines it completes; the unfinished last one
 * moves to the buffer's start and the next fill follows it (the buffer doubles when one line
 * fills it). The file and its length; null when it is longer than maxBytes.
 */
export function readPlumeInPieces(buf: Uint8Array, filled: number, fill: (buf: Uint8Array, at: number) => number,
  options: PlumeOptions, sizeHint: number, maxBytes: number): { plume: PlumeFile; size: number } | null {
  const reader = new PlumeReader(options, sizeHint);
  let base = 0; // the file offset of buf[0]
  for (;;) {
    const final = filled < buf.length;
    if (base + filled > maxBytes) return null;
    const used = reader.push(buf.subarray(0, filled), base, final);
    if (final) return { plume: reader.finish(), size: base + filled };
    buf.copyWithin(0, used, filled);
    base += used;
    filled -= used;
    if (filled === buf.length) {
      const grown = new Uint8Array(buf.length * 2);
      grown.set(buf);
      buf = grown;
    }
    filled = fill(buf, filled);
  }
}

/**
 * The last position in bytes where a line starts whose end is certain (after \n, or after a \r
 * followed by something else: a \r last may be the first half of \r\n), or 0.
 */
function lastCertainLineStart(bytes: Uint8Array): number {
  for (let j = bytes.length - 1; j >= 0; j--) {
    const c = bytes[j];
    if (c === 10 || (c === 13 && j + 1 < bytes.length)) return j + 1;
  }
  return 0;
}

/**
 * readPlume over a file given in pieces (the CLI reads large files through one small buffer:
 * the file is never whole in memory, and the bytes are parsed while still in the cache). Spans
 * and line starts are offsets in the whole file. Measured on a 100 MB file: reading it whole took
 * 60–80 ms (fresh pages), through a 1 MB buffer 13 ms, and 100 MB less memory at the peak.
 */
export class PlumeReader {
  private readonly zeroIsInit: boolean;
  private readonly utf8: boolean;
  /** The multi-byte UTF-8 sequences of the lines read (utf8Sequences, file offsets): a line with any is an error's, shown in code units. */
  private readonly wideAt = new Int32Vec();
  private readonly wideExtra = new Uint8Vec();
  private readonly bigKeys = new TextIds();
  private readonly bigValues = new TextIds();
  private readonly bigSessions = new TextIds();
  private readonly bigStart = new Int32Array(4);
  private readonly bigEnd = new Int32Array(4);
  private readonly bigText: string[] = ['', '', '', ''];
  private readonly builder: HistoryBuilder;
  private readonly findings: Finding[] = [];
  private errors = 0;
  private firstHidden = 0;
  private readonly sessions: DenseIds;
  private readonly keys: DenseIds;
  private readonly txnOf: IntTable; // plume txn id → provisional txn
  private readonly txnSessionOf: number[] = [];
  // Consecutive lines usually belong to one transaction: the last one found skips the lookup.
  private lastTxnId = -2;
  private lastTxn = -1;
  private lastSession = -1;
  private line = 0;
  private readonly lineStarts: Int32Vec;
  private readonly strict = new Int32Array(5);
  /** The file's length and whether it ends with a line break, once its last piece came. */
  private size = -1;
  private endsWithBreak = false;

  /** sizeHint: the file's length if known, to size the buffers once (a plume line is about 20 bytes). */
  constructor(options: PlumeOptions = {}, sizeHint = 0) {
    this.zeroIsInit = options.init !== 'none';
    this.utf8 = options.utf8 !== false;
    const lineEstimate = (sizeHint / 18) | 0;
    this.builder = new HistoryBuilder(true, lineEstimate);
    this.sessions = new DenseIds(lineEstimate);
    this.keys = new DenseIds(lineEstimate);
    this.txnOf = new IntTable(plumeLimit(lineEstimate));
    this.lineStarts = new Int32Vec(lineEstimate);
  }

  private sessionLabel(s: number): string {
    return s >= 0 ? String(s) : this.bigSessions.texts[-1 - s];
  }

  /** A problem on the line starting at `start` (in `bytes`, whose first byte is at file offset `base`). */
  private report(bytes: Uint8Array, base: number, start: number, message: string): void {
    this.errors++;
    if (this.errors === MAX_REPORTED + 1) this.firstHidden = base + start;
    if (this.errors <= MAX_REPORTED) {
      let end = start;
      while (end < bytes.length && bytes[end] !== 10 && bytes[end] !== 13) end++;
      this.findings.push(finding('syntax', 'error', `line ${this.line + 1}: ${message}`, { start: base + start, end: base + end }));
    }
  }

  /**
   * Reads the lines of `bytes`, the file's bytes from offset `base` on, whose ends are certain;
   * returns how many bytes that is. The caller passes the rest (an unfinished line) again, with
   * what follows it. With `final`, the bytes end the file and are read to the end.
   */
  push(bytes: Uint8Array, base: number, final: boolean): number {
    if (this.size >= 0) throw new Error('PlumeReader: push after the last piece');
    const n = bytes.length;
    const to = final ? n : lastCertainLineStart(bytes);
    // A UTF-8 byte order mark (editors on Windows write one) is not part of the first line.
    let i = base === 0 && n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    if (base === 0 && n < 3 && !final) return 0; // too little to tell whether a byte order mark starts the file
    const { builder, sessions, keys, txnOf, txnSessionOf, strict, lineStarts, bigStart, bigEnd, bigText, zeroIsInit } = this;
    // Lines end where `to` is: no sequence is cut, and none is counted twice when the rest comes again.
    const wide = this.utf8 ? utf8Sequences(bytes.subarray(0, to), base === 0) : null;
    if (wide) {
      for (let w = 0; w < wide.at.length; w++) {
        this.wideAt.push(base + wide.at[w]);
        this.wideExtra.push(wide.extra[w]);
      }
    }
    let { lastTxnId, lastTxn, lastSession } = this;
    while (i < to) {
      const lineStart = i;
      lineStarts.push(base + i);
      let c = bytes[i];
      while (c === 32 || c === 9) c = bytes[++i];
      if (i >= n) break;
      if (c === 10 || c === 13 || c === 35) {
        i = nextLine(bytes, i);
        this.line++;
        continue;
      }
      let kind: number;
      let ok: boolean;
      let key = 0;
      let value = 0;
      let session = 0;
      let txnId = 0;
      let bigMask = 0;
      const strictEnd = strictLine(bytes, i, strict);
      if (strictEnd >= 0) {
        kind = strict[0];
        key = strict[1];
        value = strict[2];
        session = strict[3];
        txnId = strict[4];
        ok = true;
        i = strictEnd;
      } else {
        kind = c === 114 || c === 82 ? OP_READ : c === 119 || c === 87 ? OP_WRITE : -1;
        c = bytes[++i];
        while (c === 32 || c === 9) c = bytes[++i];
        ok = kind >= 0 && c === 40;
        if (c !== 10) i++; // never step over a line's end: a malformed line must not swallow the next
      }
      for (let f = 0; f < 4 && ok && strictEnd < 0; f++) {
        c = bytes[i];
        while (c === 32 || c === 9) c = bytes[++i];
        let neg = false;
        if (c === 45) {
          neg = true;
          c = bytes[++i];
        }
        let v = 0;
        const digitsStart = i;
        while (c >= 48 && c <= 57) {
          v = v * 10 + (c - 48);
          c = bytes[++i];
        }
        const digitsEnd = i;
        while (c === 32 || c === 9) c = bytes[++i];
        if (digitsEnd === digitsStart || c !== (f === 3 ? 41 : 44)) ok = false;
        else if (v > INT32_MAX) {
          // Rare: a number above 2^31−1, checked and interned by its text once the line parsed.
          if (neg) ok = false;
          bigMask |= 1 << f;
          bigStart[f] = digitsStart;
          bigEnd[f] = digitsEnd;
          v = 0;
        }
        i++;
        if (neg) v = -v;
        if (f === 0) key = v;
        else if (f === 1) value = v;
        else if (f === 2) session = v;
        else txnId = v;
      }
      if (ok && strictEnd < 0) {
        c = bytes[i];
        while (c === 32 || c === 9) c = bytes[++i];
        if (i < n && c !== 10 && c !== 13) ok = false;
      }
      const bigProblem = ok && bigMask !== 0 ? bigNumbers(bytes, bigMask, bigStart, bigEnd, bigText) : null;
      if (!ok) {
        i = lineStart; // the scan may have passed this line's end: find it again from the start
        this.report(bytes, base, lineStart, 'expected r(key,value,session,txn) or w(key,value,session,txn) with non-negative integers (txn -1 for an aborted write)');
      } else if (bigProblem !== null) {
        this.report(bytes, base, lineStart, bigProblem);
      } else if (key < 0 || value < 0 || session < 0 || txnId < -1) {
        this.report(bytes, base, lineStart, 'keys, values and sessions must be non-negative, and txn must be -1 or more');
      } else if (txnId === -1 && kind === OP_READ) {
        this.report(bytes, base, lineStart, 'txn -1 marks an aborted write; a read cannot carry it');
      } else {
        if (bigMask !== 0) {
          if (bigMask & 1) key = -1 - this.bigKeys.id(bigText[0]);
          if (bigMask & 2) value = -3 - this.bigValues.id(bigText[1]);
          if (bigMask & 4) session = -1 - this.bigSessions.id(bigText[2]);
        }
        let t: number;
        if (txnId === lastTxnId && txnId !== -1) {
          t = lastTxn;
        } else {
          // Plume has no headers: a session's and a transaction's span is the line that opens it.
          const s = sessions.id(session);
          if (s === builder.sessionCount) builder.addSession(`s${this.sessionLabel(session)}`, base + lineStart, base + i);
          if (txnId === -1) {
            t = builder.addTxn(s, true, -1, -(this.line + 1), base + lineStart, base + i);
          } else {
            t = txnOf.get(txnId);
            if (t < 0) {
              t = builder.addTxn(s, false, -1, txnId, base + lineStart, base + i);
              txnOf.set(txnId, t);
              txnSessionOf[t] = s;
            } else if (txnSessionOf[t] !== s) {
              this.report(bytes, base, lineStart, `transaction ${txnId} appeared earlier in session ${this.sessionLabel(sessions.originals[txnSessionOf[t]])}`);
              t = -1;
            }
          }
          // Only a complete match may be cached: the session must be the same next time too.
          lastTxnId = t >= 0 && txnId !== -1 ? txnId : -2;
          lastTxn = t;
          if (t >= 0) lastSession = session;
        }
        if (t >= 0 && txnId === lastTxnId && session !== lastSession) {
          this.report(bytes, base, lineStart, `transaction ${txnId} appeared earlier in session ${this.sessionLabel(lastSession)}`);
        } else if (t >= 0) {
          builder.addOp(t, kind, keys.id(key), value === 0 && zeroIsInit ? INIT_VALUE : value, base + lineStart, base + i);
        }
      }
      i = nextLine(bytes, i);
      this.line++;
    }
    this.lastTxnId = lastTxnId;
    this.lastTxn = lastTxn;
    this.lastSession = lastSession;
    if (final) {
      this.size = base + n;
      this.endsWithBreak = n > 0 ? bytes[n - 1] === 10 || bytes[n - 1] === 13 : this.endsWithBreak;
      return n;
    }
    // Remember how the bytes read so far end, in case the last piece comes empty.
    if (to > 0) this.endsWithBreak = bytes[to - 1] === 10 || bytes[to - 1] === 13;
    return to;
  }

  /** The history, after the last piece (push with final). */
  finish(): PlumeFile {
    if (this.size < 0) throw new Error('PlumeReader: finish before the last piece');
    const { findings, errors, bigKeys, bigValues, lineStarts } = this;
    if (errors > MAX_REPORTED) {
      const hidden = errors - MAX_REPORTED;
      findings.push(finding('syntax', 'error', `${hidden} more problem${hidden === 1 ? '' : 's'} in this file not shown (the first ${MAX_REPORTED} are)`, { start: this.firstHidden, end: this.firstHidden }));
    }
    const keyOriginals = this.keys.originals;
    const history = this.builder.finish(
      keyOriginals.length,
      (k) => (keyOriginals[k] >= 0 ? String(keyOriginals[k]) : bigKeys.texts[-1 - keyOriginals[k]]),
      (v) => (v === INIT_VALUE ? '0' : v <= -3 ? bigValues.texts[-3 - v] : String(v)),
      new Map(),
      true,
    );
    if (this.size === 0 || this.endsWithBreak) lineStarts.push(this.size); // the empty last line
    // A view, not a copy: the copy of a 4M-line file's starts cost 8 ms and 16 MB at its peak.
    const wide = this.wideAt.length > 0 ? { at: this.wideAt.toArray(), extra: this.wideExtra.toArray() } : null;
    return { history, findings, lines: LineIndex.ofLineStarts(lineStarts.data.subarray(0, lineStarts.length), wide) };
  }
}

/**
 * The decimal texts (leading zeros dropped) of the fields in `mask`, into `texts`; or why the
 * line is refused. Long digit strings are refused by their length, before any conversion.
 */
function bigNumbers(bytes: Uint8Array, mask: number, start: Int32Array, end: Int32Array, texts: string[]): string | null {
  if (mask & 8) return `transaction ids above ${INT32_MAX} are not supported`;
  for (let f = 0; f < 3; f++) {
    if ((mask & (1 << f)) === 0) continue;
    let s = start[f];
    while (s < end[f] - 1 && bytes[s] === 48) s++;
    const digits = end[f] - s;
    let text = '';
    if (digits <= INT64_MAX_TEXT.length) for (let j = s; j < end[f]; j++) text += String.fromCharCode(bytes[j]);
    if (digits > INT64_MAX_TEXT.length || (digits === INT64_MAX_TEXT.length && text > INT64_MAX_TEXT)) {
      return `numbers may be at most 2^63−1 (${INT64_MAX_TEXT}); this one has ${digits} digits`;
    }
    texts[f] = text;
  }
  return null;
}
