// Jepsen readers (EDN, JSON lines) on hostile input: named processes, integers beyond 2^53, string escapes, times, deep nesting, unclosed vectors, duplicate keys.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText, analyzeJepsenBytes, type Analysis } from '../server/src/engine/analyze.ts';
import { readJepsenEdn, type JepsenFile } from '../server/src/engine/readers/edn-reader.ts';
import { readJepsenJson } from '../server/src/engine/readers/json-events-reader.ts';
import { writeHistoryAsHist } from '../server/src/engine/export/convert-hist.ts';
import { exportWitness } from '../server/src/engine/export/witness-export.ts';
import { OP_LIST_READ, type History } from '../server/src/engine/model/history.ts';
import { utf8 } from '../server/src/engine/util/utf8.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const edn = (lines: string[]): JepsenFile => readJepsenEdn(enc(lines.join('\n') + '\n'));
const json = (lines: string[]): JepsenFile => readJepsenJson(lines.join('\n') + '\n');
const messages = (f: JepsenFile): string[] => f.findings.map((x) => x.message);
const lineOf = (f: JepsenFile, i: number): number => f.lines.range(f.findings[i].span.start, f.findings[i].span.end).start.line + 1;

/** Per session, `name: T… T…`; per transaction its ops as `k+v` (append/write) or `k=[..]` / `k=v` (reads). */
function shape(h: History): string[] {
  const out: string[] = [];
  for (let s = 0; s < h.sessionCount; s++) {
    const txns: string[] = [];
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      const ops: string[] = [];
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
        const k = h.names.keyName(h.opKey[o]);
        if (h.opKind[o] === OP_LIST_READ) {
          const l = h.opListStart as Int32Array;
          ops.push(`${k}=[${Array.from((h.listElems as Int32Array).subarray(l[o], l[o + 1]), (v) => h.names.valueText(v)).join(' ')}]`);
        } else ops.push(`${k}:${h.names.valueText(h.opValue[o])}`);
      }
      txns.push(`${h.names.txnName(t)}(${ops.join(' ')})`);
    }
    out.push(`${h.names.sessionName(s)}: ${txns.join(' ')}`);
  }
  return out;
}

/** 1 when the transaction named `name` is unknown (:info or never completed), 0 when not, -1 when absent. */
function unknownOf(h: History, name: string): number {
  for (let t = 1; t < h.txnCount; t++) if (h.names.txnName(t) === name) return h.txnUnknown?.[t] ?? 0;
  return -1;
}

const verdicts = (a: Analysis): string => a.levels.map((v) => `${v.level}${v.consistent === true ? '✓' : v.consistent === false ? '✗' : '?'}`).join(' ');
const codes = (a: Analysis): string[] => a.findings.filter((f) => f.severity === 'error').map((f) => f.code);

// The fuzzer's reproducer: a read of values nobody appended, by a process named by a keyword.
const KW_PROCESS = [
  '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 3, :process :p2, :index 2}',
  '{:type :ok, :f :txn, :value [[:r 1 [1 5]]], :time 4, :process :p2, :index 3}',
];

test('a keyword or string :process is a session named after it, checked like an integer one', () => {
  const byKeyword = analyzeJepsenBytes(enc(KW_PROCESS.join('\n')), 'edn');
  const byNumber = analyzeJepsenBytes(enc(KW_PROCESS.join('\n').replaceAll(':process :p2', ':process 2')), 'edn');
  assert.deepEqual(codes(byKeyword), ['garbage-read', 'garbage-read']);
  assert.deepEqual(codes(byKeyword), codes(byNumber));
  assert.equal(verdicts(byKeyword), verdicts(byNumber));
  assert.deepEqual(shape(edn(KW_PROCESS).history), [':p2: T2(1=[1 5])']);
  assert.deepEqual(shape(edn(KW_PROCESS.map((l) => l.replace(':p2', '"p2"'))).history), ['"p2": T2(1=[1 5])']);
  const jsonLines = [
    '{"type":"invoke","f":"txn","value":[["r",1,null]],"time":3,"process":"p2","index":2}',
    '{"type":"ok","f":"txn","value":[["r",1,[1,5]]],"time":4,"process":"p2","index":3}',
  ];
  assert.deepEqual(shape(json(jsonLines).history), ['"p2": T2(1=[1 5])']);
  assert.deepEqual(codes(analyzeJepsenBytes(jsonLines.join('\n'), 'json')), ['garbage-read', 'garbage-read']);
});

