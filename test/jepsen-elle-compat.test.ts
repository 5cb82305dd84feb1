// Jepsen/Elle histories as Elle's own tests write them: nemesis ops, any EDN, [:r k] reads, completions only, no :f; and files that yield no transaction.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeJepsenBytes, type Analysis } from '../server/src/engine/analyze.ts';
import { readJepsenEdn, type JepsenFile } from '../server/src/engine/readers/edn-reader.ts';
import { readJepsenJson } from '../server/src/engine/readers/json-events-reader.ts';
import type { History } from '../server/src/engine/model/history.ts';
import { fileReport } from '../server/src/engine/report.ts';
import { renderDetails, renderTable } from '../server/src/cli/text-report.ts';
import { describeHistory } from './helpers/describe-history.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const edn = (lines: string[]): JepsenFile => readJepsenEdn(enc(lines.join('\n') + '\n'));
const json = (lines: string[]): JepsenFile => readJepsenJson(lines.join('\n') + '\n');
const messages = (f: JepsenFile): string[] => f.findings.map((x) => x.message);
const analyzeEdn = (lines: string[]): Analysis => analyzeJepsenBytes(enc(lines.join('\n') + '\n'), 'edn');
const analyzeJson = (lines: string[]): Analysis => analyzeJepsenBytes(lines.join('\n') + '\n', 'json');
const verdicts = (a: Analysis): string => a.levels.map((v) => `${v.level}${v.consistent === true ? '✓' : v.consistent === false ? '✗' : '?'}`).join(' ');
const anomalies = (a: Analysis): string[] => [...new Set(a.list?.anomalies.map((x) => x.code) ?? [])].sort();
const codes = (a: Analysis): string[] => a.findings.filter((f) => f.severity !== 'information').map((f) => `${f.severity}:${f.code}`);
/** The reader's own findings (syntax errors, the no-transaction warning): the checks' findings are other tests' business. */
const readerCodes = (a: Analysis): string[] => codes(a).filter((c) => c.endsWith(':syntax') || c.endsWith(':not-checked'));

/** Per transaction, in session order: `session/name status @ start..end: ops` (helpers/describe-history.ts). */
const describe = (h: History): string[] => describeHistory(h, true);

// Elle's README example, verbatim: completions only, no :f.
const README = [
  '[{:process 0, :type :ok, :value [[:append :x 1] [:r :y [1]]]}',
  ' {:process 1, :type :ok, :value [[:append :x 2] [:append :y 1]]}',
  ' {:process 2, :type :ok, :value [[:r :x [1 2]]]}]',
];
const README_JSON = [
  '{"process": 0, "type": "ok", "value": [["append", "x", 1], ["r", "y", [1]]]}',
  '{"process": 1, "type": "ok", "value": [["append", "x", 2], ["append", "y", 1]]}',
  '{"process": 2, "type": "ok", "value": [["r", "x", [1, 2]]]}',
];
/** G1c breaks every level from RC up; the history has no intervals, so SSER is not asked. */
const G1C_VERDICTS = 'RC✗ RA✗ CC✗ PC✗ PSI✗ SI✗ SER✗';

// A write skew (G2-item: SI holds, SER does not) in invoke/completion pairs, as Jepsen writes them.
const PAIRS = [
  '{:type :invoke, :f :txn, :value [[:r :x nil] [:r :y nil] [:append :x 1]], :process 0, :time 1, :index 0}',
  '{:type :invoke, :f :txn, :value [[:r :x nil] [:r :y nil] [:append :y 1]], :process 1, :time 2, :index 1}',
  '{:type :ok, :f :txn, :value [[:r :x []] [:r :y []] [:append :x 1]], :process 0, :time 3, :index 2}',
  '{:type :ok, :f :txn, :value [[:r :x []] [:r :y []] [:append :y 1]], :process 1, :time 4, :index 3}',
  '{:type :invoke, :f :txn, :value [[:r :x nil] [:r :y nil]], :process 2, :time 5, :index 4}',
  '{:type :ok, :f :txn, :value [[:r :x [1]] [:r :y [1]]], :process 2, :time 6, :index 5}',
];
const WRITE_SKEW = 'RC✓ RA✓ CC✓ PC✓ PSI✓ SI✓ SER✗ SSER✗';

