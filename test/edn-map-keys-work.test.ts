// An event map's other keys (beyond :type, :f, :value…) are tested for duplicates by a set past a
// few of them: a map of thousands of keys costs a test per key, not one per pair.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ednWork, readJepsenEdn } from '../server/src/engine/readers/edn-reader.ts';

function event(otherKeys: string[]): Uint8Array {
  const extra = otherKeys.map((k, i) => `:${k} ${i}`).join(' ');
  return new TextEncoder().encode(`{:type :invoke, :f :txn, :value [[:append 1 1]], :process 0, :time 1, :index 0, ${extra}}\n`
    + '{:type :ok, :f :txn, :value [[:append 1 1]], :process 0, :time 2, :index 1}\n');
}

function keys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `k${i}`);
}

test('20,000 other keys in one event: a few tests per key, not 200 million pairs', () => {
  const before = ednWork.keyTests;
  const r = readJepsenEdn(event(keys(20_000)));
  const tests = ednWork.keyTests - before;
  assert.deepEqual(r.findings.map((f) => f.message), []);
  assert.equal(r.history.txnCount, 2);
  assert.ok(tests > 0 && tests <= 2 * 20_000, `${tests} tests`);
});

test('a duplicate other key is still found, among the first few and among thousands', () => {
  for (const list of [['error', 'node', 'error'], [...keys(40), 'k3'], [...keys(5000), 'k4999'], [...keys(5000), 'k4999x', 'k4999x']]) {
    const r = readJepsenEdn(event(list));
    const dup = list[list.length - 1];
    assert.deepEqual(r.findings.map((f) => f.message)[0],
      `malformed EDN at line 1: the key :${dup} appears twice in an event map (EDN forbids duplicate keys); the event is skipped`, dup);
  }
  // Keys of equal length that differ in one byte are not duplicates.
  assert.deepEqual(readJepsenEdn(event([...keys(100), 'é1', 'é2'])).findings.map((f) => f.message), []);
});
