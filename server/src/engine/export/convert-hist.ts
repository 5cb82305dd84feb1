// Any history as a .hist file (the converter): everything that decides a verdict — directives, initial values, tags, statuses, intervals, writers named, lists.

import { levelById } from '../levels/levels.ts';
import { INIT_VALUE, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, OP_WRITE, sourceOf, type History } from '../model/history.ts';
import type { Directives } from '../syntax/hist-parser.ts';
import { histInterval, histString, histValue, HistWriteError, identifiers, keyTokens, ValueTokens } from './hist-writer.ts';

/** Text is handed to the sink in chunks of about this size: a large history is never one string. */
const CHUNK = 1 << 16;

/** How one history's names are written: identifiers for transactions and sessions, keys quoted once. */
interface Names {
  txns: string[];
  sessions: string[];
  keys: string[];
  /**
   * Keys whose initial value is also written by a transaction (plume's value 0 is the initial
   * value, and a write of 0 writes it): the literal `init k = …` declares, which their reads and
   * writes of the initial value use, so the reads stay as ambiguous as they were.
   */
  initLiteral: Map<number, string>;
  /** Each value's token, refusing two values that would become one. */
  values: ValueTokens;
}

/**
 * Writes h as .hist text in chunks (`isocheck convert`), a file that checks as the input does.
 * directives: the input's own (`.hist`: title, level, check and expect lines), null for formats
 * without them; `title` is used when they name none. Throws HistWriteError when h holds something
 * the language cannot say exactly (hist-writer.ts); the sink may have had part of the text by then,
 * so collect the chunks before writing them anywhere.
 */
export function writeHistoryAsHist(h: History, title: string, sink: (chunk: string) => void, directives: Directives | null = null): void {
  const names = namesOf(h);
  let buf = headerLines(h, directives?.title ?? title, directives, names).join('\n') + '\n';
  for (let s = 0; s < h.sessionCount; s++) {
    if (h.sessionTxnStart[s] === h.sessionTxnStart[s + 1]) continue;
    buf += `\nsession ${names.sessions[s]}\n`;
    for (let i = h.sessionTxnStart[s]; i < h.sessionTxnStart[s + 1]; i++) {
      buf += txnLine(h, h.sessionTxns[i], names);
      if (buf.length > CHUNK) {
        sink(buf);
        buf = '';
      }
    }
  }
  sink(buf);
}

function namesOf(h: History): Names {
  // ⊥ takes the name init_ so that no transaction is renamed to it.
  const txns = identifiers(Array.from({ length: h.txnCount }, (_, t) => (t === 0 ? 'init_' : h.names.txnName(t))), 'T');
  const sessions = identifiers(Array.from({ length: h.sessionCount }, (_, s) => h.names.sessionName(s)), 's');
  const keys = keyTokens(h, true);
  const initLiteral = new Map<number, string>();
  for (let o = 0; o < h.opCount; o++) {
    const k = h.opKey[o];
    if (h.opKind[o] !== OP_WRITE || h.opValue[o] !== INIT_VALUE || initLiteral.has(k)) continue;
    if (h.initValues.has(k)) throw new HistWriteError(`${h.names.txnName(h.opTxn[o])} writes the initial value of ${h.names.keyName(k)}, which also has an init value of its own`);
    initLiteral.set(k, histValue(h.names.valueText(INIT_VALUE), true));
  }
  return { txns, sessions, keys, initLiteral, values: new ValueTokens(h, true) };
}

/** The comment, `history`, the directives that decide the verdicts, and the initial values. */
function headerLines(h: History, title: string, d: Directives | null, names: Names): string[] {
  const lines = ['# Converted by isocheck convert.', `history ${histString(title)}`];
  if (d?.level) lines.push(`level ${d.level.level}`);
  if (d && d.checks.length > 0) lines.push(`check ${d.checks.map((c) => c.level).join(' ')}`);
  for (const e of d?.expects ?? []) lines.push(`expect ${e.level} ${e.ok ? 'ok' : 'violated'}`);
  for (const e of d?.anomalyExpects ?? []) lines.push(`expect ${e.anomaly} ${e.found ? 'found' : 'absent'}`);
  const inits = [...h.initValues].map(([k, v]): [number, string] => [k, names.values.of(v)]);
  for (const x of names.initLiteral) inits.push(x); // one per key: too many to spread as arguments
  inits.sort((a, b) => a[0] - b[0]);
  for (const [k, literal] of inits) lines.push(`init ${names.keys[k]} = ${literal}`);
  return lines;
}

function txnLine(h: History, t: number, names: Names): string {
  const tag = h.txnLevel[t] >= 0 ? ` [${levelById(h.txnLevel[t])}]` : '';
  const status = h.txnAborted[t] === 1 ? ' aborted' : h.txnUnknown?.[t] === 1 ? ' unknown' : '';
  let line = `  ${names.txns[t]}${tag}${status}${histInterval(h, t)}:`;
  for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) line += ` ${opText(h, o, names)}`;
  return `${line}\n`;
}

function opText(h: History, o: number, names: Names): string {
  const k = h.opKey[o];
  const key = names.keys[k];
  const kind = h.opKind[o];
  const src = sourceOf(h, o);
  if (kind === OP_LIST_READ) return `r(${key}, [${listItems(h, o, names).join(', ')}])${src >= 0 ? ` <- ${names.txns[src]}` : ''}`;
  if (kind !== OP_READ) return `${kind === OP_APPEND ? 'a' : 'w'}(${key}, ${valueToken(h.opValue[o], k, names)})`;
  const v = h.opValue[o];
  if (v === NO_VALUE && src < 0) throw new HistWriteError(`a read of ${h.names.keyName(k)} in ${h.names.txnName(h.opTxn[o])} names neither its value nor its writer`);
  const value = v === NO_VALUE ? '' : `, ${valueToken(v, k, names)}`;
  return `r(${key}${value})${src >= 0 ? ` <- ${names.txns[src]}` : ''}`;
}

/** A value of key k: the initial value as `init` (or the literal declared for k), others by their text. */
function valueToken(v: number, k: number, names: Names): string {
  if (v !== INIT_VALUE) return names.values.of(v);
  const literal = names.initLiteral.get(k);
  if (literal !== undefined) return literal;
  // Only a read can say `init`; namesOf declares a literal for every key whose initial value is written.
  return 'init';
}

function listItems(h: History, o: number, names: Names): string[] {
  const starts = h.opListStart;
  const elems = h.listElems;
  if (!starts || !elems) return [];
  const items: string[] = [];
  for (let j = starts[o]; j < starts[o + 1]; j++) items.push(names.values.of(elems[j]));
  return items;
}
