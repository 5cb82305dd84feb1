import { readFileSync } from 'node:fs';
import { readJepsenEdn } from './server/src/engine/readers/edn-reader.ts';
import { inferListAppend } from './server/src/engine/listappend/infer.ts';
import { ListLevelContext, decideListLevel, uniformLevels } from './server/src/engine/listappend/list-levels.ts';
import { analyzeListAppend } from "./server/src/engine/listappend/list-analysis.ts";
import { findCycles } from './server/src/engine/listappend/cycles.ts';
import { CYCLE_CLASSES, LIST_LEVELS } from './server/src/engine/listappend/anomaly-table.ts';
let t = performance.now();
const lap = (s: string): void => { const n = performance.now(); console.log(s, (n - t).toFixed(0), 'ms', (process.memoryUsage().rss / 1e6).toFixed(0), 'MB'); t = n; };
const f = readJepsenEdn(readFileSync(process.argv[2])); lap('read');
const inf = inferListAppend(f.history); lap(`infer edges=${inf.edges.length}`);
const ctx = new ListLevelContext(inf);
for (const l of LIST_LEVELS) { const v = decideListLevel(ctx, uniformLevels(f.history, l)); lap(`${l}=${v}`); }
const t9 = performance.now(); const an = analyzeListAppend(f.history); console.log("analyzeListAppend", (performance.now() - t9).toFixed(0), [...an.verdicts].join(" "));
const c = findCycles(inf, true, CYCLE_CLASSES); lap(`cycles ${c.length}`);
