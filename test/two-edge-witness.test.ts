// The large-history shortcut of the weak levels' witness search: its cycle is real and ranks with the full search's, and a large check takes it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText, analyzePlumeBytes } from '../server/src/engine/analyze.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString, toPlumeString } from '../server/src/engine/gen/history-writers.ts';
import { EK_CO, EK_SO, type EdgeView } from '../server/src/engine/model/edges.ts';
import { CheckContext, checkCycles, forcedEdges } from '../server/src/engine/weak/level-check.ts';
import { TWO_EDGE_MIN_OPS, twoEdgeWitness } from '../server/src/engine/weak/two-edge-witness.ts';
import { randomOptions } from './helpers/differential.ts';

/** [so ∪ wr ∪ ⊥ edges, edges] with a run of so edges counted once, as cycle-search.ts ranks a cycle. */
function rank(cycle: Int32Array, view: EdgeView): [number, number] {
  let heavy = 0;
  let length = 0;
  for (let i = 0; i < cycle.length; i++) {
    const k = view.kind(cycle[i]);
    if (k === EK_SO && i > 0 && view.kind(cycle[i - 1]) === EK_SO) continue;
    length++;
    if (k !== EK_CO) heavy++;
  }
  return [heavy, length];
}

/** Problems with a cycle's chaining: each edge starts where the last ended, and the last returns to the first. */
function chainProblems(cycle: Int32Array, view: EdgeView): string[] {
  const out: string[] = [];
  for (let i = 0; i < cycle.length; i++) {
    const a = view.ref(cycle[i]);
    const b = view.ref(cycle[(i + 1) % cycle.length]);
    if (a.to !== b.from) out.push(`edge ${i} ends at ${a.to}, edge ${(i + 1) % cycle.length} starts at ${b.from}`);
  }
  return out;
}

test('on 4,000 random histories the two-edge witness is a cycle ranking with the full search\'s best, and is found whenever that best has two edges', () => {
  let taken = 0;
  let pairs = 0;
  let histories = 0;
  for (let seed = 1; histories < 4000; seed++) {
    const text = toHistString(generateHistory(randomOptions(seed)));
    const a = analyzeHistText(text, { levels: ['RC'] });
    if (a.readsFrom.violations > 0) continue;
    histories++;
    const ctx = new CheckContext(a.history, a.readsFrom);
    for (const rule of ['RC', 'RA', 'CC'] as const) {
      const forced = forcedEdges(ctx, rule, null)!;
      // The full search over the same (minimal) forced edges, exact on histories this small.
      const full = checkCycles(ctx, forced, 1, null);
      const quick = twoEdgeWitness(a.history, a.readsFrom, ctx.base, ctx.soPrev, forced);
      const where = `seed ${seed} ${rule}\n${text}`;
      if (quick) {
        taken++;
        if (rank(quick.cycle, quick.view)[0] === 0) pairs++;
        assert.equal(full.acyclic, false, where);
        assert.deepEqual(chainProblems(quick.cycle, quick.view), [], where);
        assert.deepEqual(rank(quick.cycle, quick.view), rank(full.cycles[0], full.view), where);
      } else if (!full.acyclic && full.cycles.length > 0) {
        const best = rank(full.cycles[0], full.view);
        assert.ok(best[1] > 2, `${where}\nthe full search found ${best.join(', ')}`);
      }
    }
  }
  assert.ok(taken > 300 && pairs > 50, `the shortcut applied ${taken} times, ${pairs} with two forced edges`);
});

test('a violated check of a large history reports the two-edge witness (the full search, its budget spent, ended on a cycle of two so ∪ wr edges here)', () => {
  const g = generateHistory({ sessions: 8, transactions: 34_000, opsPerTxn: 8, keys: 5_000, distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store: 'permissive', seed: 42, abortRatio: 0 });
  const a = analyzePlumeBytes(new TextEncoder().encode(toPlumeString(g)), { levels: ['RC'] });
  assert.ok(a.history.opCount >= TWO_EDGE_MIN_OPS, `${a.history.opCount} operations`);
  const rc = a.levels.find((v) => v.level === 'RC')!;
  assert.equal(rc.consistent, false);
  const edges = rc.witness!.edges;
  const heavy = edges.filter((e) => e.kind !== 'co').length;
  assert.ok(edges[0].kind === 'co', JSON.stringify(edges[0]));
  assert.equal(heavy, 1, JSON.stringify(edges));
  assert.equal(edges.filter((e, i) => !(e.kind === 'so' && i > 0 && edges[i - 1].kind === 'so')).length, 2, JSON.stringify(edges));
  for (let i = 0; i < edges.length; i++) assert.equal(edges[i].to, edges[(i + 1) % edges.length].from, JSON.stringify(edges));
});

test('on a large history the shortcut does not outrank a cycle of co edges that the completed forced edges close (a monotonic read at CC)', () => {
  // A serializable background, too large for the full search alone, and a monotonic read: X3 saw X2's
  // write, its successor X4 the older X1's. CC forces X2 →co X1 (kept) and X1 →co X2 (left out of the
  // minimal set, as X1 →so X2 implies it): the two co edges are the witness, not X2 →co X1 →so X2.
  const g = generateHistory({ sessions: 8, transactions: 34_000, opsPerTxn: 8, keys: 5_000, distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store: 'serial', seed: 7, abortRatio: 0 });
  const text = `${toHistString(g)}\nsession zA\n  X1: w(zx, 1)\n  X2: w(zx, 2)\nsession zB\n  X3: r(zx, 2)\n  X4: r(zx, 1)\n`;
  const a = analyzeHistText(text, { levels: ['CC'] });
  assert.ok(a.history.opCount >= TWO_EDGE_MIN_OPS, `${a.history.opCount} operations`);
  const cc = a.levels.find((v) => v.level === 'CC')!;
  assert.equal(cc.consistent, false);
  const edges = cc.witness!.edges;
  assert.deepEqual(edges.map((e) => e.kind), ['co', 'co'], JSON.stringify(edges));
});
