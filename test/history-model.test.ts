// The history model: session order, transaction grouping and reading plume files whose lines interleave.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzePlumeBytes } from '../server/src/engine/analyze.ts';
import { readPlume } from '../server/src/engine/readers/plume-reader.ts';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

// A fractured read (RA violated): T1 writes keys 1 and 2, T2 reads 2 = init and then 1 from T1.
const contiguous = 'w(1,5,0,1)\nw(2,6,0,1)\nr(2,0,1,2)\nr(1,5,1,2)\n';
// The same operations with the two transactions' lines interleaved.
const interleaved = 'w(1,5,0,1)\nr(2,0,1,2)\nw(2,6,0,1)\nr(1,5,1,2)\n';

test('operations of interleaved transactions are regrouped in program order', () => {
  const h = readPlume(bytes(interleaved)).history;
  assert.equal(h.txnCount, 3);
  const ops = (t: number): string[] => {
    const out: string[] = [];
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) out.push(`${h.opKind[o] === 1 ? 'w' : 'r'}${h.names.keyName(h.opKey[o])}`);
    return out;
  };
  assert.deepEqual([h.names.txnName(1), ...ops(1)], ['T1', 'w1', 'w2']);
  assert.deepEqual([h.names.txnName(2), ...ops(2)], ['T2', 'r2', 'r1']);
});

test('interleaved and contiguous files give the same verdicts', () => {
  const verdicts = (text: string): (boolean | null)[] => analyzePlumeBytes(bytes(text)).levels.slice(0, 3).map((v) => v.consistent);
  assert.deepEqual(verdicts(contiguous), [true, false, false]);
  assert.deepEqual(verdicts(interleaved), [true, false, false]);
});

test('session order follows first appearance, whatever the transaction ids', () => {
  // Session 3 runs T9 then T4; session 0 runs T7 between them in the file.
  const h = readPlume(bytes('w(1,1,3,9)\nw(1,2,0,7)\nw(1,3,3,4)\n')).history;
  // Canonical ids: sessions by number, transactions merged by number along so (T7, T9, T4).
  assert.deepEqual(Array.from({ length: h.txnCount }, (_, t) => h.names.txnName(t)), ['init', 'T7', 'T9', 'T4']);
  assert.deepEqual(Array.from({ length: h.sessionCount }, (_, s) => h.names.sessionName(s)), ['s0', 's3']);
  const session = h.txnSession[2];
  const order = Array.from(h.sessionTxns.subarray(h.sessionTxnStart[session], h.sessionTxnStart[session + 1]), (t) => h.names.txnName(t));
  assert.deepEqual(order, ['T9', 'T4']);
  assert.deepEqual([h.txnIndexInSession[2], h.txnIndexInSession[3]], [0, 1]);
});
