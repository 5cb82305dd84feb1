// How an open document's text follows the client's edits: the library's update, with its line table kept true to the text.

import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

/**
 * vscode-languageserver-textdocument keeps its line starts up to date edit by edit, and two kinds
 * of edit leave its table unlike the text: a range whose lines lie past the document's end (a
 * client's "end of document" as `{ line: lineCount, character: 0 }`), whose line numbers it uses
 * as they are, and an edit that joins a `\r` and a `\n` into one `\r\n` (a `\r` typed at the end
 * of a line of a `\n` file, a `\n` typed after a lone `\r`, the character between them deleted),
 * which keeps both line breaks. From then on positions land on the wrong characters: the client's
 * next edit changes the wrong text, and the diagnostics are those of a text the client never had.
 * So each range is first made the positions of the offsets it names (the same text changes), and
 * after a join the document is made again from its text, which counts its lines afresh (lazily).
 */
function update(doc: TextDocument, changes: TextDocumentContentChangeEvent[], version: number): TextDocument {
  // One version's changes apply whole or not at all: a malformed one halfway would leave the
  // earlier ones applied under the old version number, which no later check would look at again.
  const bad = changes.findIndex((c) => !wellFormed(c));
  if (bad >= 0) throw new Error(`change ${bad + 1} of ${changes.length} to ${doc.uri} is malformed (${JSON.stringify(changes[bad])?.slice(0, 200)}); none of this version's changes was applied`);
  let d = doc;
  for (const change of changes) {
    if (!('range' in change)) {
      d = TextDocument.update(d, [change], version);
      continue;
    }
    let { start, end } = change.range;
    if (start.line > end.line || (start.line === end.line && start.character > end.character)) [start, end] = [end, start];
    const from = d.offsetAt(start);
    const to = d.offsetAt(end);
    const joins = joinsLineBreaks(d.getText(), from, to, change.text);
    d = TextDocument.update(d, [{ range: { start: d.positionAt(from), end: d.positionAt(to) }, text: change.text }], version);
    if (joins) d = TextDocument.create(d.uri, d.languageId, version, d.getText());
  }
  return d;
}

/** A full text, or a text and a range of two positions of integers (of any size: they are clamped to the document). */
function wellFormed(change: unknown): change is TextDocumentContentChangeEvent {
  if (typeof change !== 'object' || change === null) return false;
  const c = change as Record<string, unknown>;
  if (typeof c.text !== 'string') return false;
  if (c.range === undefined) return c.rangeLength === undefined;
  const r = c.range as Record<string, unknown> | null;
  return typeof r === 'object' && r !== null && isPosition(r.start) && isPosition(r.end);
}

function isPosition(p: unknown): boolean {
  const q = p as Record<string, unknown> | null;
  return typeof q === 'object' && q !== null && Number.isInteger(q.line) && Number.isInteger(q.character);
}

/** Whether writing `insert` over text[from, to) puts a `\r` right before a `\n` that it did not write together. */
function joinsLineBreaks(text: string, from: number, to: number, insert: string): boolean {
  const before = from > 0 ? text.charCodeAt(from - 1) : -1;
  const after = to < text.length ? text.charCodeAt(to) : -1;
  const first = insert.length > 0 ? insert.charCodeAt(0) : after;
  const last = insert.length > 0 ? insert.charCodeAt(insert.length - 1) : before;
  return (before === CR && first === LF) || (last === CR && after === LF);
}

const CR = 13;
const LF = 10;

/** The TextDocuments configuration of the server's open documents. */
export const SyncedDocument = { create: TextDocument.create, update };