/** Nemesis ops as Jepsen writes them, with every kind of value (and EDN's sets, tags and discards). */
const NEMESIS = [
  '{:process :nemesis, :type :info, :f :start-partition, :value "n1"}',
  '{:process :nemesis, :type :info, :f :kill, :value :all}',
  '{:type :info, :f :kill, :value {"n1" "", "n2" ""}, :process :nemesis, :time 10310719720, :index 1429}',
  '{:type :info, :f :start-partition, :value [:isolated {"n1" #{"n2" "n3"}, "n2" #{"n1"}}], :process :nemesis}',
  '{:type :info, :f :start, :value #{"n1" "n2"}, :process :nemesis, :time #inst "2020-01-01T00:00:00Z"}',
  '{:type :info, :value [:isolated {"n1" ["n2"]}], :f :start-partition, :process :nemesis}', // :value before :f
  '{:type :info, :process #uuid "1f1ba2d4-0f1b-4b5e-9a3c-2f8d1c9e0a11", :f :clock, :value #my.ns/offset {:n1 -12.5, :n2 ##Inf}}',
  '{:type :info, :f :heal, :value [#object[java.util.concurrent.FutureTask 0x1f2e3d "done"] \\a \\( #"[a-z]+\\d"], #_ :discarded #_ "also", :process :nemesis}',
  '#_ {:type :ok, :f :txn, :value [[:append :x 99]], :process 9}',
  '{:type :info, :f :stop, :value nil, :process :nemesis, :error #{:timeout}}',
];

test('nemesis events with any well-formed :value (strings, keywords, maps, sets, tags, #_) are skipped silently, :f before or after :value', () => {
  const f = edn(NEMESIS);
  assert.deepEqual(f.findings.filter((x) => x.severity === 'error'), []);
  assert.equal(f.history.txnCount, 1); // only the initial transaction
  // Between an invoke and its completion, and around them, they change nothing.
  const plain = analyzeEdn(PAIRS);
  const withNemesis = analyzeEdn([NEMESIS[0], PAIRS[0], ...NEMESIS.slice(1, 5), PAIRS[1], PAIRS[2], ...NEMESIS.slice(5), PAIRS[3], PAIRS[4], PAIRS[5]]);
  assert.equal(verdicts(plain), WRITE_SKEW);
  assert.deepEqual(anomalies(plain), ['G2-item']);
  assert.equal(verdicts(withNemesis), verdicts(plain));
  assert.deepEqual(anomalies(withNemesis), anomalies(plain));
  assert.deepEqual(codes(withNemesis), codes(plain));
  assert.deepEqual(describe(readJepsenEdn(enc([NEMESIS[0], PAIRS[0], NEMESIS[3], PAIRS[2]].join('\n'))).history), ['p0/T0 @ 1..3: r(:x, []) r(:y, []) a(:x, 1)']);
  // JSON lines: the same.
  const pairsJson = [
    '{"type": "invoke", "f": "txn", "value": [["r", "x", null], ["r", "y", null], ["append", "x", 1]], "process": 0, "time": 1, "index": 0}',
    '{"type": "invoke", "f": "txn", "value": [["r", "x", null], ["r", "y", null], ["append", "y", 1]], "process": 1, "time": 2, "index": 1}',
    '{"type": "ok", "f": "txn", "value": [["r", "x", []], ["r", "y", []], ["append", "x", 1]], "process": 0, "time": 3, "index": 2}',
    '{"type": "ok", "f": "txn", "value": [["r", "x", []], ["r", "y", []], ["append", "y", 1]], "process": 1, "time": 4, "index": 3}',
    '{"type": "invoke", "f": "txn", "value": [["r", "x", null], ["r", "y", null]], "process": 2, "time": 5, "index": 4}',
    '{"type": "ok", "f": "txn", "value": [["r", "x", [1]], ["r", "y", [1]]], "process": 2, "time": 6, "index": 5}',
  ];
  const nemesisJson = ['{"type": "info", "f": "start-partition", "value": ["isolated", {"n1": ["n2"]}], "process": "nemesis"}', '{"type": "info", "value": "all", "f": "kill", "process": "nemesis", "time": 1.5}'];
  const j = analyzeJson([pairsJson[0], ...nemesisJson, pairsJson[1], pairsJson[2], nemesisJson[1], ...pairsJson.slice(3)]);
  assert.equal(verdicts(j), verdicts(plain));
  assert.deepEqual(anomalies(j), anomalies(plain));
  assert.deepEqual(codes(j), codes(plain));
});

