// The graph's deterministic layout, shared by the webview (drawn with d3) and the CLI's SVG export.
//
// Lanes are columns, one per session in file order (⊥ has its own lane on the left); a
// transaction's row is its depth in so ∪ wr (longest path), so reads-from edges point down.

import { levelRow, type Rule } from '../levels/levels.ts';
import type {
  AnalysisResult, EdgeKindJson, JsonRange, LevelName, TransactionJson, VerdictJson, WitnessJson,
} from '../../protocol/shapes.ts';

export type ViewLevel = LevelName | 'mixed';
export type WeakRule = Rule;

/** Which edges are drawn. */
export interface EdgeToggles {
  so: boolean;
  wr: boolean;
  co: boolean;
}

export interface LayoutOptions {
  level: ViewLevel;
  kinds: EdgeToggles;
  /** Transactions to draw (ids); null: all. */
  visible: ReadonlySet<number> | null;
}

export interface NodeBox {
  id: number;
  name: string;
  lane: number;
  x: number;
  y: number;
  w: number;
  h: number;
  tag: LevelName | null;
  aborted: boolean;
  bottom: boolean;
  ops: string[];
  /** On the witness cycle of the level shown. */
  witness: boolean;
  range: JsonRange | null;
  extent: JsonRange | null;
}

export interface LaidEdge {
  /** Stable across updates while the edge exists (kind, ends, key, nth parallel). */
  id: string;
  kind: EdgeKindJson;
  from: number;
  to: number;
  key: string | null;
  /** The rule that forced a co edge (its colour), else null. */
  rule: WeakRule | null;
  path: string;
  labelX: number;
  labelY: number;
  label: string;
  /** The source range to reveal: the read (wr, co) or the later transaction's header (so). */
  range: JsonRange | null;
  because: string;
  /** Position on the witness cycle, -1 when not on it. */
  witness: number;
}

export interface Lane {
  id: number;
  name: string;
  x: number;
  range: JsonRange | null;
}

export interface Layout {
  width: number;
  height: number;
  lanes: Lane[];
  nodes: NodeBox[];
  edges: LaidEdge[];
  level: ViewLevel;
  verdict: VerdictJson | null;
  witness: WitnessJson | null;
  title: string | null;
}

export const BOX_W = 168;
export const GAP_X = 72;
export const GAP_Y = 34;
export const HEADER_H = 20;
export const OP_H = 14;
export const MARGIN = 24;
export const LANE_TITLE_H = 26;
/** Beyond this many transactions the view shows the witness neighbourhood. */
export const MAX_INTERACTIVE = 2000;

const SO_WHY = (a: string, b: string): string => `${a} precedes ${b} in session order`;

export function verdictOf(a: AnalysisResult, level: ViewLevel): VerdictJson | null {
  return level === 'mixed' ? a.mixed : a.levels.find((v) => v.level === level) ?? null;
}

/** The rule whose axiom applies to a reader at level l (every level from CC up implies CC). */
export function ruleOf(l: LevelName | null): WeakRule {
  return l === null ? 'CC' : levelRow(l).rule;
}

/** The inferred co edges shown for a level: its own (RC, RA, CC), CC's for stronger ones, per reader tag when mixed. */
export function coEdgesFor(a: AnalysisResult, level: ViewLevel): { edge: AnalysisResult['forced'][number]['edges'][number]; rule: WeakRule }[] {
  if (level === 'mixed') {
    const out: { edge: AnalysisResult['forced'][number]['edges'][number]; rule: WeakRule }[] = [];
    for (const f of a.forced) {
      for (const e of f.edges) if (ruleOf(a.transactions[e.reader]?.level ?? null) === f.level) out.push({ edge: e, rule: f.level });
    }
    return out;
  }
  const rule = ruleOf(level);
  return (a.forced.find((f) => f.level === rule)?.edges ?? []).map((edge) => ({ edge, rule }));
}