test('one process value, one session; 2, :p2, "p2" and two integers beyond 2^53 are five; a crashed named process goes on as a new session', () => {
  const ev = (type: string, p: string, i: number, v = '[[:append 1 ' + i + ']]'): string => `{:type :${type}, :f :txn, :value ${v}, :process ${p}, :time ${i}, :index ${i}}`;
  const f = edn([
    ev('invoke', ':p2', 0), ev('invoke', '2', 1), ev('invoke', '"p2"', 2), ev('invoke', '9007199254740993', 3),
    ev('ok', '"p2"', 4, '[[:append 1 2]]'), ev('ok', ':p2', 5, '[[:append 1 0]]'), ev('info', '2', 6, '[[:append 1 1]]'),
    ev('ok', '9007199254740993', 7, '[[:append 1 3]]'),
    ev('invoke', ':p2', 8), ev('info', ':p2', 9, '[[:append 1 8]]'), ev('invoke', ':p2', 10),
    ev('invoke', '"zz"', 11), ev('invoke', '7', 12), ev('invoke', ':aa', 13),
    ev('invoke', '9007199254740992', 14), ev('ok', '9007199254740992', 15, '[[:append 1 14]]'),
  ]);
  assert.deepEqual(messages(f), []);
  // Sessions are listed by name (the model's canonical order); invokes never completed are unknown.
  assert.deepEqual(shape(f.history), [
    '"p2": T2(1:2)',
    '"zz": T11(1:11)',
    ':aa: T13(1:13)',
    ':p2: T0(1:0) T8(1:8)',
    ':p2.2: T10(1:10)',
    'p2: T1(1:1)',
    'p7: T12(1:12)',
    'p9007199254740992: T14(1:14)',
    'p9007199254740993: T3(1:3)',
  ]);
  assert.deepEqual(['T0', 'T1', 'T8', 'T10', 'T11', 'T12', 'T13', 'T14'].map((t) => unknownOf(f.history, t)), [0, 1, 1, 1, 1, 1, 1, 0]);
});

test('a :txn event without a process is an error, not silently dropped; :process must still be a non-negative integer, keyword or string', () => {
  const f = edn([
    '{:type :invoke, :f :txn, :value [[:append 1 1]], :time 1}',
    '{:type :invoke, :f :txn, :value [[:append 1 1]], :process nil, :time 1}',
    '{:type :invoke, :f :txn, :value [[:append 1 1]], :process -1, :time 1}',
    '{:type :invoke, :f :txn, :value [[:append 1 1]], :process [1], :time 1}',
    '{:type :invoke, :f :start, :value nil, :process :nemesis}',
  ]);
  assert.deepEqual(messages(f), [
    'invalid Jepsen event at line 1: a :txn event without :process (its session); the event is skipped',
    'invalid Jepsen event at line 2: a :txn event without :process (its session); the event is skipped',
    "invalid Jepsen event at line 3: :process must be a non-negative integer, a keyword or a string, found '-1'; the event is skipped",
    "invalid Jepsen event at line 4: :process must be a non-negative integer, a keyword or a string, found '[1'; the event is skipped",
  ]);
  const j = json(['{"type":"invoke","f":"txn","value":[["append",1,1]],"time":1}', '{"type":"invoke","f":"txn","value":[],"process":true}', '{"type":"invoke","f":"start","process":"nemesis"}']);
  assert.deepEqual(messages(j), [
    'invalid Jepsen event at line 1: a "txn" event without "process" (its session); the event is skipped',
    'invalid Jepsen event at line 2: "process" must be a non-negative integer or a string, found true; the event is skipped',
  ]);
});

// 2^53 + 1 appended, 2^53 read: a garbage read that rounding to doubles hid.
const PREC_EDN = [
  '{:type :invoke, :f :txn, :value [[:append 1 9007199254740993]], :time 1, :process 0, :index 0}',
  '{:type :ok, :f :txn, :value [[:append 1 9007199254740993]], :time 2, :process 0, :index 1}',
  '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 3, :process 1, :index 2}',
  '{:type :ok, :f :txn, :value [[:r 1 [9007199254740992]]], :time 4, :process 1, :index 3}',
];
const PREC_JSON = [
  '{"type":"invoke","f":"txn","value":[["append",1,9007199254740993]],"time":1,"process":0,"index":0}',
  '{"type":"ok","f":"txn","value":[["append",1,9007199254740993]],"time":2,"process":0,"index":1}',
  '{"type":"invoke","f":"txn","value":[["r",1,null]],"time":3,"process":1,"index":2}',
  '{"type":"ok","f":"txn","value":[["r",1,[9007199254740992]]],"time":4,"process":1,"index":3}',
];

