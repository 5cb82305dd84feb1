// Witness labels clear of the witness's lines: a step label another witness edge runs through moves to the nearest free spot beside its own route.
//
// The router (layout.ts) keeps room for every label beside its edge's vertical run, so labels never overlap each
// other or a box; but the horizontal stubs of the other edges in that channel still pass through the room (write
// skew's "2 · rw y" sat on the rw x edge, long fork's "1 · rw x" on a wr edge). Only a witness label that a witness
// line crosses is moved, so every other label keeps its place. Plain arithmetic in a fixed order, its work counted
// in steps, never time: the same layout gives the same places, so the SVG export stays byte for byte the same.

import type { LaidEdge, NodeBox } from './layout.ts';

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where a label may go: inside the drawing, below the lane titles. */
export interface LabelBounds {
  width: number;
  height: number;
  top: number;
}

/** Half the width of a witness line (3 px in the SVG, 3.2 in the view) and of any other (1.3). */
const WITNESS_HALF = 1.6;
const LINE_HALF = 0.65;
/** The arrowhead: 9 px long and wide (markerWidth 9), at the end of the last segment. */
const ARROW = 9;
/** A moved label's distance from its own line, as the router places one (labelX = track + 2). */
const GAP = 2;
/** Candidate places every STEP px along each segment of the route. */
const STEP = 2;
/** How far from the router's place a label may move, px: farther, it would no longer read as its edge's. */
const REACH = 200;
/** A place no line at all crosses is preferred to a nearer one that faded lines cross, when at most this much farther, px. */
const DETOUR = 60;
/** Rectangle tests per drawing; beyond, labels keep the router's places (a count, so the result never depends on the machine). */
const BUDGET = 20_000_000;

/** Kinds of obstacle: boxes and labels (never covered), the witness's lines (never crossed), faded lines (avoided when possible). */
const SOLID = 0;
const WITNESS_LINE = 1;
const LINE = 2;

interface Obstacle {
  r: Rect;
  kind: number;
}

const overlap = (p: Rect, q: Rect): boolean => p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
const r1 = (v: number): number => Math.round(v * 10) / 10;
const labelOf = (e: LaidEdge): Rect => ({ x: e.labelX, y: e.labelY, w: e.labelW, h: e.labelH });

/** The rectangles a polyline's stroke covers (half-width `half`), its arrowhead's last. */
function strokes(p: readonly number[], half: number): Rect[] {
  const out: Rect[] = [];
  for (let i = 0; i + 3 < p.length; i += 2) {
    out.push({ x: Math.min(p[i], p[i + 2]) - half, y: Math.min(p[i + 1], p[i + 3]) - half, w: Math.abs(p[i + 2] - p[i]) + 2 * half, h: Math.abs(p[i + 3] - p[i + 1]) + 2 * half });
  }
  const n = p.length;
  if (n >= 4) {
    const [x0, y0, x1, y1] = [p[n - 4], p[n - 3], p[n - 2], p[n - 1]];
    if (y0 === y1) {
      const len = Math.min(ARROW, Math.abs(x1 - x0));
      out.push({ x: x1 > x0 ? x1 - len : x1, y: y1 - ARROW / 2, w: len, h: ARROW });
    } else {
      const len = Math.min(ARROW, Math.abs(y1 - y0));
      out.push({ x: x1 - ARROW / 2, y: y1 > y0 ? y1 - len : y1, w: ARROW, h: len });
    }
  }
  return out;
}

