// Reader for Jepsen histories as JSON lines: the same events as the EDN reader, one JSON object per line.

import { LineIndex } from '../syntax/line-index.ts';
import { Int32Vec } from '../util/int-vec.ts';
import { stopDue } from '../util/stop.ts';
import type { JepsenFile } from './edn-reader.ts';
import {
  canonicalInteger, EV_FAIL, EV_INFO, EV_INVOKE, EV_OK, invalidEvent, JepsenAssembler, looksListAppend, MAX_INTEGER_DIGITS, MOP_APPEND, MOP_READ, MOP_WRITE,
  type ScalarIds, SKIP_NO_OPS, SKIP_NOT_TXN,
} from './jepsen-history.ts';

// Maps, not object literals: "constructor" or "toString" must not find Object.prototype's members.
const TYPES = new Map<unknown, number>([['invoke', EV_INVOKE], ['ok', EV_OK], ['fail', EV_FAIL], ['info', EV_INFO]]);
const MOPS = new Map<unknown, number>([['append', MOP_APPEND], ['r', MOP_READ], ['w', MOP_WRITE]]);

/** A problem with an event that is well-formed JSON (invalidEvent), its message shown as is. */
class JsonEventError extends Error {}

/**
 * Thrown on the fast path (JSON.parse) at an integer beyond ±(2^53−1), which JSON.parse may have
 * rounded (9007199254740993 → …992): the line is read again by exactJson(). A separate scan for
 * long digit runs before every JSON.parse cost a fifth of the reading time; this costs a comparison.
 */
class NeedsExact extends Error {}

/** Whether a number from JSON.parse may have lost digits: an integer beyond 2^53−1. */
function rounded(v: number, exact: boolean): boolean {
  return !exact && (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) && Number.isInteger(v);
}

/** An integer literal beyond ±(2^53−1), by its exact decimal text (canonicalInteger). */
class ExactInteger {
  constructor(readonly text: string) {}
}

/**
 * `{"type": "ok", "f": "txn", "value": [["append", k, v], ["r", k, [..] | null], ["w", k, v]], "process": p, "time": t, "index": i}` per line.
 * stop: polled every STOP_POLL_ITEMS lines; true ends the read there, with the lines read so far (ReaderOptions.stop).
 */
export function readJepsenJson(text: string, stop?: () => boolean): JepsenFile {
  const starts = new Int32Vec(1024);
  const asm = new JepsenAssembler((text.length / 30) | 0, looksListAppend(text), 'json');
  let pos = 0;
  let lineNo = 0;
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (pos <= text.length) {
    if (stopDue(stop, lineNo + 1)) break;
    starts.push(pos);
    lineNo++;
    // A line ends at \n, \r\n or a lone \r, as editors count lines: a CR-only file is not one
    // line whose errors' ranges run past the lines shown. (JSON strings hold no raw \r.)
    if (lf >= 0 && lf < pos) lf = text.indexOf('\n', pos);
    if (cr >= 0 && cr < pos) cr = text.indexOf('\r', pos);
    const nl = lf < 0 ? (cr < 0 ? text.length : cr) : cr < 0 ? lf : Math.min(lf, cr);
    const line = text.slice(pos, nl).trim();
    const start = pos;
    pos = text.charCodeAt(nl) === 13 && text.charCodeAt(nl + 1) === 10 ? nl + 2 : nl + 1;
    if (line.length === 0 || line === '[' || line === ']') continue;
    const json = line.endsWith(',') ? line.slice(0, -1) : line;
    try {
      try {
        event(asm, JSON.parse(json), false, lineNo, start, nl);
      } catch (e) {
        if (!(e instanceof NeedsExact)) throw e;
        // Nothing was added for the event yet (the scratch is reset per event), nor any value interned that the second reading does not intern the same.
        event(asm, exactJson(json), true, lineNo, start, nl);
      }
    } catch (e) {
      // JSON.parse is iterative in V8 (any depth parses); an engine whose parser recurses throws a RangeError.
      // Only text that is not JSON is "malformed"; well-formed JSON that is no readable event is said so.
      const message = e instanceof SyntaxError ? `malformed JSON event at line ${lineNo}: ${e.message}; the event is skipped`
        : e instanceof JsonEventError ? invalidEvent(lineNo, e.message)
          : e instanceof RangeError ? invalidEvent(lineNo, 'the event is nested too deeply (or is too large) for the JSON parser') : null;
      if (message === null) throw e;
      asm.problem(message, start, Math.max(nl, start + 1));
    }
  }
  return { history: asm.finish(), findings: asm.findings, lines: LineIndex.ofLineStarts(starts.toArray()) };
}