test('integers beyond 2^53 compare exactly, values and keys, in EDN and JSON lines', () => {
  for (const a of [analyzeJepsenBytes(enc(PREC_EDN.join('\n')), 'edn'), analyzeJepsenBytes(PREC_JSON.join('\n'), 'json')]) {
    assert.deepEqual(codes(a), ['garbage-read']);
    assert.match(a.findings.find((f) => f.code === 'garbage-read')?.message ?? '', /holds 9007199254740992, which no transaction appended to 1/);
  }
  assert.deepEqual(shape(edn(PREC_EDN).history), ['p0: T0(1:9007199254740993)', 'p1: T2(1=[9007199254740992])']);
  assert.deepEqual(shape(json(PREC_JSON).history), shape(edn(PREC_EDN).history));
  // Keys: two neighbours stay two keys; 42N and +42 are the integer 42; -0 is 0; 30 digits exact, negative too.
  const big = '123456789012345678901234567890';
  const f = edn([
    `{:type :invoke, :f :txn, :value [[:w 9007199254740993 1] [:w 9007199254740992 2] [:w 42N 3] [:w ${big} -${big}]], :process 0, :time 1, :index 0}`,
    `{:type :ok, :f :txn, :value [[:w 9007199254740993 1] [:w 9007199254740992 2] [:w 42N 3] [:w ${big} -${big}]], :process 0, :time 2, :index 1}`,
    '{:type :invoke, :f :txn, :value [[:r +42 nil] [:r 42 nil] [:r -0 nil] [:r 0 nil]], :process 1, :time 3}',
    '{:type :ok, :f :txn, :value [[:r +42 3] [:r 42 3] [:r -0 nil] [:r 0 nil]], :process 1, :time 4}',
  ]);
  assert.deepEqual(messages(f), []);
  assert.deepEqual(shape(f.history), [`p0: T0(9007199254740993:1 9007199254740992:2 42:3 ${big}:-${big})`, 'p1: T2(42:3 42:3 0:init 0:init)']);
  const j = json([`{"type":"invoke","f":"txn","value":[["w",9007199254740993,1],["w",9007199254740992,2],["w",42,3],["w",${big},-${big}]],"process":0,"time":1,"index":0}`,
    `{"type":"ok","f":"txn","value":[["w",9007199254740993,1],["w",9007199254740992,2],["w",42,3],["w",${big},-${big}]],"process":0,"time":2,"index":1}`]);
  assert.deepEqual(shape(j.history), [shape(f.history)[0]]);
});

test('integers of more than 30 digits (as in .hist) and floats out of range are errors, not rounded', () => {
  const f = edn([
    '{:type :invoke, :f :txn, :value [[:w 1 123456789012345678901234567890123]], :process 0, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w 1 1.5e400]], :process 1, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w 1 1.5]], :process 2, :time 1}',
  ]);
  assert.deepEqual(messages(f), [
    'invalid Jepsen event at line 1: a number may have at most 30 digits (this one has 33); the event is skipped',
    "invalid Jepsen event at line 2: the number '1.5e400' is out of range; the event is skipped",
  ]);
  const j = json([
    '{"type":"invoke","f":"txn","value":[["w",1,123456789012345678901234567890123]],"process":0,"time":1}',
    '{"type":"invoke","f":"txn","value":[["w",1,1.5e400]],"process":1,"time":1}',
  ]);
  assert.deepEqual(messages(j), [
    'invalid Jepsen event at line 1: a number may have at most 30 digits (this one has 33) at position 43; the event is skipped',
    'invalid Jepsen event at line 2: a number out of range; the event is skipped',
  ]);
});

test('EDN string escapes: \\t \\r \\n \\\\ \\" and \\uXXXX decoded; any other escape is an error', () => {
  const f = edn([
    String.raw`{:type :invoke, :f :txn, :value [[:w "\u0041" 1] [:w "a\tb\rc\nd\\e\"f" 2] [:w "\uD83D\uDE00\u00e9" 3]], :process 0, :time 1}`,
    String.raw`{:type :ok, :f :txn, :value [[:w "\u0041" 1] [:w "a\tb\rc\nd\\e\"f" 2] [:w "\uD83D\uDE00\u00e9" 3]], :process 0, :time 2}`,
    String.raw`{:type :invoke, :f :txn, :value [[:w "\x41" 1]], :process 1, :time 3}`,
    String.raw`{:type :invoke, :f :txn, :value [[:w "\u00G1" 1]], :process 2, :time 3}`,
    String.raw`{:type :invoke, :f :txn, :value [[:w "\é" 1]], :process 3, :time 3}`,
    String.raw`{:type :invoke, :f :txn, :value [[:w 1 1]], :error "\q", :process 4, :time 3}`,
  ]);
  assert.deepEqual(shape(f.history)[0], String.raw`p0: T0("A":1 "a\tb\rc\nd\\e\"f":2 "😀é":3)`);
  assert.deepEqual(messages(f), [
    String.raw`malformed EDN at line 3: unknown escape '\x' in a string (EDN has \t, \r, \n, \\, \" and \uXXXX); the event is skipped`,
    String.raw`malformed EDN at line 4: '\u' in a string must be followed by four hexadecimal digits, found '\u00G'; the event is skipped`,
    String.raw`malformed EDN at line 5: unknown escape '\é' in a string (EDN has \t, \r, \n, \\, \" and \uXXXX); the event is skipped`,
    String.raw`malformed EDN at line 6: unknown escape '\q' in a string (EDN has \t, \r, \n, \\, \" and \uXXXX); the event is skipped`,
  ]);
  assert.deepEqual([lineOf(f, 0), lineOf(f, 3)], [3, 6]);
});

