// The graph layout of every example at every level: no two labels overlap, no label overlaps a box, no edge crosses a box.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { layoutGraph, MAX_INTERACTIVE, undecidedSentence, visibleSet, type Layout, type ViewLevel } from '../server/src/engine/export/layout.ts';
import { renderSvg } from '../server/src/engine/export/svg-writer.ts';
import { analysisOf } from './helpers/graph-page.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const LEVELS: ViewLevel[] = ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER', 'SSER', 'mixed'];

interface Rect { x: number; y: number; w: number; h: number }
const overlap = (p: Rect, q: Rect): boolean => p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;

/** Every geometric rule the drawing promises, as a list of violations (empty when the layout is clean). */
export function layoutProblems(l: Layout): string[] {
  const problems: string[] = [];
  const labels = l.edges.filter((e) => e.label !== '').map((e) => ({ id: e.id, x: e.labelX, y: e.labelY, w: e.labelW, h: e.labelH }));
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) if (overlap(labels[i], labels[j])) problems.push(`labels ${labels[i].id} and ${labels[j].id} overlap`);
    for (const b of l.nodes) if (overlap(labels[i], b)) problems.push(`label ${labels[i].id} overlaps box ${b.name}`);
  }
  for (const e of l.edges) {
    const p = e.points;
    for (let i = 0; i + 3 < p.length; i += 2) {
      // A segment as a thin rectangle, shrunk by a pixel at the ends where it leaves or enters its own boxes.
      const seg = { x: Math.min(p[i], p[i + 2]) + 0.5, y: Math.min(p[i + 1], p[i + 3]) + 0.5, w: Math.max(0.01, Math.abs(p[i + 2] - p[i]) - 1), h: Math.max(0.01, Math.abs(p[i + 3] - p[i + 1]) - 1) };
      for (const b of l.nodes) if (overlap(seg, b)) problems.push(`edge ${e.id} crosses box ${b.name}`);
    }
  }
  for (const b of l.nodes) for (const c of l.nodes) if (b.id < c.id && overlap(b, c)) problems.push(`boxes ${b.name} and ${c.name} overlap`);
  // The witness's step labels clear of the witness's lines (3 px wide), their own edge's included.
  const story = l.edges.filter((e) => e.witness >= 0);
  for (const e of story.filter((x) => x.label !== '')) {
    const label = { x: e.labelX, y: e.labelY, w: e.labelW, h: e.labelH };
    for (const f of story) {
      const p = f.points;
      for (let i = 0; i + 3 < p.length; i += 2) {
        const line = { x: Math.min(p[i], p[i + 2]) - 1.5, y: Math.min(p[i + 1], p[i + 3]) - 1.5, w: Math.abs(p[i + 2] - p[i]) + 3, h: Math.abs(p[i + 3] - p[i + 1]) + 3 };
        if (overlap(label, line)) { problems.push(`witness label "${e.label}" crossed by witness edge ${f.id}`); break; }
      }
    }
  }
  return problems;
}

