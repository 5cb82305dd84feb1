// What the quick fixes read: the client's text through its own line table, and the analysed history where it still describes that text.

import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-protocol';
import { OP_READ, type History } from '../../engine/model/history.ts';
import { opAt, opsBySourceOrder, opsInSourceOrder } from '../../engine/queries.ts';
import { parseHist } from '../../engine/syntax/hist-parser.ts';
import type { DocModel } from '../doc-model.ts';

/** Keeps a value derived from one analysed version for the next request of that version (VS Code asks on every cursor move). */
export type QuickFixMemo = <T>(key: string, make: () => T) => T;

export interface FixSource {
  /** The text the client shows: a fix's edits are positions in it. */
  doc: TextDocument;
  /** The history, when there is one: its operations answer for the positions `readAt` accepts. */
  history: History | null;
  /** The read operation that starts at p (a position of `doc`), or -1 when there is none or the history no longer describes the text there. */
  readAt(p: Position): number;
  memo: QuickFixMemo;
}

const NO_MEMO: QuickFixMemo = (_, make) => make();

/**
 * From the document's latest analysis, parsing nothing: parsing a 7.9 MB document on the message
 * loop took 0.65 s per request while its analysis was running, and every other request waited.
 * An analysis of an older version still answers for the text before the first edit since (as hover
 * does); a read further on gets no fix until its version is analysed.
 */
export function fixSourceOfModel(doc: TextDocument, m: DocModel | null): FixSource {
  if (!m) return { doc, history: null, readAt: () => -1, memo: NO_MEMO };
  const text = doc.getText();
  const analysed = m.analysed(doc.version, text);
  // How much of the text the analysis still describes: all of it, or (compared once per version) what precedes the first edit.
  const unchanged = (): number => (analysed ? Infinity : m.unchangedPrefix(doc.version, text));
  return {
    doc,
    history: m.history,
    readAt: (p) => readStartingAt(m.history, doc.offsetAt(p), m.opOrder, unchanged()),
    memo: analysed ? (key, make) => m.cached(`quickfix:${key}`, make) : NO_MEMO,
  };
}

/** From a text alone, parsed here (tests, and hosts without an analysis of it). */
export function fixSourceOfText(text: string): FixSource {
  const doc = TextDocument.create('file:///fix-source.hist', 'hist', 0, text);
  const h = parseHist(text).history;
  const order = opsInSourceOrder(h) ? null : opsBySourceOrder(h);
  return { doc, history: h, readAt: (p) => readStartingAt(h, doc.offsetAt(p), order, Infinity), memo: NO_MEMO };
}

/** The read op whose span starts at offset and ends before `before` (the text after it may have changed), or -1. */
function readStartingAt(h: History, offset: number, order: Int32Array | null, before: number): number {
  const o = opAt(h, offset, order);
  const r = h.ranges;
  return o >= 0 && r && r.opStart[o] === offset && h.opKind[o] === OP_READ && r.opEnd[o] <= before ? o : -1;
}