test(':time must be an integer within ±(2^53−1), as .hist intervals; a completion before its invoke keeps the transaction without an interval', () => {
  const f = edn([
    '{:type :invoke, :f :txn, :value [[:w 1 1]], :time -99999999999999999999999, :process 0, :index 0}',
    '{:type :ok, :f :txn, :value [[:w 1 1]], :time 1.5e400, :process 0, :index 1}',
    '{:type :invoke, :f :txn, :value [[:w 2 1]], :time 1.5, :process 1}',
    '{:type :invoke, :f :txn, :value [[:w 2 1]], :time 9007199254740992, :process 2}',
    '{:type :invoke, :f :txn, :value [[:w 2 1]], :time :soon, :process 3}',
    '{:type :invoke, :f :txn, :value [[:w 3 1]], :time -9007199254740991, :process 4, :index 5}',
    '{:type :ok, :f :txn, :value [[:w 3 1]], :time 9007199254740991, :process 4, :index 6}',
    '{:type :invoke, :f :txn, :value [[:w 4 1]], :time 50, :process 5, :index 7}',
    '{:type :ok, :f :txn, :value [[:w 4 1]], :time 40, :process 5, :index 8}',
    '{:type :invoke, :f :txn, :value [[:w 5 1]], :time 1, :process 6, :index -1}',
  ]);
  assert.deepEqual(messages(f), [
    "invalid Jepsen event at line 1: :time must be an integer of magnitude at most 2^53−1 (9007199254740991), found '-99999999999999999999999'; the event is skipped",
    "invalid Jepsen event at line 2: :time must be an integer of magnitude at most 2^53−1 (9007199254740991), found '1.5e400'; the event is skipped",
    "invalid Jepsen event at line 3: :time must be an integer of magnitude at most 2^53−1 (9007199254740991), found '1.5'; the event is skipped",
    "invalid Jepsen event at line 4: :time must be an integer of magnitude at most 2^53−1 (9007199254740991), found '9007199254740992'; the event is skipped",
    "invalid Jepsen event at line 5: :time must be an integer of magnitude at most 2^53−1 (9007199254740991), found ':soon'; the event is skipped",
    'T7 completes (at 40) before it was invoked (at 50); it is read without a real-time interval',
    "invalid Jepsen event at line 10: :index must be a non-negative integer of at most 2^53−1, found '-1'; the event is skipped",
  ]);
  const h = f.history;
  const interval = (name: string): string => {
    for (let t = 1; t < h.txnCount; t++) if (h.names.txnName(t) === name) return `${h.txnTimeStart?.[t]}..${h.txnTimeEnd?.[t]}`;
    return 'none';
  };
  assert.equal(interval('T5'), '-9007199254740991..9007199254740991');
  assert.equal(interval('T7'), 'NaN..NaN');
  // What convert writes parses back with no syntax error.
  const hist: string[] = [];
  writeHistoryAsHist(h, 'times', (c) => hist.push(c));
  assert.deepEqual(analyzeHistText(hist.join('')).findings.filter((x) => x.code === 'syntax').map((x) => x.message), []);
  const j = json([
    '{"type":"invoke","f":"txn","value":[["w",1,1]],"time":1.5,"process":0}',
    '{"type":"invoke","f":"txn","value":[["w",1,1]],"time":"5","process":1}',
    '{"type":"invoke","f":"txn","value":[["w",1,1]],"time":-99999999999999999999999,"process":2}',
    '{"type":"invoke","f":"txn","value":[["w",1,1]],"time":1,"index":9007199254740993,"process":3}',
  ]);
  assert.deepEqual(messages(j), [
    'invalid Jepsen event at line 1: "time" must be an integer of magnitude at most 2^53−1 (9007199254740991), found 1.5; the event is skipped',
    'invalid Jepsen event at line 2: "time" must be an integer of magnitude at most 2^53−1 (9007199254740991), found "5"; the event is skipped',
    'invalid Jepsen event at line 3: "time" must be an integer of magnitude at most 2^53−1 (9007199254740991), found -99999999999999999999999; the event is skipped',
    'invalid Jepsen event at line 4: "index" must be a non-negative integer of magnitude at most 2^53−1 (9007199254740991), found 9007199254740993; the event is skipped',
  ]);
});

