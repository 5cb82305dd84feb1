// The graph webview: draws a history's so / wr / co / ww / rw / rt edges and the witness cycle with d3, talks to the host by typed messages.
/// <reference lib="dom" />

import './graph.css';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type D3ZoomEvent } from 'd3-zoom';
import {
  HEADER_H, LABEL_BASELINE, LABEL_PAD, MARGIN, OP_CHARS, OP_H, boxHeader, clipCells, laneTitle, layoutGraph, outcomeWords, undecidedSentence, verdictOf, visibleSet, witnessSentences,
  type LaidEdge, type Layout, type NodeBox,
} from '../../server/src/engine/export/layout.ts';
import { renderSvg, type Palette } from '../../server/src/engine/export/svg-writer.ts';
import type { AnalysisResult, JsonPosition, JsonRange, VerdictJson } from '../../server/src/protocol/shapes.ts';
import {
  asGraphViewState, assertNever, EXPORT_FORMATS, isHostToViewMessage, uriFileName, type ExportFormat, type GraphLevel, type GraphViewState, type HostToViewMessage,
} from '../../server/src/protocol/webview.ts';
import { fitTransform, focusTransform, type ViewTransform } from './fit-view.ts';
import { hostApi, listenToHost } from './vscode-api.ts';

const api = hostApi();
let state: GraphViewState = asGraphViewState(api.getState()) ?? {
  uri: '', level: null, kinds: { so: true, wr: true, co: true, ww: true, rw: true, rt: true }, transform: null, selected: null, depth: 1, pinned: false,
};
let analysis: AnalysisResult | null = null;
let layout: Layout | null = null;
let cursorTxn = -1;
let zoomApplied = false;

const MARK = { ok: '✓', violated: '✗', unknown: '?' } as const;
const LARGE_EDGES = 1500;
const LARGE_NODES = 600;
const clip = clipCells;

// ---- the page skeleton (built with DOM APIs: every text goes through textContent) -------------------

const app = document.getElementById('app') ?? document.body.appendChild(Object.assign(document.createElement('div'), { id: 'app' }));
const el = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: HTMLElement, cls?: string, text?: string): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  parent.appendChild(e);
  return e;
};

const toolbar = el('div', app, 'toolbar');
const titleEl = el('span', toolbar, 'title', 'IsoCheck graph');
const levelLabel = el('label', toolbar, undefined, 'Level');
const levelSelect = el('select', levelLabel, 'level-select');
levelSelect.setAttribute('aria-label', 'level');
const verdictEl = el('span', toolbar, 'verdict');
/** Every toggleable edge kind; ww / rw / rt only show up for histories that have such edges. */
const KINDS = ['so', 'wr', 'co', 'ww', 'rw', 'rt'] as const;
type Kind = (typeof KINDS)[number];
const ORDER_KINDS: readonly Kind[] = ['ww', 'rw', 'rt'];
const toggles = {} as Record<Kind, HTMLInputElement>;
const toggleLabels = {} as Record<Kind, HTMLLabelElement>;
for (const kind of KINDS) {
  const label = el('label', toolbar, `toggle toggle-${kind}`);
  toggleLabels[kind] = label;
  const box = el('input', label);
  box.type = 'checkbox';
  box.dataset.kind = kind;
  label.append(kind);
  toggles[kind] = box;
}
const fitButton = el('button', toolbar, 'fit', 'Fit');
const pinButton = el('button', toolbar, 'pin', 'Pin');
pinButton.setAttribute('aria-pressed', String(state.pinned));
pinButton.title = 'Pinned: keep this file instead of following the active editor';
const exportSelect = el('select', toolbar, 'export-format');
exportSelect.setAttribute('aria-label', 'export format');
for (const f of EXPORT_FORMATS) {
  const o = el('option', exportSelect, undefined, f === 'hist' ? 'minimised .hist' : f.toUpperCase());
  o.value = f;
}
const exportButton = el('button', toolbar, 'export', 'Export witness');
// Until an analysis is drawn there is nothing to export (a click would do nothing).
exportButton.disabled = true;
const scaleEl = el('span', toolbar, 'scale');
const widenButton = el('button', toolbar, 'widen', 'Widen');
widenButton.hidden = true;

