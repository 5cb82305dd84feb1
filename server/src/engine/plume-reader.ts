// Reader for the AWDIT/Plume text format, `r(key,value,session,txn)` per line, straight from bytes.

import { finding, type Finding } from './diagnostics.ts';
import { HistoryBuilder, INIT_VALUE, OP_READ, OP_WRITE, type History } from './history.ts';
import { IntInterner, PairMap } from './pair-map.ts';

export interface PlumeFile {
  history: History;
  findings: Finding[];
}

const MAX_REPORTED = 100;
const INT32_MAX = 2147483647;

/**
 * Lenient on input (spaces, blank lines, upper-case letters, `#` comments are accepted);
 * value 0 is the initial value; `txn = -1` marks an aborted write, kept as its own aborted transaction.
 */
export function readPlume(bytes: Uint8Array): PlumeFile {
  const builder = new HistoryBuilder(true);
  const findings: Finding[] = [];
  let errors = 0;
  const sessions = new IntInterner();
  const keys = new IntInterner();
  const txnOf = new PairMap(1 << 12); // plume txn id → provisional txn
  const txnSessionOf: number[] = [];
  const fields = [0, 0, 0, 0];
  const n = bytes.length;
  let i = 0;
  let line = 0;

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
    // Skip leading blanks.
    while (i < n && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 13)) i++;
    if (i >= n) break;
    let c = bytes[i];
    if (c === 10 || c === 35) {
      while (i < n && bytes[i] !== 10) i++;
      i++;
      line++;
      continue;
    }
    let kind = -1;
    if (c === 114 || c === 82) kind = OP_READ;
    else if (c === 119 || c === 87) kind = OP_WRITE;
    i++;
    while (i < n && (bytes[i] === 32 || bytes[i] === 9)) i++;
    let ok = kind >= 0 && bytes[i] === 40;
    i++;
    for (let f = 0; f < 4 && ok; f++) {
      while (i < n && (bytes[i] === 32 || bytes[i] === 9)) i++;
      let neg = false;
      if (bytes[i] === 45) {
        neg = true;
        i++;
      }
      let v = 0;
      let digits = 0;
      while (i < n && (c = bytes[i]) >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        digits++;
        i++;
      }
      while (i < n && (bytes[i] === 32 || bytes[i] === 9)) i++;
      if (digits === 0 || v > INT32_MAX) ok = false;
      fields[f] = neg ? -v : v;
      if (ok && bytes[i] !== (f === 3 ? 41 : 44)) ok = false;
      i++;
    }
    if (ok) {
      while (i < n && (bytes[i] === 32 || bytes[i] === 9 || bytes[i] === 13)) i++;
      if (i < n && bytes[i] !== 10) ok = false;
    }
    if (!ok) {
      report(lineStart, 'expected r(key,value,session,txn) or w(key,value,session,txn) with non-negative integers (txn -1 for an aborted write)');
      while (i < n && bytes[i] !== 10) i++;
      i++;
      line++;
      continue;
    }
    const [key, value, session, txnId] = fields;
    if (key < 0 || value < 0 || session < 0 || txnId < -1) {
      report(lineStart, 'keys, values and sessions must be non-negative, and txn must be -1 or more');
    } else if (txnId === -1 && kind === OP_READ) {
      report(lineStart, 'txn -1 marks an aborted write; a read cannot carry it');
    } else {
      const s = sessions.intern(session);
      if (s === builder.sessionCount) builder.addSession(`s${session}`);
      let t: number;
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
      if (t >= 0) builder.addOp(t, kind, keys.intern(key), value === 0 ? INIT_VALUE : value, lineStart, i);
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
  return { history, findings };
}