test('JSON lines nested thousands of levels deep: a plain message, no stack overflow, on both parsing paths', () => {
  const deep = (d: number): string => '['.repeat(d) + '1' + ']'.repeat(d);
  const j = json([
    `{"type":"ok","f":"txn","value":[["r",1,${deep(5000)}]],"process":0}`,
    `{"type":"ok","f":"txn","value":[["r",1,${deep(5000)}]],"process":9007199254740993}`,
    `{"type":${deep(100000)},"f":"txn","value":[],"process":0}`,
    `{"type":"invoke","f":"txn","value":[["w",1,1]],"process":0,"node":${deep(100000)}}`,
    `{"type":"invoke","f":"txn","value":[["w",1,1]],"process":1,"node":${deep(100000)},"big":9007199254740993}`,
  ]);
  assert.deepEqual(messages(j), [
    "invalid Jepsen event at line 1: a read list's elements must be numbers or strings, found a list; the event is skipped",
    "invalid Jepsen event at line 2: a read list's elements must be numbers or strings, found a list; the event is skipped",
    'invalid Jepsen event at line 3: unknown "type" a list (expected invoke, ok, fail or info); the event is skipped',
  ]);
  assert.equal(j.history.txnCount, 3, 'both invokes read (never completed: unknown)');
});

test('JSON lines: keys that name Object.prototype members are not event types or micro-ops; the exact path parses like JSON.parse', () => {
  const j = json([
    '{"type":"constructor","f":"txn","value":[],"process":0}',
    '{"type":"invoke","f":"txn","value":[["toString",1,1]],"process":0}',
    '{"type":"invoke","f":"txn","value":[["w",1,1]],"process":0,"x":9007199254740993}',
    '{"type":"invoke","f":"txn","value":[["w","\\u0041",9007199254740993]],"process":1,"__proto__":{"a":[]},"e":[{}, [], true, false, null, -1.5e3]}',
  ]);
  assert.deepEqual(messages(j), [
    'invalid Jepsen event at line 1: unknown "type" "constructor" (expected invoke, ok, fail or info); the event is skipped',
    'invalid Jepsen event at line 2: expected a micro-op like ["append", k, v], found a list of 3 starting with "toString"; the event is skipped',
  ]);
  assert.deepEqual(shape(j.history), ['p0: T3(1:1)', 'p1: T4("A":9007199254740993)']);
});

test('EDN: a history vector never closed, a stray or mismatched bracket, a duplicate key: errors, the rest read', () => {
  const ev = (type: string, p: number, extra = ''): string => `{:type :${type}, :f :txn, :value [[:append 1 ${p}]], :process ${p}${extra}}`;
  const unclosed = edn(['[' + ev('invoke', 0), ev('ok', 0), ev('invoke', 1), ev('ok', 1)]);
  assert.deepEqual(messages(unclosed), ["malformed EDN at line 4: the history's '[' at line 1 is never closed (expected ']' at the end of the file)"]);
  assert.equal(lineOf(unclosed, 0), 4);
  assert.deepEqual(shape(unclosed.history), ['p0: T0(1:0)', 'p1: T2(1:1)']);
  assert.deepEqual(messages(edn(['[' + ev('invoke', 0), ev('ok', 0) + ']'])), []);
  assert.deepEqual(messages(edn(['(' + ev('invoke', 0), ev('ok', 0) + ')'])), []);
  // The last event is malformed and its line holds the ']': one error, not a second for the bracket.
  assert.deepEqual(messages(edn(['[' + ev('invoke', 0), '{:type :weird}]'])), ['invalid Jepsen event at line 2: unknown :type :weird (expected :invoke, :ok, :fail or :info); the event is skipped']);
  assert.deepEqual(messages(edn(['[' + ev('invoke', 0), ev('ok', 0) + ')'])), ["malformed EDN at line 2: unexpected ')' (the history opened with '[' at line 1 closes with ']')"]);
  assert.deepEqual(messages(edn([ev('invoke', 0), ']', ev('ok', 0)])), ["malformed EDN at line 2: unexpected ']' (no history vector is open)"]);
  const dup = edn([
    ev('invoke', 0), ev('ok', 0, ', :type :fail'),
    ev('invoke', 1), ev('ok', 1, ', :error 1, :node "n1", :error 2'),
    ev('invoke', 2), ev('ok', 2, ', :error 1, :errors 2'),
  ]);
  assert.deepEqual(messages(dup), [
    'malformed EDN at line 2: the key :type appears twice in an event map (EDN forbids duplicate keys); the event is skipped',
    'malformed EDN at line 4: the key :error appears twice in an event map (EDN forbids duplicate keys); the event is skipped',
  ]);
  assert.deepEqual(lineOf(dup, 0), 2);
  assert.deepEqual(shape(dup.history), ['p0: T0(1:0)', 'p1: T2(1:1)', 'p2: T4(1:2)']);
  assert.deepEqual(['T0', 'T2', 'T4'].map((t) => unknownOf(dup.history, t)), [1, 1, 0], 'T4 committed; T0 and T2 never completed: unknown');
});

