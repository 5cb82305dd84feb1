// Hover: on a read, its source and what it contributes to each violated level; on a write, its readers; on a header, the transaction and its commit orders.

import type { Hover, Position } from 'vscode-languageserver-protocol';
import { BOTTOM, OP_APPEND, OP_LIST_READ, OP_READ, OP_WRITE } from '../../engine/model/history.ts';
import { appendHover, listReadHover } from './list-hover.ts';
import { readLevelSection, txnLevelSection } from './level-hover.ts';
import { levelById, type Level } from '../../engine/levels/levels.ts';
import { visibleSet } from '../../engine/strong/verify-order.ts';
import { headerOrOpAt, readsOfWrite } from '../../engine/queries.ts';
import type { DocModel } from '../doc-model.ts';
import type { TextView } from '../text-view.ts';
import { code, md, opText, ordinal, txnLabel } from './text.ts';

const MAX_READERS = 12;

/**
 * view: where the model's offsets stand in the client's text (an older analysis answers for the
 * unchanged part while a newer version is analysed); a hover whose own range was edited is null.
 * What is hovered: see headerOrOpAt.
 */
export function hoverAt(m: DocModel, position: Position, view: TextView = m.view()): Hover | null {
  const offset = view.offset(position);
  const h = m.history;
  const { txn: t, op: o } = headerOrOpAt(h, offset, m.txnOrder, m.opOrder);
  if (t >= 1) {
    const range = view.range(m.ranges.txnStart[t], m.ranges.txnEnd[t]);
    return range ? { contents: { kind: 'markdown', value: txnHover(m, t) }, range } : null;
  }
  if (o < 0) return null;
  const kind = h.opKind[o];
  const value = kind === OP_LIST_READ ? [listReadHover(m, o), ...readLevelSection(m, o)].join('\n') : kind === OP_APPEND ? appendHover(m, o) : kind === OP_READ ? readHover(m, o, view) : kind === OP_WRITE ? writeHover(m, o) : null;
  const range = view.range(m.ranges.opStart[o], m.ranges.opEnd[o]);
  return value && range ? { contents: { kind: 'markdown', value: [value, ...notRunNote(m, h.opTxn[o])].join('\n') }, range } : null;
}

function readHover(m: DocModel, o: number, view: TextView): string {
  const h = m.history;
  const reader = h.opTxn[o];
  const src = m.readsFrom.observedTxn[o];
  const w = m.readsFrom.observedWrite[o];
  const head = `${code(opText(h, o))} in ${code(h.names.txnName(reader))}`;
  // The write's line in the client's text; none when the edit since the analysis touched it.
  const line = w >= 0 ? view.line(m.ranges.opStart[w]) : null;
  let source: string;
  if (src === BOTTOM) source = `reads the initial value of ${code(h.names.keyName(h.opKey[o]))} from ⊥`;
  else if (src < 0) source = 'reads from no write of this history (see the diagnostic)';
  else if (src === reader) source = `reads its own transaction's write${w >= 0 ? ` ${code(opText(h, w))}` : ''}${line !== null ? ` (line ${line + 1})` : ''}`;
  else source = `reads from ${code(h.names.txnName(src))}${w >= 0 ? `: ${code(opText(h, w))}${line !== null ? ` at line ${line + 1}` : ''}` : ''}`;
  return [`${head} ${source}`, ...readLevelSection(m, o)].join('\n');
}

function txnShort(m: DocModel, t: number): string {
  return t === BOTTOM ? '⊥' : m.history.names.txnName(t);
}

function writeHover(m: DocModel, o: number): string {
  const h = m.history;
  const readers = readsOfWrite(m.readsByWrite, o);
  const head = `${code(opText(h, o))} in ${code(h.names.txnName(h.opTxn[o]))}`;
  if (readers.length === 0) return `${head} — no read returns this write`;
  const names = Array.from(readers.subarray(0, MAX_READERS), (r) => code(h.names.txnName(h.opTxn[r])));
  const more = readers.length > MAX_READERS ? `, … (${readers.length - MAX_READERS} more)` : '';
  return `${head} — read by ${readers.length} read${readers.length === 1 ? '' : 's'}: ${names.join(', ')}${more}`;
}

