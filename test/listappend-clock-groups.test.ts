// List-append CC and PSI by session groups (a clock table too large to keep at once): the same answers as the whole table.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { inferListAppend } from '../server/src/engine/listappend/infer.ts';
import { ListLevelContext, uniformLevels } from '../server/src/engine/listappend/list-levels.ts';
import { levelId } from '../server/src/engine/levels/levels.ts';
import { Rng } from '../server/src/engine/gen/generate.ts';
import { smallListHistory } from './helpers/listappend-random.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';

test('CC, PSI and random CC/PSI mixes hold by groups of 1 and 2 sessions exactly when they hold with the whole clock table (4,000 random histories)', () => {
  let violated = 0;
  let held = 0;
  for (let seed = 1; seed <= 4000; seed++) {
    const h = parseHist(smallListHistory(seed)).history;
    const inf = inferListAppend(h);
    const rng = new Rng(seed);
    const mixed = new Int8Array(h.txnCount);
    for (let t = 1; t < h.txnCount; t++) mixed[t] = levelId(rng.below(2) === 0 ? 'CC' : 'PSI');
    for (const lvl of [uniformLevels(h, 'CC'), uniformLevels(h, 'PSI'), mixed]) {
      const whole = new ListLevelContext(inf).holds(lvl);
      for (const group of [1, 2]) {
        const ctx = new ListLevelContext(inf);
        ctx.clockEntries = h.txnCount * group;
        assert.equal(ctx.holds(lvl), whole, `seed ${seed}, groups of ${group}`);
      }
      if (whole === true) held++;
      else if (whole === false) violated++;
    }
  }
  assert.ok(violated > 1000 && held > 1000, `${violated} violated, ${held} held`);
});

test('a list-append CC check past the clock bound says it is the clock table, not the orders of unread appends', () => {
  // Write skew (SER broken, so CC is checked on its own) beside 16,498 one-transaction sessions:
  // 16,501 transactions × 16,500 sessions is past MAX_CLOCK_WORK.
  const lines = ['history "many sessions"', 'session s1', '  T1: r(x, []) a(y, 1)', 'session s2', '  T2: r(y, []) a(x, 1)'];
  for (let i = 3; i <= 16500; i++) lines.push(`session s${i}`, `  T${i}: a(k${i}, 1)`);
  const a = analyzeHistText(lines.join('\n') + '\n', { levels: ['CC'] });
  const cc = a.levels.find((v) => v.level === 'CC');
  assert.equal(cc?.consistent, null);
  assert.match(cc?.note ?? '', /vector clocks need 16501 transactions × 16500 sessions = 272266500 entries, more than the 268435456 computed at most/);
  assert.doesNotMatch(cc?.note ?? '', /orders between appends/);
});

test('a mixed list-append verdict past the clock bound gives its own reason, not a homogeneous level\'s', () => {
  // The same write skew, tagged: the mixed run stops at the clock table; SER (the witness level
  // of tagged files) is violated and has no reason, so the message said "SER … orders between appends".
  const lines = ['history "many sessions"', 'level CC', 'session s1', '  T1 [CC]: r(x, []) a(y, 1)', 'session s2', '  T2: r(y, []) a(x, 1)'];
  for (let i = 3; i <= 16500; i++) lines.push(`session s${i}`, `  T${i}: a(k${i}, 1)`);
  const a = analyzeHistText(lines.join('\n') + '\n', { levels: ['RC'] });
  assert.equal(a.mixed?.consistent, null);
  assert.match(a.mixed?.note ?? '', /^the mixed levels could not be decided on the list-append keys: its vector clocks need 16501 transactions × 16500 sessions/);
});
