// List-append levels against the brute-force oracle on random small histories from the permissive list store.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { inferListAppend } from '../server/src/engine/listappend/infer.ts';
import { decideListLevel, ListLevelContext, uniformLevels } from '../server/src/engine/listappend/list-levels.ts';
import { LIST_LEVELS } from '../server/src/engine/listappend/anomaly-table.ts';
import { oracleHolds } from './helpers/listappend-oracle.ts';
import { smallListHistory } from './helpers/listappend-random.ts';
import { Rng } from '../server/src/engine/gen/generate.ts';

const RUNS = Number(process.env.LIST_DIFF_RUNS ?? 2000);

test(`homogeneous and mixed list-append verdicts equal the oracle's on ${RUNS} random histories`, () => {
  const counts = new Map<string, number>();
  for (let seed = 1; seed <= RUNS; seed++) {
    const text = smallListHistory(seed);
    const h = parseHist(text).history;
    const ctx = new ListLevelContext(inferListAppend(h));
    for (const level of LIST_LEVELS) {
      const lvl = uniformLevels(h, level);
      const mine = decideListLevel(ctx, lvl);
      const theirs = oracleHolds(h, lvl);
      if (mine !== theirs) assert.fail(`seed ${seed}, ${level}: engine ${mine}, oracle ${theirs}\n${text}`);
      const key = `${level}:${mine}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    // A random mixed assignment.
    const rng = new Rng(seed);
    const lvl = new Int8Array(h.txnCount);
    for (let t = 1; t < h.txnCount; t++) lvl[t] = rng.below(LIST_LEVELS.length);
    const mine = decideListLevel(ctx, lvl);
    const theirs = oracleHolds(h, lvl);
    if (mine !== theirs) assert.fail(`seed ${seed}, mixed ${Array.from(lvl.subarray(1), (l) => LIST_LEVELS[l]).join(' ')}: engine ${mine}, oracle ${theirs}\n${text}`);
  }
  // The random histories cover both verdicts of every level.
  for (const level of LIST_LEVELS) {
    assert.ok((counts.get(`${level}:true`) ?? 0) > 0 && (counts.get(`${level}:false`) ?? 0) > 0, `${level}: ${counts.get(`${level}:true`)} hold, ${counts.get(`${level}:false`)} violated`);
  }
});
