// A history as lines a test can compare: per transaction in session order, `session/name status @ start..end: ops`.

import { OP_APPEND, OP_LIST_READ, OP_READ, OP_WRITE, type History } from '../../server/src/engine/model/history.ts';

/** One line per transaction; `timesWhenSet`: leave out ` @ …` for a transaction without times (else `@ undefined..undefined` / `NaN`). */
export function describeHistory(h: History, timesWhenSet = false): string[] {
  const out: string[] = [];
  for (let s = 0; s < h.sessionCount; s++) {
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      const t = h.sessionTxns[i];
      const status = h.txnAborted[t] === 1 ? ' aborted' : h.txnUnknown?.[t] === 1 ? ' unknown' : '';
      const ops: string[] = [];
      for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
        const k = h.names.keyName(h.opKey[o]);
        if (h.opKind[o] === OP_APPEND) ops.push(`a(${k}, ${h.names.valueText(h.opValue[o])})`);
        else if (h.opKind[o] === OP_WRITE) ops.push(`w(${k}, ${h.names.valueText(h.opValue[o])})`);
        else if (h.opKind[o] === OP_READ) ops.push(`r(${k}, ${h.names.valueText(h.opValue[o])})`);
        else if (h.opKind[o] === OP_LIST_READ) {
          const l = h.opListStart as Int32Array;
          ops.push(`r(${k}, [${Array.from((h.listElems as Int32Array).subarray(l[o], l[o + 1]), (v) => h.names.valueText(v)).join(', ')}])`);
        }
      }
      const unset = Number.isNaN(h.txnTimeStart?.[t] ?? NaN);
      const time = timesWhenSet && unset ? '' : ` @ ${h.txnTimeStart?.[t]}..${h.txnTimeEnd?.[t]}`;
      out.push(`${h.names.sessionName(s)}/${h.names.txnName(t)}${status}${time}: ${ops.join(' ')}`);
    }
  }
  return out;
}