test('a transaction spelled :f "txn" (EDN string) or "f": ":txn" (JSON) is an error, not skipped as a non-transaction operation', () => {
  const e = edn([
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 1, :process 1, :index 0}',
    '{:type :ok, :f "txn", :value [[:r 1 [2]]], :time 2, :process 1, :index 1}',
    '{:type :invoke, :f :read, :value nil, :time 3, :process 2, :index 2}',
  ]);
  assert.deepEqual(messages(e), ['invalid Jepsen event at line 2: :f is the string "txn"; a transaction is :f :txn (a keyword); the event is skipped']);
  const j = json([
    '{"type":"invoke","f":"txn","value":[["r",1,null]],"time":1,"process":1,"index":0}',
    '{"type":"ok","f":":txn","value":[["r",1,[2]]],"time":2,"process":1,"index":1}',
    '{"type":"invoke","f":"read","value":null,"time":3,"process":2,"index":2}',
  ]);
  assert.deepEqual(messages(j), ['invalid Jepsen event at line 2: "f" is ":txn"; a transaction is "f": "txn"; the event is skipped']);
});

test('convert refuses a float value (as the string "1.5" it would equal a string value): verdicts would change', () => {
  const a = analyzeJepsenBytes(enc([
    '{:type :invoke, :f :txn, :value [[:append 1 1.5]], :time 1, :process 0, :index 0}',
    '{:type :ok, :f :txn, :value [[:append 1 1.5]], :time 2, :process 0, :index 1}',
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 3, :process 1, :index 2}',
    '{:type :ok, :f :txn, :value [[:r 1 ["1.5"]]], :time 4, :process 1, :index 3}',
  ].join('\n')), 'edn');
  assert.ok(codes(a).includes('garbage-read'), 'the string "1.5" was never appended');
  assert.throws(() => writeHistoryAsHist(a.history, 't', () => {}), /the value 1\.5 is a number but not an integer/);
});

test('EDN values are equal as Clojure says: "a", :a and the symbol a differ, 1.0 and 1e5 are not the integers 1 and 100000, 042 is refused', () => {
  const appendsThenReads = (appended: string, read: string): Analysis => analyzeJepsenBytes(enc([
    `{:type :invoke, :f :txn, :value [[:append 1 ${appended}]], :time 1, :process 0, :index 0}`,
    `{:type :ok, :f :txn, :value [[:append 1 ${appended}]], :time 2, :process 0, :index 1}`,
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 3, :process 1, :index 2}',
    `{:type :ok, :f :txn, :value [[:r 1 [${read}]]], :time 4, :process 1, :index 3}`,
  ].join('\n')), 'edn');
  for (const [appended, read] of [[':a', '":a"'], ['":a"', ':a'], ['a', '"a"'], ['true', '"true"'], ['1e5', '100000'], ['100000', '1e5'], ['1.0', '1'], ['1/2', '"1/2"'], ['1.5M', '1.5'], ['1M', '1']]) {
    assert.deepEqual(codes(appendsThenReads(appended, read)), ['garbage-read'], `${appended} appended, ${read} read`);
  }
  for (const [appended, read] of [[':a', ':a'], ['"a"', '"a"'], ['a', 'a'], ['1e5', '100000.0'], ['1.5', '1.50'], ['42', '42N'], ['42', '+42'], ['1.5M', '1.50M'], ['2.', '2.0']]) {
    assert.deepEqual(codes(appendsThenReads(appended, read)), [], `${appended} appended, ${read} read`);
  }
  // Shown as EDN writes them: the keyword bare, the string quoted, the float with its point.
  assert.deepEqual(shape(edn([
    '{:type :invoke, :f :txn, :value [[:w :k :a] [:w "k" "a"] [:w k a] [:w 1 1e5] [:w 2 1.0]], :process 0, :time 1}',
    '{:type :ok, :f :txn, :value [[:w :k :a] [:w "k" "a"] [:w k a] [:w 1 1e5] [:w 2 1.0]], :process 0, :time 2}',
  ]).history), ['p0: T0(:k::a "k":"a" k:a 1:100000.0 2:1.0)']);
  for (const token of ['0x1F', '1e', '1.2.3', '2r101']) {
    const bad = edn([`{:type :invoke, :f :txn, :value [[:w 1 ${token}]], :process 0, :time 1}`]);
    assert.match(messages(bad)[0], new RegExp(`'${token.replace(/\./g, '\\.')}' is not a number EDN knows`), token);
  }
  const zero = edn([
    '{:type :invoke, :f :txn, :value [[:w 042 1]], :process 0, :time 1}',
    '{:type :ok, :f :txn, :value [[:w 1 0]], :process 0, :time 2}',
  ]);
  assert.deepEqual(messages(zero), ["malformed EDN at line 1: the integer '042' starts with 0, which EDN does not allow (Clojure would read it as an octal number); the event is skipped",
    'a completion (:ok) of process 0 without its invoke']);
});