const main = el('div', app, 'main');
const svgNs = 'http://www.w3.org/2000/svg';
const svgEl = document.createElementNS(svgNs, 'svg');
svgEl.classList.add('graph');
main.appendChild(svgEl);
const svg = select<SVGSVGElement, unknown>(svgEl);
const defs = svg.append('defs');
const viewport = svg.append('g').attr('class', 'viewport');
const lanesG = viewport.append('g').attr('class', 'lanes');
const edgesG = viewport.append('g').attr('class', 'edges');
const nodesG = viewport.append('g').attr('class', 'nodes');
for (const c of ['so', 'wr', 'RC', 'RA', 'CC', 'ww', 'rw', 'rt', 'witness', 'selected']) {
  defs.append('marker').attr('id', `arrow-${c}`).attr('viewBox', '0 0 10 10').attr('refX', 9).attr('refY', 5)
    .attr('markerUnits', 'userSpaceOnUse').attr('markerWidth', 9).attr('markerHeight', 9).attr('orient', 'auto-start-reverse')
    .append('path').attr('class', c).attr('d', 'M0,0 L10,5 L0,10 z');
}

const side = el('aside', main);
el('h3', side, undefined, 'Witness');
const messageEl = el('p', side, 'message');
const witnessList = el('ol', side, 'witness-list');
el('h3', side, undefined, 'Legend');
const legend = el('div', side, 'legend');
for (const [cls, text] of [['so', 'so: session order'], ['wr', 'wr: read from (key)'], ['co RC', 'co forced by RC'], ['co RA', 'co forced by RA'],
  ['co CC', 'co forced by CC'], ['ww', 'ww: version order (write order)'], ['rw', 'rw: anti-dependency (read missed a later write)'],
  ['rt', 'rt: real time (ended before the other started)'], ['witness', 'the witness cycle']] as const) {
  const row = el('div', legend);
  const s = document.createElementNS(svgNs, 'svg');
  const g = document.createElementNS(svgNs, 'g');
  g.setAttribute('class', `edge ${cls}`);
  const p = document.createElementNS(svgNs, 'path');
  p.setAttribute('class', 'line');
  p.setAttribute('d', 'M2,5 L32,5');
  g.appendChild(p);
  s.appendChild(g);
  row.appendChild(s);
  row.append(text);
}
const boxRow = el('div', legend);
boxRow.textContent = 'dashed grey box: aborted transaction, or an unknown one nobody read (it never ran)';

// ---- zoom and pan ----------------------------------------------------------------------------------

const zoomer = zoom<SVGSVGElement, unknown>().scaleExtent([0.02, 4]).on('zoom', (e: D3ZoomEvent<SVGSVGElement, unknown>) => {
  viewport.attr('transform', e.transform.toString());
  svg.classed('far', e.transform.k < 0.6);
  state.transform = { x: e.transform.x, y: e.transform.y, k: e.transform.k };
  save();
});
svg.call(zoomer).on('dblclick.zoom', null);

/** Fit: the whole drawing when its text stays at least 11 px (scale ≥ 1), else scale 1 from ⊥'s corner, scrolled to the witness. */
function fit(): void {
  if (!layout) return;
  apply(fitTransform(layout, svgEl.clientWidth || 800, svgEl.clientHeight || 600));
}

/** Pans (at scale k) so the witness's boxes are in view, with as much of the drawing's top-left (⊥) as fits beside them. */
function showFocus(k: number): void {
  if (!layout) return;
  apply(focusTransform(layout, svgEl.clientWidth || 800, svgEl.clientHeight || 600, k));
}

function apply(t: ViewTransform): void {
  zoomer.transform(svg, zoomIdentity.translate(t.x, t.y).scale(t.k));
}

function save(): void {
  api.setState(state);
}

// ---- controls --------------------------------------------------------------------------------------

