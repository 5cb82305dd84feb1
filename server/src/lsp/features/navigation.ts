// Go to definition (a read → the write it observed; a list element → its append) and references (a write → every read of it).

import type { Location, Position } from 'vscode-languageserver-protocol';
import { OP_LIST_READ, OP_READ, OP_WRITE } from '../../engine/model/history.ts';
import { listElementAppend } from './list-hover.ts';
import { headerOrOpAt, opAt, readsOfWrite } from '../../engine/queries.ts';
import type { DocModel } from '../doc-model.ts';
import type { TextView } from '../text-view.ts';

function opLocation(m: DocModel, o: number, view: TextView = m.view()): Location | null {
  const range = view.range(m.ranges.opStart[o], m.ranges.opEnd[o]);
  return range ? { uri: m.uri, range } : null;
}

/** view: see hoverAt; a target the edit since the analysis touched has no definition (null). */
export function definitionAt(m: DocModel, position: Position, view: TextView = m.view()): Location | null {
  const offset = view.offset(position);
  const o = opAt(m.history, offset, m.opOrder);
  if (o >= 0 && m.history.opKind[o] === OP_LIST_READ) {
    const a = listElementAppend(m, o, offset);
    return a >= 0 ? opLocation(m, a, view) : null;
  }
  if (o < 0 || m.history.opKind[o] !== OP_READ) return null;
  const w = m.readsFrom.observedWrite[o];
  return w >= 0 ? opLocation(m, w, view) : null;
}

/**
 * On a write: its reads. On a read: the write it observed and that write's reads. On a transaction
 * header: every read of its writes by other transactions.
 */
export function referencesAt(m: DocModel, position: Position, includeDeclaration: boolean): Location[] {
  const h = m.history;
  const offset = m.lines.offset(position);
  const out: Location[] = [];
  const add = (op: number): void => {
    const l = opLocation(m, op);
    if (l) out.push(l);
  };
  const { txn: t, op: o } = headerOrOpAt(h, offset, m.txnOrder, m.opOrder);
  if (t >= 1) {
    for (let w = h.txnOpStart[t]; w < h.txnOpStart[t + 1]; w++) {
      if (h.opKind[w] !== OP_WRITE) continue;
      for (const r of readsOfWrite(m.readsByWrite, w)) if (h.opTxn[r] !== t) add(r);
    }
    return out;
  }
  if (o < 0) return [];
  const w = h.opKind[o] === OP_WRITE ? o : h.opKind[o] === OP_READ ? m.readsFrom.observedWrite[o] : -1;
  if (w < 0) return [];
  if (includeDeclaration) add(w);
  for (const r of readsOfWrite(m.readsByWrite, w)) add(r);
  return out;
}
