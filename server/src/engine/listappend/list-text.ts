// A list read's elements and their text ("[1, 2]"), for the list-append messages.

import type { History } from '../model/history.ts';

/** The elements op o (a list read) returned. */
export function listOf(h: History, o: number): Int32Array {
  const s = h.opListStart as Int32Array;
  return (h.listElems as Int32Array).subarray(s[o], s[o + 1]);
}

/** The whole list as text (every element: for comparisons and the graph's operation labels). */
export function listText(h: History, list: ArrayLike<number>): string {
  const parts: string[] = [];
  for (let i = 0; i < list.length; i++) parts.push(h.names.valueText(list[i]));
  return `[${parts.join(', ')}]`;
}

/** Elements a list in a message shows at most: its first LIST_HEAD and last LIST_TAIL beyond that. */
export const MAX_LIST_SHOWN = 32;
const LIST_HEAD = 24;
const LIST_TAIL = 6;

/**
 * A list as a message shows it: whole up to MAX_LIST_SHOWN elements, else its head, how many are
 * left out, and its tail ("[0, 1, …, 23, … 9,970 more …, 9994, …, 9999]"). A message is built per
 * finding and per witness edge, and several name the same long read: whole, one read of n garbage
 * elements made n messages of n elements each (a 180 KB EDN line took over 20 s and the --json
 * report was 100× the input).
 */
export function listTextShort(h: History, list: ArrayLike<number>): string {
  if (list.length <= MAX_LIST_SHOWN) return listText(h, list);
  const parts: string[] = [];
  for (let i = 0; i < LIST_HEAD; i++) parts.push(h.names.valueText(list[i]));
  parts.push(`… ${(list.length - LIST_HEAD - LIST_TAIL).toLocaleString('en-US')} more …`);
  for (let i = list.length - LIST_TAIL; i < list.length; i++) parts.push(h.names.valueText(list[i]));
  return `[${parts.join(', ')}]`;
}
