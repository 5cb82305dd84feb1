// Jepsen histories (EDN and JSON lines) as registry entries: the readers of the list-append work, plugged in.

import { hasListOps } from '../listappend/infer.ts';
import { readJepsenEdn, type JepsenFile } from './edn-reader.ts';
import { readJepsenJson } from './json-events-reader.ts';
import { bytesOf, textOf, type HistoryReader, type ReadSource } from './reader.ts';

function source(p: JepsenFile): ReadSource {
  // List-append histories are analysed by the list-append checks (analyze.ts), which firstListOp switches on.
  const firstListOp = hasListOps(p.history) ? { start: 0, end: 0 } : null;
  return { history: p.history, lines: p.lines, findings: p.findings, directives: null, hasTags: false, firstListOp };
}

/** A Jepsen event map: `:type :invoke | :ok | :fail | :info` (an editor reads only such `.edn` files, not deps.edn). */
const JEPSEN_EDN_EVENT = /:type\s+:(?:invoke|ok|fail|info)\b/;

export const EDN_READER: HistoryReader = {
  name: 'edn',
  description: "Jepsen's EDN histories ({:type :ok, :f :txn, :value [[:append k v] [:r k [..]]]} per event)",
  extensions: ['.edn'],
  sniff: (head) => JEPSEN_EDN_EVENT.test(head),
  read: (input, options) => source(readJepsenEdn(bytesOf(input), 'bytes' in input, options?.stop)),
};

/** A Jepsen event object: `"type": "invoke" | "ok" | "fail" | "info"`. */
const JEPSEN_JSON_EVENT = /"type"\s*:\s*"(?:invoke|ok|fail|info)"/;

export const JEPSEN_JSON_READER: HistoryReader = {
  name: 'json',
  description: 'Jepsen histories as JSON lines ({"type": "ok", "f": "txn", "value": [["append", k, v], ["r", k, [..]]]} per line)',
  extensions: ['.jsonl', '.json'],
  sniff: (head) => JEPSEN_JSON_EVENT.test(head),
  read: (input, options) => source(readJepsenJson(textOf(input), options?.stop)),
};
