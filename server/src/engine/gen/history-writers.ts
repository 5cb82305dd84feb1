// Writers that stream a generated (columnar) history as plume text or as a `.hist` file, in chunks.
//
// Both formats name transaction t of the GeneratedHistory by its index: plume txn id t, `.hist`
// transaction `T<t>`, so a finding in one file can be looked up in the other.

import type { GeneratedHistory } from './generate.ts';

/** Receives the text piece by piece, e.g. to write it to a stream without one giant string. */
export type TextSink = (chunk: string) => void;

/** Chunks are handed out once they reach about this many characters. */
const CHUNK_CHARS = 64 * 1024;

/** Buffers small strings into large chunks; `take` returns a full chunk or null. */
class Chunker {
  private parts: string[] = [];
  private length = 0;

  add(s: string): boolean {
    this.parts.push(s);
    this.length += s.length;
    return this.length >= CHUNK_CHARS;
  }

  take(): string {
    const chunk = this.parts.join('');
    this.parts = [];
    this.length = 0;
    return chunk;
  }

  get empty(): boolean {
    return this.length === 0;
  }
}

/**
 * Plume text in chunks of about 64K characters, pulled by the consumer (so a slow pipe holds
 * the writer back): one `r(key,value,session,txn)` / `w(...)` line per operation, transactions
 * in the order of g (session order holds, sessions interleave). An aborted transaction's writes
 * carry txn -1 and its reads are left out, as the format wants.
 */
export function* plumeChunks(g: GeneratedHistory): Generator<string, void, void> {
  const out = new Chunker();
  for (let t = 0; t < g.txnCount; t++) {
    const aborted = g.txnAborted[t] === 1;
    const tail = `,${g.txnSession[t]},${aborted ? -1 : t})\n`;
    let lines = '';
    for (let i = g.txnOpStart[t]; i < g.txnOpStart[t + 1]; i++) {
      if (g.opIsWrite[i] === 1) lines += `w(${g.opKey[i]},${g.opValue[i]}${tail}`;
      else if (!aborted) lines += `r(${g.opKey[i]},${g.opValue[i]}${tail}`;
      // A transaction of 10^7 operations is longer than a string may be: handed out in pieces.
      if (lines.length >= CHUNK_CHARS) {
        if (out.add(lines)) yield out.take();
        lines = '';
      }
    }
    if (lines.length > 0 && out.add(lines)) yield out.take();
  }
  if (!out.empty) yield out.take();
}

/**
 * A `.hist` file in chunks: a header comment, `history "title"`, then each session's
 * transactions in session order (`session s0`, `  T3: w(k1, 7) r(k2, init)`, `  T9 aborted: …`).
 */
export function* histChunks(g: GeneratedHistory, title = 'generated history'): Generator<string, void, void> {
  const out = new Chunker();
  out.add(`${headerComment(g)}\nhistory "${escapeString(title)}"\n`);
  const { order, sessionStart } = transactionsBySession(g);
  for (let s = 0; s < g.sessionCount; s++) {
    if (sessionStart[s] === sessionStart[s + 1]) continue; // a session with no transactions says nothing
    if (out.add(`\nsession s${s}\n`)) yield out.take();
    for (let j = sessionStart[s]; j < sessionStart[s + 1]; j++) {
      for (const piece of histTransaction(g, order[j])) if (out.add(piece)) yield out.take();
    }
  }
  if (!out.empty) yield out.take();
}

export function writePlume(g: GeneratedHistory, sink: TextSink): void {
  for (const chunk of plumeChunks(g)) sink(chunk);
}

export function writeHist(g: GeneratedHistory, sink: TextSink, title = 'generated history'): void {
  for (const chunk of histChunks(g, title)) sink(chunk);
}

export function toPlumeString(g: GeneratedHistory): string {
  const chunks: string[] = [];
  writePlume(g, (c) => chunks.push(c));
  return chunks.join('');
}

export function toHistString(g: GeneratedHistory, title?: string): string {
  const chunks: string[] = [];
  writeHist(g, (c) => chunks.push(c), title);
  return chunks.join('');
}

function headerComment(g: GeneratedHistory): string {
  let aborted = 0;
  for (let t = 0; t < g.txnCount; t++) aborted += g.txnAborted[t];
  return (
    `# Random history from the IsoCheck generator: ${g.sessionCount} sessions, ${g.txnCount} transactions` +
    ` (${aborted} aborted), ${g.opCount} operations, ${g.keyCount} keys; written values are unique.`
  );
}

/** One transaction line, e.g. `  T5 aborted: w(k3, 17) r(k1, init)`, in pieces when it is long. */
function* histTransaction(g: GeneratedHistory, t: number): Generator<string, void, void> {
  let line = g.txnAborted[t] === 1 ? `  T${t} aborted:` : `  T${t}:`;
  for (let i = g.txnOpStart[t]; i < g.txnOpStart[t + 1]; i++) {
    const value = g.opValue[i];
    if (g.opIsWrite[i] === 1) line += ` w(k${g.opKey[i]}, ${value})`;
    else line += ` r(k${g.opKey[i]}, ${value === 0 ? 'init' : value})`;
    // A transaction of 10^7 operations is longer than a string may be.
    if (line.length >= CHUNK_CHARS) {
      yield line;
      line = '';
    }
  }
  yield line + '\n';
}

/** Transactions grouped by session, each group in g's order (a stable counting sort). */
function transactionsBySession(g: GeneratedHistory): { order: Int32Array; sessionStart: Int32Array } {
  const sessionStart = new Int32Array(g.sessionCount + 1);
  for (let t = 0; t < g.txnCount; t++) sessionStart[g.txnSession[t] + 1]++;
  for (let s = 0; s < g.sessionCount; s++) sessionStart[s + 1] += sessionStart[s];
  const next = sessionStart.slice(0, g.sessionCount);
  const order = new Int32Array(g.txnCount);
  for (let t = 0; t < g.txnCount; t++) order[next[g.txnSession[t]]++] = t;
  return { order, sessionStart };
}

/** The body of a double-quoted `.hist` string; the language has only `\"` and `\\` escapes. */
function escapeString(s: string): string {
  return s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}
