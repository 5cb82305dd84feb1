// Jepsen histories in: EDN and JSON lines into transactions, sessions, outcomes and intervals; conversion to .hist keeps the verdicts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText, analyzeJepsenBytes } from '../server/src/engine/analyze.ts';
import { readJepsenEdn } from '../server/src/engine/readers/edn-reader.ts';
import { readJepsenJson } from '../server/src/engine/readers/json-events-reader.ts';
import { writeHistoryAsHist } from '../server/src/engine/export/convert-hist.ts';
import { DEFAULT_LIST_GEN, generateListHistory, writeListEvents } from '../server/src/engine/gen/list-append-store.ts';
import type { History } from '../server/src/engine/model/history.ts';
import { fileReport } from '../server/src/engine/report.ts';
import { describeHistory } from './helpers/describe-history.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

// A list-append history in the shape Elle's documentation shows.
const ELLE = `[{:type :invoke, :f :txn, :value [[:append 250 10] [:r 253 nil] [:r 255 nil] [:append 256 3]], :time 3291485317, :process 0, :index 0}
{:type :invoke, :f :txn, :value [[:append 255 8] [:r 253 nil]], :time 3296209309, :process 2, :index 1}
{:type :ok, :f :txn, :value [[:append 250 10] [:r 253 [1 3 4]] [:r 255 [2 3 4 5]] [:append 256 3]], :time 3315154317, :process 0, :index 2}
{:type :ok, :f :txn, :value [[:append 255 8] [:r 253 [1 3 4]]], :time 3320100000, :process 2, :index 3}
{:type :invoke, :f :txn, :value [[:append 253 1] [:append 253 3] [:append 253 4] [:append 255 2] [:append 255 3] [:append 255 4] [:append 255 5]], :time 1, :process 5, :index 4}
{:type :info, :f :txn, :value [[:append 253 1] [:append 253 3] [:append 253 4] [:append 255 2] [:append 255 3] [:append 255 4] [:append 255 5]], :time 2, :process 5, :index 5}
{:type :invoke, :f :txn, :value [[:r 250 nil]], :time 3400000000, :process 5, :index 6}
{:type :fail, :f :txn, :value [[:r 250 nil]], :time 3400000100, :process 5, :index 7}
{:type :invoke, :f :start, :value nil, :process :nemesis, :index 8}]
`;

/** Per transaction, in session order: `session/name status @ start..end: ops` (helpers/describe-history.ts). */
const describe = (h: History): string[] => describeHistory(h);

test('an Elle list-append history: invoke/complete pairs, :info unknown, :fail aborted, a crashed process goes on as a new session, the nemesis skipped', () => {
  const f = readJepsenEdn(enc(ELLE));
  assert.deepEqual(f.findings, []);
  assert.deepEqual(describe(f.history), [
    'p0/T0 @ 3291485317..3315154317: a(250, 10) r(253, [1, 3, 4]) r(255, [2, 3, 4, 5]) a(256, 3)',
    'p2/T1 @ 3296209309..3320100000: a(255, 8) r(253, [1, 3, 4])',
    'p5/T4 unknown @ 1..2: a(253, 1) a(253, 3) a(253, 4) a(255, 2) a(255, 3) a(255, 4) a(255, 5)',
    'p5.2/T6 aborted @ 3400000000..3400000100: ',
  ]);
  const a = analyzeJepsenBytes(enc(ELLE), 'edn');
  assert.deepEqual(a.levels.map((v) => [v.level, v.consistent]), [['RC', true], ['RA', true], ['CC', true], ['PC', true], ['PSI', true], ['SI', true], ['SER', true], ['SSER', true]],
    'SSER is evaluated: the history has real times');
});

test('an rw-register history: [:w k v] and [:r k v], nil reads the initial value', () => {
  const text = `{:type :invoke, :f :txn, :value [[:w 1 5] [:w 2 5]], :process 0, :time 0}
{:type :ok, :f :txn, :value [[:w 1 5] [:w 2 5]], :process 0, :time 1}
{:type :invoke, :f :txn, :value [[:r 1 nil] [:r 2 nil]], :process 1, :time 2}
{:type :ok, :f :txn, :value [[:r 1 nil] [:r 2 5]], :process 1, :time 3}
`;
  const f = readJepsenEdn(enc(text));
  assert.deepEqual(describe(f.history), ['p0/T0 @ 0..1: w(1, 5) w(2, 5)', 'p1/T2 @ 2..3: r(1, init) r(2, 5)']);
  const a = analyzeJepsenBytes(enc(text), 'edn');
  assert.deepEqual(a.levels.map((v) => [v.level, v.consistent]).slice(0, 3), [['RC', true], ['RA', false], ['CC', false]]);
});