/**
 * The transactions drawn when the history is too large: the witness cycle's transactions and their
 * neighbours up to `depth` steps away (so, wr and the level's co edges); the first MAX_INTERACTIVE
 * transactions when there is no witness. null: everything fits.
 */
export function visibleSet(a: AnalysisResult, level: ViewLevel, depth: number, max = MAX_INTERACTIVE): Set<number> | null {
  const total = a.transactions.length - 1;
  if (total <= max) return null;
  const cycle = verdictOf(a, level)?.witness?.cycle ?? [];
  const seeds = new Set<number>();
  for (const e of cycle) { seeds.add(e.from); seeds.add(e.to); }
  if (seeds.size === 0) {
    const first = new Set<number>();
    for (let t = 0; t <= Math.min(total, max * (depth + 1)); t++) first.add(t);
    return first.size >= a.transactions.length ? null : first;
  }
  const adj = new Map<number, number[]>();
  const link = (x: number, y: number): void => {
    let l = adj.get(x);
    if (!l) adj.set(x, (l = []));
    l.push(y);
  };
  for (const s of a.sessions) for (let i = 1; i < s.transactions.length; i++) { link(s.transactions[i - 1], s.transactions[i]); link(s.transactions[i], s.transactions[i - 1]); }
  for (const e of a.wr) if (e.from !== 0) { link(e.from, e.to); link(e.to, e.from); }
  for (const { edge } of coEdgesFor(a, level)) if (edge.from !== 0 && edge.to !== 0) { link(edge.from, edge.to); link(edge.to, edge.from); }
  const seen = new Set<number>([0, ...seeds]);
  let frontier = [...seeds];
  for (let d = 0; d < depth && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const v of frontier) for (const w of adj.get(v) ?? []) if (!seen.has(w)) { seen.add(w); next.push(w); }
    frontier = next;
  }
  return seen.size >= a.transactions.length ? null : seen;
}

/** Rows: longest-path depth in so ∪ wr among the visible transactions (cycles broken by session order). */
function ranks(a: AnalysisResult, shown: (t: number) => boolean): Int32Array {
  const n = a.transactions.length;
  const preds: number[][] = Array.from({ length: n }, () => []);
  for (const s of a.sessions) {
    let prev = -1;
    for (const t of s.transactions) {
      if (!shown(t)) continue;
      if (prev >= 0) preds[t].push(prev);
      prev = t;
    }
  }
  for (const e of a.wr) if (e.from !== 0 && e.from !== e.to && shown(e.from) && shown(e.to)) preds[e.to].push(e.from);
  const succ: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  for (let t = 1; t < n; t++) for (const p of preds[t]) { succ[p].push(t); indeg[t]++; }
  const rank = new Int32Array(n).fill(-1);
  rank[0] = 0;
  const queue: number[] = [];
  for (let t = 1; t < n; t++) if (shown(t) && indeg[t] === 0) { queue.push(t); rank[t] = 1; }
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i];
    for (const w of succ[v]) {
      rank[w] = Math.max(rank[w], rank[v] + 1);
      if (--indeg[w] === 0) queue.push(w);
    }
  }
  // Left on a cycle of so ∪ wr: after their placed predecessors, in session order.
  for (const s of a.sessions) {
    let prevRank = 0;
    for (const t of s.transactions) {
      if (!shown(t)) continue;
      if (rank[t] < 0) {
        let r = prevRank + 1;
        for (const p of preds[t]) if (rank[p] >= 0) r = Math.max(r, rank[p] + 1);
        rank[t] = r;
      }
      prevRank = rank[t];
    }
  }
  return rank;
}

function boxHeight(t: TransactionJson): number {
  return t.id === 0 ? HEADER_H + 4 : HEADER_H + Math.max(1, t.ops.length) * OP_H + 6;
}

const r1 = (v: number): number => Math.round(v * 10) / 10;

