// The seed's RC counterexample: two slots per key find the violation that one slot misses.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { EdgeList, EK_CO } from '../server/src/engine/model/edges.ts';
import { BOTTOM } from '../server/src/engine/model/history.ts';
import { checkCycles, CheckContext } from '../server/src/engine/weak/level-check.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { ReadBuffer } from '../server/src/engine/weak/saturation-context.ts';
import { naiveConsistent } from './helpers/naive-checkers.ts';

const text = readFileSync(new URL('../examples/rc-two-slot-counterexample.hist', import.meta.url), 'utf8');

/** The tempting one-slot variant of AWDIT's reverse pass: per key only the earliest later read. */
function oneSlotRC(ctx: CheckContext): EdgeList {
  const { h, rf } = ctx;
  const out = new EdgeList();
  const reads = new ReadBuffer(64);
  for (let t3 = 1; t3 < h.txnCount; t3++) {
    const m = reads.load(h, rf, t3);
    const slot = new Map<number, number>();
    const seen = new Set<number>();
    const first = Array.from({ length: m }, (_, p) => !seen.has(reads.src[p]) && (seen.add(reads.src[p]), true));
    for (let p = m - 1; p >= 0; p--) {
      const t2 = reads.src[p];
      if (first[p] && t2 !== BOTTOM) {
        for (let i = rf.writeKeyStart[t2]; i < rf.writeKeyStart[t2 + 1]; i++) {
          const q = slot.get(rf.writeKeys[i]);
          if (q !== undefined && reads.src[q] !== t2) out.add(t2, reads.src[q], EK_CO, reads.op[q], reads.op[p]);
        }
      }
      slot.set(reads.key[p], p);
    }
  }
  return out;
}

test('the RC counterexample is violated, with the 2-cycle through T8 → T7', () => {
  const a = analyzeHistText(text);
  const rc = a.levels.find((v) => v.level === 'RC');
  assert.equal(rc?.consistent, false);
  const names = a.history.names;
  const cycle = rc?.witness?.edges.map((e) => `${names.txnName(e.from)}-${e.kind}->${names.txnName(e.to)}`) ?? [];
  assert.ok(cycle.includes('T8-co->T7'), cycle.join(' '));
  assert.equal(naiveConsistent(a.history, a.readsFrom, () => 'RC'), false);
  assert.equal(a.findings.filter((f) => f.severity === 'error').length, 0, 'its expectations hold');
});

test('a one-slot reverse pass reports it clean (why the second slot is needed)', () => {
  const p = parseHist(text);
  const ctx = new CheckContext(p.history, computeReadsFrom(p.history));
  assert.equal(checkCycles(ctx, oneSlotRC(ctx), 1).acyclic, true);
});
