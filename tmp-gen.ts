import { openSync, writeSync, closeSync } from 'node:fs';
import { generateListHistory, writeListEvents, DEFAULT_LIST_GEN } from './server/src/engine/gen/list-append-store.ts';
const n = Number(process.argv[2]);
const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: n, sessions: 64, keys: 256, maxAppends: 16, opsPerTxn: 4, abortRatio: 0.02, unknownRatio: 0.1, store: 'serial' });
const fd = openSync(process.argv[3], 'w');
writeListEvents(d, process.argv[4] as 'edn' | 'json', (c) => writeSync(fd, c));
closeSync(fd);
