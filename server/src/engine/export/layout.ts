// The graph's deterministic layout and edge routing, shared by the webview, the playground (drawn with d3) and the CLI's SVG export.
//
// Lanes are columns, one per session in file order (⊥ has its own lane on the left); a transaction's
// row is its depth in so ∪ wr (longest path), so session order and reads-from point down. Edges are
// routed orthogonally through the box-free gaps: a *channel* between two lanes and a *corridor*
// between two rows. Every vertical run in a channel gets its own track (interval colouring), wide
// enough for its label, which sits beside it; so labels never overlap each other or a box, edges
// never cross a box, and parallel or opposite edges between the same boxes are separate lines.
// Other edges' horizontal stubs can still pass through a label's room: a witness step label that a
// witness line crosses is moved along its own route (witness-labels.ts).
//
// Why not a layout library: elkjs (layered) and @dagrejs/dagre were measured on this machine on a
// 300-transaction history (782 edges): 13.5 s and 4.3 s, and neither keeps sessions as straight
// columns. This router is linear-ish (sorting plus first-fit colouring) and lays out 2,000
// transactions in well under a second.

import { LEVELS, levelRow, type Rule } from '../levels/levels.ts';
import { ANOMALIES } from '../listappend/anomaly-table.ts';
import { clearWitnessLabels } from './witness-labels.ts';
import type {
  AnalysisResult, EdgeKindJson, JsonRange, LevelName, OrderKindJson, TransactionJson, VerdictJson, WitnessEdgeJson, WitnessJson,
} from '../../protocol/shapes.ts';

export type ViewLevel = LevelName | 'mixed';
export type WeakRule = Rule;

/** Which edges are drawn (ww / rw / rt: drawn unless false, at the levels that use them). */
export interface EdgeToggles {
  so: boolean;
  wr: boolean;
  co: boolean;
  ww?: boolean;
  rw?: boolean;
  rt?: boolean;
}

/** What an edge in the drawing is: a witness edge kind, or rt (real time). */
export type DrawnKind = EdgeKindJson | 'rt';

export interface LayoutOptions {
  level: ViewLevel;
  kinds: EdgeToggles;
  /** Transactions to draw (ids); null: all. */
  visible: ReadonlySet<number> | null;
}

export interface NodeBox {
  id: number;
  name: string;
  /** The session (-1: ⊥). */
  lane: number;
  x: number;
  y: number;
  w: number;
  h: number;
  tag: LevelName | null;
  aborted: boolean;
  /** Outcome `unknown` as written; notRun: nobody read it, so it never ran (drawn like an aborted one). */
  unknown: boolean;
  notRun: boolean;
  bottom: boolean;
  ops: string[];
  /** On the witness cycle of the level shown (or named by an explanation without a cycle). */
  witness: boolean;
  /** Not on the cycle, but a read in it forced one of the cycle's edges (long fork's readers): drawn unfaded, kept in view. */
  cited: boolean;
  range: JsonRange | null;
  extent: JsonRange | null;
}

export interface LaidEdge {
  /** Stable across updates while the edge exists (kind, ends, key, nth parallel). */
  id: string;
  kind: DrawnKind;
  from: number;
  to: number;
  key: string | null;
  /** The rule that forced a co edge (its colour), else null. */
  rule: WeakRule | null;
  /** SVG path data (orthogonal with rounded corners). */
  path: string;
  /** The polyline the path rounds: x0, y0, x1, y1, … */
  points: number[];
  /** The label's box (top-left, size); empty label: w = 0. Text starts at labelX + LABEL_PAD, baseline labelY + LABEL_BASELINE. */
  labelX: number;
  labelY: number;
  labelW: number;
  labelH: number;
  /** The drawn label: the key (ww / rw / rt: the kind too), prefixed by the step number on the witness ("2 · rw x"). */
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
  /** The width of its boxes. */
  w: number;
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
  /** The bounding box of the witness's boxes and of the transactions whose reads its edges cite (what Fit keeps in view), null without a witness. */
  focus: { x: number; y: number; w: number; h: number } | null;
}

