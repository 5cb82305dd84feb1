// Where Fit puts every example's drawing in panels of several sizes: the witness's story in view, ⊥ whole beside it whenever both fit, no box cut at the view's left or top.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { layoutGraph, type Layout, type ViewLevel } from '../server/src/engine/export/layout.ts';
import { fitTransform, focusTransform, MIN_STORY_SCALE, type ViewTransform } from '../webview/src/fit-view.ts';
import { analysisOf } from './helpers/graph-page.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
/** Drawing areas (px) of the panel: VS Code's 50/50 split, a narrow one with the witness list beside, the playground at 1280 and 1400 px. */
const PANELS = [{ w: 640, h: 411 }, { w: 479, h: 533 }, { w: 537, h: 660 }, { w: 608, h: 660 }];

interface Rect { x: number; y: number; w: number; h: number }

/** A box's rectangle on screen under t. */
const onScreen = (b: Rect, t: ViewTransform): Rect => ({ x: b.x * t.k + t.x, y: b.y * t.k + t.y, w: b.w * t.k, h: b.h * t.k });
const inside = (r: Rect, w: number, h: number): boolean => r.x >= -0.01 && r.y >= -0.01 && r.x + r.w <= w + 0.01 && r.y + r.h <= h + 0.01;
/** Cut by the view's left or top edge: part of it in view, part before it. */
const cut = (r: Rect): boolean => (r.x < 0 && r.x + r.w > 0) || (r.y < 0 && r.y + r.h > 0);

/** The level the view shows first: the weakest violated one, else the mixed verdict when violated, else the strongest. */
function firstLevel(a: ReturnType<typeof analysisOf>): ViewLevel {
  const violated = a.levels.find((v) => v.state === 'violated')?.level ?? (a.mixed?.state === 'violated' ? 'mixed' : null);
  return violated ?? a.levels[a.levels.length - 1].level;
}

function layouts(): { f: string; l: Layout }[] {
  return readdirSync(EXAMPLES).filter((f) => f.endsWith('.hist')).sort().map((f) => {
    const a = analysisOf(readFileSync(join(EXAMPLES, f), 'utf8'), `file:///examples/${f}`);
    return { f, l: layoutGraph(a, { level: firstLevel(a), kinds: { so: true, wr: true, co: true }, visible: null }) };
  });
}

describe('graph Fit', () => {
  test('every example in every panel: text ≥ 11 px unless the witness\'s story needs less, the story in view, no box cut at the left or top, ⊥ whole whenever it fits beside the story', () => {
    let bottomShown = 0;
    let checked = 0;
    let smaller = 0;
    for (const { f, l } of layouts()) {
      const bottom = l.nodes.find((b) => b.bottom)!;
      for (const { w, h } of PANELS) {
        const what = `${f} in ${w} × ${h}`;
        const t = fitTransform(l, w, h);
        // Below scale 1 only for a story wider or taller than the panel; it then gets its 20 px of air on each side.
        const storyFits = (k: number, air = 40): boolean => !l.focus || (l.focus.w * k + air <= w + 0.01 && l.focus.h * k + air <= h + 0.01);
        assert.ok(t.k >= MIN_STORY_SCALE && (t.k >= 1 || !storyFits(1, 0)), `${what}: scale ${t.k}`);
        if (t.k < 1) smaller++;
        if (l.focus) assert.ok(inside(onScreen(l.focus, t), w, h) || !storyFits(t.k, t.k < 1 ? 40 : 0), `${what}: the story in view`);
        for (const b of l.nodes) assert.ok(!cut(onScreen(b, t)), `${what}: ${b.name} cut at the view's edge (${JSON.stringify(onScreen(b, t))})`);
        // ⊥ and the witness fit side by side at scale 1 (with the 20 px the view keeps around the witness): both are shown.
        const f0 = l.focus ?? bottom;
        const fits = Math.max(f0.x + f0.w, bottom.x + bottom.w) + 20 <= w && Math.max(f0.y + f0.h, bottom.y + bottom.h) + 20 <= h;
        if (fits || t.k > 1) assert.ok(inside(onScreen(bottom, t), w, h), `${what}: ⊥ in view (${JSON.stringify(onScreen(bottom, t))}, scale ${t.k})`);
        if (inside(onScreen(bottom, t), w, h)) bottomShown++;
        checked++;
      }
    }
    // Centring the witness (the old Fit) cut ⊥ in 45 of these 188 views (a box in 48) and showed it whole in 133; then
    // 165. Since the story holds the readers the witness's edges cite, ⊥ gives way to them in 17 views: 148.
    assert.ok(bottomShown >= 148, `⊥ whole in ${bottomShown} of ${checked} views`);
    assert.ok(smaller <= 20, `below scale 1 in ${smaller} of ${checked} views`);
  });

  test('write skew at the playground\'s 1400 px window: scale 1 from the drawing\'s left edge, ⊥ whole (it was cut at x = 126)', () => {
    const { l } = layouts().find((x) => x.f === 'write-skew.hist')!;
    const t = fitTransform(l, 608, 660);
    assert.equal(t.k, 1);
    const bottom = onScreen(l.nodes.find((b) => b.bottom)!, t);
    assert.ok(bottom.x >= 0 && bottom.x + bottom.w <= 608, JSON.stringify(bottom));
  });

  test('a witness wider than the view shows from its start; scale 2 keeps the witness in view', () => {
    const { l } = layouts().find((x) => x.f === 'long-fork.hist')!;
    const narrow = focusTransform(l, 200, 400, 1);
    assert.equal(onScreen(l.focus!, narrow).x, 20, 'the witness starts 20 px into the view');
    const zoomed = focusTransform(l, 1300, 800, 2);
    assert.ok(inside(onScreen(l.focus!, zoomed), 1300, 800), JSON.stringify(onScreen(l.focus!, zoomed)));
  });

  test('long fork: the readers its PC explanation cites (T3, T4) are in view with the cycle, at 11 px in VS Code\'s 50/50 split', () => {
    const { l } = layouts().find((x) => x.f === 'long-fork.hist')!;
    assert.equal(l.level, 'PC');
    const box = (name: string): Rect => l.nodes.find((b) => b.name === name)!;
    // Before: the focus was T1 and T2 only, and at scale 1 the 608 px panel cut T3 at its right edge and left T4 out.
    for (const { w, h, k } of [{ w: 640, h: 411, k: 1 }, { w: 608, h: 660, k: 1 }]) {
      const t = fitTransform(l, w, h);
      assert.ok(Math.abs(t.k - k) < 1e-9, `${w} × ${h}: scale ${t.k}, expected ${k}`);
      for (const name of ['T1', 'T2', 'T3', 'T4']) assert.ok(inside(onScreen(box(name), t), w, h), `${w} × ${h}: ${name} in view: ${JSON.stringify(onScreen(box(name), t))}`);
    }
    // Too narrow for the story: it shows from its start at MIN_STORY_SCALE.
    const narrow = fitTransform(l, 400, 660);
    assert.equal(narrow.k, MIN_STORY_SCALE);
    assert.ok(Math.abs(onScreen(l.focus!, narrow).x - 20) < 1e-9);
  });
});
