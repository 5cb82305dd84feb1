// Messages between the extension host and the graph webview (postMessage): declared once, validated on both sides.

import { LEVELS, RULES } from '../engine/levels/levels.ts';
import { isPlainSvg } from '../engine/export/svg-writer.ts';
import type { AnalysisResult, JsonPosition, JsonRange, LevelName } from './shapes.ts';

/** The webview panel's view type (also the serializer's key). */
export const GRAPH_VIEW_TYPE = 'isocheck.graph';

export type GraphLevel = LevelName | 'mixed';
export const GRAPH_LEVELS: readonly GraphLevel[] = [...LEVELS, 'mixed'];
export type ExportFormat = 'json' | 'dot' | 'svg' | 'hist';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'dot', 'svg', 'hist'];

/** extension host → webview. */
export type HostToViewMessage =
  /**
   * A (new) analysis of the panel's document: redraw, keeping zoom and selection. `level`, sent once after a
   * level's code lens was clicked, asks the view to show that level (its witness); absent, the view keeps its choice.
   */
  | { type: 'analysis'; analysis: AnalysisResult; level?: GraphLevel }
  /** No analysis to show (closed document, server restarting, syntax only): say why. */
  | { type: 'cleared'; uri: string; reason: string }
  /** The editor's cursor moved in the panel's document: highlight the transaction there. */
  | { type: 'cursor'; uri: string; position: JsonPosition };

/** webview → extension host. */
export type ViewToHostMessage =
  /** The view is ready for an analysis. */
  | { type: 'ready' }
  /** Reveal and select a source range (a box's transaction, an edge's read). */
  | { type: 'reveal'; uri: string; range: JsonRange }
  /** Export the witness of `level`; for svg the drawing itself comes along. */
  | { type: 'export'; uri: string; level: GraphLevel; format: ExportFormat; svg?: string }
  /** Pinned: the panel keeps its document instead of following the active editor. */
  | { type: 'pin'; pinned: boolean };

/** What the webview keeps in its state (vscode.getState / setState) and the serializer restores. */
export interface GraphViewState {
  uri: string;
  level: GraphLevel | null;
  /** Which edge kinds are drawn (ww / rw / rt: list-append version orders and real time). */
  kinds: { so: boolean; wr: boolean; co: boolean; ww: boolean; rw: boolean; rt: boolean };
  transform: { x: number; y: number; k: number } | null;
  /** A transaction name or an edge id. */
  selected: { kind: 'txn'; name: string } | { kind: 'edge'; id: string } | null;
  /** How many steps around the witness a large history shows. */
  depth: number;
  /** The panel keeps this document instead of following the active editor. */
  pinned: boolean;
}

/** Exhaustiveness check for switches over message types. */
export function assertNever(x: never): never {
  throw new Error(`unexpected message ${JSON.stringify(x)}`);
}

/**
 * The file name a document's URI ends in, as the view shows it: percent-decoded where the URI encodes it, else as
 * written (a stray `%` in a name a host did not encode must not stop the drawing with a URIError).
 */