levelSelect.addEventListener('change', () => {
  state.level = levelSelect.value as GraphLevel;
  state.depth = 1;
  save();
  render();
  // Another level has another witness, which may lie outside the part of the drawing in view (long
  // fork's SER cycle runs through the readers' lanes, right of PC's): bring it in, at the current scale.
  if (!focusInView()) showFocus(state.transform?.k ?? 1);
});

/** Whether the witness's boxes (the layout's focus) lie within the visible part of the drawing (true without a witness). */
function focusInView(): boolean {
  const f = layout?.focus;
  if (!f) return true;
  const t = state.transform ?? { x: 0, y: 0, k: 1 };
  const w = svgEl.clientWidth || 800;
  const h = svgEl.clientHeight || 600;
  const left = -t.x / t.k;
  const top = -t.y / t.k;
  return f.x >= left && f.y >= top && f.x + f.w <= left + w / t.k && f.y + f.h <= top + h / t.k;
}
for (const kind of KINDS) {
  toggles[kind].addEventListener('change', () => {
    state.kinds = { ...state.kinds, [kind]: toggles[kind].checked };
    save();
    render();
  });
}
fitButton.addEventListener('click', fit);
pinButton.addEventListener('click', () => {
  state.pinned = !state.pinned;
  pinButton.setAttribute('aria-pressed', String(state.pinned));
  pinButton.textContent = state.pinned ? 'Pinned' : 'Pin';
  save();
  api.postMessage({ type: 'pin', pinned: state.pinned });
});
pinButton.textContent = state.pinned ? 'Pinned' : 'Pin';
widenButton.addEventListener('click', () => {
  state.depth += 1;
  save();
  render();
  // The witness stays highlighted and in view at the current scale.
  showFocus(Math.max(1, state.transform?.k ?? 1));
});
exportButton.addEventListener('click', () => {
  if (!analysis || !layout) return;
  const format = exportSelect.value as ExportFormat;
  const level = currentLevel();
  if (format === 'svg') {
    const sentences = layout.witness ? witnessSentences(analysis, layout.witness) : [];
    api.postMessage({ type: 'export', uri: analysis.uri, level, format, svg: renderSvg(layout, themePalette(), sentences) });
  } else {
    api.postMessage({ type: 'export', uri: analysis.uri, level, format });
  }
});

/** The theme's colours as resolved now, for a self-contained SVG. */
function themePalette(): Palette {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string): string => css.getPropertyValue(name).trim() || '#888888';
  return {
    background: v('--ic-bg'), foreground: v('--ic-fg'), muted: v('--ic-muted'), box: v('--ic-box'), border: v('--ic-border'),
    aborted: v('--ic-muted'), so: v('--ic-so'), wr: v('--ic-wr'), RC: v('--ic-rc'), RA: v('--ic-ra'), CC: v('--ic-cc'),
    ww: v('--ic-ww'), rw: v('--ic-rw'), rt: v('--ic-rt'), witness: v('--ic-witness'), font: v('--ic-font'), mono: v('--ic-mono'),
  };
}

// ---- messages from the host ------------------------------------------------------------------------

listenToHost(api, (m) => {
  if (!isHostToViewMessage(m)) {
    console.warn('isocheck graph: ignored a malformed message');
    return;
  }
  handle(m);
});

function handle(m: HostToViewMessage): void {
  switch (m.type) {
    case 'analysis':
      if (state.uri !== m.analysis.uri) {
        // Another document: its own view, not the last one's selection.
        state = { ...state, uri: m.analysis.uri, level: null, selected: null, depth: 1, transform: null };
        zoomApplied = false;
      }
      // A lens asked for one level: show it (once; later analyses keep the user's choice).
      if (m.level) state = { ...state, level: m.level, depth: 1, selected: null };
      analysis = m.analysis;
      save();
      render();
      return;
    case 'cleared':
      analysis = null;
      layout = null;
      showEmpty(m.reason);
      return;
    case 'cursor':
      if (!analysis || m.uri !== analysis.uri) return;
      cursorTxn = txnAt(analysis, m.position);
      applyHighlights();
      return;
    default:
      assertNever(m);
  }
}

