// CC by session groups (a history whose clock table does not fit): the same forced edges, in the same order, as one pass.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { vectorClocks } from '../server/src/engine/model/happens-before.ts';
import { EdgeList } from '../server/src/engine/model/edges.ts';
import { CheckContext, forcedEdges, MAX_CLOCK_ENTRIES } from '../server/src/engine/weak/level-check.ts';
import { saturateCC, saturateCCInGroups } from '../server/src/engine/weak/saturate-cc.ts';
import { completeForced } from '../server/src/engine/weak/complete-forced.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { randomOptions } from './helpers/differential.ts';

function edgesText(e: EdgeList): string {
  const out: string[] = [];
  for (let i = 0; i < e.length; i++) out.push(`${e.from.data[i]}>${e.to.data[i]}:${e.kind.data[i]}:${e.a.data[i]}:${e.b.data[i]}`);
  return out.join(' ');
}

test('CC by groups of 1, 2 and 3 sessions gives the edges of one pass, in its order, on 1,500 random histories', () => {
  let edges = 0;
  for (let seed = 1; seed <= 1500; seed++) {
    const o = randomOptions(seed);
    const g = generateHistory({ ...o, sessions: 2 + (seed % 7), transactions: o.transactions + 6 });
    const h = parseHist(toHistString(g)).history;
    const rf = computeReadsFrom(h);
    const ctx = new CheckContext(h, rf);
    if (!ctx.causal) continue;
    const input = { h, rf, applies: null };
    const whole = new EdgeList();
    saturateCC(input, vectorClocks(h, rf, ctx.order, ctx.soPrev), whole);
    edges += whole.length;
    for (const group of [1, 2, 3]) {
      const grouped = new EdgeList();
      saturateCCInGroups(input, (first, end) => vectorClocks(h, rf, ctx.order, ctx.soPrev, first, end), group, grouped);
      assert.equal(edgesText(grouped), edgesText(whole), `seed ${seed}, groups of ${group}`);
    }
  }
  assert.ok(edges > 2000, `${edges} edges compared`);
});

test('a group of sessions keeps the clock columns of the whole table', () => {
  const h = parseHist(toHistString(generateHistory({ ...randomOptions(7), sessions: 5, transactions: 40, store: 'causal' }))).history;
  const rf = computeReadsFrom(h);
  const ctx = new CheckContext(h, rf);
  const whole = vectorClocks(h, rf, ctx.order, ctx.soPrev);
  const part = vectorClocks(h, rf, ctx.order, ctx.soPrev, 2, 4);
  assert.equal(part.k, 2);
  assert.equal(part.first, 2);
  for (let t = 0; t < h.txnCount; t++) for (let s = 2; s < 4; s++) assert.equal(part.clock[t * 2 + s - 2], whole.clock[t * whole.k + s]);
});

test('CC is decided on a history whose clocks do not fit at once (transactions × sessions above the table limit)', () => {
  // One transaction per session: 12,000 sessions × 12,001 transactions > 128 M entries.
  const sessions = 12_000;
  const lines: string[] = [];
  for (let s = 0; s < sessions; s++) lines.push(`session s${s}`, `  T${s}: ${s === 0 ? 'w(x, 1) w(y, 1)' : s === 1 ? 'r(y, 1) w(y, 2)' : s === 2 ? 'r(y, 2) r(x, 0)' : `r(z${s % 50}, 0)`}`);
  const text = `init x = 0\n${lines.join('\n')}\n`;
  const a = analyzeHistText(text, { levels: ['CC'] });
  assert.ok(a.history.txnCount * a.history.sessionCount > MAX_CLOCK_ENTRIES);
  const cc = a.levels.find((v) => v.level === 'CC')!;
  assert.equal(cc.consistent, false, 'T2 saw T1 through T1 → T1b → T2 but read x from the initial state');
  const ctx = new CheckContext(a.history, a.readsFrom);
  assert.ok(forcedEdges(ctx, 'CC', null)!.length > 0);
});

test("CC's witness by session groups is one pass's: the completed forced edges (the spec's fewest so ∪ wr edges), not the minimal set's", () => {
  // A monotonic read: T3 saw T2's k0, then T4 (after it) saw T1's, which T2 overwrote after T1 in their session.
  // The spec's witness is the two co edges those reads force (no so or wr edge); the edge T1 → T2 is implied by
  // T1 →so T2 and left out of the minimal set, so without the completion the witness took a wr edge instead.
  const core = 'session s0\n  T1: w(k0, 1)\n  T2: w(k0, 2)\nsession s1\n  T3: r(k0, 2)\n  T4: r(k0, 1)\n';
  const one = analyzeHistText(core, { levels: ['CC'] }).levels[0].witness!;
  assert.deepEqual(one.edges.map((e) => e.kind), ['co', 'co']);
  // 12,000 more sessions of one write each: 12,004 transactions × 12,002 sessions, above the table limit.
  const pad: string[] = [];
  for (let s = 0; s < 12_000; s++) pad.push(`session p${s}`, `  P${s}: w(pad, ${s + 1})`);
  const a = analyzeHistText(`${core}${pad.join('\n')}\n`, { levels: ['CC'] });
  assert.ok(a.history.txnCount * a.history.sessionCount > MAX_CLOCK_ENTRIES);
  const grouped = a.levels[0].witness!;
  assert.equal(a.levels[0].consistent, false);
  assert.equal(grouped.message, one.message);
  assert.deepEqual(grouped.edges.map((e) => e.kind), ['co', 'co']);
});

test('the completed forced edges by groups of 1, 2 and 3 sessions are those of the whole table, in its order, on 1,500 random histories', () => {
  let edges = 0;
  for (let seed = 1; seed <= 1500; seed++) {
    const o = randomOptions(seed);
    const h = parseHist(toHistString(generateHistory({ ...o, sessions: 2 + (seed % 7), transactions: o.transactions + 6 }))).history;
    const rf = computeReadsFrom(h);
    const ctx = new CheckContext(h, rf);
    if (!ctx.causal) continue;
    // Every transaction in one component: every writer of a key read is a candidate.
    const comp = new Int32Array(h.txnCount);
    const size = Int32Array.of(h.txnCount);
    const whole = completeForced(h, rf, () => ctx.clockGroups(), () => 'CC', comp, size, 1e9)!;
    edges += whole.length;
    for (const group of [1, 2, 3]) {
      const grouped = completeForced(h, rf, () => ({ group, clocksOf: (first, end) => vectorClocks(h, rf, ctx.order, ctx.soPrev, first, end) }), () => 'CC', comp, size, 1e9)!;
      assert.equal(edgesText(grouped), edgesText(whole), `seed ${seed}, groups of ${group}`);
    }
  }
  assert.ok(edges > 2000, `${edges} edges compared`);
});
