// A laid-out graph as a self-contained SVG document (no scripts, no external references).

import { xmlEscape } from './escape.ts';
import { FONT_PX, HEADER_H, LABEL_BASELINE, LABEL_PAD, MARGIN, OP_CHARS, OP_H, boxHeader, clipCells, laneTitle, textCells, type LaidEdge, type Layout } from './layout.ts';

export interface Palette {
  background: string;
  foreground: string;
  muted: string;
  box: string;
  border: string;
  aborted: string;
  so: string;
  wr: string;
  RC: string;
  RA: string;
  CC: string;
  ww: string;
  rw: string;
  /** Real-time edges; the muted colour when absent. */
  rt?: string;
  witness: string;
  font: string;
  mono: string;
}

/** The CLI's colours (a light theme); the panel passes the colours of the current VS Code theme. */
export const LIGHT_PALETTE: Palette = {
  background: '#ffffff', foreground: '#1f2328', muted: '#6e7781', box: '#f6f8fa', border: '#8c959f', aborted: '#a0a0a0',
  so: '#6e7781', wr: '#1a7f37', RC: '#0969da', RA: '#8250df', CC: '#bf8700', ww: '#8250df', rw: '#bc4c00', rt: '#57606a', witness: '#cf222e',
  font: 'system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif', mono: 'ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace',
};

