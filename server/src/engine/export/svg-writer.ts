// A laid-out graph as a self-contained SVG document (no scripts, no external references).

import { xmlEscape } from './escape.ts';
import { BOX_W, HEADER_H, MARGIN, OP_H, type LaidEdge, type Layout } from './layout.ts';

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
  witness: string;
  font: string;
}

/** The CLI's colours (a light theme); the panel passes the colours of the current VS Code theme. */
export const LIGHT_PALETTE: Palette = {
  background: '#ffffff', foreground: '#1f2328', muted: '#6e7781', box: '#f6f8fa', border: '#8c959f', aborted: '#a0a0a0',
  so: '#6e7781', wr: '#1a7f37', RC: '#0969da', RA: '#8250df', CC: '#bf8700', ww: '#8250df', rw: '#bc4c00', witness: '#cf222e',
  font: 'system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif',
};

export function edgeColour(e: LaidEdge, p: Palette): string {
  if (e.kind === 'co') return p[e.rule ?? 'CC'];
  if (e.kind === 'wr') return p.wr;
  if (e.kind === 'ww') return p.ww;
  if (e.kind === 'rw') return p.rw;
  return p.so;
}

const n = (v: number): string => String(Math.round(v * 10) / 10);

export function renderSvg(l: Layout, p: Palette = LIGHT_PALETTE, sentences: string[] = []): string {
  const captionH = sentences.length > 0 ? 24 + sentences.length * 16 : 0;
  const width = l.width;
  const height = l.height + captionH;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}" font-family="${xmlEscape(p.font)}" font-size="11">`);
  const title = `${l.title ?? 'history'} — ${l.level}${l.verdict ? ` ${l.verdict.state}` : ''}`;
  out.push(`<title>${xmlEscape(title)}</title>`);
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
    out.push(`<text x="${n(lane.x + BOX_W / 2)}" y="${n(MARGIN + 12)}" text-anchor="middle" font-weight="bold" fill="${xmlEscape(p.muted)}">${xmlEscape(lane.id < 0 ? '⊥' : `session ${lane.name}`)}</text>`);
  }
  for (const e of l.edges) {
    const c = e.witness >= 0 ? p.witness : edgeColour(e, p);
    const dash = e.kind === 'co' || e.kind === 'rw' || e.kind === 'ww' ? ' stroke-dasharray="6 4"' : '';
    const w = e.witness >= 0 ? 3 : 1.3;
    out.push(`<path d="${e.path}" fill="none" stroke="${xmlEscape(c)}" stroke-width="${w}"${dash} marker-end="url(#${colours.get(c)!})"><title>${xmlEscape(e.because)}</title></path>`);
    if (e.label) out.push(`<text x="${n(e.labelX)}" y="${n(e.labelY - 3)}" text-anchor="middle" fill="${xmlEscape(c)}">${xmlEscape(e.label)}</text>`);
  }
  for (const b of l.nodes) {
    const stroke = b.witness ? p.witness : p.border;
    const dash = b.aborted ? ' stroke-dasharray="4 3"' : '';
    out.push(`<g><rect x="${n(b.x)}" y="${n(b.y)}" width="${n(b.w)}" height="${n(b.h)}" rx="4" fill="${xmlEscape(p.box)}" stroke="${xmlEscape(stroke)}" stroke-width="${b.witness ? 2.5 : 1}"${dash}${b.aborted ? ' opacity="0.6"' : ''}/>`);
    const head = b.bottom ? '⊥ initial state' : `${b.name}${b.tag ? ` [${b.tag}]` : ''}${b.aborted ? ' aborted' : ''}`;
    out.push(`<text x="${n(b.x + 6)}" y="${n(b.y + 14)}" font-weight="bold" fill="${xmlEscape(b.aborted ? p.aborted : p.foreground)}"${b.aborted ? ' text-decoration="line-through"' : ''}>${xmlEscape(head)}</text>`);
    b.ops.forEach((op, i) => {
      out.push(`<text x="${n(b.x + 6)}" y="${n(b.y + HEADER_H + 10 + i * OP_H)}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="10" fill="${xmlEscape(p.foreground)}">${xmlEscape(op)}</text>`);
    });
    out.push('</g>');
  }
  if (sentences.length > 0) {
    const y0 = l.height + 8;
    out.push(`<text x="${MARGIN}" y="${n(y0 + 10)}" font-weight="bold" fill="${xmlEscape(p.witness)}">${xmlEscape(`witness of the ${l.level} violation${l.witness ? ` (${l.witness.anomaly})` : ''}`)}</text>`);
    sentences.forEach((s, i) => out.push(`<text x="${MARGIN}" y="${n(y0 + 26 + i * 16)}" fill="${xmlEscape(p.foreground)}">${xmlEscape(s)}</text>`));
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