describe('graph layout', () => {
  const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.hist')).sort();

  test('every example at every level: labels apart from each other and from boxes, no edge through a box', () => {
    let checked = 0;
    for (const f of files) {
      const a = analysisOf(readFileSync(join(EXAMPLES, f), 'utf8'), `file:///examples/${f}`);
      for (const level of LEVELS) {
        const l = layoutGraph(a, { level, kinds: { so: true, wr: true, co: true }, visible: null });
        assert.deepEqual(layoutProblems(l), [], `${f} at ${level}`);
        checked++;
      }
    }
    assert.ok(checked >= files.length * LEVELS.length);
  });

  test('parallel and opposite edges between two boxes are separate lines with their own labels', () => {
    const a = analysisOf(readFileSync(join(EXAMPLES, 'write-skew.hist'), 'utf8'));
    const l = layoutGraph(a, { level: 'SER', kinds: { so: true, wr: true, co: true }, visible: null });
    const t1 = a.transactions.find((t) => t.name === 'T1')!.id;
    const t2 = a.transactions.find((t) => t.name === 'T2')!.id;
    const between = l.edges.filter((e) => (e.from === t1 && e.to === t2) || (e.from === t2 && e.to === t1));
    assert.equal(between.length, 2, 'the rw pair');
    assert.notEqual(between[0].path, between[1].path);
    assert.deepEqual(between.map((e) => e.witness).sort(), [0, 1]);
    assert.ok(between.every((e) => /^\d · /.test(e.label)), between.map((e) => e.label).join(', '));
  });

  test('write skew at SER: "2 · rw y" is off the rw x edge (it sat on its line), next to its own; the other labels stay where the router put them', () => {
    const a = analysisOf(readFileSync(join(EXAMPLES, 'write-skew.hist'), 'utf8'));
    const l = layoutGraph(a, { level: 'SER', kinds: { so: true, wr: true, co: true }, visible: null });
    const rwY = l.edges.find((e) => e.label === '2 · rw y')!;
    const rwX = l.edges.find((e) => e.label === '1 · rw x')!;
    assert.deepEqual(layoutProblems(l), []);
    // Beside a segment of its own route, 2 px off its line.
    const p = rwY.points;
    let beside = false;
    for (let i = 0; i + 3 < p.length; i += 2) {
      const [x0, y0, x1, y1] = p.slice(i, i + 4);
      if (y0 === y1 && rwY.labelX >= Math.min(x0, x1) - 0.05 && rwY.labelX + rwY.labelW <= Math.max(x0, x1) + 0.05 && [y0 - 2 - rwY.labelH, y0 + 2].some((y) => Math.abs(rwY.labelY - y) < 0.05)) beside = true;
      if (x0 === x1 && [x0 + 2, x0 - 2 - rwY.labelW].some((x) => Math.abs(rwY.labelX - x) < 0.05) && rwY.labelY + rwY.labelH > Math.min(y0, y1) && rwY.labelY < Math.max(y0, y1)) beside = true;
    }
    assert.ok(beside, JSON.stringify(rwY));
    // The uncrossed label keeps the router's place: beside its vertical run, 2 px right of it.
    assert.equal(rwX.labelX, rwX.points[2] + 2);
    // The same input, the same SVG bytes.
    const again = layoutGraph(analysisOf(readFileSync(join(EXAMPLES, 'write-skew.hist'), 'utf8')), { level: 'SER', kinds: { so: true, wr: true, co: true }, visible: null });
    assert.equal(renderSvg(again), renderSvg(l));
  });

  test('deterministic, and clean on random histories and a witness neighbourhood', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const text = toHistString(generateHistory({
        sessions: 1 + (seed % 5), transactions: 4 + seed * 2, opsPerTxn: 3, keys: 3 + (seed % 4), distribution: 'uniform', zipfS: 0.8, readRatio: 0.5, store: 'permissive', seed, abortRatio: 0.05,
      }));
      const a = analysisOf(text);
      for (const level of ['RA', 'CC', 'SER'] as const) {
        const o = { level, kinds: { so: true, wr: true, co: true }, visible: null };
        const l = layoutGraph(a, o);
        assert.deepEqual(layoutProblems(l), [], `seed ${seed} ${level}`);
        assert.deepEqual(layoutGraph(a, o), l);
      }
    }
    const big = analysisOf(toHistString(generateHistory({
      sessions: 16, transactions: 3000, opsPerTxn: 3, keys: 200, distribution: 'uniform', zipfS: 0.8, readRatio: 0.5, store: 'permissive', seed: 7, abortRatio: 0.02,
    })));
    const visible = visibleSet(big, 'CC', 1);
    assert.ok(visible && visible.size < 3001);
    const l = layoutGraph(big, { level: 'CC', kinds: { so: true, wr: true, co: true }, visible });
    assert.deepEqual(layoutProblems(l), []);
  });

  test('a large history without a witness at the level shown: the first MAX_INTERACTIVE transactions, then MAX_INTERACTIVE more per Widen', () => {
    // Twice the interactive limit, one write each, every level holds: nothing to centre on.
    const n = 2 * MAX_INTERACTIVE + 500;
    const lines = Array.from({ length: n }, (_, i) => `${i % 8 === 0 ? `session s${i / 8}\n` : ''}  T${i + 1}: w(k${i}, 1)`);
    const a = analysisOf(lines.join('\n'));
    assert.equal(a.levels.find((v) => v.level === 'SER')?.state, 'ok');
    // ⊥ besides: the drawing at depth 1 was 2 × MAX_INTERACTIVE boxes (seconds of layout and paint in the page).
    assert.equal(visibleSet(a, 'SER', 1)?.size, MAX_INTERACTIVE + 1);
    assert.equal(visibleSet(a, 'SER', 2)?.size, 2 * MAX_INTERACTIVE + 1);
    assert.equal(visibleSet(a, 'SER', 3), null, 'everything once it fits');
  });

  test('an undecided level\'s sentence says "not decided" once, whatever the note opens with', () => {
    const nothingRead = analysisOf('session s1\n  T1: w(x, 1\n').levels.find((v) => v.level === 'SER')!;
    assert.equal(nothingRead.state, 'unknown');
    assert.equal(undecidedSentence('SER', nothingRead.note), 'SER is not decided: nothing could be read, every operation has a syntax error.');
    assert.equal(undecidedSentence('PC', 'PC could not be decided: the necessary conditions ran out of time (500 ms)'), 'PC is not decided: the necessary conditions ran out of time (500 ms).');
    assert.equal(undecidedSentence('mixed', 'the mixed verdict could not be decided: x'), 'mixed is not decided: x.');
    assert.equal(undecidedSentence('SI', 'pending: the strong levels are being checked'), 'SI is not decided: pending: the strong levels are being checked.');
    assert.equal(undecidedSentence('SI', null), 'SI is not decided.');
  });
});
