// Small text helpers for hovers and labels: markdown escaping and operations rendered from the model.

import { BOTTOM, NO_VALUE, OP_APPEND, OP_LIST_READ, OP_READ, sourceOf, type History } from '../../engine/model/history.ts';

/** Escapes the Markdown that can occur inside a sentence, so that names like `a_b_c` or `*x*` show as written. */
export function md(s: string): string {
  return s.replace(/[\\`*_[\]<>]/g, (c) => `\\${c}`);
}

/** Inline code, safe for names containing backticks: the fence is longer than any backtick run inside. */
export function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

export function txnLabel(h: History, t: number): string {
  return t === BOTTOM ? '⊥ (the initial state)' : h.names.txnName(t);
}

/** The operation as the language writes it: `r(x, 1)`, `w(y, 2)`, `r(x) <- T3`. */
export function opText(h: History, o: number): string {
  const { names } = h;
  const key = names.keyName(h.opKey[o]);
  const named = sourceOf(h, o);
  const source = named >= 0 ? ` <- ${names.txnName(named)}` : '';
  switch (h.opKind[o]) {
    case OP_READ:
      return h.opValue[o] === NO_VALUE ? `r(${key})${source}` : `r(${key}, ${names.valueText(h.opValue[o])})${source}`;
    case OP_LIST_READ:
      return `r(${key}, [...])`;
    case OP_APPEND:
      return `a(${key}, ${names.valueText(h.opValue[o])})`;
    default:
      return `w(${key}, ${names.valueText(h.opValue[o])})`;
  }
}

export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}
