// The PSI search's size bound: a lost update behind thousands of writes of one key is decided by the necessary conditions, and the search is not started on rounds it could not afford.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { searchOrientations } from '../server/src/engine/strong/orientation-search.ts';
import { checkStrong, DEFAULT_STRONG_BUDGET } from '../server/src/engine/strong/strong-check.ts';
import { CheckContext } from '../server/src/engine/weak/level-check.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';

/** T1 and T3 read x's initial value and both write it (a lost update); session s2 writes x n times in between. */
function lostUpdateBehind(n: number): string {
  let text = 'session s1\n  T1: r(x, init) w(x, 1)\nsession s2\n';
  for (let i = 0; i < n; i++) text += `  W${i}: w(x, ${i + 10})\n`;
  return `${text}session s3\n  T3: r(x, init) w(x, 2)\n`;
}

test('3,000 writers of one key: the PSI search declines at once (4.5 million pairs), the verdict still comes from the lost update', () => {
  const h = parseHist(lostUpdateBehind(3000)).history;
  const r = searchOrientations(h, computeReadsFrom(h), () => 'PSI', Number.POSITIVE_INFINITY);
  assert.equal(r.kind, 'unknown');
  assert.match(r.kind === 'unknown' ? r.reason : '', /handles up to 1000000 write-conflicting pairs and read-writer tests \(this history has 4510505\)/);
  // Found by the necessary conditions before any search; the witness is the two-transaction cycle.
  const a = analyzeHistText(lostUpdateBehind(3000), { levels: ['PSI'] });
  const v = a.levels[0];
  const name = (t: number): string => a.history.names.txnName(t);
  assert.equal(v.consistent, false);
  assert.deepEqual(v.witness?.edges.map((e) => `${name(e.from)}→${name(e.to)}`).sort(), ['T1→T3', 'T3→T1']);
});

test('a search under the bound still decides: 40 writers between the two', () => {
  const h = parseHist(lostUpdateBehind(40)).history;
  assert.equal(searchOrientations(h, computeReadsFrom(h), () => 'PSI', Number.POSITIVE_INFINITY).kind, 'violated');
  const held = parseHist('session s1\n  T1: r(x, init) w(x, 1)\nsession s2\n  T2: r(x, 1) w(x, 2)\n').history;
  assert.equal(searchOrientations(held, computeReadsFrom(held), () => 'PSI', Number.POSITIVE_INFINITY).kind, 'consistent');
});

test('a round counts by its size against the step budget: five rounds\' budget decides a small search, not one over 20,000 pairs', () => {
  const small = parseHist(lostUpdateBehind(10)).history;
  assert.equal(searchOrientations(small, computeReadsFrom(small), () => 'PSI', Number.POSITIVE_INFINITY, () => false, 5).kind, 'violated');
  // 202 writers of x: 20,301 pairs and 404 read-writer tests, so each round counts as 3.
  const large = parseHist(lostUpdateBehind(200)).history;
  const r = searchOrientations(large, computeReadsFrom(large), () => 'PSI', Number.POSITIVE_INFINITY, () => false, 5);
  assert.equal(r.kind, 'unknown');
  assert.match(r.kind === 'unknown' ? r.reason : '', /stopped after 5 propagation rounds/);
  assert.equal(searchOrientations(large, computeReadsFrom(large), () => 'PSI', Number.POSITIVE_INFINITY).kind, 'violated');
});

test('a violation the necessary conditions find says so, and shrinking it asks them alone (no search on each candidate that holds)', () => {
  const ctxOf = (text: string): CheckContext => {
    const h = parseHist(text).history;
    return new CheckContext(h, computeReadsFrom(h));
  };
  // The lost update is refuted before any search, at PSI and at SER.
  for (const level of ['PSI', 'SER'] as const) {
    assert.deepEqual(checkStrong(ctxOf(lostUpdateBehind(3)), () => level, DEFAULT_STRONG_BUDGET), { kind: 'violated', by: 'necessary' }, level);
  }
  // A history that holds: with the necessary conditions only, PSI is left open (the search would say consistent).
  const holds = 'session s1\n  T1: r(x, init) w(x, 1)\nsession s2\n  T2: r(x, 1) w(x, 2)\n  T3: r(y, init) w(y, 1)\nsession s3\n  T4: r(y, 1) r(x, 2)\n';
  assert.equal(checkStrong(ctxOf(holds), () => 'PSI', DEFAULT_STRONG_BUDGET).kind, 'consistent');
  assert.deepEqual(checkStrong(ctxOf(holds), () => 'PSI', { ...DEFAULT_STRONG_BUDGET, necessaryOnly: true }), { kind: 'unknown', reason: 'only the necessary conditions were checked' });
  // The whole analysis still shrinks the lost update to its two transactions.
  const v = analyzeHistText(lostUpdateBehind(300), { levels: ['PSI'] }).levels[0];
  assert.equal(v.consistent, false);
  assert.equal(v.witness?.edges.length, 2);
});