function showEmpty(reason: string): void {
  lanesG.selectAll('*').remove();
  edgesG.selectAll('*').remove();
  nodesG.selectAll('*').remove();
  witnessList.replaceChildren();
  messageEl.textContent = reason;
  // The toolbar spoke of the analysis that is gone: beside "The document was closed" a stale
  // "PC violated", its levels and transaction count and an enabled Export (whose click did nothing) misled.
  levelSelect.replaceChildren();
  levelSelect.disabled = true;
  verdictEl.textContent = '';
  verdictEl.className = 'verdict';
  scaleEl.textContent = '';
  widenButton.hidden = true;
  exportButton.disabled = true;
  exportButton.title = 'No analysis shown: nothing to export';
}

const before = (a: JsonPosition, b: JsonPosition): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);

function txnAt(a: AnalysisResult, p: JsonPosition): number {
  for (const t of a.transactions) if (t.extent && before(t.extent.start, p) && before(p, t.extent.end)) return t.id;
  return -1;
}

// ---- drawing ---------------------------------------------------------------------------------------

function currentLevel(): GraphLevel {
  const a = analysis!;
  const available: GraphLevel[] = [...a.levels.map((v) => v.level), ...(a.mixed ? ['mixed' as const] : [])];
  if (state.level && available.includes(state.level)) return state.level;
  // First visit: the weakest violated level, else the mixed verdict when violated, else the strongest evaluated.
  const violated = a.levels.find((v) => v.state === 'violated')?.level ?? (a.mixed?.state === 'violated' ? 'mixed' : null);
  return violated ?? available[available.length - 1] ?? 'RC';
}

function verdictText(v: VerdictJson): string {
  return `${v.level} ${MARK[v.state]}`;
}

function render(): void {
  const a = analysis;
  if (!a) return;
  const level = currentLevel();
  titleEl.textContent = a.title ?? uriFileName(a.uri);
  levelSelect.replaceChildren();
  levelSelect.disabled = false;
  for (const v of [...a.levels, ...(a.mixed ? [a.mixed] : [])]) {
    const o = el('option', levelSelect as unknown as HTMLElement, undefined, verdictText(v));
    o.value = v.level;
  }
  levelSelect.value = level;
  for (const kind of KINDS) toggles[kind].checked = state.kinds[kind];
  // ww / rw / rt toggles only where such edges exist (list-append keys, `@` intervals).
  for (const kind of ORDER_KINDS) toggleLabels[kind].hidden = !(a.order ?? []).some((e) => e.kind === kind);
  const verdict = verdictOf(a, level);
  verdictEl.textContent = verdict ? (verdict.state === 'violated' ? `${level} violated` : verdict.state === 'ok' ? `${level} holds` : `${level} not decided`) : '';
  verdictEl.className = `verdict ${verdict?.state ?? ''}`;

  const visible = visibleSet(a, level, state.depth);
  const total = a.transactions.length - 1;
  // visibleSet centres on the level's witness when there is one, else takes the first transactions.
  const around = verdict?.witness ? 'the witness neighbourhood' : 'the first ones';
  scaleEl.textContent = visible ? `showing ${visible.size - 1} of ${total} transactions (${around})` : `${total} transactions`;
  widenButton.hidden = visible === null;
  const limited = a.wrTotal > a.wr.length || a.forced.some((f) => f.total > f.edges.length);
  if (limited) scaleEl.textContent += ' · some edges left out';

  layout = layoutGraph(a, { level, kinds: state.kinds, visible });
  // Large drawings: no animation and labels only when zoomed in, so panning stays smooth.
  svg.classed('large', layout.edges.length > LARGE_EDGES || layout.nodes.length > LARGE_NODES);
  // The witness as a story: its boxes and edges highlighted, the rest faded.
  svg.classed('story', layout.focus !== null);
  exportButton.disabled = verdict?.state !== 'violated';
  exportButton.title = exportButton.disabled ? `${level} ${verdict?.state === 'ok' ? 'holds' : 'has no witness'}: nothing to export` : `Export the ${level} witness`;
  drawLanes(layout);
  drawEdges(layout);
  drawNodes(layout);
  drawWitness(a, layout);
  applyHighlights();
  if (!zoomApplied) {
    zoomApplied = true;
    if (state.transform) zoomer.transform(svg, zoomIdentity.translate(state.transform.x, state.transform.y).scale(state.transform.k));
    else fit();
  }
}

