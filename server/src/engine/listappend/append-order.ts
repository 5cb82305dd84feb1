// The append-order warning: a version order that holds one transaction's appends to a key out of its program order, or a later one without the earlier.

import { finding, type CappedFindings, type Finding } from '../model/diagnostics.ts';
import { OP_APPEND, type History } from '../model/history.ts';
import { opSpan, txnSpan } from '../model/reads-from.ts';
import { listOf, listTextShort } from './list-text.ts';

/** What the check reads of the inference (infer.ts): each key's version order as append ops, and its longest read. */
export interface VersionOrder {
  verStart: Int32Array;
  /** The append op of each version, -1 for an element nobody appended. */
  verApp: Int32Array;
  longestRead: Int32Array;
  /** 1 for a key whose reads already disagree (incompatible-order): its version order proves nothing more. */
  incompatibleKeys: Uint8Array;
}

/**
 * `T1: a(x, 1) a(x, 2)`, `T2: r(x, [2])`: no state of x is [2], yet the commit-order axioms, the
 * spec's reference, forbid nothing there (T2 reads x from T1; the only other append to x is T1's own,
 * and the axioms' overwriter is another transaction), so every level holds. Elle's catalogue has no
 * name for it either. A database that returns such a list is still broken, so it is a warning: it
 * tells the user without changing a verdict. Interleavings with another transaction's appends
 * ([1, 3, 2]) are G0 cycles and not repeated here; the reading transaction's own appends are the
 * `internal` check's; aborted appenders are G1a's. One warning per key at most.
 */
export function appendOrderFindings(h: History, v: VersionOrder, findings: CappedFindings): void {
  const { opKind, opKey, opTxn, opValue, txnOpStart, txnCount, txnAborted, names } = h;
  // Per append op: the same transaction's previous append to the same key (program order), or -1.
  const prevApp = new Int32Array(h.opCount).fill(-1);
  const lastOfKey = new Int32Array(h.keyCount).fill(-1);
  for (let t = 1; t < txnCount; t++) {
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) {
      if (opKind[o] !== OP_APPEND) continue;
      prevApp[o] = lastOfKey[opKey[o]];
      lastOfKey[opKey[o]] = o;
    }
    for (let o = txnOpStart[t]; o < txnOpStart[t + 1]; o++) if (opKind[o] === OP_APPEND) lastOfKey[opKey[o]] = -1;
  }
  // Per transaction: its append met last in the key's version order being walked (reset per key).
  const lastSeen = new Int32Array(txnCount).fill(-1);
  const touched: number[] = [];
  for (let k = 0; k < h.keyCount && findings.wants('append-order'); k++) {
    const read = v.longestRead[k];
    if (read < 0 || v.incompatibleKeys[k] === 1) continue;
    const reader = opTxn[read];
    for (let i = v.verStart[k]; i < v.verStart[k + 1]; i++) {
      const a = v.verApp[i];
      if (a < 0) continue;
      const u = opTxn[a];
      if (u === reader || txnAborted[u] === 1) continue;
      const before = lastSeen[u];
      if (before === a) continue; // the element twice: a duplicate-element error already
      if (before !== prevApp[a]) {
        findings.push(warning(k, read, a, prevApp[a], before));
        break;
      }
      if (before < 0) touched.push(u);
      lastSeen[u] = a;
    }
    for (const u of touched) lastSeen[u] = -1;
    touched.length = 0;
  }

  function warning(k: number, read: number, a: number, earlier: number, seen: number): Finding {
    const key = names.keyName(k);
    const txn = names.txnName(opTxn[a]);
    const value = (o: number): string => names.valueText(opValue[o]);
    const shown = `${names.txnName(opTxn[read])} read ${key} = ${listTextShort(h, listOf(h, read))}`;
    // The first place the walk went wrong: an append whose predecessor in its transaction did not come
    // right before it among that transaction's elements (missing, or after it), or a first append met late.
    const other = earlier >= 0 ? earlier : seen;
    const why = earlier >= 0
      ? `${txn}'s append of ${value(a)} but not, before it, ${txn}'s earlier append of ${value(earlier)}`
      : `${txn}'s first append, ${value(a)}, after ${txn}'s later append of ${value(seen)}`;
    return finding('append-order', 'warning',
      `${shown}: it holds ${why}, which no state of ${key} does (appends enter a list in their program order); the commit-order axioms forbid nothing here, so no level is broken`,
      txnSpan(h, opTxn[read]),
      [{ span: opSpan(h, read), message: `the read of ${key}` }, { span: opSpan(h, a), message: `${txn}'s append of ${value(a)}` },
        { span: opSpan(h, other), message: `${txn}'s append of ${value(other)}` }]);
  }
}