export function uriFileName(uri: string): string {
  const last = uri.split('/').pop() ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isStr = (x: unknown): x is string => typeof x === 'string';
/** A line or character: what a document has (the language server's params are checked alike, param-checks.ts). */
const isIndex = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

export function isPosition(x: unknown): x is JsonPosition {
  return isObj(x) && isIndex(x.line) && isIndex(x.character);
}

export function isRange(x: unknown): x is JsonRange {
  return isObj(x) && isPosition(x.start) && isPosition(x.end);
}

export const isGraphLevel = (x: unknown): x is GraphLevel => isStr(x) && (GRAPH_LEVELS as readonly string[]).includes(x);
export const isExportFormat = (x: unknown): x is ExportFormat => isStr(x) && (EXPORT_FORMATS as readonly string[]).includes(x);
const isLevel = isGraphLevel;

function isVerdict(x: unknown): boolean {
  if (!isObj(x) || !isLevel(x.level) || !['ok', 'violated', 'unknown'].includes(x.state as string)) return false;
  if (!(x.note === undefined || x.note === null || isStr(x.note))) return false;
  if (x.witness === null) return true;
  const w = x.witness;
  return isObj(w) && isStr(w.anomaly) && isStr(w.headline) && isStr(w.message) && (w.range === undefined || isRange(w.range)) && Array.isArray(w.cycle)
    && w.cycle.every((e) => isObj(e) && isNum(e.from) && isNum(e.to) && ['so', 'wr', 'co', 'ww', 'rw'].includes(e.kind as string) && isStr(e.because) && isRange(e.range) && (e.key === null || isStr(e.key)));
}

/** A structural check of the analysis (every field the view reads), linear in its size. */
export function isAnalysisResult(x: unknown): x is AnalysisResult {
  if (!isObj(x) || !isStr(x.uri) || !isNum(x.version) || !(x.title === null || isStr(x.title))) return false;
  if (!Array.isArray(x.levels) || !x.levels.every(isVerdict) || !(x.mixed === null || isVerdict(x.mixed))) return false;
  if (!Array.isArray(x.transactions) || !Array.isArray(x.sessions) || !Array.isArray(x.wr) || !Array.isArray(x.forced)) return false;
  const n = x.transactions.length;
  const sessions = x.sessions.length;
  const txn = (t: unknown): boolean => isNum(t) && t >= 0 && t < n && Number.isInteger(t);
  const okTxns = x.transactions.every((t, i) => isObj(t) && t.id === i && isStr(t.name) && isNum(t.session)
    && Number.isInteger(t.session) && t.session >= -1 && t.session < sessions && isNum(t.position) && isNum(t.operations)
    && typeof t.aborted === 'boolean' && typeof t.unknown === 'boolean' && typeof t.notRun === 'boolean'
    && Array.isArray(t.ops) && t.ops.every(isStr) && (t.range === null || isRange(t.range)) && (t.extent === null || isRange(t.extent))
    && (t.level === null || isLevel(t.level)));
  const okSessions = x.sessions.every((s, i) => isObj(s) && s.id === i && isStr(s.name) && Array.isArray(s.transactions) && s.transactions.every(txn));
  const okWr = x.wr.every((e) => isObj(e) && txn(e.from) && txn(e.to) && isStr(e.key) && isRange(e.read) && (e.write === null || isRange(e.write)));
  const okForced = x.forced.every((f) => isObj(f) && (RULES as readonly string[]).includes(f.level as string) && isNum(f.total) && Array.isArray(f.edges)
    && f.edges.every((e) => isObj(e) && txn(e.from) && txn(e.to) && txn(e.reader) && isStr(e.key) && isStr(e.because) && isRange(e.read)));
  const okOrder = x.order === undefined || (Array.isArray(x.order) && x.order.every((e) => isObj(e) && txn(e.from) && txn(e.to)
    && ['ww', 'rw', 'rt'].includes(e.kind as string) && (e.key === null || isStr(e.key)) && isStr(e.because) && isRange(e.range)));
  return okTxns && okSessions && okWr && okForced && okOrder;
}

export function isHostToViewMessage(x: unknown): x is HostToViewMessage {
  if (!isObj(x)) return false;
  switch (x.type) {
    case 'analysis': return isAnalysisResult(x.analysis) && (x.level === undefined || isLevel(x.level));
    case 'cleared': return isStr(x.uri) && isStr(x.reason);
    case 'cursor': return isStr(x.uri) && isPosition(x.position);
    default: return false;
  }
}

export function isViewToHostMessage(x: unknown): x is ViewToHostMessage {
  if (!isObj(x)) return false;
  switch (x.type) {
    case 'ready': return true;
    case 'pin': return typeof x.pinned === 'boolean';
    case 'reveal': return isStr(x.uri) && isRange(x.range);
    // The view's own drawing is written to the file as it comes: only when it is one renderSvg could have written.
    case 'export': return isStr(x.uri) && isLevel(x.level) && isExportFormat(x.format)
      && (x.svg === undefined || (isStr(x.svg) && x.format === 'svg' && isPlainSvg(x.svg)));
    default: return false;
  }
}

/** A restored state, or null when it is not one (the serializer gets whatever was stored). */
export function asGraphViewState(x: unknown): GraphViewState | null {
  if (!isObj(x) || !isStr(x.uri)) return null;
  const kinds = isObj(x.kinds) ? x.kinds : {};
  const t = x.transform;
  const sel = x.selected;
  return {
    uri: x.uri,
    level: isLevel(x.level) ? x.level : null,
    kinds: { so: kinds.so !== false, wr: kinds.wr !== false, co: kinds.co !== false, ww: kinds.ww !== false, rw: kinds.rw !== false, rt: kinds.rt !== false },
    transform: isObj(t) && isNum(t.x) && isNum(t.y) && isNum(t.k) && t.k > 0 ? { x: t.x, y: t.y, k: t.k } : null,
    selected: isObj(sel) && sel.kind === 'txn' && isStr(sel.name) ? { kind: 'txn', name: sel.name }
      : isObj(sel) && sel.kind === 'edge' && isStr(sel.id) ? { kind: 'edge', id: sel.id } : null,
    depth: isNum(x.depth) && x.depth >= 1 ? Math.min(50, Math.floor(x.depth)) : 1,
    pinned: x.pinned === true,
  };
}
