// Reader for the AWDIT/Plume text format, `r(key,value,session,txn)` per line, straight from bytes.

import { finding, type Finding } from '../model/diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_READ, OP_WRITE, type History } from '../model/history.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { LineIndex } from '../syntax/line-index.ts';
import { IntInterner, PairMap } from '../util/pair-map.ts';

export interface PlumeFile {
  history: History;
  findings: Finding[];
  /** Where each line starts (byte offsets), collected on the way: positions for diagnostics. */
  lines: LineIndex;
}

const MAX_REPORTED = 100;
const INT32_MAX = 2147483647;
/** Keys below this are interned through a flat array; larger ones through a hash map. */
const DIRECT_KEYS = 1 << 24;

/** Dense ids for plume's integer keys: a flat lookup table for the usual small keys. */
class KeyIds {
  private direct = new Int32Array(1024).fill(-1);
  private readonly large = new IntInterner();
  private readonly largeIds: number[] = [];
  readonly originals: number[] = [];

  id(key: number): number {
    if (key < DIRECT_KEYS) {
      if (key >= this.direct.length) {
        let size = this.direct.length;
        while (size <= key) size *= 2;
        const grown = new Int32Array(size).fill(-1);
        grown.set(this.direct);
        this.direct = grown;
      }
      let id = this.direct[key];
      if (id < 0) {
        id = this.direct[key] = this.originals.length;
        this.originals.push(key);
      }
      return id;
    }
    const i = this.large.intern(key);
    if (i === this.largeIds.length) {
      this.largeIds.push(this.originals.length);
      this.originals.push(key);
    }
    return this.largeIds[i];
  }
}

export interface PlumeOptions {
  /**
   * 'zero' (default, the plume convention): value 0 is the initial value of every key.
   * 'none': 0 is an ordinary value, for files whose writers write 0 explicitly (PolySI, IsoVista).
   */
  init?: 'zero' | 'none';
}

/**
 * Lenient on input (spaces, blank lines, upper-case letters, `#` comments and a UTF-8 byte order
 * mark are accepted); value 0 is the initial value unless `init: 'none'`; `txn = -1` marks an
 * aborted write, kept as its own aborted transaction.
 */
export function readPlume(bytes: Uint8Array, options: PlumeOptions = {}): PlumeFile {
  const zeroIsInit = options.init !== 'none';
  // A plume line is about 20 bytes: size the buffers once.
  const builder = new HistoryBuilder(true, (bytes.length / 18) | 0);
  const findings: Finding[] = [];
  let errors = 0;
  const sessions = new IntInterner();
  const keys = new KeyIds();
  const txnOf = new PairMap(1 << 12); // plume txn id → provisional txn
  const txnSessionOf: number[] = [];
  let lastTxnId = -2; // consecutive lines usually belong to one transaction: skip the lookup
  let lastTxn = -1;
  let lastSession = -1;
  const n = bytes.length;
  // A UTF-8 byte order mark is not part of the first line's text.
  let i = n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = 0;
  const lineStarts = new Int32Vec((n / 18) | 0);

  const report = (start: number, message: string): void => {
    errors++;
    if (errors <= MAX_REPORTED) {
      let end = start;
      while (end < n && bytes[end] !== 10) end++;
      findings.push(finding('syntax', 'error', `line ${line + 1}: ${message}`, { start, end }));
    }
  };

  while (i < n) {
    const lineStart = i;
    lineStarts.push(line === 0 ? 0 : i);
    let c = bytes[i];
    while (c === 32 || c === 9 || c === 13) c = bytes[++i];
    if (i >= n) break;
    if (c === 10 || c === 35) {
      while (i < n && bytes[i] !== 10) i++;
      i++;
      line++;
      continue;
    }
    const kind = c === 114 || c === 82 ? OP_READ : c === 119 || c === 87 ? OP_WRITE : -1;
    c = bytes[++i];
    while (c === 32 || c === 9) c = bytes[++i];
    let ok = kind >= 0 && c === 40;
    i++;
    let key = 0;
    let value = 0;
    let session = 0;
    let txnId = 0;
    for (let f = 0; f < 4 && ok; f++) {
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
      while (c === 32 || c === 9) c = bytes[++i];
      if (i === digitsStart || v > INT32_MAX || c !== (f === 3 ? 41 : 44)) ok = false;
      i++;
      if (neg) v = -v;
      if (f === 0) key = v;
      else if (f === 1) value = v;
      else if (f === 2) session = v;
      else txnId = v;
    }
    if (ok) {
      c = bytes[i];
      while (c === 32 || c === 9 || c === 13) c = bytes[++i];
      if (i < n && c !== 10) ok = false;
    }
    if (!ok) {
      report(lineStart, 'expected r(key,value,session,txn) or w(key,value,session,txn) with non-negative integers (txn -1 for an aborted write)');
    } else if (key < 0 || value < 0 || session < 0 || txnId < -1) {
      report(lineStart, 'keys, values and sessions must be non-negative, and txn must be -1 or more');
    } else if (txnId === -1 && kind === OP_READ) {
      report(lineStart, 'txn -1 marks an aborted write; a read cannot carry it');
    } else {
      let t: number;
      if (txnId === lastTxnId && txnId !== -1) {
        t = lastTxn;
      } else {
        const s = sessions.intern(session);
        if (s === builder.sessionCount) builder.addSession(`s${session}`);
        if (txnId === -1) {
          t = builder.addTxn(s, true, -1, -(line + 1));
        } else {
          t = txnOf.get(txnId, 0);
          if (t < 0) {
            t = builder.addTxn(s, false, -1, txnId);
            txnOf.set(txnId, 0, t);
            txnSessionOf[t] = s;
          } else if (txnSessionOf[t] !== s) {
            report(lineStart, `transaction ${txnId} appeared earlier in session ${sessions.originals[txnSessionOf[t]]}`);
            t = -1;
          }
        }
        // Only a complete match may be cached: the session must be the same next time too.
        lastTxnId = t >= 0 && txnId !== -1 ? txnId : -2;
        lastTxn = t;
        if (t >= 0) lastSession = session;
      }
      if (t >= 0 && txnId === lastTxnId && session !== lastSession) {
        report(lineStart, `transaction ${txnId} appeared earlier in session ${lastSession}`);
      } else if (t >= 0) {
        builder.addOp(t, kind, keys.id(key), value === 0 && zeroIsInit ? INIT_VALUE : value, lineStart, i);
      }
    }
    while (i < n && bytes[i] !== 10) i++;
    i++;
    line++;
  }
  if (errors > MAX_REPORTED) {
    findings.push(finding('syntax', 'error', `${errors - MAX_REPORTED} more malformed lines not shown`, { start: 0, end: 0 }));
  }
  const keyOriginals = keys.originals;
  const history = builder.finish(
    keyOriginals.length,
    (k) => String(keyOriginals[k]),
    (v) => (v === INIT_VALUE ? '0' : String(v)),
    new Map(),
    true,
  );
  if (n === 0 || bytes[n - 1] === 10) lineStarts.push(n); // the empty last line
  return { history, findings, lines: LineIndex.ofLineStarts(lineStarts.toArray()) };
}