test('JSON lines give the same history as EDN', () => {
  const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: 200, store: 'permissive', seed: 9 });
  const parts: Record<'edn' | 'json', string[]> = { edn: [], json: [] };
  writeListEvents(d, 'edn', (c) => parts.edn.push(c));
  writeListEvents(d, 'json', (c) => parts.json.push(c));
  const a = readJepsenEdn(enc(parts.edn.join('')));
  const b = readJepsenJson(parts.json.join(''));
  assert.deepEqual(a.findings, []);
  assert.deepEqual(b.findings, []);
  assert.deepEqual(describe(a.history), describe(b.history));
});

test('gen → EDN → convert → .hist keeps every verdict and anomaly, on serial and permissive stores', () => {
  for (const [store, seed] of [['serial', 1], ['permissive', 2], ['permissive', 3], ['serial', 4]] as const) {
    const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: 150, sessions: 5, store, seed, unknownRatio: 0.15 });
    const edn: string[] = [];
    writeListEvents(d, 'edn', (c) => edn.push(c));
    const fromEdn = analyzeJepsenBytes(enc(edn.join('')), 'edn');
    const hist: string[] = [];
    writeHistoryAsHist(readJepsenEdn(enc(edn.join(''))).history, 'round trip', (c) => hist.push(c));
    const fromHist = analyzeHistText(hist.join(''));
    const summary = (x: typeof fromEdn): unknown => {
      const r = fileReport('f', x);
      return { levels: Object.fromEntries(Object.entries(r.levels).map(([k, v]) => [k, v.consistent])), anomalies: r.anomalies?.map((y) => y.code) };
    };
    assert.deepEqual(summary(fromHist), summary(fromEdn), `${store} ${seed}`);
    if (store === 'serial') assert.ok(Object.values(fileReport('f', fromEdn).levels).every((v) => v.consistent === true));
  }
});

test('malformed EDN: one error per bad event with its line, the rest still read', () => {
  const bad = [
    '{:type :invoke, :f :txn, :value [[:append 1 1]], :process 0, :time 1}',
    '{:type :ok, :f :txn, :value [[:append 1 1]], :process 0, :time 2}',
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :process 1, :time 3}',
    '{:type :ok, :f :txn, :value [[:r 1 [1]] [:frob 1 2]], :process 1, :time 4}',
    '{:type :weird, :f :txn, :value [], :process 1}',
    '{:type :ok, :f :txn, :value [[:append 1 2]], :process "x", :time 4}',
    '{:type :invoke, :f :txn, :value [[:r 1 nil]], :process 2, :time 5}',
    '{:type :ok, :f :txn, :value [[:r 1 [1',
  ].join('\n');
  const f = readJepsenEdn(enc(bad));
  const lines = f.findings.map((x) => f.lines.range(x.span.start, x.span.end).start.line + 1);
  assert.deepEqual(lines, [4, 5, 6, 8]);
  assert.match(f.findings[0].message, /line 4: unknown micro-op :frob/);
  assert.match(f.findings[1].message, /unknown :type :weird/);
  assert.match(f.findings[2].message, /a completion \(:ok\) of process "x" without its invoke/);
  assert.match(f.findings[3].message, /ends inside a list/);
  // T0 is read; processes 1 and 2 never completed: indeterminate, without reads.
  assert.deepEqual(describe(f.history).map((x) => x.split(' @')[0]), ['p0/T0', 'p1/T2 unknown', 'p2/T6 unknown']);
  for (const junk of ['', '[', '{', '}', '{:type}', '#{1 2}', '"unterminated', '[{:type :ok :f :txn :value [[:r 1 [1 2 3]]] :process 0}]', '\u0000\u00ff']) {
    const r = readJepsenEdn(enc(junk));
    assert.ok(r.history.txnCount >= 1, junk);
  }
});

test('malformed JSON lines: a clear error with the line number', () => {
  const f = readJepsenJson('{"type":"invoke","f":"txn","value":[["append",1,1]],"process":0,"time":1}\n{"type":"ok","f":"txn","value":[["append",1,1]],"process":0,"time":2}\nnot json\n{"type":"ok","f":"txn","value":[["bogus",1,1]],"process":3}\n');
  assert.deepEqual(f.findings.map((x) => x.message.replace(/:.*$/s, '')), ['malformed JSON event at line 3', 'invalid Jepsen event at line 4']);
  assert.equal(f.history.txnCount, 2);
});
