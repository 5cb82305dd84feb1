// A list reread after the transaction's own appends breaks no level, so it is never a level's witness (docs/list-append.md, internal).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';

const all = { levels: LEVELS };

test('r(x, [1]) a(x, 5) r(x, [1, 2, 5]): internal is reported, but the levels that fail are explained by the cycle', () => {
  const text = 'session s1\n  T0: a(x, 1)\n  T2: a(x, 2)\nsession s2\n  T1: r(x, [1]) a(x, 5) r(x, [1, 2, 5])\n';
  const a = analyzeHistText(text, all);
  assert.ok(a.list?.anomalies.some((x) => x.code === 'internal'), 'the reread is reported');
  const internal = a.findings.filter((f) => f.code === 'internal');
  assert.ok(internal.length > 0 && internal.every((f) => f.severity !== 'error'), 'as information');
  for (const v of a.levels) {
    if (v.consistent !== false) continue;
    assert.notEqual(v.witness?.anomaly, 'internal', `${v.level}'s witness is the reread`);
    assert.ok((v.witness?.edges.length ?? 0) > 0, `${v.level}'s witness is a cycle`);
  }
});

test('a reread without own appends in between still explains RA, CC and PC (it breaks them)', () => {
  const text = 'session s1\n  T0: a(x, 1)\n  T2: a(x, 2)\nsession s2\n  T1: r(x, [1]) r(x, [1, 2])\n';
  const a = analyzeHistText(text, all);
  const ra = a.levels.find((v) => v.level === 'RA');
  assert.equal(ra?.consistent, false);
  assert.equal(ra?.witness?.anomaly, 'internal');
});
