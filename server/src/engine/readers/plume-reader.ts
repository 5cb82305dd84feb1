// Reader for the AWDIT/Plume text format, `r(key,value,session,txn)` per line, straight from bytes.

import { finding, type Finding } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { LineIndex } from '../syntax/line-index.ts';
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
}

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
  const zeroIsInit = options.init !== 'none';
  const bigKeys = new TextIds();
  const bigValues = new TextIds();
  const bigSessions = new TextIds();
  const bigStart = new Int32Array(4);
  const bigEnd = new Int32Array(4);
  const bigText: string[] = ['', '', '', ''];
  const sessionLabel = (s: number): string => (s >= 0 ? String(s) : bigSessions.texts[-1 - s]);
  // A plume line is about 20 bytes: size the buffers once.
  const builder = new HistoryBuilder(true, (bytes.length / 18) | 0);
  const findings: Finding[] = [];
  let errors = 0;
  const lineEstimate = (bytes.length / 18) | 0;
  const sessions = new DenseIds(lineEstimate);
  const keys = new DenseIds(lineEstimate);
  const txnOf = new IntTable(plumeLimit(lineEstimate)); // plume txn id → provisional txn
  const txnSessionOf: number[] = [];
  let lastTxnId = -2; // consecutive lines usually belong to one transaction: skip the lookup
  let lastTxn = -1;
  let lastSession = -1;
  const n = bytes.length;
  // A UTF-8 byte order mark (editors on Windows write one) is not part of the first line.
  let i = n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = 0;
  const lineStarts = new Int32Vec((n / 18) | 0);
  const strict = new Int32Array(5);

  let firstHidden = 0;
  const report = (start: number, message: string): void => {
    errors++;
    if (errors === MAX_REPORTED + 1) firstHidden = start;
    if (errors <= MAX_REPORTED) {
      let end = start;
      while (end < n && bytes[end] !== 10 && bytes[end] !== 13) end++;
      findings.push(finding('syntax', 'error', `line ${line + 1}: ${message}`, { start, end }));
    }
  };

  while (i < n) {
    const lineStart = i;
    lineStarts.push(i);
    let c = bytes[i];
    while (c === 32 || c === 9) c = bytes[++i];
    if (i >= n) break;
    if (c === 10 || c === 13 || c === 35) {
      i = nextLine(bytes, i);
      line++;
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
      report(lineStart, 'expected r(key,value,session,txn) or w(key,value,session,txn) with non-negative integers (txn -1 for an aborted write)');
    } else if (bigProblem !== null) {
      report(lineStart, bigProblem);
    } else if (key < 0 || value < 0 || session < 0 || txnId < -1) {
      report(lineStart, 'keys, values and sessions must be non-negative, and txn must be -1 or more');
    } else if (txnId === -1 && kind === OP_READ) {
      report(lineStart, 'txn -1 marks an aborted write; a read cannot carry it');
    } else {
      if (bigMask !== 0) {
        if (bigMask & 1) key = -1 - bigKeys.id(bigText[0]);
        if (bigMask & 2) value = -3 - bigValues.id(bigText[1]);
        if (bigMask & 4) session = -1 - bigSessions.id(bigText[2]);
      }
      let t: number;
      if (txnId === lastTxnId && txnId !== -1) {
        t = lastTxn;
      } else {
        const s = sessions.id(session);
        if (s === builder.sessionCount) builder.addSession(`s${sessionLabel(session)}`);
        if (txnId === -1) {
          t = builder.addTxn(s, true, -1, -(line + 1));
        } else {
          t = txnOf.get(txnId);
          if (t < 0) {
            t = builder.addTxn(s, false, -1, txnId);
            txnOf.set(txnId, t);
            txnSessionOf[t] = s;
          } else if (txnSessionOf[t] !== s) {
            report(lineStart, `transaction ${txnId} appeared earlier in session ${sessionLabel(sessions.originals[txnSessionOf[t]])}`);
            t = -1;
          }
        }
        // Only a complete match may be cached: the session must be the same next time too.
        lastTxnId = t >= 0 && txnId !== -1 ? txnId : -2;
        lastTxn = t;
        if (t >= 0) lastSession = session;
      }
      if (t >= 0 && txnId === lastTxnId && session !== lastSession) {
        report(lineStart, `transaction ${txnId} appeared earlier in session ${sessionLabel(lastSession)}`);
      } else if (t >= 0) {
        builder.addOp(t, kind, keys.id(key), value === 0 && zeroIsInit ? INIT_VALUE : value, lineStart, i);
      }
    }
    i = nextLine(bytes, i);
    line++;
  }
  if (errors > MAX_REPORTED) {
    const hidden = errors - MAX_REPORTED;
    findings.push(finding('syntax', 'error', `${hidden} more problem${hidden === 1 ? '' : 's'} in this file not shown (the first ${MAX_REPORTED} are)`, { start: firstHidden, end: firstHidden }));
  }
  const keyOriginals = keys.originals;
  const history = builder.finish(
    keyOriginals.length,
    (k) => (keyOriginals[k] >= 0 ? String(keyOriginals[k]) : bigKeys.texts[-1 - keyOriginals[k]]),
    (v) => (v === INIT_VALUE ? '0' : v <= -3 ? bigValues.texts[-3 - v] : String(v)),
    new Map(),
    true,
  );
  if (n === 0 || bytes[n - 1] === 10 || bytes[n - 1] === 13) lineStarts.push(n); // the empty last line
  return { history, findings, lines: LineIndex.ofLineStarts(lineStarts.toArray()) };
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