test('Elle\'s huge-scc excerpt (nemesis ops inside) reads without a syntax error, with the verdicts of the history without them', () => {
  const text = readFileSync(join('test/fixtures/elle', 'la-huge-scc-excerpt-nemesis.edn'), 'utf8');
  const withNemesis = analyzeJepsenBytes(enc(text), 'edn');
  const without = analyzeJepsenBytes(enc(text.split('\n').filter((l) => !l.includes(':nemesis')).join('\n')), 'edn');
  assert.deepEqual(readerCodes(withNemesis), []);
  assert.deepEqual(codes(withNemesis), codes(without));
  assert.equal(verdicts(withNemesis), verdicts(without));
  assert.equal(verdicts(withNemesis), 'RC✓ RA✓ CC✓ PC✓ PSI✓ SI✓ SER✓ SSER✓');
});

test('well-formed EDN anywhere in an event: sets, tags, #_ discards, characters, records; Jepsen\'s #jepsen.history.Op{…} still read', () => {
  const f = edn([
    '#jepsen.history.Op{:index 0, :time 1, :type :invoke, :process 0, :f :txn, :value [[:append :x 1]], :node #{"n1"}, :at #inst "2020-01-01T00:00:00Z"}',
    '{#_ :ignored :type :ok, :f :txn, :value [[:append :x 1] #_ [:append :x 9]], :process #_ 7 0, :time 2, :index 1, :error #_ #_ 1 2 [:x \\] "]"], :id #uuid "00000000-0000-0000-0000-000000000000"}',
    '#_#_#_ {:a 1} [] :b',
    '{:type :invoke, :f :txn, :value [[:r :x nil]], :process 1, :time 3, :index 2, :meta #my/tag #{[1 2] {:k #{}}}}',
    '{:type :ok, :f :txn, :value [[:r :x [1 #_ 5]]], :process 1, :time 4, :index 3}',
  ]);
  assert.deepEqual(messages(f), []);
  assert.deepEqual(describe(f.history), ['p0/T0 @ 1..2: a(:x, 1)', 'p1/T2 @ 3..4: r(:x, [1])']);
});

test('a set, tag, map or character as a micro-op\'s key or value is refused with a clear message: never a crash, never two values merged', () => {
  const f = edn([
    '{:type :invoke, :f :txn, :value [[:w #{1 2} 1]], :process 0, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w :x #inst "2020-01-01T00:00:00Z"]], :process 1, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w :x #inst "2021-01-01T00:00:00Z"]], :process 2, :time 1}',
    '{:type :invoke, :f :txn, :value [[:r :x [#uuid "00000000-0000-0000-0000-000000000000"]]], :process 3, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w {:a 1} 1]], :process 4, :time 1}',
    '{:type :invoke, :f :txn, :value [[:r :x [[1 2]]]], :process 5, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w :x \\a]], :process 6, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w :x ##Inf]], :process 7, :time 1}',
    '{:type :invoke, :f :txn, :value [[:w :x 1]], :process 8, :time 1}',
  ]);
  const scalars = "as a micro-op's key, value or list element: IsoCheck compares integers, floats, strings, keywords and symbols there; the event is skipped";
  assert.deepEqual(messages(f), [
    `invalid Jepsen event at line 1: a set #{…} ${scalars}`,
    `invalid Jepsen event at line 2: the tagged value '#inst …' ${scalars}`,
    `invalid Jepsen event at line 3: the tagged value '#inst …' ${scalars}`,
    `invalid Jepsen event at line 4: the tagged value '#uuid …' ${scalars}`,
    `invalid Jepsen event at line 5: a map ${scalars}`,
    `invalid Jepsen event at line 6: a vector ${scalars}`,
    `invalid Jepsen event at line 7: the character '\\a' ${scalars}`,
    `invalid Jepsen event at line 8: the symbolic value '##Inf' ${scalars}`,
  ]);
  assert.deepEqual(describe(f.history), ['p8/T8 unknown @ 1..1: w(:x, 1)']);
  // A :value that is a set or a tag, not micro-ops, on a :txn event.
  assert.deepEqual(messages(edn(['{:type :invoke, :f :txn, :value #{[:r :x nil]}, :process 0}'])),
    ["invalid Jepsen event at line 1: expected the transaction's micro-ops as a vector, found a set '#{…}'; the event is skipped"]);
});