/** Every text in the drawing is FONT_PX at scale 1 (Fit goes below scale 1 only to fit the witness's story: fit-view.ts). */
export const FONT_PX = 11;
/** An upper bound of an 11 px monospace glyph's advance (0.6 em = 6.6 px); labels and ops are monospace. */
export const CHAR_W = 6.8;
export const OP_CHARS = 26;
export const HEADER_CHARS = 22;
/** The widest box (26 cells of ops); a lane is as wide as its widest text needs, at least MIN_BOX_W. */
export const BOX_W = Math.ceil(OP_CHARS * CHAR_W + 16);
export const MIN_BOX_W = 96;
/** An upper bound of a bold 11 px sans-serif glyph's advance (box headers, lane titles). */
export const HEAD_CHAR_W = 7.6;
export const HEADER_H = 20;
export const OP_H = 15;
export const MARGIN = 24;
export const LANE_TITLE_H = 26;
export const LABEL_H = 15;
export const LABEL_PAD = 3;
export const LABEL_BASELINE = 11;
export const LABEL_CHARS = 20;
/** Beyond this many transactions the view shows the witness neighbourhood. */
export const MAX_INTERACTIVE = 2000;

const PORT_MIN = 6;
const TRACK_W = 8;
const CHANNEL_PAD = 8;
const MIN_CHANNEL = 36;
const CORRIDOR_TRACK = 7;
const MIN_CORRIDOR = 28;
const CORNER = 5;

const SO_WHY = (a: string, b: string): string => `${a} precedes ${b} in session order`;

/** Display width in monospace cells (wide East Asian characters take two). */
export function textCells(s: string): number {
  let n = 0;
  for (const ch of s) n += (ch.codePointAt(0) ?? 0) >= 0x1100 ? 2 : 1;
  return n;
}

/** `s` cut to at most `cells` monospace cells, with an ellipsis when cut. */
export function clipCells(s: string, cells: number): string {
  if (textCells(s) <= cells) return s;
  let out = '';
  let n = 0;
  for (const ch of s) {
    const w = (ch.codePointAt(0) ?? 0) >= 0x1100 ? 2 : 1;
    if (n + w > cells - 1) break;
    out += ch;
    n += w;
  }
  return `${out}…`;
}

export function verdictOf(a: AnalysisResult, level: ViewLevel): VerdictJson | null {
  return level === 'mixed' ? a.mixed : a.levels.find((v) => v.level === level) ?? null;
}

/**
 * The graph's sentence for an undecided level. Notes say it themselves ("SER could not be decided: …", "not
 * decided: nothing could be read…"): that opening is dropped, else the view read "SER is not decided: SER could not be decided: …".
 */
export function undecidedSentence(level: ViewLevel, note: string | null | undefined): string {
  const why = undecidedReason(note);
  return `${level} is not decided${why ? `: ${why}` : ''}.`;
}

