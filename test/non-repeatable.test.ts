// The non-repeatable-read shortcut of RA and CC: its two-cycles are RA's own forced edges, and verdicts and witnesses do not depend on keeping the forced edges.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { EK_CO } from '../server/src/engine/model/edges.ts';
import { CheckContext, checkCycles, forcedEdges } from '../server/src/engine/weak/level-check.ts';
import { nonRepeatableCycles } from '../server/src/engine/weak/non-repeatable.ts';
import { randomOptions } from './helpers/differential.ts';

test('every shortcut two-cycle is made of edges saturateRA adds, and the full check finds RA cyclic', () => {
  let withCycles = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const a = analyzeHistText(toHistString(generateHistory(randomOptions(seed))), { levels: ['RC'] });
    const h = a.history;
    const rf = a.readsFrom;
    const found = nonRepeatableCycles({ h, rf, applies: null }, 3);
    if (found.cycles.length === 0) continue;
    withCycles++;
    const ctx = new CheckContext(h, rf);
    const full = forcedEdges(ctx, 'RA', null)!;
    const tuples = new Set<string>();
    for (let i = 0; i < full.length; i++) tuples.add([full.from.data[i], full.to.data[i], full.kind.data[i], full.a.data[i], full.b.data[i]].join());
    const e = found.edges;
    for (const [i, j] of found.cycles) {
      for (const k of [i, j]) {
        const t = [e.from.data[k], e.to.data[k], e.kind.data[k], e.a.data[k], e.b.data[k]];
        assert.equal(t[2], EK_CO);
        assert.ok(tuples.has(t.join()), `seed ${seed}: shortcut edge ${t.join()} is not one of saturateRA's`);
      }
      assert.equal(e.from.data[i], e.to.data[j], `seed ${seed}: the two edges close a cycle`);
      assert.equal(e.to.data[i], e.from.data[j], `seed ${seed}: the two edges close a cycle`);
      assert.ok(e.from.data[i] < e.to.data[i], `seed ${seed}: the cycle starts at its smaller transaction`);
    }
    assert.equal(checkCycles(ctx, full, 1).acyclic, false, `seed ${seed}: RA must be violated`);
  }
  assert.ok(withCycles > 300, `non-repeatable reads should be common in random histories (found ${withCycles})`);
});

test('verdicts and witnesses are the same with and without the forced edges kept (editor and CLI)', () => {
  for (let seed = 3001; seed <= 4000; seed++) {
    const text = toHistString(generateHistory(randomOptions(seed)));
    const levels = ['RC', 'RA', 'CC'] as const;
    const kept = analyzeHistText(text, { levels: [...levels], maxWitnesses: 2 });
    const skipped = analyzeHistText(text, { levels: [...levels], maxWitnesses: 2, keepForced: false });
    assert.deepEqual(JSON.parse(JSON.stringify(skipped.levels)), JSON.parse(JSON.stringify(kept.levels)), `seed ${seed}`);
    assert.ok(kept.forced.has('RA'), `seed ${seed}: the editor keeps RA's forced edges`);
  }
});

test('a transaction reading one key from two writers: RA and CC are violated by exactly that two-cycle', () => {
  const a = analyzeHistText([
    'session s1', '  T1: w(x, 1)',
    'session s2', '  T2: w(x, 2)',
    'session s3', '  T3: r(y, init) r(x, 1) r(x, 2)',
  ].join('\n'), { levels: ['RC', 'RA', 'CC'] });
  const rc = a.levels.find((v) => v.level === 'RC')!;
  const ra = a.levels.find((v) => v.level === 'RA')!;
  assert.equal(rc.consistent, true);
  assert.equal(ra.consistent, false);
  const name = (t: number): string => a.history.names.txnName(t);
  const steps = ra.witness!.edges.map((e) => `${name(e.from)}->${name(e.to)}:${e.kind}`);
  assert.deepEqual(steps, ['T1->T2:co', 'T2->T1:co']);
  assert.match(ra.witness!.edges[0].because, /T1 must commit before T2/);
  const cc = a.levels.find((v) => v.level === 'CC')!;
  assert.equal(cc.consistent, false);
  assert.deepEqual(cc.witness!.edges, ra.witness!.edges);
});