test('Elle\'s two-element read [:r k] is a read of nil, in an invoke and in a completion (EDN and JSON lines)', () => {
  const two = edn([
    '{:process 1, :type :invoke, :f :txn, :value [[:r :x] [:append :y 1]], :index 0}',
    '{:process 1, :type :ok, :f :txn, :value [[:r :x] [:append :y 1]], :index 1}',
  ]);
  const nil = edn([
    '{:process 1, :type :invoke, :f :txn, :value [[:r :x nil] [:append :y 1]], :index 0}',
    '{:process 1, :type :ok, :f :txn, :value [[:r :x nil] [:append :y 1]], :index 1}',
  ]);
  assert.deepEqual(messages(two), []);
  assert.deepEqual(describe(two.history), describe(nil.history));
  assert.deepEqual(describe(two.history), ['p1/T0 @ 0..1: r(:x, []) a(:y, 1)']);
  // In a register history: the initial value.
  const register = edn(['{:process 0, :type :invoke, :f :txn, :value [[:r :x] [:w :y 1]]}', '{:process 0, :type :ok, :f :txn, :value [[:r :x] [:w :y 1]]}']);
  assert.deepEqual(describe(register.history), ['p0/T0 @ 0..1: r(:x, init) w(:y, 1)']);
  const j = json(['{"process": 1, "type": "invoke", "f": "txn", "value": [["r", "x"], ["append", "y", 1]], "index": 0}', '{"process": 1, "type": "ok", "f": "txn", "value": [["r", "x"], ["append", "y", 1]], "index": 1}']);
  assert.deepEqual(messages(j), []);
  assert.deepEqual(describe(j.history), ['p1/T0 @ 0..1: r("x", []) a("y", 1)']);
  // Elle's wr-process-test, verbatim: G1c, as with [:r :x nil].
  const fixture = (name: string): Analysis => analyzeJepsenBytes(readFileSync(join('test/fixtures/elle', name)), 'edn');
  const verbatim = fixture('la-wr-process.edn');
  const withNil = fixture('la-wr-process-nil.edn');
  assert.deepEqual(readerCodes(verbatim), []);
  assert.deepEqual(anomalies(verbatim), ['G1c']);
  assert.deepEqual(codes(verbatim), codes(withNil));
  assert.equal(verdicts(verbatim), verdicts(withNil));
  assert.equal(verdicts(verbatim), 'RC✗ RA✗ CC✗ PC✗ PSI✗ SI✗ SER✗ SSER✗');
  // Only a read may leave its value out, and every micro-op needs a key.
  assert.deepEqual(messages(edn(['{:process 0, :type :invoke, :f :txn, :value [[:append :x]]}', '{:process 1, :type :invoke, :f :txn, :value [[:r]]}'])), [
    'invalid Jepsen event at line 1: :append without a value; the event is skipped',
    'invalid Jepsen event at line 2: the micro-op :r has no key; the event is skipped',
  ]);
  assert.match(messages(json(['{"process": 0, "type": "invoke", "f": "txn", "value": [["append", "x"]]}']))[0], /^invalid Jepsen event at line 1: expected a micro-op like \["append", k, v\], found a list of 2/);
});

