// The spec's witness preference checked against an exhaustive oracle: on small random histories, every RC/RA/CC witness is a cycle of the axioms' relations with the fewest so ∪ wr edges, then the fewest edges.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { BOTTOM, type History } from '../server/src/engine/model/history.ts';
import { randomOptions } from './helpers/differential.ts';
import { naiveRelations, type NaiveRule } from './helpers/naive-checkers.ts';

type Rank = [heavy: number, length: number];

const before = (a: Rank, b: Rank): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/**
 * The best rank of any simple cycle of so ∪ wr ∪ co' (co': every forced edge, light even beside a
 * so or wr edge of the same pair): every simple cycle, pruned by the best so far.
 */
function bestRank(n: number, base: Set<number>[], light: (a: number, b: number) => boolean): Rank | null {
  let best: Rank | null = null;
  const onPath = new Uint8Array(n);
  const walk = (start: number, v: number, heavy: number, length: number): void => {
    for (let w = 0; w < n; w++) {
      const co = light(v, w);
      if (!co && !base[v].has(w)) continue;
      const r: Rank = [heavy + (co ? 0 : 1), length + 1];
      if (best && !before(r, best)) continue;
      if (w === start) best = r;
      else if (w > start && onPath[w] === 0) {
        onPath[w] = 1;
        walk(start, w, r[0], r[1]);
        onPath[w] = 0;
      }
    }
  };
  for (let s = 0; s < n; s++) {
    onPath[s] = 1;
    walk(s, s, 0, 0);
    onPath[s] = 0;
  }
  return best;
}

/** Whether so ∪ wr has a cycle (then the witness is a causality cycle, checked elsewhere). */
function cyclic(h: History, base: Set<number>[]): boolean {
  const state = new Uint8Array(h.txnCount);
  const visit = (v: number): boolean => {
    state[v] = 1;
    for (const w of base[v]) if (state[w] === 1 || (state[w] === 0 && visit(w))) return true;
    state[v] = 2;
    return false;
  };
  for (let v = 0; v < h.txnCount; v++) if (state[v] === 0 && visit(v)) return true;
  return false;
}

test('RC, RA and CC witnesses on 3,000 small random histories: cycles of the axioms\' relations, none with fewer so ∪ wr edges (then edges)', () => {
  let compared = 0;
  const problems: string[] = [];
  for (let seed = 1; compared < 3000 && seed < 20_000 && problems.length < 3; seed++) {
    const o = randomOptions(seed);
    const text = toHistString(generateHistory({ ...o, transactions: Math.min(o.transactions, 8) }));
    const a = analyzeHistText(text, { levels: ['RC', 'RA', 'CC'] });
    const h = a.history;
    if (a.readsFrom.violations > 0 || h.txnCount > 10) continue;
    for (const rule of ['RC', 'RA', 'CC'] as NaiveRule[]) {
      const v = a.levels.find((x) => x.level === rule);
      if (v?.consistent !== false || !v.witness || v.witness.edges.length === 0) continue;
      const { base, forced } = naiveRelations(h, a.readsFrom, () => rule);
      if (cyclic(h, base)) continue;
      const where = `seed ${seed} ${rule}`;
      const light = (a: number, b: number): boolean => forced[a].has(b);
      let heavy = 0;
      for (const e of v.witness.edges) {
        const ok = e.kind === 'co' ? light(e.from, e.to) : base[e.from].has(e.to) && (e.kind === 'wr' || e.from === BOTTOM || h.txnSession[e.from] === h.txnSession[e.to]);
        if (!ok) problems.push(`${where}: ${e.from} → ${e.to} [${e.kind}] is not an edge of the axioms\n${text}`);
        if (e.kind !== 'co') heavy++;
      }
      const best = bestRank(h.txnCount, base, light);
      const mine: Rank = [heavy, v.witness.edges.length];
      if (!best || before(best, mine)) problems.push(`${where}: the witness ranks ${mine.join(',')}, a cycle of ${best?.join(',') ?? 'nothing'} exists\n${text}`);
      compared++;
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(compared >= 3000, `${compared} witnesses compared`);
});
