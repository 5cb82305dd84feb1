// Readers of a key's last version each have an rw edge to every append nobody read (n² edges for
// n such transactions): the work on them stays linear in the edges. The cycle classes that may not
// use rw walk only their own edges, CC's past check scans the sessions once per read, and PSI and SI
// orient n unread appends of a key by a chain of n − 1 edges.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CYCLE_CLASSES } from '../server/src/engine/listappend/anomaly-table.ts';
import { cycleInference, findCycles } from '../server/src/engine/listappend/cycles.ts';
import { inferListAppend, LK_RW, MAX_UNREAD_RW } from '../server/src/engine/listappend/infer.ts';
import { decideListLevel, ListLevelContext, uniformLevels } from '../server/src/engine/listappend/list-levels.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';

/** A0 appends 0 to x; n transactions, each in a session of its own, read x = [0] and append to it (nobody reads those). */
function sameRead(n: number): string {
  let text = 'session w\n  A0: a(x, 0)\n';
  for (let i = 1; i <= n; i++) text += `session r${i}\n  R${i}: r(x, [0]) a(x, ${i})\n`;
  return text;
}

function rwEdges(n: number): number {
  const inf = inferListAppend(parseHist(sameRead(n)).history);
  let m = 0;
  for (let i = 0; i < inf.edges.length; i++) if (inf.edges.kind.data[i] === LK_RW) m++;
  return m;
}

test('the classes without rw read a number of edge slots linear in the edges, not edges × readers', () => {
  const slots = (n: number): number => {
    const inf = cycleInference(inferListAppend(parseHist(sameRead(n)).history));
    return findCycles(inf, false, ['G0', 'G1c', 'G-single']).slots;
  };
  for (const n of [100, 200]) {
    const s = slots(n);
    // Before, G-single started from each of the n² rw edges and passed over the n rw edges of its
    // target without counting them as steps: n³ slots (8 million at 200).
    assert.ok(s <= rwEdges(n), `${n} readers: ${s} slots for ${rwEdges(n)} rw edges`);
  }
  // G2-item uses the rw edges: it finds the lost updates' two-rw cycles within its step budget.
  const all = findCycles(cycleInference(inferListAppend(parseHist(sameRead(100)).history)), false, CYCLE_CLASSES);
  assert.deepEqual(all.found.map((c) => c.cls), ['G2-item']);
});

test('CC\'s past check scans the sessions once per read, not once per rw edge', () => {
  for (const n of [100, 200]) {
    const h = parseHist(sameRead(n)).history;
    const ctx = new ListLevelContext(inferListAppend(h));
    // Lost updates only: CC holds.
    assert.equal(decideListLevel(ctx, uniformLevels(h, 'CC')), true);
    // n readers × (n + 1) sessions; before, every one of the n² rw edges scanned them all.
    assert.ok(ctx.pastScans > 0 && ctx.pastScans <= n * h.sessionCount, `${n} readers: ${ctx.pastScans} scans`);
  }
});

test('PSI and SI orient n appends nobody read with n − 1 edges per try (a chain along the order), not n²/2 pairs', () => {
  // A reader of x = [] (so every append to x is unread), n appenders of x in sessions of their own,
  // and a write skew elsewhere so that SER fails and PSI and SI are decided on their own.
  const unread = (n: number): string => {
    let text = 'session r\n  R: r(x, [])\nsession w1\n  W1: r(a, []) r(b, []) a(a, 1)\nsession w2\n  W2: r(a, []) r(b, []) a(b, 2)\n';
    text += 'session w3\n  W3: r(a, [1]) r(b, [2])\n';
    for (let i = 1; i <= n; i++) text += `session s${i}\n  T${i}: a(x, ${i})\n`;
    return text;
  };
  for (const n of [100, 400]) {
    const h = parseHist(unread(n)).history;
    const ctx = new ListLevelContext(inferListAppend(h));
    assert.equal(decideListLevel(ctx, uniformLevels(h, 'SER')), false);
    for (const level of ['PSI', 'SI'] as const) {
      const before = ctx.orientationEdges;
      assert.equal(decideListLevel(ctx, uniformLevels(h, level)), true, `${n} ${level}`);
      // At most two tries (a serial order, then so ∪ wr ∪ ww), each a chain: before, n²/2 edges each.
      assert.ok(ctx.orientationEdges - before <= 2 * (n - 1), `${n} ${level}: ${ctx.orientationEdges - before} edges`);
    }
  }
});

test('past MAX_UNREAD_RW the rw edges to unread appends are left out and counted: violations stand, no level is said to hold', () => {
  assert.equal(MAX_UNREAD_RW, 8_000_000);
  const h = parseHist(sameRead(100)).history;
  // 100 readers of the last version, each with an rw edge to the 99 other unread appends.
  const full = inferListAppend(h);
  assert.equal(full.unreadRwLeftOut, 0);
  assert.equal(rwEdges(100), 100 * 99);
  const capped = inferListAppend(h, 1000);
  let kept = 0;
  for (let i = 0; i < capped.edges.length; i++) if (capped.edges.kind.data[i] === LK_RW) kept++;
  // Whole readers at a time: 10 readers' 100 edges each fit (their own append excluded: 99 each).
  assert.equal(kept, 10 * 99);
  assert.equal(capped.unreadRwLeftOut, 90 * 100);
  const verdict = (inf: ReturnType<typeof inferListAppend>, level: 'RC' | 'CC' | 'PSI' | 'SER'): boolean | null =>
    decideListLevel(new ListLevelContext(inf), uniformLevels(h, level));
  // RC and CC hold with every edge; without some of them that is not known.
  assert.equal(verdict(full, 'RC'), true);
  assert.equal(verdict(full, 'CC'), true);
  assert.equal(verdict(capped, 'RC'), null);
  assert.equal(verdict(capped, 'CC'), null);
  // The lost updates' cycles among the edges kept still violate PSI and SER.
  assert.equal(verdict(full, 'SER'), false);
  assert.equal(verdict(capped, 'SER'), false);
  assert.equal(verdict(capped, 'PSI'), verdict(full, 'PSI'));
});
