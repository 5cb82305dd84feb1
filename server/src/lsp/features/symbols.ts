// Document symbols (sessions → transactions) and folding ranges by session.

import { SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver-protocol';
import { levelById } from '../../engine/levels/levels.ts';
import { sessionExtent, txnExtent } from '../../engine/queries.ts';
import { outcomeWords } from '../../engine/export/layout.ts';
import type { DocModel } from '../doc-model.ts';
import type { TextView } from '../text-view.ts';

/**
 * At most this many symbols in an outline (sessions and transactions, in text order), as VS Code's
 * JSON server caps its outline at 5,000 items: a million-operation history has 125,000
 * transactions, whose outline was 55 MB of JSON per request and no use to read.
 */
export const MAX_OUTLINE_SYMBOLS = 5000;

/**
 * view: where the analysed text's ranges stand in the client's text (an older analysis's, when no newer one
 * came in time); a symbol whose text was edited since is left out, with its children.
 */
export function documentSymbols(m: DocModel, maxSymbols = MAX_OUTLINE_SYMBOLS, view: TextView = m.view()): DocumentSymbol[] {
  const h = m.history;
  const r = m.ranges;
  const out: DocumentSymbol[] = [];
  // Session ids are canonical (by name): the outline follows the text instead.
  const starts = Array.from({ length: h.sessionCount }, (_, s) => sessionExtent(h, s).start);
  const byPosition = starts.map((_, s) => s).sort((a, b) => starts[a] - starts[b] || a - b);
  let room = maxSymbols;
  for (const s of byPosition) {
    if (room === 0) break;
    room--;
    const children: DocumentSymbol[] = [];
    const txns = h.sessionTxnStart[s + 1] - h.sessionTxnStart[s];
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1] && room > 0; i++, room--) {
      const t = h.sessionTxns[i];
      const e = txnExtent(h, t);
      const status = outcomeWords({ aborted: h.txnAborted[t] === 1, unknown: h.txnUnknown?.[t] === 1, notRun: m.notRun?.[t] === 1 }).trim();
      const detail = [h.txnLevel[t] >= 0 ? levelById(h.txnLevel[t]) : '', status].filter((x) => x).join(' ');
      const range = view.range(e.start, e.end);
      const selectionRange = view.range(r.txnStart[t], r.txnEnd[t]);
      if (!range || !selectionRange) continue;
      children.push({ name: h.names.txnName(t), detail, kind: SymbolKind.Event, range, selectionRange });
    }
    const e = sessionExtent(h, s);
    // The selection range must lie inside the range: a header can only widen the extent, so clamp it.
    const selStart = Math.max(e.start, Math.min(r.sessionStart[s], e.end));
    const selEnd = Math.max(selStart, Math.min(r.sessionEnd[s], e.end));
    const range = view.range(e.start, e.end);
    const selectionRange = view.range(selStart, selEnd);
    if (!range || !selectionRange) continue;
    out.push({
      name: h.names.sessionName(s), kind: SymbolKind.Namespace,
      detail: `${txns} transaction${txns === 1 ? '' : 's'}${children.length < txns ? ` (${children.length} in the outline, which shows ${maxSymbols} symbols at most)` : ''}`,
      range, selectionRange, children,
    });
  }
  return out;
}

/** view: as for documentSymbols (a session whose text was edited since is left out). */
export function foldingRanges(m: DocModel, view: TextView = m.view()): FoldingRange[] {
  const h = m.history;
  const out: FoldingRange[] = [];
  for (let s = 0; s < h.sessionCount; s++) {
    const e = sessionExtent(h, s);
    const range = view.range(e.start, e.end);
    if (!range) continue;
    const startLine = range.start.line;
    const endLine = range.end.line;
    if (endLine > startLine) out.push({ startLine, endLine, kind: 'region' });
  }
  return out;
}