/** A note without its own "… could not be decided: " or "not decided: " opening ('' for none). */
export function undecidedReason(note: string | null | undefined): string {
  return (note ?? '').replace(/^(?:[\w ]+? could not be|not) decided: /, '');
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
 * The order edge kinds a level's axioms use, from the anomaly table: a kind is drawn at a level when
 * a cycle class that breaks the level may use it (ww from RC up, rw from PSI up, rt at SSER only).
 * The mixed view: the kinds of every level, rt only when a transaction is tagged with a real-time level.
 */
export function orderKindsFor(a: AnalysisResult, level: ViewLevel): Set<OrderKindJson> {
  const levels = level !== 'mixed' ? [level]
    : LEVELS.filter((l) => !levelRow(l).realTime || a.transactions.some((t) => t.level === l));
  const out = new Set<OrderKindJson>();
  for (const row of ANOMALIES) {
    if (!row.edges || !row.violates.some((l) => levels.includes(l))) continue;
    for (const k of row.edges) if (k === 'ww' || k === 'rw' || k === 'rt') out.add(k);
  }
  return out;
}

/** Real-time witness edges: the witness contract writes rt as a co edge without a key (a co edge a read forced always has one). */
export function isRealTimeEdge(c: Pick<WitnessEdgeJson, 'kind' | 'key'>): boolean {
  return c.kind === 'co' && c.key === null;
}

const before = (p: JsonRange['start'], q: JsonRange['start']): boolean => p.line < q.line || (p.line === q.line && p.character <= q.character);
/** Whether range `outer` holds range `inner`. */
const holds = (outer: JsonRange, inner: JsonRange): boolean => before(outer.start, inner.start) && before(inner.end, outer.end);

/**
 * The boxes whose text holds a witness edge's range (the read that forced it): transactions' texts
 * do not overlap, so a binary search over their starts finds each (a witness may have 200,000 edges).
 */
function citedBoxes(nodes: NodeBox[], edges: { witness: number; range: JsonRange | null }[]): Set<NodeBox> {
  const boxes = nodes.filter((b) => b.extent !== null)
    .sort((p, q) => p.extent!.start.line - q.extent!.start.line || p.extent!.start.character - q.extent!.start.character);
  const out = new Set<NodeBox>();
  for (const e of edges) {
    if (e.witness < 0 || e.range === null) continue;
    let lo = 0;
    let hi = boxes.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (before(boxes[mid].extent!.start, e.range.start)) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (at >= 0 && holds(boxes[at].extent!, e.range)) out.add(boxes[at]);
  }
  return out;
}

/**
 * The transactions a witness without a cycle is about: those its message names (as whole words) and,
 * with `at`, the one whose text holds the witness's range (a finding at a read names no transaction).
 */
export function storyOfMessage(a: AnalysisResult, w: WitnessJson, at = true): number[] {
  const words = new Set(w.message.split(/[^\w]+/));
  const out: number[] = [];
  for (const t of a.transactions) {
    if (t.id === 0) continue;
    const named = /^\w+$/.test(t.name) ? words.has(t.name) : new RegExp(`(^|[^\\w])${t.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\w])`).test(w.message);
    const inside = at && t.extent !== null && holds(t.extent, w.range);
    if (named || inside) out.push(t.id);
  }
  return out;
}

/**
 * The transactions drawn when the history is too large: the witness cycle's transactions and their
 * neighbours up to `depth` steps away (so, wr and the level's co edges); the first MAX_INTERACTIVE
 * transactions (times `depth`) when there is no witness. null: everything fits.
 */
export function visibleSet(a: AnalysisResult, level: ViewLevel, depth: number, max = MAX_INTERACTIVE): Set<number> | null {
  const total = a.transactions.length - 1;
  if (total <= max) return null;
  const witness = verdictOf(a, level)?.witness ?? null;
  const seeds = new Set<number>();
  for (const e of witness?.cycle ?? []) { seeds.add(e.from); seeds.add(e.to); }
  // A witness without a cycle (a finding such as an incompatible order, a long fork): the transaction
  // it is reported in and the ones its message names.
  if (witness && seeds.size === 0) for (const t of storyOfMessage(a, witness)) seeds.add(t);
  if (seeds.size === 0) {
    // depth starts at 1: max transactions first, max more per Widen.
    const first = new Set<number>();
    for (let t = 0; t <= Math.min(total, max * depth); t++) first.add(t);
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
  // Not through ww / rw / rt: an append nobody read is ordered after every version, and rt links every
  // transaction to its successors in time, so one step would reach most of a list-append history.
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

/** A box's header as drawn: name, level tag, outcome, clipped to HEADER_CHARS cells. */
export function boxHeader(b: Pick<NodeBox, 'name' | 'tag' | 'aborted' | 'unknown' | 'notRun' | 'bottom'>): string {
  return b.bottom ? '⊥ initial state' : clipCells(`${b.name}${b.tag ? ` [${b.tag}]` : ''}${outcomeWords(b)}`, HEADER_CHARS);
}

/** ' aborted', ' unknown, not run' (nobody read it), ' unknown' (read, so it ran) or '': the outcome as the drawings say it. */
export function outcomeWords(t: { aborted: boolean; unknown: boolean; notRun: boolean }): string {
  return t.aborted ? ' aborted' : t.notRun ? ' unknown, not run' : t.unknown ? ' unknown' : '';
}

/** A lane's title as drawn, clipped to the lane's width. */
export function laneTitle(l: Lane): string {
  return l.id < 0 ? '⊥' : clipCells(`session ${l.name}`, Math.max(4, Math.floor(l.w / HEAD_CHAR_W)));
}

function boxContentHeight(t: TransactionJson): number {
  return t.id === 0 ? HEADER_H + 6 : HEADER_H + Math.max(1, t.ops.length) * OP_H + 6;
}

const r1 = (v: number): number => Math.round(v * 10) / 10;

/** An edge before geometry. */
interface Draft {
  id: string;
  kind: DrawnKind;
  from: number;
  to: number;
  key: string | null;
  rule: WeakRule | null;
  range: JsonRange | null;
  because: string;
  witness: number;
}

const L = 0;
const R = 1;

/** A vertical run in a channel: [lo, hi] is what it occupies (its label included). */
interface Run {
  edge: number;
  lo: number;
  hi: number;
  labelW: number;
  track: number;
}

/** First-fit interval colouring: runs sorted by start get the first track free by then; returns the track count. */
function colour(runs: Run[], gap: number): number {
  runs.sort((p, q) => p.lo - q.lo || p.hi - q.hi || p.edge - q.edge);
  const last: number[] = [];
  for (const run of runs) {
    let t = 0;
    while (t < last.length && last[t] + gap >= run.lo) t++;
    last[t] = run.hi;
    run.track = t;
  }
  return last.length;
}

/** The polyline with rounded corners as SVG path data. */
function roundedPath(p: number[]): string {
  const pt = (x: number, y: number): string => `${r1(x)},${r1(y)}`;
  let d = `M${pt(p[0], p[1])}`;
  for (let i = 2; i + 2 < p.length; i += 2) {
    const [px, py, x, y, nx, ny] = [p[i - 2], p[i - 1], p[i], p[i + 1], p[i + 2], p[i + 3]];
    const inLen = Math.hypot(x - px, y - py);
    const outLen = Math.hypot(nx - x, ny - y);
    const r = Math.min(CORNER, inLen / 2, outLen / 2);
    if (r < 0.5) {
      d += ` L${pt(x, y)}`;
      continue;
    }
    d += ` L${pt(x - ((x - px) / inLen) * r, y - ((y - py) / inLen) * r)} Q${pt(x, y)} ${pt(x + ((nx - x) / outLen) * r, y + ((ny - y) / outLen) * r)}`;
  }
  return `${d} L${pt(p[p.length - 2], p[p.length - 1])}`;
}

export function layoutGraph(a: AnalysisResult, o: LayoutOptions): Layout {
  const shown = (t: number): boolean => t === 0 || o.visible === null || o.visible.has(t);
  const rank = ranks(a, shown);
  const verdict = verdictOf(a, o.level);
  const witness = verdict?.state === 'violated' ? verdict.witness : null;
  const name = (t: number): string => (t === 0 ? 'the initial state' : a.transactions[t]?.name ?? `#${t}`);

  // ---- boxes: columns (lanes with a visible box) and rows (ranks in use) ----
  const txns = a.transactions.filter((t) => shown(t.id));
  const laneOf = (t: TransactionJson): number => (t.id === 0 ? -1 : t.session);
  const column = new Map<number, number>();
  column.set(-1, 0);
  const laneHas = new Set(txns.map(laneOf));
  // A neighbourhood of a large history: the witness's sessions first (in file order), so the story is compact.
  const storyLanes = new Set<number>();
  if (o.visible !== null) for (const e of witness?.cycle ?? []) for (const t of [e.from, e.to]) if (t !== 0) storyLanes.add(a.transactions[t].session);
  for (const s of a.sessions) if (laneHas.has(s.id) && storyLanes.has(s.id)) column.set(s.id, column.size);
  for (const s of a.sessions) if (laneHas.has(s.id) && !column.has(s.id)) column.set(s.id, column.size);
  const columns = column.size;
  const rowOf = new Map<number, number>();
  for (const r of [...new Set(txns.map((t) => rank[t.id]))].sort((p, q) => p - q)) rowOf.set(r, rowOf.size);
  const rows = rowOf.size;

  const onStory = new Set<number>();
  for (const e of witness?.cycle ?? []) { onStory.add(e.from); onStory.add(e.to); }
  if (witness && witness.cycle.length === 0) {
    // No forced cycle: the transactions the explanation names.
    for (const t of storyOfMessage(a, witness, false)) if (shown(t)) onStory.add(t);
  }

  const nodes: NodeBox[] = [];
  const index = new Map<number, number>();
  const col = new Int32Array(a.transactions.length);
  const row = new Int32Array(a.transactions.length);
  for (const t of txns) {
    index.set(t.id, nodes.length);
    col[t.id] = column.get(laneOf(t))!;
    row[t.id] = rowOf.get(rank[t.id])!;
    nodes.push({
      id: t.id, name: t.name, lane: laneOf(t), x: 0, y: 0, w: BOX_W, h: boxContentHeight(t), tag: t.level, aborted: t.aborted, unknown: t.unknown, notRun: t.notRun,
      bottom: t.id === 0, ops: t.ops, witness: onStory.has(t.id), cited: false, range: t.range, extent: t.extent,
    });
  }

  // ---- the edges to draw ----
  const drafts: Draft[] = [];
  const ids = new Set<string>();
  const push = (kind: DrawnKind, from: number, to: number, key: string | null, rule: WeakRule | null, range: JsonRange | null, because: string): Draft | null => {
    if (!index.has(from) || !index.has(to)) return null;
    let id = `${kind}:${from}:${to}:${key ?? ''}`;
    for (let i = 2; ids.has(id); i++) id = `${kind}:${from}:${to}:${key ?? ''}#${i}`;
    ids.add(id);
    const d: Draft = { id, kind, from, to, key, rule, range, because, witness: -1 };
    drafts.push(d);
    return d;
  };
  if (o.kinds.so) {
    for (const s of a.sessions) {
      let prev = -1;
      for (const t of s.transactions) {
        if (!shown(t)) continue;
        if (prev >= 0) push('so', prev, t, null, null, a.transactions[t].range, SO_WHY(name(prev), name(t)));
        prev = t;
      }
    }
  }
  if (o.kinds.wr) for (const e of a.wr) push('wr', e.from, e.to, e.key, null, e.read, `${name(e.to)} read ${e.key} from ${name(e.from)}`);
  if (o.kinds.co) for (const { edge, rule } of coEdgesFor(a, o.level)) push('co', edge.from, edge.to, edge.key, rule, edge.read, edge.because);
  // ww / rw / rt: at the levels whose axioms use them, each kind unless toggled off.
  const orderKinds = orderKindsFor(a, o.level);
  for (const e of a.order ?? []) if (orderKinds.has(e.kind) && o.kinds[e.kind] !== false) push(e.kind, e.from, e.to, e.key, null, e.range, e.because);
  // The witness cycle: mark the drawn edge it runs along, or draw it (⊥ edges, rw / ww, hidden kinds).
  (witness?.cycle ?? []).forEach((c, i) => {
    const kind: DrawnKind = isRealTimeEdge(c) ? 'rt' : c.kind;
    const found = drafts.find((e) => e.witness < 0 && e.kind === kind && e.from === c.from && e.to === c.to && (kind === 'so' || kind === 'rt' || e.key === c.key));
    if (found) {
      found.witness = i;
      found.because = c.because;
      found.range = c.range;
      return;
    }
    const rule: WeakRule | null = kind === 'co' ? (o.level === 'mixed' ? ruleOf(a.transactions[c.to]?.level ?? null) : ruleOf(o.level)) : null;
    const d = push(kind, c.from, c.to, c.key, rule, c.range, c.because);
    if (d) d.witness = i;
  });
  const labels = drafts.map((d) => {
    const key = d.key === null ? '' : clipCells(d.key, LABEL_CHARS);
    // Order edges name their kind (their colours are close to the co rules'); rt has no key.
    const text = d.kind === 'ww' || d.kind === 'rw' || d.kind === 'rt' ? (key ? `${d.kind} ${key}` : d.kind) : key;
    return d.witness >= 0 ? (text ? `${d.witness + 1} · ${text}` : String(d.witness + 1)) : text;
  });
  const labelW = labels.map((s) => (s ? textCells(s) * CHAR_W + 2 * LABEL_PAD : 0));

  // ---- routes: straight down a lane, or side → channel (→ corridor → channel) → side ----
  const m = drafts.length;
  const straight = new Uint8Array(m);
  const sideOut = new Uint8Array(m);
  const sideIn = new Uint8Array(m);
  const chanA = new Int32Array(m);
  const chanB = new Int32Array(m);
  const corridor = new Int32Array(m).fill(-1);
  // Rows with a box, per column, for "is anything between these two boxes of a lane".
  const occupied = new Set<number>();
  for (const t of txns) occupied.add(col[t.id] * (rows + 1) + row[t.id]);
  const between = (c: number, r0: number, r1_: number): boolean => {
    for (let r = Math.min(r0, r1_) + 1; r < Math.max(r0, r1_); r++) if (occupied.has(c * (rows + 1) + r)) return true;
    return false;
  };
  const ports: { edge: number; end: 0 | 1; key0: number; key1: number }[][] = nodes.map(() => []);
  const portsR: { edge: number; end: 0 | 1; key0: number; key1: number }[][] = nodes.map(() => []);
  for (let i = 0; i < m; i++) {
    const d = drafts[i];
    const cs = col[d.from];
    const ct = col[d.to];
    if (d.kind === 'so' && cs === ct && d.from !== d.to && row[d.to] > row[d.from] && !between(cs, row[d.from], row[d.to])) {
      straight[i] = 1;
      continue;
    }
    sideOut[i] = ct < cs ? L : R;
    sideIn[i] = ct > cs ? L : R;
    chanA[i] = sideOut[i] === R ? cs + 1 : cs;
    chanB[i] = sideIn[i] === L ? ct : ct + 1;
    if (chanA[i] !== chanB[i]) corridor[i] = row[d.to] >= row[d.from] ? row[d.from] + 1 : row[d.from];
    (sideOut[i] === R ? portsR : ports)[index.get(d.from)!].push({ edge: i, end: 0, key0: row[d.to], key1: col[d.to] });
    (sideIn[i] === R ? portsR : ports)[index.get(d.to)!].push({ edge: i, end: 1, key0: row[d.from], key1: col[d.from] });
  }

  // Box heights: room for every port on a side.
  for (let b = 0; b < nodes.length; b++) nodes[b].h = Math.max(nodes[b].h, 12 + Math.max(ports[b].length, portsR[b].length) * PORT_MIN);
  const rowH = new Float64Array(rows);
  for (const t of txns) rowH[row[t.id]] = Math.max(rowH[row[t.id]], nodes[index.get(t.id)!].h);

  // Corridors (between rows): one horizontal track per run, coloured on channel indices.
  const corridorRuns: Run[][] = Array.from({ length: rows + 1 }, () => []);
  for (let i = 0; i < m; i++) if (corridor[i] >= 0) corridorRuns[corridor[i]].push({ edge: i, lo: Math.min(chanA[i], chanB[i]), hi: Math.max(chanA[i], chanB[i]), labelW: 0, track: 0 });
  const corridorTracks = corridorRuns.map((runs) => colour(runs, 0));
  const corridorH = corridorTracks.map((n, k) => (k === 0 ? 8 : Math.max(MIN_CORRIDOR, (n + 1) * CORRIDOR_TRACK)));
  const rowY = new Float64Array(rows);
  const corridorTop = new Float64Array(rows + 1);
  let y = MARGIN + LANE_TITLE_H;
  for (let r = 0; r < rows; r++) {
    corridorTop[r] = y;
    y += corridorH[r];
    rowY[r] = y;
    y += rowH[r];
  }
  corridorTop[rows] = y;
  const height = y + corridorH[rows] + MARGIN;
  const corridorY = new Float64Array(m);
  for (let k = 0; k <= rows; k++) {
    for (const run of corridorRuns[k]) corridorY[run.edge] = corridorTop[k] + ((run.track + 1) * corridorH[k]) / (corridorTracks[k] + 1);
  }
  for (const t of txns) nodes[index.get(t.id)!].y = rowY[row[t.id]];

  // Ports: spread down each side, ordered by the other end (row, then column) so lines cross less.
  const portY = new Float64Array(2 * m);
  const place = (list: { edge: number; end: 0 | 1; key0: number; key1: number }[], b: NodeBox): void => {
    list.sort((p, q) => p.key0 - q.key0 || p.key1 - q.key1 || p.edge - q.edge || p.end - q.end);
    list.forEach((p, i) => { portY[2 * p.edge + p.end] = b.y + 8 + ((b.h - 12) * (i + 0.5)) / list.length; });
  };
  nodes.forEach((b, i) => { place(ports[i], b); place(portsR[i], b); });

  // Channels (between lanes): one vertical track per run, wide enough for the run's label beside it.
  const channelRuns: Run[][] = Array.from({ length: columns + 1 }, () => []);
  const labelRun = new Int32Array(m).fill(-1);
  /** The label's top when it sits above a level run (NaN: beside the run's middle). */
  const labelAbove = new Float64Array(m).fill(NaN);
  const runOf: Run[] = [];
  for (let i = 0; i < m; i++) {
    if (straight[i]) continue;
    const y0 = portY[2 * i];
    const y1 = portY[2 * i + 1];
    const add = (c: number, ya: number, yb: number, labelled: boolean): void => {
      let lo = Math.min(ya, yb);
      let hi = Math.max(ya, yb);
      const w = labelled ? labelW[i] : 0;
      if (w > 0 && hi - lo < LABEL_H + 4) {
        // A (nearly) level run, e.g. between two boxes of one row: beside its middle the label would sit
        // on the horizontal lines, so it goes just above them (and the run reserves that room).
        labelAbove[i] = lo - LABEL_H - 2;
        lo = labelAbove[i] - 1;
        labelRun[i] = runOf.length;
      } else if (w > 0) {
        const mid = (lo + hi) / 2;
        lo = Math.min(lo, mid - LABEL_H / 2 - 1);
        hi = Math.max(hi, mid + LABEL_H / 2 + 1);
        labelRun[i] = runOf.length;
      }
      const run: Run = { edge: i, lo, hi, labelW: w, track: 0 };
      runOf.push(run);
      channelRuns[c].push(run);
    };
    if (corridor[i] < 0) add(chanA[i], y0, y1, true);
    else {
      add(chanA[i], y0, corridorY[i], false);
      add(chanB[i], corridorY[i], y1, true);
    }
  }
  const trackX: number[][] = [];
  const chanW = new Float64Array(columns + 1);
  for (let c = 0; c <= columns; c++) {
    const n = colour(channelRuns[c], 3);
    const widths = new Array<number>(n).fill(TRACK_W);
    for (const run of channelRuns[c]) if (run.labelW > 0) widths[run.track] = Math.max(widths[run.track], run.labelW + 4);
    const xs: number[] = [];
    let x = CHANNEL_PAD;
    for (let t = 0; t < n; t++) { xs.push(x); x += widths[t]; }
    trackX.push(xs);
    chanW[c] = Math.max(MIN_CHANNEL, x + CHANNEL_PAD);
  }
  // Lane widths: the widest text of the lane's boxes, clipped as drawn.
  const colW = new Float64Array(columns).fill(MIN_BOX_W);
  for (const t of txns) {
    const b = nodes[index.get(t.id)!];
    const head = b.bottom ? 16 : textCells(boxHeader(b));
    const ops = b.ops.reduce((m, op) => Math.max(m, Math.min(OP_CHARS, textCells(op))), 0); // folded: a transaction may have 200,000 operations
    colW[col[t.id]] = Math.min(BOX_W, Math.max(colW[col[t.id]], Math.ceil(Math.max(head * HEAD_CHAR_W, ops * CHAR_W) + 14)));
  }
  const laneX = new Float64Array(columns);
  const chanLeft = new Float64Array(columns + 1);
  let x = MARGIN;
  for (let c = 0; c < columns; c++) {
    chanLeft[c] = x;
    x += chanW[c];
    laneX[c] = x;
    x += colW[c];
  }
  chanLeft[columns] = x;
  const width = x + chanW[columns] + MARGIN;
  for (const t of txns) { nodes[index.get(t.id)!].x = laneX[col[t.id]]; nodes[index.get(t.id)!].w = colW[col[t.id]]; }
  const runX = (run: Run, c: number): number => chanLeft[c] + trackX[c][run.track];
  // The runs of edge i in the order they were added (A then B).
  const runsOfEdge: Run[][] = Array.from({ length: m }, () => []);
  for (const run of runOf) runsOfEdge[run.edge].push(run);

  const edges: LaidEdge[] = drafts.map((d, i) => {
    const s = nodes[index.get(d.from)!];
    const t = nodes[index.get(d.to)!];
    let pts: number[];
    let lx = 0;
    let ly = 0;
    if (straight[i]) {
      const cx = s.x + s.w / 2;
      pts = [cx, s.y + s.h, cx, t.y];
      lx = cx + LABEL_PAD;
      ly = (s.y + s.h + t.y) / 2 - LABEL_H / 2;
    } else {
      const sx = sideOut[i] === R ? s.x + s.w : s.x;
      const tx = sideIn[i] === L ? t.x : t.x + t.w;
      const y0 = portY[2 * i];
      const y1 = portY[2 * i + 1];
      const [ra, rb] = runsOfEdge[i];
      const xa = runX(ra, chanA[i]);
      if (corridor[i] < 0) {
        pts = [sx, y0, xa, y0, xa, y1, tx, y1];
        lx = xa + 2;
        ly = Number.isNaN(labelAbove[i]) ? (y0 + y1) / 2 - LABEL_H / 2 : labelAbove[i];
      } else {
        const xb = runX(rb, chanB[i]);
        const yc = corridorY[i];
        pts = [sx, y0, xa, y0, xa, yc, xb, yc, xb, y1, tx, y1];
        lx = xb + 2;
        ly = Number.isNaN(labelAbove[i]) ? (yc + y1) / 2 - LABEL_H / 2 : labelAbove[i];
      }
    }
    const w = labelW[i];
    return {
      id: d.id, kind: d.kind, from: d.from, to: d.to, key: d.key, rule: d.rule, path: roundedPath(pts), points: pts.map(r1),
      labelX: r1(lx), labelY: r1(ly), labelW: r1(w), labelH: w > 0 ? LABEL_H : 0, label: labels[i], range: d.range, because: d.because, witness: d.witness,
    };
  });

  const lanes: Lane[] = [];
  for (const [lane, c] of column) {
    const s = lane >= 0 ? a.sessions[lane] : null;
    lanes.push({ id: lane, name: s ? s.name : '⊥', x: r1(laneX[c]), w: colW[c], range: s ? s.range : null });
  }
  for (const b of nodes) { b.x = r1(b.x); b.y = r1(b.y); b.h = r1(b.h); }
  let focus: Layout['focus'] = null;
  // The witness's boxes and the transactions whose reads its edges cite: long fork's PC cycle runs
  // between the writers, and the explanation beside it is about the readers T3 and T4.
  for (const b of citedBoxes(nodes, edges)) b.cited = !b.witness;
  const story = nodes.filter((b) => b.witness || b.cited);
  if (story.length > 0) {
    // Folded, not spread: a witness of 200,000 transactions is more arguments than the stack holds.
    const x0 = story.reduce((m, b) => Math.min(m, b.x), Infinity);
    const y0 = story.reduce((m, b) => Math.min(m, b.y), Infinity);
    const x1 = story.reduce((m, b) => Math.max(m, b.x + b.w), -Infinity);
    const y1 = story.reduce((m, b) => Math.max(m, b.y + b.h), -Infinity);
    focus = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  }
  const drawn = { width: r1(width), height: r1(Math.max(height, MARGIN * 2 + LANE_TITLE_H + 40)) };
  // The router keeps each label clear of boxes and labels; the story's step labels also of the story's lines.
  clearWitnessLabels(edges, nodes, { ...drawn, top: MARGIN + LANE_TITLE_H });
  return { ...drawn, lanes, nodes, edges, level: o.level, verdict, witness, title: a.title, focus };
}

/** One sentence per witness edge, as the panel lists them (numbered like the drawing's labels): "T1 → T2 [co] …". */
export function witnessSentences(a: AnalysisResult, w: WitnessJson): string[] {
  const name = (t: number): string => (t === 0 ? 'init' : a.transactions[t]?.name ?? `#${t}`);
  return w.cycle.map((e) => `${name(e.from)} → ${name(e.to)} [${isRealTimeEdge(e) ? 'rt' : e.kind}${e.key !== null ? ` ${e.key}` : ''}] ${e.because}`);
}
