// saturate-ra.ts walks its wr part in id order and its so part session by session, then merges: the edges must be those of one session-order walk, in the same order.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { EdgeList } from '../server/src/engine/model/edges.ts';
import { saturateRA } from '../server/src/engine/weak/saturate-ra.ts';
import { randomOptions } from './helpers/differential.ts';
import { saturateRASingleWalk } from './helpers/ra-single-walk.ts';

const columns = (e: EdgeList): number[][] => [e.from, e.to, e.kind, e.a, e.b].map((c) => Array.from(c.data.subarray(0, e.length)));

test('RA saturation equals the single session-order walk edge for edge (3,000 random histories, a third with per-transaction rules)', () => {
  let edges = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const a = analyzeHistText(toHistString(generateHistory(randomOptions(seed))), { levels: ['RC'] });
    const applies = seed % 3 === 0 ? Uint8Array.from({ length: a.history.txnCount }, (_, t) => ((t * 7 + seed) % 3 === 0 ? 1 : 0)) : null;
    const split = new EdgeList();
    const single = new EdgeList();
    saturateRA({ h: a.history, rf: a.readsFrom, applies }, split);
    saturateRASingleWalk({ h: a.history, rf: a.readsFrom, applies }, single);
    assert.deepEqual(columns(split), columns(single), `seed ${seed}`);
    edges += split.length;
  }
  assert.ok(edges > 5_000, `random histories should force many RA edges (${edges})`);
});
