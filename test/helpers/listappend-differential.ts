// The list-append differential run: engine verdicts (every level, and a random mixed assignment) against the oracle.

import { parseHist } from '../../server/src/engine/syntax/hist-parser.ts';
import { inferListAppend } from '../../server/src/engine/listappend/infer.ts';
import { decideListLevel, ListLevelContext, uniformLevels } from '../../server/src/engine/listappend/list-levels.ts';
import { LIST_LEVELS } from '../../server/src/engine/listappend/anomaly-table.ts';
import { levelId } from '../../server/src/engine/levels/levels.ts';
import { Rng } from '../../server/src/engine/gen/generate.ts';
import { oracleHolds } from './listappend-oracle.ts';
import { smallListHistory } from './listappend-random.ts';

export interface ListDiffStats {
  mismatches: { seed: number; what: string; text: string }[];
  /** Per level (and 'mixed'): how many histories violate it. */
  violated: Record<string, number>;
  held: Record<string, number>;
}

export function runListDifferential(count: number, first: number): ListDiffStats {
  const stats: ListDiffStats = { mismatches: [], violated: {}, held: {} };
  for (const l of [...LIST_LEVELS, 'mixed']) stats.violated[l] = stats.held[l] = 0;
  for (let seed = first; seed < first + count; seed++) {
    const text = smallListHistory(seed);
    const h = parseHist(text).history;
    const ctx = new ListLevelContext(inferListAppend(h));
    const compare = (name: string, lvl: Int8Array): void => {
      const mine = decideListLevel(ctx, lvl);
      const theirs = oracleHolds(h, lvl);
      if (mine !== theirs) stats.mismatches.push({ seed, what: `${name}: engine ${mine}, oracle ${theirs}`, text });
      if (theirs) stats.held[name]++;
      else stats.violated[name]++;
    };
    for (const level of LIST_LEVELS) compare(level, uniformLevels(h, level));
    const rng = new Rng(seed);
    const lvl = new Int8Array(h.txnCount);
    for (let t = 1; t < h.txnCount; t++) lvl[t] = levelId(LIST_LEVELS[rng.below(LIST_LEVELS.length)]);
    compare('mixed', lvl);
  }
  return stats;
}