export function layoutGraph(a: AnalysisResult, o: LayoutOptions): Layout {
  const shown = (t: number): boolean => t === 0 || o.visible === null || o.visible.has(t);
  const rank = ranks(a, shown);
  const verdict = verdictOf(a, o.level);
  const witness = verdict?.state === 'violated' ? verdict.witness : null;
  const onCycle = new Set<number>();
  for (const e of witness?.cycle ?? []) { onCycle.add(e.from); onCycle.add(e.to); }

  // Row heights: the tallest box of each rank.
  let maxRank = 0;
  for (let t = 0; t < a.transactions.length; t++) if (shown(t)) maxRank = Math.max(maxRank, rank[t]);
  const rowH = new Float64Array(maxRank + 1);
  for (const t of a.transactions) if (shown(t.id)) rowH[rank[t.id]] = Math.max(rowH[rank[t.id]], boxHeight(t));
  const rowY = new Float64Array(maxRank + 2);
  rowY[0] = MARGIN + LANE_TITLE_H;
  for (let r = 0; r <= maxRank; r++) rowY[r + 1] = rowY[r] + rowH[r] + GAP_Y;

  const laneX = (lane: number): number => MARGIN + (lane + 1) * (BOX_W + GAP_X);
  const lanes: Lane[] = [{ id: -1, name: '⊥', x: laneX(-1), range: null }];
  for (const s of a.sessions) lanes.push({ id: s.id, name: s.name, x: laneX(s.id), range: s.range });

  const nodes: NodeBox[] = [];
  const byId = new Map<number, NodeBox>();
  for (const t of a.transactions) {
    if (!shown(t.id)) continue;
    const lane = t.id === 0 ? -1 : t.session;
    const box: NodeBox = {
      id: t.id, name: t.name, lane, x: laneX(lane), y: rowY[rank[t.id]], w: BOX_W, h: boxHeight(t), tag: t.level, aborted: t.aborted,
      bottom: t.id === 0, ops: t.ops, witness: onCycle.has(t.id), range: t.range, extent: t.extent,
    };
    nodes.push(box);
    byId.set(t.id, box);
  }

  const edges: LaidEdge[] = [];
  const parallel = new Map<string, number>();
  const nth = (from: number, to: number): number => {
    const k = from < to ? `${from}:${to}` : `${to}:${from}`;
    const i = parallel.get(k) ?? 0;
    parallel.set(k, i + 1);
    return i;
  };
  const ids = new Set<string>();
  const push = (kind: EdgeKindJson, from: number, to: number, key: string | null, rule: WeakRule | null, range: JsonRange | null, because: string, label: string): LaidEdge | null => {
    const s = byId.get(from);
    const t = byId.get(to);
    if (!s || !t) return null;
    const k = kind === 'so' ? 0 : nth(from, to);
    const g = route(kind, s, t, k);
    let id = `${kind}:${from}:${to}:${key ?? ''}`;
    for (let i = 2; ids.has(id); i++) id = `${kind}:${from}:${to}:${key ?? ''}#${i}`;
    ids.add(id);
    const e: LaidEdge = { id, kind, from, to, key, rule, path: g.path, labelX: g.lx, labelY: g.ly, label, range, because, witness: -1 };
    edges.push(e);
    return e;
  };
  const name = (t: number): string => (t === 0 ? 'the initial state' : a.transactions[t]?.name ?? `#${t}`);

  if (o.kinds.so) {
    for (const s of a.sessions) {
      let prev = -1;
      for (const t of s.transactions) {
        if (!shown(t)) continue;
        if (prev >= 0) push('so', prev, t, null, null, a.transactions[t].range, SO_WHY(name(prev), name(t)), '');
        prev = t;
      }
    }
  }
  if (o.kinds.wr) {
    for (const e of a.wr) {
      push('wr', e.from, e.to, e.key, null, e.read, `${name(e.to)} read ${e.key} from ${name(e.from)}`, e.key);
    }
  }
  if (o.kinds.co) {
    for (const { edge, rule } of coEdgesFor(a, o.level)) push('co', edge.from, edge.to, edge.key, rule, edge.read, edge.because, edge.key);
  }

  // The witness cycle: mark the drawn edge it runs along, or draw it (⊥ edges, rw / ww, hidden kinds).
  (witness?.cycle ?? []).forEach((c, i) => {
    const found = edges.find((e) => e.witness < 0 && e.kind === c.kind && e.from === c.from && e.to === c.to && (c.kind === 'so' || e.key === c.key));
    if (found) {
      found.witness = i;
      found.because = c.because;
      found.range = c.range;
      return;
    }
    const rule: WeakRule | null = c.kind === 'co' ? (o.level === 'mixed' ? ruleOf(a.transactions[c.to]?.level ?? null) : ruleOf(o.level)) : null;
    const e = push(c.kind, c.from, c.to, c.key, rule, c.range, c.because, c.key ?? '');
    if (e) e.witness = i;
  });

  let width = laneX(a.sessions.length - 1) + BOX_W + MARGIN;
  let height = rowY[maxRank + 1] - GAP_Y + MARGIN;
  // Arcs of same-lane edges bulge to the right of the last lane.
  width += 60;
  height = Math.max(height, MARGIN * 2 + LANE_TITLE_H + 40);
  return { width: r1(width), height: r1(height), lanes, nodes, edges, level: o.level, verdict, witness, title: a.title };
}