test('well-formed EDN that is no readable event is "invalid", never "malformed"; text that is not EDN is "malformed"', () => {
  const wellFormed = [
    '{:type :weird, :f :txn, :value [], :process 0}',
    '{:type :ok, :f :txn, :value [[:frob :x 1]], :process 0}',
    '{:type :ok, :f :txn, :value :all, :process 0}',
    '{:type :ok, :f :txn, :value [[:r :x [1]]], :process [0]}',
    '{:type :ok, :f :txn, :value [[:r :x [1]]], :process 0, :time 1.5}',
    '{:type :ok, :f :txn, :value [[:r :x [1]]], :process 0, :index -1}',
    '{:type :ok, :f :txn, :process 0}',
    '{:type :ok, :f :txn, :value [[:r :x [1]]]}',
    '{:type :ok, :f :txn, :value [[:w :x 123456789012345678901234567890123]], :process 0}',
    '{"type" :ok}',
    ':not-an-event',
    '#{1 2}',
    '[:r :x]',
    '{:type :ok, :value [[:frob :x 1]], :f :txn, :process 0}', // the problem found before :f says it is a transaction
  ];
  const f = edn(wellFormed);
  assert.equal(f.findings.length, wellFormed.length);
  for (const [i, m] of messages(f).entries()) assert.match(m, new RegExp(`^invalid Jepsen event at line ${i + 1}: `), m);
  const notEdn = [
    '{:type :ok, :f :txn, :value [[:r :x [1 2}]], :process 0}',
    '{:type :ok, :f :txn, :value [[:w :x "\\q"]], :process 0}',
    '{:type :ok, :f :txn, :value [[:w :x 042]], :process 0}',
    '{:type :ok, :type :ok}',
    '{:type :info, :f :start, :value {:a}, :process :nemesis}',
    '}',
    '{:type :ok, :f :txn, :value [[:r :x [1]]], :process 0',
  ];
  const g = edn(notEdn);
  assert.equal(g.findings.length, notEdn.length);
  for (const m of messages(g)) assert.match(m, /^malformed EDN at line \d+: /, m);
  // A pretty-printed event that is well-formed but invalid is skipped whole: the next event is read.
  const pretty = edn(['{:type :ok,', ' :f :txn,', ' :value [[:frob :x 1]],', ' :process 0}', '{:type :invoke, :f :txn, :value [[:append :x 1]], :process 1}']);
  assert.deepEqual(messages(pretty), ['invalid Jepsen event at line 3: unknown micro-op :frob (expected :append, :r or :w); the event is skipped']);
  assert.deepEqual(describe(pretty.history), ['p1/T1 unknown @ 1..1: a(:x, 1)']);
  // JSON lines: the same distinction.
  assert.deepEqual(messages(json(['not json', '{"type": "ok", "f": "txn", "value": [["frob", "x", 1]], "process": 0}'])).map((m) => m.replace(/:.*$/, '')),
    ['malformed JSON event at line 1', 'invalid Jepsen event at line 2']);
});

test('completions only (Elle\'s README example, verbatim): each completion a transaction, no real time; G1c at every level it breaks', () => {
  const a = analyzeEdn(README);
  assert.deepEqual(readerCodes(a), []);
  assert.deepEqual(anomalies(a), ['G1c']);
  assert.equal(verdicts(a), G1C_VERDICTS);
  // Named by position (no :index), one session per process, no interval.
  assert.deepEqual(describe(readJepsenEdn(enc(README.join('\n'))).history), [
    'p0/T0: a(:x, 1) r(:y, [1])',
    'p1/T1: a(:x, 2) a(:y, 1)',
    'p2/T2: r(:x, [1, 2])',
  ]);
  const j = analyzeJson(README_JSON);
  assert.deepEqual(readerCodes(j), []);
  assert.deepEqual(anomalies(j), ['G1c']);
  assert.equal(verdicts(j), G1C_VERDICTS);
  // The fixture files: the verbatim example, and Elle's G0 test as it writes it (completions with :f :txn, :index).
  const fixture = (name: string): Analysis => analyzeJepsenBytes(readFileSync(join('test/fixtures/elle', name)), 'edn');
  assert.deepEqual(anomalies(fixture('la-readme-g1c-verbatim.edn')), ['G1c']);
  const g0 = fixture('la-g0-completions-only.edn');
  assert.deepEqual(readerCodes(g0), []);
  assert.deepEqual(anomalies(g0), ['G0']);
  assert.equal(verdicts(g0), G1C_VERDICTS);
});

