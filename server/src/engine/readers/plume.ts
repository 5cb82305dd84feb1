// The plume reader as a registry entry: AWDIT/Plume's `r(key,value,session,txn)` lines.

import { readPlume, type PlumeFile } from './plume-reader.ts';
import { bytesOf, type HistoryReader, type ReadSource } from './reader.ts';

/** A plume line: `r(` or `w(` then an integer. */
const PLUME_LINE = /^\s*[rwRW]\s*\(\s*-?\d/;

export const PLUME_READER: HistoryReader = {
  name: 'plume',
  description: 'AWDIT/Plume lines r(key,value,session,txn) and w(…); value 0 is the initial value unless --plume-init none',
  extensions: ['.plume', '.txt'],
  sniff: (head) => head.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).some((l) => PLUME_LINE.test(l)),
  read: (input, options) => plumeSource(readPlume(bytesOf(input), { init: options?.plumeInit, utf8: 'bytes' in input, stop: options?.stop })),
};

/** A plume file as what readers return (no directives, tags or list operations in this format). */
export function plumeSource(p: PlumeFile): ReadSource {
  return { history: p.history, lines: p.lines, findings: p.findings, directives: null, hasTags: false, firstListOp: null };
}