/** A JSON value for a message: scalars (cut at 40 characters), containers by their kind. No recursion: values may nest without bound. */
function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a list';
  if (v instanceof ExactInteger) return v.text.length > 40 ? `${v.text.slice(0, 40)}…` : v.text;
  if (typeof v === 'object' && v !== null) return 'an object';
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify writes as "null".
  if (typeof v === 'number' && !Number.isFinite(v)) return 'a number beyond the range of a double (±1.8e308)';
  const s = v === undefined ? 'nothing' : JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function scalar(ids: ScalarIds, v: unknown, exact: boolean): number {
  if (v === null) return -1;
  if (typeof v === 'number') {
    if (rounded(v, exact)) throw new NeedsExact();
    if (!Number.isFinite(v)) throw new JsonEventError('a number out of range');
    return ids.num(v);
  }
  if (typeof v === 'string') return ids.text(v);
  if (v instanceof ExactInteger) return ids.integer(v.text);
  throw new JsonEventError(`expected a number or a string, found ${describe(v)}`);
}

/** An optional integer field within ±(2^53−1) (.hist's bound for times), or undefined when absent or null. */
function safeInteger(v: unknown, field: string, min: number, exact: boolean): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    if (typeof v === 'number' && rounded(v, exact)) throw new NeedsExact(); // the message shows its exact digits
    throw new JsonEventError(`"${field}" must be ${min === 0 ? 'a non-negative' : 'an'} integer of magnitude at most 2^53−1 (9007199254740991), found ${describe(v)}`);
  }
  return v;
}

/** The process's slot: a number (p3), a string (named "p2", as EDN names its strings), or an integer beyond 2^53 (by its digits). */
function processSlot(asm: JepsenAssembler, v: unknown, exact: boolean): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return asm.processSlot(v);
  if (typeof v === 'number' && rounded(v, exact)) throw new NeedsExact();
  if (typeof v === 'string') {
    const label = JSON.stringify(v);
    return asm.namedProcessSlot(label, label);
  }
  if (v instanceof ExactInteger && v.text.charCodeAt(0) !== 45) return asm.namedProcessSlot(v.text, `p${v.text}`);
  if (v === undefined || v === null) throw new JsonEventError('a "txn" event without "process" (its session)');
  throw new JsonEventError(`"process" must be a non-negative integer or a string, found ${describe(v)}`);
}

