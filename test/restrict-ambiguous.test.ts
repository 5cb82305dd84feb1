// A sub-history keeps out the reads the whole history left out of the checks (ambiguous: their writer unknown), so a part's violation is the history's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { restrictWithOrigin } from '../server/src/engine/model/restrict.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';

/** x = 1 is written twice (T0003, T5000), so T5001's and T5002's reads of it are ambiguous; T9000 and T9001 are a long fork. */
function history(padding: number): string {
  const lines = ['session s1', '  T0001: w(a, 1)', 'session s2', '  T0002: w(b, 1)', 'session s3', '  T0003: w(x, 1)',
    'session sa', '  T5000: w(x, 1)', 'session sb', '  T5001: r(x, 1) w(x, 2)', 'session sc', '  T5002: r(x, 1) w(x, 3)',
    'session sr1', '  T9000: r(a, 1) r(b, init)', 'session sr2', '  T9001: r(b, 1) r(a, init)', 'session pad'];
  for (let i = 0; i < padding; i++) lines.push(`  T${1000 + i}: w(p${i}, 1)`);
  return `${lines.join('\n')}\n`;
}

test('restriction drops an ambiguous read: without T0003, T5001 would read x from T5000, which the history never said', () => {
  const h = parseHist(history(0)).history;
  const rf = computeReadsFrom(h);
  assert.equal(rf.findings.filter((f) => f.code === 'ambiguous-read').length, 2);
  const keep = new Uint8Array(h.txnCount);
  for (let t = 1; t < h.txnCount; t++) keep[t] = ['T5000', 'T5001', 'T5002'].includes(h.names.txnName(t)) ? 1 : 0;
  const sub = restrictWithOrigin(h, rf, keep).h;
  const subRf = computeReadsFrom(sub);
  assert.deepEqual(Array.from(subRf.wrSource).filter((w) => w >= 0), [], 'no read of the part has a writer');
  assert.equal(sub.opCount, 3, 'the three writes, not the two reads');
});

test('SER\'s witness is the long fork the history has, not a lost update made of the ambiguous reads; PSI holds', () => {
  const a = analyzeHistText(history(300), { levels: ['PSI', 'SER'] });
  const [psi, ser] = a.levels;
  assert.equal(psi.consistent, true);
  assert.equal(ser.consistent, false);
  const names = new Set(ser.witness?.edges.flatMap((e) => [a.history.names.txnName(e.from), a.history.names.txnName(e.to)]));
  assert.deepEqual([...names].sort(), ['T0001', 'T0002', 'T9000', 'T9001']);
});
