// The read-consistency stage: reads-from, its findings, and what "partial" means for a history with syntax errors.

import { finding, type Finding } from '../model/diagnostics.ts';
import { OP_READ, type History } from '../model/history.ts';
import { computeReadsFrom, type ReadsFrom } from '../model/reads-from.ts';
import { restrictHistory } from '../model/restrict.ts';
import { unreadUnknowns } from '../model/unknown-txns.ts';

export interface ReadStage {
  h: History;
  rf: ReadsFrom;
  /** The source has syntax errors: verdicts are for what parsed. */
  partial: boolean;
  /** Nothing parsed at all: no verdict. */
  nothingRead: boolean;
}

/**
 * Reads-from and its findings, on the history without the unknown transactions that never ran.
 * With syntax errors the verdicts are for what parsed: a read of a value no parsed write wrote may
 * come from a line that did not parse, so it is a `thin-air` warning, not an error, and it is left
 * out of the checks (the history is restricted to the other operations). One typo, one error.
 */
export function readStage(source: History, sourceFindings: readonly Finding[]): ReadStage {
  const partial = sourceFindings.some((f) => f.code === 'syntax');
  const nothingRead = partial && source.opCount === 0;
  let history = source;
  let rf = computeReadsFrom(history);
  // An unknown transaction nobody counted read from never ran (spec): it leaves the history, with
  // its reads, writes, place in its session and times.
  const unread = unreadUnknowns(history, rf);
  if (unread) {
    history = restrictHistory(history, rf, unread.txns.map((x, t) => (t === 0 || x === 0 ? 1 : 0)), unread.ops);
    rf = computeReadsFrom(history);
  }
  if (!partial || !rf.findings.some((f) => f.code === 'thin-air')) return { h: history, rf, partial, nothingRead };
  const drop = new Uint8Array(history.opCount);
  for (let o = 0; o < history.opCount; o++) if (history.opKind[o] === OP_READ && rf.observedTxn[o] < 0) drop[o] = 1;
  const h = restrictHistory(history, rf, new Uint8Array(history.txnCount).fill(1), drop);
  const findings = rf.findings.map((f) => (f.code !== 'thin-air' ? f : finding('thin-air', 'warning',
    `${f.message}; this file has syntax errors, so the write may be on a line that did not parse: the read is left out of the checks`, f.span)));
  return { h, rf: { ...computeReadsFrom(h), findings }, partial, nothingRead };
}