/** Places for a w × h label beside each segment of the route within REACH of `from`, nearest first, with their distances. */
function candidates(p: readonly number[], from: Rect): { r: Rect; d: number }[] {
  const { w, h } = from;
  const cx = from.x + w / 2;
  const cy = from.y + h / 2;
  const out: Rect[] = [];
  /** Starts of a `size`-long label along [lo, hi], clipped to the reach around `mid`; a segment shorter than the label: centred on it. */
  const along = (lo: number, hi: number, size: number, mid: number): number[] => {
    if (hi - lo <= size) return [(lo + hi - size) / 2];
    const first = Math.max(lo, mid - REACH - size / 2);
    const last = Math.min(hi - size, mid + REACH - size / 2);
    const at: number[] = [];
    for (let v = first; v < last; v += STEP) at.push(v);
    if (last >= first) at.push(last);
    return at;
  };
  for (let i = 0; i + 3 < p.length; i += 2) {
    const [x0, y0, x1, y1] = [p[i], p[i + 1], p[i + 2], p[i + 3]];
    if (x0 === x1) {
      if (Math.abs(x0 - cx) > REACH + w) continue;
      for (const y of along(Math.min(y0, y1), Math.max(y0, y1), h, cy)) out.push({ x: x0 + GAP, y, w, h }, { x: x0 - GAP - w, y, w, h });
    } else {
      if (Math.abs(y0 - cy) > REACH + h) continue;
      for (const x of along(Math.min(x0, x1), Math.max(x0, x1), w, cx)) out.push({ x, y: y0 - GAP - h, w, h }, { x, y: y0 + GAP, w, h });
    }
  }
  return out
    .map((q) => {
      const r = { x: r1(q.x), y: r1(q.y), w, h };
      const dx = r.x + w / 2 - cx;
      const dy = r.y + h / 2 - cy;
      // sqrt, not hypot: IEEE fixes sqrt's result, engines may differ in hypot's last bit (and so in a tie's order).
      return { r, d: Math.sqrt(dx * dx + dy * dy) };
    })
    .filter((c) => c.d <= REACH)
    // Stable: places at equal distances keep the route's order.
    .sort((a, b) => a.d - b.d);
}

/**
 * Moves each witness label that a witness line (its own included) runs through to the nearest place beside its own
 * route, within REACH, that no box, other label or witness line touches, preferring (within DETOUR) a place no line
 * at all touches; a label without such a place keeps the router's. Edits `edges` in place, witness step by step.
 */
export function clearWitnessLabels(edges: LaidEdge[], nodes: readonly NodeBox[], bounds: LabelBounds): void {
  const story = edges.filter((e) => e.witness >= 0);
  const storyLines = story.flatMap((e) => strokes(e.points, WITNESS_HALF));
  const crossed = story.filter((e) => e.labelW > 0 && storyLines.some((r) => overlap(labelOf(e), r))).sort((p, q) => p.witness - q.witness);
  // Most drawings: nothing crossed, nothing more to do.
  if (crossed.length === 0) return;
  const fixed: Obstacle[] = nodes.map((b) => ({ r: b, kind: SOLID }));
  for (const e of edges) for (const r of strokes(e.points, e.witness >= 0 ? WITNESS_HALF : LINE_HALF)) fixed.push({ r, kind: e.witness >= 0 ? WITNESS_LINE : LINE });
  let budget = BUDGET;
  for (const e of crossed) {
    const from = labelOf(e);
    const near = { x: from.x - REACH, y: from.y - REACH, w: from.w + 2 * REACH, h: from.h + 2 * REACH };
    // What lies within reach: boxes, lines and the other labels where they are now (earlier steps may have moved).
    const local = fixed.filter((o) => overlap(o.r, near));
    for (const f of edges) if (f !== e && f.labelW > 0 && overlap(labelOf(f), near)) local.push({ r: labelOf(f), kind: SOLID });
    budget -= fixed.length + edges.length;
    let fallback: { r: Rect; d: number } | null = null;
    let found: Rect | null = null;
    for (const c of candidates(e.points, from)) {
      if (fallback && c.d > fallback.d + DETOUR) break;
      const r = c.r;
      if (r.x < 0 || r.y < bounds.top || r.x + r.w > bounds.width || r.y + r.h > bounds.height) continue;
      let blocked = false;
      let faded = false;
      for (const o of local) {
        if (!overlap(r, o.r)) continue;
        if (o.kind !== LINE) { blocked = true; break; }
        faded = true;
      }
      budget -= local.length;
      if (budget <= 0) return;
      if (blocked) continue;
      if (!faded) { found = r; break; }
      fallback ??= c;
    }
    const place = found ?? fallback?.r ?? null;
    if (place) {
      e.labelX = place.x;
      e.labelY = place.y;
    }
  }
}
