// The reader of IsoCheck's own history language (.hist), which refuses dbcop files with one clear error.

import { finding } from '../model/diagnostics.ts';
import { parseHist } from '../syntax/hist-parser.ts';
import { LineIndex } from '../syntax/line-index.ts';
import { looksLikeDbcopJson, looksLikeDbcopText } from './dbcop-reader.ts';
import { textOf, type HistoryReader, type ReaderInput, type ReaderOptions, type ReadSource } from './reader.ts';

/** Offsets of the first line that is not blank and not a comment, for the one error of a foreign file. */
function firstContentSpan(text: string): { start: number; end: number } {
  const m = /^(?:[ \t]*(?:\/\/[^\r\n]*)?(?:\r\n|\r|\n))*[ \t]*/.exec(text);
  const start = m ? m[0].length : 0;
  let end = start;
  while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
  return { start, end: Math.max(end, start) };
}

export function readHist(input: ReaderInput, options: ReaderOptions = {}): ReadSource {
  const text = textOf(input);
  const head = text.slice(0, 4096);
  const json = looksLikeDbcopJson(head);
  if (json || looksLikeDbcopText(head)) {
    // Parsed as .hist, a dbcop file yields an error per line: say once what it is instead.
    const p = parseHist('');
    const form = json ? "dbcop's JSON form" : "dbcop's text form ([x:=1 y==2] transactions, --- between sessions)";
    const message = `this looks like a history in ${form}, not the IsoCheck history language: read it with \`isocheck check --format dbcop\` (or name it .dbcop)`;
    return { history: p.history, lines: LineIndex.ofText(text), findings: [finding('syntax', 'error', message, firstContentSpan(text))], directives: p.directives, hasTags: false, firstListOp: null };
  }
  const p = parseHist(text, options.stop);
  return { history: p.history, lines: LineIndex.ofText(text), findings: p.findings, directives: p.directives, hasTags: p.hasTags, firstListOp: p.firstListOp };
}

export const HIST_READER: HistoryReader = {
  name: 'hist',
  description: "IsoCheck's history language (sessions, named transactions, directives)",
  extensions: ['.hist'],
  read: (input, options) => readHist(input, options),
};