test('completions only: named by :index, :fail aborted, :info unknown without reads and a new session, the same in JSON lines', () => {
  const lines = [
    '{:index 7, :process 0, :type :ok, :f :txn, :value [[:append :x 1] [:r :y [1]]]}',
    '{:index 9, :process 0, :type :info, :f :txn, :value [[:append :x 2] [:r :y nil]]}',
    '{:index 11, :process 0, :type :ok, :f :txn, :value [[:r :x [1 2]]]}',
    '{:index 12, :process 1, :type :fail, :f :txn, :value [[:append :y 2] [:r :x nil]]}',
    '{:index 13, :process 1, :type :ok, :value [[:append :y 1]]}',
  ];
  const want = [
    'p0/T7: a(:x, 1) r(:y, [1])',
    'p0/T9 unknown: a(:x, 2)',
    'p0.2/T11: r(:x, [1, 2])',
    'p1/T12 aborted: a(:y, 2)',
    'p1/T13: a(:y, 1)',
  ];
  const f = edn(lines);
  assert.deepEqual(messages(f), []);
  assert.deepEqual(describe(f.history), want);
  const j = json([
    '{"index": 7, "process": 0, "type": "ok", "f": "txn", "value": [["append", "x", 1], ["r", "y", [1]]]}',
    '{"index": 9, "process": 0, "type": "info", "f": "txn", "value": [["append", "x", 2], ["r", "y", null]]}',
    '{"index": 11, "process": 0, "type": "ok", "f": "txn", "value": [["r", "x", [1, 2]]]}',
    '{"index": 12, "process": 1, "type": "fail", "f": "txn", "value": [["append", "y", 2], ["r", "x", null]]}',
    '{"index": 13, "process": 1, "type": "ok", "value": [["append", "y", 1]]}',
  ]);
  assert.deepEqual(messages(j), []);
  assert.deepEqual(describe(j.history), want.map((l) => l.replace(/:([xy])/g, '"$1"')));
  // Without :index: by position (EDN counts events from 0, JSON lines number lines from 1), as invokes are named.
  assert.deepEqual(describe(edn(['{:process 0, :type :ok, :value [[:append :x 1]]}', '{:process :nemesis, :type :info, :f :kill, :value :all}', '{:process 1, :type :ok, :value [[:r :x [1]]]}']).history),
    ['p0/T0: a(:x, 1)', 'p1/T2: r(:x, [1])']);
  assert.deepEqual(describe(json(['{"process": 0, "type": "ok", "value": [["append", "x", 1]]}']).history), ['p0/T1: a("x", 1)']);
});

test('a file that mixes invokes with unmatched completions keeps the "without its invoke" error, before or after the first invoke, and a refused invoke counts', () => {
  const mixed = edn([
    '{:process 0, :type :ok, :f :txn, :value [[:append :x 1]], :index 0}',
    '{:process 1, :type :invoke, :f :txn, :value [[:append :x 2]], :index 1}',
    '{:process 1, :type :ok, :f :txn, :value [[:append :x 2]], :index 2}',
    '{:process 2, :type :ok, :f :txn, :value [[:r :x [2]]], :index 3}',
  ]);
  assert.deepEqual(messages(mixed), ['a completion (:ok) of process 0 without its invoke', 'a completion (:ok) of process 2 without its invoke']);
  assert.deepEqual(describe(mixed.history), ['p1/T1 @ 1..2: a(:x, 2)']);
  // The only invoke is refused (a typo): its completion still lacks it, rather than the file turning completion-only.
  assert.deepEqual(messages(edn(['{:process 0, :type :invoke, :f :txn, :value [[:frob :x 1]]}', '{:process 0, :type :ok, :f :txn, :value [[:append :x 1]]}'])), [
    'invalid Jepsen event at line 1: unknown micro-op :frob (expected :append, :r or :w); the event is skipped',
    'a completion (:ok) of process 0 without its invoke',
  ]);
  assert.deepEqual(messages(json(['{"process": 0, "type": "invoke", "f": "txn", "value": [["frob", "x", 1]]}', '{"process": 0, "type": "ok", "f": "txn", "value": [["append", "x", 1]]}'])), [
    'invalid Jepsen event at line 1: expected a micro-op like ["append", k, v], found a list of 3 starting with "frob"; the event is skipped',
    'a completion (:ok) of process 0 without its invoke',
  ]);
  // A nemesis invoke is no transaction's: client completions alone are still read as completions only.
  const withNemesisInvoke = analyzeEdn(['{:process :nemesis, :type :invoke, :f :start, :value nil}', ...README.map((l) => l.replace(/^[[ ]/, '').replace(/]$/, ''))]);
  assert.deepEqual(anomalies(withNemesisInvoke), ['G1c']);
});