test('convert refuses two values that .hist would write alike (the keyword :a and the string ":a"), keeps them when alone', () => {
  const both = analyzeJepsenBytes(enc([
    '{:type :invoke, :f :txn, :value [[:append 1 :a] [:append 1 ":a"]], :time 1, :process 0, :index 0}',
    '{:type :ok, :f :txn, :value [[:append 1 :a] [:append 1 ":a"]], :time 2, :process 0, :index 1}',
  ].join('\n')), 'edn');
  assert.throws(() => writeHistoryAsHist(both.history, 't', () => {}), /the values :a and ":a" would both be the value ":a" in \.hist/);
  const alone = analyzeJepsenBytes(enc([
    '{:type :invoke, :f :txn, :value [[:append 1 :a]], :time 1, :process 0, :index 0}',
    '{:type :ok, :f :txn, :value [[:append 1 :a]], :time 2, :process 0, :index 1}',
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 3, :process 1, :index 2}',
    '{:type :ok, :f :txn, :value [[:r 1 [:a]]], :time 4, :process 1, :index 3}',
  ].join('\n')), 'edn');
  let text = '';
  writeHistoryAsHist(alone.history, 't', (c) => { text += c; });
  assert.match(text, /a\(1, ":a"\)/);
  assert.deepEqual(verdicts(analyzeHistText(text)), verdicts(alone));
});

test('witness --format hist refuses two values .hist would write alike, instead of exporting another history', () => {
  const a = analyzeJepsenBytes(enc([
    '{:type :invoke, :f :txn, :value [[:append 1 :a]], :time 1, :process 0, :index 0}',
    '{:type :ok, :f :txn, :value [[:append 1 :a]], :time 2, :process 0, :index 1}',
    '{:type :invoke, :f :txn, :value [[:append 1 ":a"]], :time 3, :process 1, :index 2}',
    '{:type :ok, :f :txn, :value [[:append 1 ":a"]], :time 4, :process 1, :index 3}',
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 5, :process 2, :index 4}',
    '{:type :ok, :f :txn, :value [[:r 1 [:a ":a"]]], :time 6, :process 2, :index 5}',
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :time 7, :process 3, :index 6}',
    '{:type :ok, :f :txn, :value [[:r 1 [":a" :a]]], :time 8, :process 3, :index 7}',
  ].join('\n')), 'edn');
  assert.ok(codes(a).includes('incompatible-order'));
  const r = exportWitness(a, { file: 'k.edn', level: 'SER', format: 'hist', claimed: null });
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.message, /the values :a and ":a" would both be the value ":a" in \.hist/);
});

test('JSON lines keys and values with lone surrogates (\\ud800, \\udbff): UTF-8 .hist cannot hold them, so convert and witness refuse instead of merging them', () => {
  // Two keys a\ud800 and a\udbff: T0 and T1 each read the other's write, a causality cycle (RC violated). As UTF-8 both
  // are a U+FFFD, one key: the written file held own-writes and duplicate values, and RC held there.
  const cycle = (k1: string, k2: string): string[] => [
    `{"index":0,"process":0,"type":"invoke","f":"txn","value":[["w","${k1}",1],["r","${k2}",null]]}`,
    `{"index":1,"process":1,"type":"invoke","f":"txn","value":[["w","${k2}",1],["r","${k1}",null]]}`,
    `{"index":2,"process":0,"type":"ok","f":"txn","value":[["w","${k1}",1],["r","${k2}",1]]}`,
    `{"index":3,"process":1,"type":"ok","f":"txn","value":[["w","${k2}",1],["r","${k1}",1]]}`,
  ];
  const a = analyzeJepsenBytes(enc(cycle('a\\ud800', 'a\\udbff').join('\n')), 'json');
  assert.equal(verdicts(a).split(' ')[0], 'RC✗');
  assert.throws(() => writeHistoryAsHist(a.history, 't', () => {}), /the key "a\\ud800" contains a lone surrogate/);
  const r = exportWitness(a, { file: 's.jsonl', level: 'RC', format: 'hist', claimed: null });
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.message, /the keys "a\\ud800" and "a\\udbff" would both be the key "a\uFFFD" in \.hist/);
  // A value: T0 and T1 each read what the other wrote, values that only a lone surrogate tells apart.
  const values = analyzeJepsenBytes(enc([
    '{"index":0,"process":0,"type":"invoke","f":"txn","value":[["w","x","v\\ud800"],["r","y",null]]}',
    '{"index":1,"process":1,"type":"invoke","f":"txn","value":[["w","y","v\\udbff"],["r","x",null]]}',
    '{"index":2,"process":0,"type":"ok","f":"txn","value":[["w","x","v\\ud800"],["r","y","v\\udbff"]]}',
    '{"index":3,"process":1,"type":"ok","f":"txn","value":[["w","y","v\\udbff"],["r","x","v\\ud800"]]}',
  ].join('\n')), 'json');
  assert.equal(verdicts(values).split(' ')[0], 'RC✗');
  assert.throws(() => writeHistoryAsHist(values.history, 't', () => {}), /the value "v\\ud800" contains a lone surrogate/);
  const w = exportWitness(values, { file: 'v.jsonl', level: 'RC', format: 'hist', claimed: null });
  assert.match(w.ok ? w.text : w.message, /the values "v\\ud800" and "v\\udbff" would both be the value "v\uFFFD" in \.hist/);
  // A surrogate pair (an emoji) is a character like any other: written and read back as it was.
  const pair = analyzeJepsenBytes(enc(cycle('a\\ud83d\\ude00', 'b\\ud83d\\ude00').join('\n')), 'json');
  let text = '';
  writeHistoryAsHist(pair.history, 't', (c) => { text += c; });
  assert.match(text, /"a😀"/);
  assert.deepEqual(verdicts(analyzeHistText(text)), verdicts(pair));
});

