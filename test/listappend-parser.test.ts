// Parser and model for list-append histories: unknown status, real-time intervals, SSER, anomaly expectations, list contents.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { levelId } from '../server/src/engine/levels/levels.ts';

const codes = (text: string): string[] => parseHist(text).findings.map((f) => f.code);

test('status unknown and its aliases, intervals and SSER tags land in typed arrays', () => {
  const p = parseHist(`session s1
  T1 [SSER] unknown @ 100..130 : a(x, 1) a(y, 1)
  T2 info: a(x, 2)
  T3 indeterminate @ 5..5: r(x, [1, 2]) r(y, [])
  T4 committed: r(x, [])`);
  assert.deepEqual(p.findings, []);
  const h = p.history;
  assert.deepEqual(Array.from(h.txnUnknown ?? []), [0, 1, 1, 1, 0]);
  assert.deepEqual(Array.from(h.txnTimeStart ?? []), [NaN, 100, NaN, 5, NaN]);
  assert.deepEqual(Array.from(h.txnTimeEnd ?? []), [NaN, 130, NaN, 5, NaN]);
  assert.equal(h.txnLevel[1], levelId('SSER')); // SSER is a level of the table
  const o = h.txnOpStart[3];
  const list = (op: number): string[] => Array.from((h.listElems as Int32Array).subarray((h.opListStart as Int32Array)[op], (h.opListStart as Int32Array)[op + 1]), (v) => h.names.valueText(v));
  assert.deepEqual(list(o), ['1', '2']);
  assert.deepEqual(list(o + 1), []);
  assert.deepEqual(list(h.txnOpStart[4]), []);
});

test('SSER and strict-serializable as level, check and expect; anomaly expectations', () => {
  const p = parseHist(`level strict-serializable
check SSER SER
expect SSER violated
expect G-single found
expect g2-ITEM absent
expect aborted-read found
expect lost-update absent
session s
  T1: a(x, 1)`);
  assert.deepEqual(p.findings, []);
  const d = p.directives;
  assert.equal(d.level?.level, 'SSER');
  assert.deepEqual(d.checks.map((c) => c.level), ['SSER', 'SER']);
  assert.deepEqual(d.expects.map((e) => [e.level, e.ok]), [['SSER', false]]);
  assert.deepEqual(d.anomalyExpects.map((e) => [e.anomaly, e.found]), [['G-single', true], ['G2-item', false], ['G1a', true], ['lost-update', false]]);
});

test('bad intervals and expectations are one error each, and the transaction still opens', () => {
  assert.deepEqual(codes('session s\n  T1 @ 9..3: a(x, 1)\n  T2: r(x, [1])'), ['syntax']);
  assert.match(parseHist('session s\n  T1 @ 9..3: a(x, 1)').findings[0].message, /ends \(3\) before it starts \(9\)/);
  assert.deepEqual(codes('session s\n  T1 @ 9: a(x, 1)\n  T2: r(x, [1])'), ['syntax']);
  assert.deepEqual(codes('expect G-single maybe\nsession s\n  T1: a(x, 1)'), ['syntax']);
  assert.deepEqual(codes('expect G-simple found\nsession s\n  T1: a(x, 1)'), ['syntax']);
  assert.match(parseHist('expect G-simple found\nsession s\n  T1: a(x, 1)').findings[0].message, /unknown anomaly 'G-simple'/);
  assert.equal(parseHist('session s\n  T1 @ 9..3: a(x, 1)\n  T2: r(x, [1])').history.txnCount, 3);
});

test('an interval whose times are wrong is reported at the interval, one whose shape is broken at the token that breaks it', () => {
  const at = (text: string): string => {
    const f = parseHist(text).findings[0];
    return text.slice(f.span.start, f.span.end);
  };
  assert.equal(at('session s\n  T1 @ 9..3 : a(x, 1)'), '@ 9..3');
  assert.equal(at('session s\n  T1 @ 99999999999999999..3 : a(x, 1)'), '@ 99999999999999999..3');
  assert.equal(at('session s\n  T1 @ 9.. : a(x, 1)'), ':');
  assert.equal(at('session s\n  T1 @ 9 3: a(x, 1)'), '3');
});

test('a key holds registers or lists: the first op that mixes them is an error and left out', () => {
  const p = parseHist('session s\n  T1: a(x, 1) w(x, 2) r(x, 3) r(x, init) r(x, [1])\n  T2: w(y, 1) a(y, 2) r(y, [])');
  assert.deepEqual(p.findings.map((f) => [f.code, p.history.names.keyName(0)]), [['mixed-key', 'x'], ['mixed-key', 'x'], ['mixed-key', 'x'], ['mixed-key', 'x']]);
  assert.equal(p.history.opCount, 4); // a(x,1) r(x,init) r(x,[1]) w(y,1)
  assert.match(p.findings[0].message, /key x holds lists \(a\(x, 1\)\)/);
  assert.equal(p.findings[0].related.length, 1);
});
