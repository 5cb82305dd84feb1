// Where Fit and "bring the witness into view" put the drawing: pure arithmetic on the layout (no DOM), so it is unit-tested.
//
// The whole drawing when its text stays at 11 px or more (scale ≥ 1); else scale 1, starting from the drawing's
// top-left corner (the lane titles and ⊥, the root every reads-from edge comes from) and scrolled only as far as the
// witness needs. Centring on the witness, as Fit did, cut ⊥ in half whenever the drawing was wider than the panel.
// The witness's story is its boxes and the readers its edges cite: long fork's readers T3 and T4, which its
// explanation is about, were cut off at the panel's right edge when the view kept only the cycle's boxes.

import type { Layout } from '../../server/src/engine/export/layout.ts';

/** A d3 zoom transform: screen = k · drawing + (x, y). */
export interface ViewTransform {
  x: number;
  y: number;
  k: number;
}

/** Room kept around the witness's boxes, px on screen. */
const AIR = 20;
/** Fit's margin: the whole drawing takes at most 96 % of the panel. */
const FILL = 0.96;
/** Fit never magnifies past this (a two-box drawing would fill a wide panel). */
const MAX_FIT = 1.25;

/**
 * The smallest scale Fit takes to show the witness's story whole: 1, text at 11 px. (0.8 was tried: the
 * 5,000-transaction README shot then drew its witness at 10 px, below what the VS Code test asks.)
 */
export const MIN_STORY_SCALE = 1;

/**
 * Fit: the whole drawing centred when it fits at scale 1 or more; else panned by focusTransform at scale 1,
 * or smaller (down to MIN_STORY_SCALE) when that is what the witness's story with its air needs to fit.
 */
export function fitTransform(l: Layout, w: number, h: number): ViewTransform {
  const all = Math.min(w / l.width, h / l.height) * FILL;
  if (all < 1) {
    const f = l.focus;
    // Scale 1 while the story fits the panel at all (its air then shrinks); else k · its size plus AIR on each side.
    const fitsAtOne = !f || (f.w <= w && f.h <= h);
    const story = fitsAtOne || f.w <= 0 || f.h <= 0 ? 1 : Math.min((w - 2 * AIR) / f.w, (h - 2 * AIR) / f.h);
    return focusTransform(l, w, h, Math.max(MIN_STORY_SCALE, Math.min(1, story)));
  }
  const k = Math.min(MAX_FIT, all);
  return { x: (w - l.width * k) / 2, y: Math.max(0, (h - l.height * k) / 2), k };
}

/**
 * At scale k, the view of a panel w × h that shows the witness's boxes (the layout's focus) and as much of the
 * drawing's top-left as it can: scrolled right (down) only when the witness would otherwise stick out, and then so
 * the view's edge falls between lanes (rows), not through a box.
 */
export function focusTransform(l: Layout, w: number, h: number, k: number): ViewTransform {
  const vw = w / k;
  const vh = h / k;
  const f = l.focus ?? { x: 0, y: 0, w: 0, h: 0 };
  const air = AIR / k;
  const x = start(f.x, f.w, vw, l.width, air, spans(l.nodes.map((b) => [b.x, b.x + b.w])));
  const y = start(f.y, f.h, vh, l.height, air, spans(l.nodes.map((b) => [b.y, b.y + b.h])));
  return { x: -x * k, y: -y * k, k };
}

/**
 * One axis: the view's first coordinate (drawing units) for a witness at [at, at + size) in a view of `view` over a
 * drawing of `total`. As small as the witness allows (0 when it fits from the start); a witness larger than the view
 * shows from its start. A start inside a box moves to just before the box when the witness still fits (a little less
 * air on its far side), else to just after it.
 */
function start(at: number, size: number, view: number, total: number, air: number, boxes: [number, number][]): number {
  const latest = Math.max(0, at - air);
  // A witness that fits only with less air than asked on each side gets what there is, shared equally.
  const squeezed = size + 2 * air > view && size <= view;
  const x = squeezed ? Math.max(0, Math.min(at - (view - size) / 2, total - view))
    : Math.min(latest, Math.max(0, at + size + air - view), Math.max(0, total - view));
  const cut = boxes.find(([a, b]) => a < x && x < b);
  if (!cut) return x;
  const back = Math.max(0, cut[0] - air / 2);
  if (at + size <= back + view) return back;
  const ahead = cut[1] + air / 2;
  return ahead <= latest ? ahead : x;
}

/** The union of intervals, sorted: boxes of one lane (row) share their span, so this is one span per lane (row). */
function spans(list: [number, number][]): [number, number][] {
  list.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const out: [number, number][] = [];
  for (const [a, b] of list) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
