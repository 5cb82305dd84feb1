// A random history's so ∪ wr columns and a few random extra edges: the cases the graph-without-CSR tests compare.

import { analyzeHistText } from '../../server/src/engine/analyze.ts';
import { generateHistory, Rng } from '../../server/src/engine/gen/generate.ts';
import { toHistString } from '../../server/src/engine/gen/history-writers.ts';
import { EdgeList, EK_CO } from '../../server/src/engine/model/edges.ts';
import { sessionPredecessors } from '../../server/src/engine/model/happens-before.ts';
import type { History } from '../../server/src/engine/model/history.ts';
import { randomOptions } from './differential.ts';

export interface UnionCase {
  h: History;
  wr: Int32Array;
  soPrev: Int32Array;
  /** Fewer than maxExtra random co edges between any transactions (⊥ included). */
  extra: EdgeList;
  /** Seeded like the history, already used for the extra edges: the test's further choices. */
  rng: Rng;
}

export function randomUnion(seed: number, maxExtra: number): UnionCase {
  const a = analyzeHistText(toHistString(generateHistory(randomOptions(seed))), { levels: ['RC'] });
  const h = a.history;
  const rng = new Rng(seed);
  const extra = new EdgeList();
  const count = rng.below(maxExtra);
  for (let i = 0; i < count; i++) extra.add(rng.below(h.txnCount), rng.below(h.txnCount), EK_CO, -1, -1);
  return { h, wr: a.readsFrom.wrSource, soPrev: sessionPredecessors(h), extra, rng };
}