function drawLanes(l: Layout): void {
  const lanes = lanesG.selectAll<SVGGElement, Layout['lanes'][number]>('g.lane').data(l.lanes.filter((x) => x.id >= 0 || l.nodes.some((n) => n.bottom)), (d) => String(d.id))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'lane');
      g.append('line').attr('class', 'lane-line');
      g.append('text').attr('class', 'lane-title').attr('text-anchor', 'middle');
      return g;
    });
  lanes.attr('data-lane', (d) => d.id);
  lanes.select('line').attr('x1', (d) => d.x + d.w / 2).attr('x2', (d) => d.x + d.w / 2).attr('y1', MARGIN + 18).attr('y2', l.height - MARGIN);
  lanes.select('text').attr('x', (d) => d.x + d.w / 2).attr('y', MARGIN + 12).text(laneTitle);
  lanes.on('click', (_e, d) => { if (d.range && analysis) reveal(d.range); });
}

function markerOf(e: LaidEdge): string {
  return e.witness >= 0 ? 'witness' : e.kind === 'co' ? e.rule ?? 'CC' : e.kind;
}

function drawEdges(l: Layout): void {
  const edges = edgesG.selectAll<SVGGElement, LaidEdge>('g.edge').data(l.edges, (d) => d.id)
    .join((enter) => {
      const g = enter.append('g');
      g.append('path').attr('class', 'line');
      g.append('path').attr('class', 'hit');
      // Anchored at its start, as the layout places it (labelX + LABEL_PAD) and the SVG export draws it.
      g.append('text').attr('text-anchor', 'start');
      g.append('title');
      return g;
    });
  edges.attr('class', (d) => `edge ${d.kind}${d.rule ? ` ${d.rule}` : ''}${d.witness >= 0 ? ' witness' : ''}`)
    .attr('data-id', (d) => d.id).attr('data-kind', (d) => d.kind).attr('data-witness', (d) => d.witness)
    .attr('data-from', (d) => d.from).attr('data-to', (d) => d.to);
  edges.select('path.line').attr('d', (d) => d.path).attr('marker-end', (d) => `url(#arrow-${markerOf(d)})`);
  edges.select('path.hit').attr('d', (d) => d.path);
  edges.select('text').attr('class', 'label').attr('x', (d) => d.labelX + LABEL_PAD).attr('y', (d) => d.labelY + LABEL_BASELINE).text((d) => d.label);
  edges.select('title').text((d) => d.because);
  // The witness on top of everything else.
  edges.filter((d) => d.witness >= 0).raise();
  edges.on('click', (event: MouseEvent, d) => {
    event.stopPropagation();
    state.selected = { kind: 'edge', id: d.id };
    save();
    applyHighlights();
    if (d.range) reveal(d.range);
  });
}

