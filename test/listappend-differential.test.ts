// List-append levels against the brute-force oracle on random small histories from the permissive list store.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LIST_LEVELS } from '../server/src/engine/listappend/anomaly-table.ts';
import { runListDifferential } from './helpers/listappend-differential.ts';

const RUNS = Number(process.env.LIST_DIFF_RUNS ?? 2000);

test(`homogeneous and mixed list-append verdicts equal the oracle's on ${RUNS} random histories`, () => {
  const stats = runListDifferential(RUNS, 1);
  const m = stats.mismatches[0];
  if (m) assert.fail(`${stats.mismatches.length} mismatches; seed ${m.seed}, ${m.what}\n${m.text}`);
  // The random histories cover both verdicts of every level, and of the mixed one.
  for (const level of [...LIST_LEVELS, 'mixed']) {
    assert.ok(stats.held[level] > RUNS / 50 && stats.violated[level] > RUNS / 50, `${level}: ${stats.held[level]} hold, ${stats.violated[level]} violated`);
  }
});
