// List-append hovers and navigation: the version order a list read implies, its ww/rw/wr edges, an append's position, element → append.

import { OP_APPEND, OP_LIST_READ } from '../../engine/model/history.ts';
import { inferListAppend, listOf, listText, LK_RW, LK_WR, LK_WW, type ListInference } from '../../engine/listappend/infer.ts';
import { edgeSentence, explainEdge } from '../../engine/listappend/list-analysis.ts';
import type { DocModel } from '../doc-model.ts';
import { code, md, opText } from './text.ts';

/** Edges listed per hover at most (a long list read shows many ww edges). */
const MAX_EDGES = 12;

/** The list-append inference of this document version, computed once (null without list operations). */
export function listInference(m: DocModel): ListInference | null {
  return m.cached('list-inference', () => (m.history.opListStart ? inferListAppend(m.history) : null));
}

/** Hover on a list read: what it returned, the version order of its key, and the edges it shows. */
export function listReadHover(m: DocModel, o: number): string {
  const h = m.history;
  const inf = listInference(m);
  const head = `${code(opText(h, o))} in ${code(h.names.txnName(h.opTxn[o]))}`;
  if (!inf) return head;
  const k = h.opKey[o];
  const order = listText(h, inf.verElems.subarray(inf.verStart[k], inf.verStart[k + 1]));
  const n = listOf(h, o).length;
  const total = inf.verStart[k + 1] - inf.verStart[k];
  const out = [
    `${head} read ${n} of the ${total} observed version${total === 1 ? '' : 's'} of ${code(h.names.keyName(k))}`,
    '', `**Version order of ${md(h.names.keyName(k))}** (from the longest read and its prefixes): ${md(order)}`,
  ];
  const edges: string[] = [];
  const e = inf.edges;
  let count = 0;
  for (let i = 0; i < e.length; i++) {
    const kind = e.kind.data[i];
    if (e.op.data[i] !== o || (kind !== LK_WW && kind !== LK_RW && kind !== LK_WR)) continue;
    if (++count > MAX_EDGES) continue;
    const x = explainEdge(inf, { from: e.from.data[i], to: e.to.data[i], kind, index: i });
    edges.push(`- ${md(edgeSentence(x))}`);
  }
  if (count > 0) {
    out.push('', `**Edges this read shows** (${count})`, '', ...edges);
    if (count > MAX_EDGES) out.push(`- … and ${count - MAX_EDGES} more`);
  } else out.push('', 'This read shows no edge between transactions.');
  return out.join('\n');
}

/** Hover on an append: where its element stands in its key's version order. */
export function appendHover(m: DocModel, o: number): string {
  const h = m.history;
  const inf = listInference(m);
  const head = `${code(opText(h, o))} in ${code(h.names.txnName(h.opTxn[o]))}`;
  if (!inf) return head;
  const k = h.opKey[o];
  const pos = inf.appendPos[o];
  const total = inf.verStart[k + 1] - inf.verStart[k];
  if (pos < 0) return `${head}: no read observed this element; it follows every observed version of ${code(h.names.keyName(k))}`;
  const readBy = inf.longestRead[k] >= 0 ? ` (${code(h.names.txnName(h.opTxn[inf.longestRead[k]]))} read the whole order)` : '';
  return `${head}: position ${pos + 1} of ${total} in the version order of ${code(h.names.keyName(k))}${readBy}`;
}

/**
 * Go to definition from a list read: the append of the element under the cursor (the last
 * element when the cursor is on the read but not on an element), or -1.
 */
export function listElementAppend(m: DocModel, o: number, offset: number): number {
  const h = m.history;
  const inf = listInference(m);
  if (!inf || h.opKind[o] !== OP_LIST_READ) return -1;
  const list = listOf(h, o);
  if (list.length === 0) return -1;
  let index = list.length - 1;
  const text = m.sourceText();
  if (text !== null) {
    const start = m.ranges.opStart[o];
    const open = text.indexOf('[', start);
    if (open >= 0 && open < offset && offset <= m.ranges.opEnd[o]) {
      let commas = 0;
      for (let i = open + 1; i < offset; i++) if (text.charCodeAt(i) === 44) commas++;
      index = Math.min(commas, list.length - 1);
    }
  }
  const a = inf.appenderOf(h.opKey[o], list[index]);
  return a >= 0 && h.opKind[a] === OP_APPEND ? a : -1;
}
