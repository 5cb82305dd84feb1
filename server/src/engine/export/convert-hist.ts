// Any history as a .hist file (the converter): sessions, statuses, real-time intervals, writes, reads and lists.

import { INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, type History } from '../model/history.ts';
import { histKey, histString, histValue } from './hist-writer.ts';

/** Writes h as .hist text in chunks: what `isocheck convert` produces from EDN, JSON lines or plume input. */
export function writeHistoryAsHist(h: History, title: string, sink: (chunk: string) => void): void {
  let buf = `# Converted by isocheck convert.\nhistory ${histString(title)}\n`;
  const names = new Set<string>();
  const ident = (name: string, prefix: string, fallback: number): string => {
    let id = /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) ? name : `${prefix}${fallback}`;
    while (names.has(id)) id = `${id}_`;
    names.add(id);
    return id;
  };
  const txnNames: string[] = [''];
  for (let t = 1; t < h.txnCount; t++) txnNames.push(ident(h.names.txnName(t), 'T', t));
  const lists = h.opListStart;
  const elems = h.listElems;
  for (let s = 0; s < h.sessionCount; s++) {
    if (h.sessionTxnStart[s] === h.sessionTxnStart[s + 1]) continue;
    buf += `\nsession ${ident(h.names.sessionName(s), 's', s)}\n`;
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      const status = h.txnAborted[t] === 1 ? ' aborted' : h.txnUnknown?.[t] === 1 ? ' unknown' : '';
      const time = h.txnTimeStart && !Number.isNaN(h.txnTimeStart[t]) ? ` @ ${h.txnTimeStart[t]}..${(h.txnTimeEnd as Float64Array)[t]}` : '';
      buf += `  ${txnNames[t]}${status}${time}:`;
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
        const key = histKey(h.names.keyName(h.opKey[o]));
        const v = h.opValue[o];
        const kind = h.opKind[o];
        if (kind === OP_LIST_READ && lists && elems) {
          const items: string[] = [];
          for (let j = lists[o]; j < lists[o + 1]; j++) items.push(histValue(h.names.valueText(elems[j])));
          buf += ` r(${key}, [${items.join(', ')}])`;
        } else if (kind === OP_READ) {
          const src = h.opSource[o] >= 0 ? ` <- ${txnNames[h.opSource[o]]}` : '';
          buf += ` r(${key}${v === INIT_VALUE ? ', init' : v === NO_VALUE ? '' : `, ${histValue(h.names.valueText(v))}`})${src}`;
        } else buf += ` ${kind === OP_APPEND ? 'a' : 'w'}(${key}, ${histValue(h.names.valueText(v))})`;
      }
      buf += '\n';
      if (buf.length > 1 << 16) {
        sink(buf);
        buf = '';
      }
    }
  }
  sink(buf);
}
