// The read-consistency stage: reads-from, its findings, and what "partial" means for a history with syntax errors.

import { finding, type Finding } from '../model/diagnostics.ts';
import { OP_READ, type History } from '../model/history.ts';
import { computeReadsFrom, type ReadsFrom } from '../model/reads-from.ts';
import { composeOrigin, restrictWithOrigin, type Restricted } from '../model/restrict.ts';
import { unreadUnknowns } from '../model/unknown-txns.ts';

export interface ReadStage {
  h: History;
  rf: ReadsFrom;
  /** The source has syntax errors: verdicts are for what parsed. */
  partial: boolean;
  /** Nothing parsed at all: no verdict. */
  nothingRead: boolean;
  /** The history as written when `h` is less of it (unknown transactions that never ran, reads left out); else null. */
  written: WrittenHistory | null;
}

/**
 * What the source says, for editor features that show the text as written; verdicts, witnesses
 * and forced edges are in the ids of the checked history, txnOrigin / opOrigin map them here.
 */
export interface WrittenHistory {
  h: History;
  rf: ReadsFrom;
  /** Per written transaction: 1 for an `unknown` one that counts as never having run (left out of the checks). */
  notRun: Uint8Array;
  /** The written id of each checked transaction and operation. */
  txnOrigin: Int32Array;
  opOrigin: Int32Array;
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
  const sourceRf = computeReadsFrom(source);
  let restricted: Restricted | null = null;
  let rf = sourceRf;
  // An unknown transaction nobody counted read from never ran (spec): it leaves the history, with
  // its reads, writes, place in its session and times.
  const unread = unreadUnknowns(source, sourceRf);
  const notRun = new Uint8Array(source.txnCount);
  if (unread) {
    for (let t = 1; t < source.txnCount; t++) notRun[t] = unread.txns[t];
    if (unread.ops) for (let o = 0; o < source.opCount; o++) if (unread.ops[o] === 1) notRun[source.opTxn[o]] = 1;
    restricted = restrictWithOrigin(source, sourceRf, unread.txns.map((x, t) => (t === 0 || x === 0 ? 1 : 0)), unread.ops, unread.aborted);
    rf = computeReadsFrom(restricted.h);
  }
  const history = restricted?.h ?? source;
  const written = (r: Restricted | null): WrittenHistory | null => (r ? { h: source, rf: sourceRf, notRun, txnOrigin: r.txnOrigin, opOrigin: r.opOrigin } : null);
  if (!partial || !rf.findings.some((f) => f.code === 'thin-air')) return { h: history, rf, partial, nothingRead, written: written(restricted) };
  const drop = new Uint8Array(history.opCount);
  for (let o = 0; o < history.opCount; o++) if (history.opKind[o] === OP_READ && rf.observedTxn[o] < 0) drop[o] = 1;
  const inner = restrictWithOrigin(history, rf, new Uint8Array(history.txnCount).fill(1), drop);
  const findings = rf.findings.map((f) => (f.code !== 'thin-air' ? f : finding('thin-air', 'warning',
    `${f.message}; this file has syntax errors, so the write may be on a line that did not parse: the read is left out of the checks`, f.span)));
  const innerRf = computeReadsFrom(inner.h);
  innerRf.findings = findings; // assigned, not spread: observedWrite is derived on first use
  return { h: inner.h, rf: innerRf, partial, nothingRead, written: written(restricted ? composeOrigin(restricted, inner) : inner) };
}
