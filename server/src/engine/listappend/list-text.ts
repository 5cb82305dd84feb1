// A list read's elements and their text ("[1, 2]"), for the list-append messages.

import type { History } from '../model/history.ts';

/** The elements op o (a list read) returned. */
export function listOf(h: History, o: number): Int32Array {
  const s = h.opListStart as Int32Array;
  return (h.listElems as Int32Array).subarray(s[o], s[o + 1]);
}

export function listText(h: History, list: ArrayLike<number>): string {
  const parts: string[] = [];
  for (let i = 0; i < list.length; i++) parts.push(h.names.valueText(list[i]));
  return `[${parts.join(', ')}]`;
}