/** One event; `exact`: e comes from exactJson (integers beyond 2^53 as ExactInteger), else from JSON.parse. */
function event(asm: JepsenAssembler, e: unknown, exact: boolean, lineNo: number, start: number, end: number): void {
  if (typeof e !== 'object' || e === null || Array.isArray(e) || e instanceof ExactInteger) throw new JsonEventError('expected an object');
  const o = e as Record<string, unknown>;
  const type = TYPES.get(o.type);
  if (type === undefined) throw new JsonEventError(`unknown "type" ${describe(o.type)} (expected invoke, ok, fail or info)`);
  if (o.f === undefined || o.f === null) {
    // No "f": a transaction when "value" is a list of micro-ops (its first element a list, or empty), as Elle reads its tests' ops.
    if (!Array.isArray(o.value) || (o.value.length > 0 && !Array.isArray(o.value[0]))) {
      asm.skipped(SKIP_NO_OPS);
      return;
    }
  } else if (o.f !== 'txn') {
    // ":txn" (EDN's spelling) would be skipped as a non-transaction operation, its transaction never checked.
    if (o.f === ':txn') throw new JsonEventError('"f" is ":txn"; a transaction is "f": "txn"');
    asm.skipped(SKIP_NOT_TXN); // the nemesis and other non-transaction operations
    return;
  }
  // Before anything can refuse it: a refused invoke still counts as one (no completion-only reading).
  if (type === EV_INVOKE) asm.markInvoke();
  const slot = processSlot(asm, o.process, exact);
  if (!Array.isArray(o.value)) throw new JsonEventError('"value" must be the list of micro-ops');
  const index = safeInteger(o.index, 'index', 0, exact) ?? lineNo;
  const time = safeInteger(o.time, 'time', -Number.MAX_SAFE_INTEGER, exact) ?? index;
  asm.resetScratch();
  for (const m of o.value as unknown[]) {
    // ["r", k] (no value) is a read of null, as Elle writes reads in its tests' invokes.
    const kind = Array.isArray(m) && (m.length === 3 || (m.length === 2 && m[0] === 'r')) ? MOPS.get(m[0]) : undefined;
    if (kind === undefined) throw new JsonEventError(`expected a micro-op like ["append", k, v], found ${Array.isArray(m) ? `a list of ${m.length} starting with ${describe(m[0])}` : describe(m)}`);
    const op = m as unknown[];
    const key = scalar(asm.keys, op[1], exact);
    if (key < 0) throw new JsonEventError('a micro-op on the key null');
    let value = -1;
    let listStart = -1;
    let listLen = 0;
    if (Array.isArray(op[2])) {
      if (kind !== MOP_READ) throw new JsonEventError(`"${String(op[0])}" takes a single value, found a list`);
      listStart = asm.mElems.length;
      for (const x of op[2] as unknown[]) {
        if (typeof x === 'object' && x !== null && !(x instanceof ExactInteger)) throw new JsonEventError(`a read list's elements must be numbers or strings, found ${describe(x)}`);
        const id = scalar(asm.values, x, exact);
        if (id < 0) throw new JsonEventError('null inside a read list');
        asm.mElems.push(id);
        listLen++;
      }
    } else {
      value = op.length === 2 ? -1 : scalar(asm.values, op[2], exact);
      if (value < 0 && kind !== MOP_READ) throw new JsonEventError(`"${String(op[0])}" of null`);
    }
    asm.addMicroOp(kind, key, value, listStart, listLen, start, end);
  }
  asm.event(type, slot, time, index, start, end);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;

/**
 * JSON.parse's result for `text`, except that integer literals beyond ±(2^53−1) become
 * ExactInteger. Iterative (a stack of open containers): nesting depth is bounded by memory only.
 * Strings go to JSON.parse itself, so their escapes are decoded exactly as on the fast path.
 */
function exactJson(text: string): unknown {
  const n = text.length;
  let i = 0;
  const stack: (unknown[] | Record<string, unknown>)[] = [];
  const keys: string[] = []; // per open object, the key whose value comes next
  const fail = (what: string): never => {
    throw new JsonEventError(`${what} at position ${i}`);
  };
  const ws = (): void => {
    for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = text.charCodeAt(++i));
  };
  const string = (): string => {
    if (text.charCodeAt(i) !== 34) fail(`expected a string, found ${i < n ? `'${text[i]}'` : 'the end of the line'}`);
    let j = i + 1;
    for (let c = text.charCodeAt(j); c !== 34; c = text.charCodeAt(j)) {
      if (j >= n) fail('unterminated string');
      j += c === 92 ? 2 : 1;
    }
    let s: string;
    try {
      s = JSON.parse(text.slice(i, j + 1)) as string;
    } catch {
      return fail('invalid string (a bad escape or a control character)');
    }
    i = j + 1;
    return s;
  };
  const key = (): string => {
    ws();
    const k = string();
    ws();
    if (text.charCodeAt(i) !== 58) fail("expected ':' after a key");
    i++;
    return k;
  };
  for (;;) {
    ws();
    let value: unknown;
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) {
      i++;
      ws();
      if (text.charCodeAt(i) === c + 2) { // '}' or ']': empty
        i++;
        value = c === 123 ? Object.create(null) : [];
      } else {
        if (c === 123) {
          // No prototype: a "__proto__" key is an ordinary member, as JSON.parse makes it.
          stack.push(Object.create(null) as Record<string, unknown>);
          keys.push(key());
        } else stack.push([]);
        continue;
      }
    } else if (c === 34) value = string();
    else if (c === 45 || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) return fail('invalid number');
      if (m[1] === undefined && m[2] === undefined) {
        const neg = c === 45;
        const digits = m[0].length - (neg ? 1 : 0);
        if (digits > MAX_INTEGER_DIGITS) fail(`a number may have at most ${MAX_INTEGER_DIGITS} digits (this one has ${digits})`);
        i += m[0].length;
        const v = Number(m[0]);
        value = Number.isSafeInteger(v) ? v : new ExactInteger(canonicalInteger(neg, neg ? m[0].slice(1) : m[0]));
      } else {
        i += m[0].length;
        value = Number(m[0]);
      }
    } else if (text.startsWith('true', i)) {
      i += 4;
      value = true;
    } else if (text.startsWith('false', i)) {
      i += 5;
      value = false;
    } else if (text.startsWith('null', i)) {
      i += 4;
      value = null;
    } else return fail(i < n ? `unexpected '${text[i]}'` : 'unexpected end of the line');
    // Put the value into its container; close every container that ends here.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) {
        ws();
        if (i < n) fail('unexpected text after the event');
        return value;
      }
      const isArray = Array.isArray(top);
      if (isArray) top.push(value);
      else top[keys[keys.length - 1]] = value;
      ws();
      const d = text.charCodeAt(i);
      if (d === 44) { // ','
        i++;
        if (!isArray) keys[keys.length - 1] = key();
        break;
      }
      if (d !== (isArray ? 93 : 125)) fail(`expected ',' or '${isArray ? ']' : '}'}'`);
      i++;
      stack.pop();
      if (!isArray) keys.pop();
      value = top;
    }
  }
}