function txnHover(m: DocModel, t: number): string {
  const h = m.history;
  const s = h.txnSession[t];
  const first = h.sessionTxnStart[s];
  const count = h.sessionTxnStart[s + 1] - first;
  const i = h.txnIndexInSession[t];
  const around: string[] = [];
  if (i > 0) around.push(`after ${code(h.names.txnName(h.sessionTxns[first + i - 1]))}`);
  if (i + 1 < count) around.push(`before ${code(h.names.txnName(h.sessionTxns[first + i + 1]))}`);
  // A transaction the checks leave out (an `unknown` one nobody read) has no level in the mixed check (-1).
  const mixedLevel = m.mixedLevels?.[t] ?? -1;
  const level = h.txnLevel[t] >= 0
    ? `${code(levelById(h.txnLevel[t]))} (its own tag)`
    : mixedLevel >= 0 ? `${code(levelById(mixedLevel))} (the file's \`level\`, or SER)`
      : m.mixedLevels ? 'untagged: the file\'s `level`, or SER' : 'untagged: each checked level applies';
  const ops = h.txnOpStart[t + 1] - h.txnOpStart[t];
  return [
    `**${md(txnLabel(h, t))}** — ${ordinal(i + 1)} of ${count} transaction${count === 1 ? '' : 's'} in session ${code(h.names.sessionName(s))}${around.length > 0 ? ` (${around.join(', ')})` : ''}`,
    '',
    `- level: ${level}`,
    `- status: ${statusOf(m, t)}`,
    `- ${ops} operation${ops === 1 ? '' : 's'}`,
    ...notRunNote(m, t),
    ...txnLevelSection(m, t),
    ...mixedVisibility(m, t),
  ].join('\n');
}

/** Readers named in an unknown transaction's status at most. */
const MAX_STATUS_READERS = 3;

/**
 * committed, aborted, or unknown and how it counts (spec): as committed when a committed
 * transaction read from it, as never having run otherwise.
 */
function statusOf(m: DocModel, t: number): string {
  const h = m.history;
  if (h.txnAborted[t] === 1) return 'aborted';
  if (h.txnUnknown?.[t] !== 1) return 'committed';
  if (m.notRun?.[t] === 1) return 'unknown (never read: counts as not run)';
  const readers: string[] = [];
  let registers = false;
  for (let w = h.txnOpStart[t]; w < h.txnOpStart[t + 1]; w++) {
    if (h.opKind[w] === OP_READ) registers = true;
    if (h.opKind[w] !== OP_WRITE) continue;
    registers = true;
    for (const r of readsOfWrite(m.readsByWrite, w)) {
      const u = h.opTxn[r];
      if (u !== t && m.notRun?.[u] !== 1 && !readers.includes(h.names.txnName(u))) readers.push(h.names.txnName(u));
    }
  }
  if (readers.length > 0) {
    const named = readers.slice(0, MAX_STATUS_READERS).map(code).join(', ');
    return `unknown (read by ${named}${readers.length > MAX_STATUS_READERS ? ', …' : ''}: counts as committed)`;
  }
  // Counted through an ambiguous read or a list read; a list-only one is the list-append analysis's to include or not.
  return registers ? 'unknown (a committed transaction read from it: counts as committed)' : 'unknown (the list-append analysis decides whether it ran)';
}

/** On an unknown transaction that never ran (and its operations): why the verdicts leave it out. */
function notRunNote(m: DocModel, t: number): string[] {
  return m.notRun?.[t] === 1 ? ['', `${code(m.history.names.txnName(t))} is \`unknown\` and no committed transaction read from it: it counts as never having run, and the checks leave it out`] : [];
}

/** Transactions up to which a hover computes a visible set (quadratic in the history). */
const MAX_VISIBILITY_TXNS = 3000;

/** Under the mixed verdict: what the transaction had to see in the commit order found, or why none exists. */
function mixedVisibility(m: DocModel, t: number): string[] {
  const v = m.mixed;
  const levels = m.mixedLevels;
  if (!v || !levels || m.history.txnAborted[t] === 1 || m.notRun?.[t] === 1) return [];
  if (v.consistent === false) return ['', `**No commit order** satisfies every transaction's level: ${md(v.witness?.message ?? '')}`];
  if (v.consistent === null) return ['', `The mixed verdict is undecided: ${md(v.note ?? '')}`];
  if (!v.order || m.history.txnCount > MAX_VISIBILITY_TXNS) return [];
  const levelOf = (u: number): Level => levelById(levels[u]);
  const seen = visibleSet(m.history, m.readsFrom, levelOf, v.order, t).map((u) => code(txnShort(m, u)));
  const position = v.order.indexOf(t);
  return ['', `**Under the commit order found** (${ordinal(position + 1)} of ${v.order.length}), at ${code(levelOf(t))} it sees: ${seen.length > 0 ? seen.join(', ') : 'only the initial state'}`];
}