test('an event without :f is a transaction when its :value is micro-ops; with :f present it must be :txn', () => {
  const f = edn([
    '{:process 0, :type :invoke, :value [[:append :x 1]], :index 0}',
    '{:process 0, :type :ok, :value [[:append :x 1]], :index 1}',
    '{:process 1, :type :invoke, :f :read, :value [[:r :x nil]], :index 2}', // :f present, not :txn: skipped even with micro-ops
    '{:process 1, :type :ok, :f :read, :value [[:r :x [5]]], :index 3}',
    '{:process 2, :type :invoke, :value 5, :index 4}', // neither :f nor micro-ops: skipped
    '{:process 2, :type :invoke, :value ["n1" "n2"], :index 5}',
    '{:process 3, :type :invoke, :value [], :index 6}', // an empty transaction
  ]);
  assert.deepEqual(messages(f), []);
  assert.deepEqual(describe(f.history), ['p0/T0 @ 0..1: a(:x, 1)', 'p3/T6 unknown @ 6..6: ']);
  const j = json([
    '{"process": 0, "type": "invoke", "value": [["append", "x", 1]], "index": 0}',
    '{"process": 0, "type": "ok", "value": [["append", "x", 1]], "index": 1}',
    '{"process": 1, "type": "invoke", "f": "read", "value": [["r", "x", null]], "index": 2}',
    '{"process": 2, "type": "invoke", "value": 5, "index": 4}',
  ]);
  assert.deepEqual(messages(j), []);
  assert.deepEqual(describe(j.history), ['p0/T0 @ 0..1: a("x", 1)']);
});

test('a file that yields no transaction gets a warning saying why (a clean verdict is never silent about checking nothing)', () => {
  const nemesisOnly = analyzeEdn(NEMESIS);
  assert.equal(verdicts(nemesisOnly), 'RC✓ RA✓ CC✓ PC✓ PSI✓ SI✓ SER✓');
  const warnings = nemesisOnly.findings.filter((x) => x.severity === 'warning');
  assert.deepEqual(warnings.map((x) => [x.code, x.message]), [['not-checked', 'no transaction was read from this file, so nothing was checked: 9 events skipped as no transaction (:f is not :txn)']]);
  // The command line's text output shows it under the table of ✓.
  assert.match(renderDetails(fileReport('nemesis.edn', nemesisOnly)), /^ {2}line 1:1: warning \[not-checked\] no transaction was read from this file, so nothing was checked: 9 events/);
  // And the table's result column says so, not "ok".
  assert.match(renderTable([fileReport('nemesis.edn', nemesisOnly)]).split('\n')[1], /\snothing checked$/);
  const noF = readJepsenEdn(enc('{:process 0, :type :ok, :value 1}\n{:process 0, :type :ok}\n{:process :nemesis, :type :info, :f :kill}\n'));
  assert.deepEqual(messages(noF), ['no transaction was read from this file, so nothing was checked: 1 event skipped as no transaction (:f is not :txn); 2 events skipped for having neither :f nor micro-ops as :value']);
  assert.deepEqual(messages(readJepsenEdn(enc(''))), ['no transaction was read from this file, so nothing was checked: it has no events']);
  assert.deepEqual(messages(readJepsenEdn(enc('[]\n'))), ['no transaction was read from this file, so nothing was checked: it has no events']);
  assert.deepEqual(messages(json(['{"type": "info", "f": "kill", "process": "nemesis"}', '{"type": "ok", "process": 0, "value": null}'])),
    ['no transaction was read from this file, so nothing was checked: 1 event skipped as no transaction ("f" is not "txn"); 1 event skipped for having neither "f" nor micro-ops as "value"']);
  assert.deepEqual(messages(json([])), ['no transaction was read from this file, so nothing was checked: it has no events']);
  // With errors, nothing read is already said: every level undecided.
  const broken = analyzeEdn(['{:type :ok, :f :txn, :value [[:frob :x 1]], :process 0}']);
  assert.deepEqual(codes(broken), ['error:syntax']);
  assert.equal(verdicts(broken), 'RC? RA? CC? PC? PSI? SI? SER?');
  // A transaction, even an empty one, is something checked.
  assert.deepEqual(messages(edn(['{:type :invoke, :f :txn, :value [], :process 0}'])), []);
});

test('every Elle fixture (test/fixtures/elle) is read without a syntax error and yields transactions', () => {
  const dir = 'test/fixtures/elle';
  const files = readdirSync(dir).filter((n) => n.endsWith('.edn'));
  assert.ok(files.length >= 60, `${files.length} fixtures`);
  for (const name of files) {
    const f = readJepsenEdn(readFileSync(join(dir, name)));
    assert.deepEqual(f.findings.map((x) => x.message), [], name);
    assert.ok(f.history.txnCount > 1, name);
  }
});