test('bytes that are not UTF-8 (a binary file named .edn, a 4-byte lead with a code point past U+10FFFF): U+FFFD, never a RangeError', () => {
  // F4 BF BF BF would be U+13FFFF; F8 and C0 lead nothing; ED A0 80 is a surrogate; 80 a lone continuation.
  const bad = [0xf4, 0xbf, 0xbf, 0xbf, 0xf8, 0x88, 0x80, 0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x80, 0xe2, 0x28, 0xa1];
  assert.equal(utf8(Uint8Array.from(bad), 0, bad.length), '\ufffd'.repeat(15) + '(' + '\ufffd');
  // TextDecoder is the oracle: valid text, truncated sequences, random bytes.
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256;
  for (const b of [enc('aé✓😀'), Uint8Array.from([0xe2, 0x82]), Uint8Array.from([0xf0, 0x9f, 0x98]), ...Array.from({ length: 300 }, () => Uint8Array.from({ length: 40 }, next))]) {
    assert.equal(utf8(b, 0, b.length), new TextDecoder().decode(b), String(Array.from(b)));
  }
  // Where the reader quotes a token in a message (here: no event map), and inside a string value (F4 90 80 80: U+110000).
  assert.match(messages(readJepsenEdn(Uint8Array.from([0xf4, 0xbf, 0xbf, 0xbf, 0x0a]))).join('\n'), /expected an event map '\{…\}', found '\ufffd{4}'/);
  const inString = readJepsenEdn(Uint8Array.from([...enc('{:type :invoke, :f :txn, :value [[:append :x "'), 0xf4, 0x90, 0x80, 0x80, ...enc('"]], :process 0}\n')]));
  assert.equal(inString.history.txnCount, 2, 'the event is read (besides ⊥)');
  assert.ok(analyzeJepsenBytes(Uint8Array.from([0xf4, 0xbf, 0xbf, 0xbf]), 'json').findings.length > 0, 'JSON lines decode through it too');
});

test('a key holds registers or lists, as in .hist: a scalar read or a write of a list key is a mixed-key error, left out, and convert keeps the verdicts', () => {
  const lines = [
    '{:type :invoke, :f :txn, :value [[:append :z 1]], :process 0}',
    '{:type :ok, :f :txn, :value [[:append :z 1]], :process 0}',
    '{:type :invoke, :f :txn, :value [[:r :z nil] [:w :z 3]], :process 1}',
    '{:type :ok, :f :txn, :value [[:r :z 5] [:w :z 3]], :process 1}',
  ];
  const jsonLines = [
    '{"type":"invoke","f":"txn","value":[["append","z",1]],"process":0}',
    '{"type":"ok","f":"txn","value":[["append","z",1]],"process":0}',
    '{"type":"invoke","f":"txn","value":[["r","z",null],["w","z",3]],"process":1}',
    '{"type":"ok","f":"txn","value":[["r","z",5],["w","z",3]],"process":1}',
  ];
  for (const [format, bytes] of [['edn', enc(lines.join('\n'))], ['json', enc(jsonLines.join('\n'))]] as const) {
    const a = analyzeJepsenBytes(bytes, format);
    // Kept, the read of 5 was a thin-air read that broke every level; the converted .hist leaves it out.
    assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.code), ['mixed-key', 'mixed-key'], format);
    assert.match(a.findings[0].message, /^key (:z|"z") holds lists, so this register operation is left out/);
    assert.ok(a.levels.every((v) => v.consistent === true), format);
    const parts: string[] = [];
    writeHistoryAsHist(a.history, 't', (c) => parts.push(c));
    const converted = analyzeHistText(parts.join(''));
    assert.deepEqual(converted.levels.map((v) => v.consistent), a.levels.map((v) => v.consistent));
  }
  // More than a hundred: the first hundred and one summary.
  const many = [lines[0], lines[1], ...Array.from({ length: 150 }, (_, i) => [':invoke', ':ok'].map((type) => `{:type ${type}, :f :txn, :value [[:w :z ${i}]], :process ${i + 2}}`)).flat()];
  const m = readJepsenEdn(enc(many.join('\n')));
  const mixed = m.findings.filter((f) => f.code === 'mixed-key');
  assert.equal(mixed.length, 101);
  assert.equal(mixed[100].message, '50 more mixed-key findings in this file not shown (the first 100 are)');
});