export function edgeColour(e: LaidEdge, p: Palette): string {
  if (e.kind === 'co') return p[e.rule ?? 'CC'];
  if (e.kind === 'wr') return p.wr;
  if (e.kind === 'ww') return p.ww;
  if (e.kind === 'rw') return p.rw;
  if (e.kind === 'rt') return p.rt ?? p.muted;
  return p.so;
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

/** What the drawing fades: everything off the witness story when there is one. */
const FADED = 0.28;
/** A caption line's cells: the examples' longest sentence is under 180, a key or name can be any length. */
export const CAPTION_CHARS = 240;
/** A tooltip's (<title>'s) cells: the full sentence of a clipped line, the reason of an edge, the document's name. */
export const TITLE_CHARS = 1000;
/** A caption glyph's advance (11 px sans-serif) when sizing the drawing to its widest line. */
const CAPTION_CHAR_W = 6.5;

const title = (s: string): string => `<title>${xmlEscape(clipCells(s, TITLE_CHARS))}</title>`;

export function renderSvg(l: Layout, p: Palette = LIGHT_PALETTE, sentences: string[] = []): string {
  // Numbered and clipped like every other text (the full sentence stays in its line's tooltip), so the width is bounded.
  const lines = sentences.map((s, i) => `${i + 1}. ${s}`);
  const shown = lines.map((s) => clipCells(s, CAPTION_CHARS));
  const captionH = sentences.length > 0 ? 24 + sentences.length * 16 : 0;
  const width = Math.max(l.width, sentences.length > 0 ? MARGIN * 2 + shown.reduce((m, s) => Math.max(m, textCells(s)), 0) * CAPTION_CHAR_W + 24 : 0);
  const height = l.height + captionH;
  const story = l.focus !== null;
  const fade = (on: boolean): string => (story && !on ? ` opacity="${FADED}"` : '');
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" font-family="${xmlEscape(p.font)}" font-size="${FONT_PX}">`);
  out.push(title(`${l.title ?? 'history'} — ${l.level}${l.verdict ? ` ${l.verdict.state}` : ''}`));
  out.push(`<rect x="0" y="0" width="${n(width)}" height="${n(height)}" fill="${xmlEscape(p.background)}"/>`);
  out.push('<defs>');
  const colours = new Map<string, string>();
  for (const e of l.edges) {
    const c = e.witness >= 0 ? p.witness : edgeColour(e, p);
    if (!colours.has(c)) colours.set(c, `arrow${colours.size}`);
  }
  for (const [c, id] of colours) {
    out.push(`<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${xmlEscape(c)}"/></marker>`);
  }
  out.push('</defs>');
  for (const lane of l.lanes) {
    out.push(`<text x="${n(lane.x + lane.w / 2)}" y="${n(MARGIN + 12)}" text-anchor="middle" font-weight="bold" fill="${xmlEscape(p.muted)}">${xmlEscape(laneTitle(lane))}</text>`);
  }
  // Faded edges first, the witness on top.
  const ordered = [...l.edges.filter((e) => e.witness < 0), ...l.edges.filter((e) => e.witness >= 0)];
  for (const e of ordered) {
    const c = e.witness >= 0 ? p.witness : edgeColour(e, p);
    const dash = e.kind === 'co' || e.kind === 'rw' || e.kind === 'ww' ? ' stroke-dasharray="6 4"' : e.kind === 'rt' ? ' stroke-dasharray="2 3"' : '';
    const w = e.witness >= 0 ? 3 : 1.3;
    out.push(`<g class="edge"${fade(e.witness >= 0)}><path d="${e.path}" fill="none" stroke="${xmlEscape(c)}" stroke-width="${w}"${dash} marker-end="url(#${colours.get(c)!})">${title(e.because)}</path>`);
    if (e.label) {
      out.push(`<text class="label" x="${n(e.labelX + LABEL_PAD)}" y="${n(e.labelY + LABEL_BASELINE)}" font-family="${xmlEscape(p.mono)}"${e.witness >= 0 ? ' font-weight="bold"' : ''} fill="${xmlEscape(c)}" stroke="${xmlEscape(p.background)}" stroke-width="3" paint-order="stroke">${xmlEscape(e.label)}</text>`);
    }
    out.push('</g>');
  }
  for (const b of l.nodes) {
    const stroke = b.witness ? p.witness : p.border;
    // Aborted and never-run transactions alike: dashed and faded (only aborted ones struck through).
    const faded = b.aborted || b.notRun;
    const dash = faded ? ' stroke-dasharray="4 3"' : '';
    out.push(`<g class="box"${fade(b.witness || b.cited)}><rect x="${n(b.x)}" y="${n(b.y)}" width="${n(b.w)}" height="${n(b.h)}" rx="4" fill="${xmlEscape(p.box)}" stroke="${xmlEscape(stroke)}" stroke-width="${b.witness ? 2.5 : 1}"${dash}${faded ? ' opacity="0.6"' : ''}/>`);
    const head = boxHeader(b);
    out.push(`<text x="${n(b.x + 6)}" y="${n(b.y + 14)}" font-weight="bold" fill="${xmlEscape(faded ? p.aborted : p.foreground)}"${b.aborted ? ' text-decoration="line-through"' : ''}>${xmlEscape(head)}</text>`);
    b.ops.forEach((op, i) => {
      out.push(`<text x="${n(b.x + 6)}" y="${n(b.y + HEADER_H + 11 + i * OP_H)}" font-family="${xmlEscape(p.mono)}" fill="${xmlEscape(p.foreground)}">${xmlEscape(clipCells(op, OP_CHARS))}</text>`);
    });
    out.push('</g>');
  }
  if (sentences.length > 0) {
    const y0 = l.height + 8;
    out.push(`<text x="${MARGIN}" y="${n(y0 + 10)}" font-weight="bold" fill="${xmlEscape(p.witness)}">${xmlEscape(`witness of the ${l.level} violation${l.witness ? ` (${l.witness.anomaly})` : ''}`)}</text>`);
    shown.forEach((s, i) => {
      const full = s === lines[i] ? '' : title(lines[i]);
      out.push(`<text x="${MARGIN}" y="${n(y0 + 26 + i * 16)}" fill="${xmlEscape(p.foreground)}">${full}${xmlEscape(s)}</text>`);
    });
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/** The elements renderSvg writes; an SVG handed in for export may hold no other (no script, foreignObject, image, a, style, use). */
const PLAIN_ELEMENTS: ReadonlySet<string> = new Set(['svg', 'title', 'defs', 'marker', 'path', 'g', 'rect', 'text']);
/** The attributes renderSvg writes: none of them runs script (on…), links (href) or styles (style) anything. */
const PLAIN_ATTRIBUTES: ReadonlySet<string> = new Set([
  'xmlns', 'width', 'height', 'viewBox', 'font-family', 'font-size', 'x', 'y', 'rx', 'fill', 'id', 'refX', 'refY', 'markerUnits', 'markerWidth',
  'markerHeight', 'orient', 'd', 'stroke', 'stroke-width', 'stroke-dasharray', 'marker-end', 'class', 'opacity', 'text-anchor', 'font-weight',
  'paint-order', 'text-decoration',
]);
const SVG_NS = 'http://www.w3.org/2000/svg';
/**
 * One token as renderSvg writes it: a tag whose attributes are each one space, a name and a double-quoted value
 * (deterministic, so a tag of a million spaces fails in one pass), text without markup, or one of xmlEscape's entities.
 * No comment, CDATA, doctype or processing instruction (an entity declaration or a stylesheet could hide there).
 */
const PLAIN_TOKEN = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?: [A-Za-z][A-Za-z0-9-]*="[^"<>&]*(?:&(?:amp|lt|gt|quot|#39);[^"<>&]*)*")*)(\/?)>|[^<&]+|&(?:amp|lt|gt|quot|#39);/y;
const PLAIN_ATTRIBUTE = / ([A-Za-z][A-Za-z0-9-]*)="([^"]*)"/g;
/**
 * A url() that points anywhere but a marker of the same document would fetch something when the file is opened.
 * A backslash is refused outright: presentation attributes are read as CSS, where `u\72l(` is url( too (renderSvg
 * writes none: numbers, colours, font names and path data).
 */
const OUTSIDE_URL = /url\((?!#[A-Za-z0-9_-]+\))|\\/i;

/**
 * Whether `svg` is a drawing as renderSvg writes it: one <svg> root in the SVG namespace, nested tags of its own
 * vocabulary only, no url() but a local marker's. The graph view sends the host the SVG it drew for export, and the
 * view is untrusted: what it sends is written to a file a browser may open, so nothing in it may run or fetch.
 */
export function isPlainSvg(svg: string): boolean {
  const open: string[] = [];
  let roots = 0;
  let at = 0;
  while (at < svg.length) {
    PLAIN_TOKEN.lastIndex = at;
    const m = PLAIN_TOKEN.exec(svg);
    if (!m) return false;
    at = PLAIN_TOKEN.lastIndex;
    if (m[2] === undefined) {
      // Text and entities: inside the root only (whitespace around it is fine).
      if (open.length === 0 && m[0].trim() !== '') return false;
      continue;
    }
    const [, close, name, attributes, selfClosing] = m;
    if (!PLAIN_ELEMENTS.has(name)) return false;
    if (close) {
      if (attributes !== '' || selfClosing || open.pop() !== name) return false;
      continue;
    }
    // The root is the one <svg>, with the SVG namespace; nothing else declares one.
    if ((name === 'svg') !== (open.length === 0) || (name === 'svg' && roots++ > 0)) return false;
    let namespace = '';
    for (const [, attribute, value] of attributes.matchAll(PLAIN_ATTRIBUTE)) {
      if (!PLAIN_ATTRIBUTES.has(attribute) || OUTSIDE_URL.test(value)) return false;
      if (attribute === 'xmlns') namespace = value;
    }
    if ((name === 'svg' ? SVG_NS : '') !== namespace) return false;
    if (!selfClosing) open.push(name);
  }
  return roots === 1 && open.length === 0;
}