function drawNodes(l: Layout): void {
  const boxes = nodesG.selectAll<SVGGElement, NodeBox>('g.box').data(l.nodes, (d) => String(d.id))
    .join((enter) => {
      const g = enter.append('g');
      g.append('rect').attr('rx', 4);
      g.append('text').attr('class', 'head');
      g.append('title');
      return g;
    });
  boxes.attr('class', (d) => `box${d.aborted ? ' aborted' : ''}${d.notRun ? ' notrun' : ''}${d.witness ? ' witness' : ''}${d.cited ? ' cited' : ''}${d.bottom ? ' bottom' : ''}`)
    .attr('data-id', (d) => d.id).attr('data-name', (d) => d.name).attr('data-lane', (d) => d.lane)
    .attr('transform', (d) => `translate(${d.x},${d.y})`);
  boxes.select('rect').attr('width', (d) => d.w).attr('height', (d) => d.h);
  boxes.select('text.head').attr('x', 6).attr('y', 14)
    .text(boxHeader);
  boxes.select('title').text((d) => (d.bottom ? 'the initial state' : [`${d.name}${outcomeWords(d)}`, ...d.ops].join('\n')));
  boxes.selectAll<SVGTextElement, string>('text.op').data((d) => d.ops).join('text').attr('class', 'op')
    .attr('x', 6).attr('y', (_d, i) => HEADER_H + 11 + i * OP_H).text((d) => clip(d, OP_CHARS));
  const pick = (d: NodeBox): void => {
    state.selected = { kind: 'txn', name: d.name };
    save();
    applyHighlights();
    const range = d.extent ?? d.range;
    if (range) reveal(range);
  };
  // Keyboard: every box is a button in the tab order (Enter or Space reveals it).
  boxes.attr('tabindex', 0).attr('role', 'button').attr('aria-label', (d) => (d.bottom ? 'the initial state' : `transaction ${d.name}`));
  boxes.on('click', (event: MouseEvent, d) => {
    event.stopPropagation();
    pick(d);
  });
  boxes.on('keydown', (event: KeyboardEvent, d) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    pick(d);
  });
}

function drawWitness(a: AnalysisResult, l: Layout): void {
  witnessList.replaceChildren();
  const v = l.verdict;
  if (!v) {
    messageEl.textContent = `${l.level} was not evaluated.`;
    return;
  }
  if (v.state !== 'violated' || !v.witness) {
    messageEl.textContent = v.state === 'ok' ? `${l.level} holds: no cycle.` : undecidedSentence(l.level, v.note);
    return;
  }
  const w = v.witness;
  // The anomaly by name first where the witness has a known shape ("Write skew (SER): …"), then what the cycle is.
  const named = !w.headline.endsWith(' violation');
  const what = w.cycle.length > 0 ? `a cycle of ${w.cycle.length} edges that no commit order can have.` : w.message;
  messageEl.textContent = named ? `${w.headline}. ${what.charAt(0).toUpperCase()}${what.slice(1)}` : w.cycle.length > 0 ? `${w.anomaly}: ${what}` : what;
  witnessSentences(a, w).forEach((sentence, i) => {
    const li = el('li', witnessList, undefined, sentence);
    li.dataset.index = String(i);
    li.tabIndex = 0;
    const pick = (): void => {
      const edge = l.edges.find((e) => e.witness === i);
      if (edge) state.selected = { kind: 'edge', id: edge.id };
      save();
      applyHighlights();
      reveal(w.cycle[i].range);
    };
    li.addEventListener('click', pick);
    li.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      pick();
    });
  });
}

function applyHighlights(): void {
  const sel = state.selected;
  nodesG.selectAll<SVGGElement, NodeBox>('g.box')
    .classed('selected', (d) => sel?.kind === 'txn' && sel.name === d.name)
    .classed('cursor', (d) => d.id === cursorTxn);
  edgesG.selectAll<SVGGElement, LaidEdge>('g.edge')
    .classed('selected', (d) => sel?.kind === 'edge' && sel.id === d.id)
    .select('path.line').attr('marker-end', (d) => `url(#arrow-${sel?.kind === 'edge' && sel.id === d.id ? 'selected' : markerOf(d)})`);
  for (const li of Array.from(witnessList.children)) {
    const i = Number((li as HTMLElement).dataset.index);
    li.classList.toggle('selected', sel?.kind === 'edge' && layout?.edges.find((e) => e.id === sel.id)?.witness === i);
  }
}

function reveal(range: JsonRange): void {
  if (!analysis) return;
  api.postMessage({ type: 'reveal', uri: analysis.uri, range });
}

messageEl.textContent = 'Waiting for the analysis…';
api.postMessage({ type: 'ready' });
if (state.pinned) api.postMessage({ type: 'pin', pinned: true });