/** Edge geometry: so straight down a lane; others as cubic curves between box sides, offset when parallel. */
function route(kind: EdgeKindJson, s: NodeBox, t: NodeBox, k: number): { path: string; lx: number; ly: number } {
  const off = ((k % 5) - 2) * 5;
  if (kind === 'so' && s.lane === t.lane) {
    const x = s.x + s.w / 2;
    const y0 = s.y + s.h;
    const y1 = t.y;
    return { path: `M${r1(x)},${r1(y0)} L${r1(x)},${r1(y1)}`, lx: r1(x), ly: r1((y0 + y1) / 2) };
  }
  let p0: [number, number];
  let p1: [number, number];
  let p2: [number, number];
  let p3: [number, number];
  const sy = s.y + s.h / 2 + off;
  const ty = t.y + t.h / 2 + off;
  if (s.lane === t.lane || s.id === t.id) {
    const bulge = 46 + (k % 5) * 14;
    p0 = [s.x + s.w, sy];
    p3 = [t.x + t.w, ty];
    p1 = [p0[0] + bulge, sy];
    p2 = [p3[0] + bulge, ty];
  } else if (t.x > s.x) {
    p0 = [s.x + s.w, sy];
    p3 = [t.x, ty];
    const dx = Math.max(30, (p3[0] - p0[0]) / 2);
    p1 = [p0[0] + dx, sy];
    p2 = [p3[0] - dx, ty];
  } else {
    p0 = [s.x, sy];
    p3 = [t.x + t.w, ty];
    const dx = Math.max(30, (p0[0] - p3[0]) / 2);
    p1 = [p0[0] - dx, sy];
    p2 = [p3[0] + dx, ty];
  }
  const lx = (p0[0] + 3 * p1[0] + 3 * p2[0] + p3[0]) / 8;
  const ly = (p0[1] + 3 * p1[1] + 3 * p2[1] + p3[1]) / 8;
  const pt = (p: [number, number]): string => `${r1(p[0])},${r1(p[1])}`;
  return { path: `M${pt(p0)} C${pt(p1)} ${pt(p2)} ${pt(p3)}`, lx: r1(lx), ly: r1(ly) };
}

/** One sentence per witness edge, as the panel lists them: "T1 → T2 [co] …". */
export function witnessSentences(a: AnalysisResult, w: WitnessJson): string[] {
  const name = (t: number): string => (t === 0 ? 'init' : a.transactions[t]?.name ?? `#${t}`);
  return w.cycle.map((e) => `${name(e.from)} → ${name(e.to)} [${e.kind}${e.key !== null ? ` ${e.key}` : ''}] ${e.because}`);
}
