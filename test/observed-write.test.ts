// observedWrite, derived from observedTxn on first use, names the write each read observed, on random histories with duplicates and `<- T`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { BOTTOM, NO_VALUE, OP_READ, OP_WRITE, sourceOf } from '../server/src/engine/model/history.ts';

/** A small random history: few keys and values (duplicate writes, ambiguous and internal reads), named writers, aborted and unknown transactions. */
function namedWriteHistory(seed: number): string {
  let s = seed * 2654435761 % 4294967296 || 1;
  const rnd = (n: number): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * n);
  };
  const lines: string[] = [];
  let txn = 0;
  const txns = 3 + rnd(6);
  for (let sn = 0; sn < 3; sn++) {
    lines.push(`session s${sn}`);
    for (let i = 0; i < txns / 3; i++) {
      txn++;
      const status = ['', '', '', ' aborted', ' unknown'][rnd(5)];
      const ops: string[] = [];
      for (let k = 1 + rnd(5); k > 0; k--) {
        const key = 'xyz'[rnd(3)];
        const v = 1 + rnd(4);
        switch (rnd(6)) {
          case 0: case 1: ops.push(`w(${key}, ${v})`); break;
          case 2: ops.push(`r(${key}, ${v})`); break;
          case 3: ops.push(`r(${key}) <- T${1 + rnd(txns)}`); break;
          case 4: ops.push(`r(${key}, ${v}) <- T${1 + rnd(txns)}`); break;
          default: ops.push(`r(${key}, init)`);
        }
      }
      lines.push(`  T${txn}${status}: ${ops.join(' ')}`);
    }
  }
  return lines.join('\n') + '\n';
}

test('observedWrite: every read that observed a transaction other than ⊥ names a write of its key in it, the latest own one before it for an internal read', () => {
  let named = 0;
  let internal = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const h = parseHist(namedWriteHistory(seed)).history;
    const rf = computeReadsFrom(h);
    for (let o = 0; o < h.opCount; o++) {
      const t1 = rf.observedTxn[o];
      const w = rf.observedWrite[o];
      if (h.opKind[o] !== OP_READ || t1 <= BOTTOM) {
        assert.equal(w, -1, `seed ${seed} op ${o}`);
        continue;
      }
      assert.ok(w >= 0 && h.opKind[w] === OP_WRITE && h.opKey[w] === h.opKey[o] && h.opTxn[w] === t1, `seed ${seed} op ${o}`);
      if (h.opValue[o] !== NO_VALUE && t1 !== h.opTxn[o]) assert.equal(h.opValue[w], h.opValue[o], `seed ${seed} op ${o}`);
      if (sourceOf(h, o) >= 0) named++;
      if (t1 === h.opTxn[o] && w < o) {
        internal++;
        for (let u = w + 1; u < o; u++) assert.ok(h.opKind[u] !== OP_WRITE || h.opKey[u] !== h.opKey[o], `seed ${seed}: a later own write before op ${o}`);
      }
    }
    assert.equal(rf.observedWrite, rf.observedWrite, 'derived once');
  }
  assert.ok(named > 1000 && internal > 1000, `named ${named}, internal ${internal}`);
});
