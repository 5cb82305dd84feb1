// The snapshot-order propagation (strong-propagation.ts) counts its work: a read repeated in one
// transaction is one rule, an edge is kept once, and a step budget ends it with the edges found so far.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EdgeList } from '../server/src/engine/model/edges.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { propagateSnapshotOrder, type PropagationStats } from '../server/src/engine/strong/strong-propagation.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import type { Level } from '../server/src/engine/levels/levels.ts';

/** Session w writes x `writers` times in a chain; T9 reads x = 5 `reads` times (and another key, so it has several snapshot predecessors). */
function hotReads(writers: number, reads: number): string {
  let text = 'session w\n';
  for (let i = 0; i < writers; i++) text += `  W${i}: r(x, ${i === 0 ? 'init' : i - 1}) w(x, ${i}) w(y${i % 7}, ${i})\n`;
  text += `session r\n  T9: r(y3, 3) ${'r(x, 5) '.repeat(reads)}\n`;
  return text;
}

function run(text: string, level: Level, maxSteps?: number): { edges: EdgeList | null; stats: PropagationStats } {
  const h = parseHist(text).history;
  const stats: PropagationStats = { steps: 0, rounds: 0, outOfSteps: false };
  const edges = propagateSnapshotOrder(h, computeReadsFrom(h), () => level, new EdgeList(), 50, maxSteps, stats);
  return { edges, stats };
}

test('a read repeated 5,000 times costs what one read costs, and each edge is kept once', () => {
  for (const level of ['SER', 'SI', 'PC'] as const) {
    const one = run(hotReads(300, 1), level);
    const many = run(hotReads(300, 5000), level);
    assert.ok(one.edges && many.edges, level);
    // Before, every copy of the read tested all 300 writers again and added its edges again (1.5M of them).
    assert.equal(many.stats.steps, one.stats.steps, level);
    assert.equal(many.stats.rounds, one.stats.rounds, level);
    assert.equal(many.edges.length, one.edges.length, level);
    const pairs = new Set<string>();
    for (let i = 0; i < many.edges.length; i++) pairs.add(`${many.edges.from.data[i]}→${many.edges.to.data[i]}`);
    assert.equal(pairs.size, many.edges.length, `${level}: no edge twice`);
    assert.ok(many.edges.length < 2 * 300, `${level}: ${many.edges.length} edges`);
  }
});

/** Writers W0…W{n-1} of x in sessions of their own; reader Ri reads x from Wi and y{i+1} from W{i+1}, which also writes x: W{i+1} must commit before Wi. */
function readersOrderWriters(n: number): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `session w${i}\n  W${i}: w(x, ${i}) w(y${i}, ${i})\n`;
  for (let i = 0; i + 1 < n; i++) text += `session r${i}\n  R${i}: r(x, ${i}) r(y${i + 1}, ${i + 1})\n`;
  return text;
}

test('the step budget ends the propagation with the edges found so far (each still necessary), never a violation', () => {
  const text = readersOrderWriters(200);
  const full = run(text, 'SI');
  assert.equal(full.stats.outOfSteps, false);
  const cut = run(text, 'SI', 100_000);
  assert.equal(cut.stats.outOfSteps, true);
  assert.ok(cut.edges !== null);
  assert.ok(cut.stats.steps < full.stats.steps, `${cut.stats.steps} of ${full.stats.steps} steps`);
  assert.ok(cut.edges.length > 0 && cut.edges.length < full.edges!.length, `${cut.edges.length} of ${full.edges!.length} edges`);
  const found = new Set<string>();
  for (let i = 0; i < full.edges!.length; i++) found.add(`${full.edges!.from.data[i]}→${full.edges!.to.data[i]}`);
  for (let i = 0; i < cut.edges.length; i++) assert.ok(found.has(`${cut.edges.from.data[i]}→${cut.edges.to.data[i]}`));
  // A violation is still found within the budget: a lost update.
  const lost = 'session s1\n  T1: r(x, init) w(x, 1)\nsession s2\n  T2: r(x, init) w(x, 2)\n';
  assert.equal(run(lost, 'SI').edges, null);
});
