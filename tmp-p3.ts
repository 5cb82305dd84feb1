import { readFileSync } from 'node:fs';
import { readJepsenEdn } from './server/src/engine/readers/edn-reader.ts';
import { analyzeListAppend } from './server/src/engine/listappend/list-analysis.ts';
let t = performance.now();
const lap = (s: string): void => { const n = performance.now(); console.log(s, (n - t).toFixed(0), 'ms', (process.memoryUsage().rss / 1e6).toFixed(0), 'MB'); t = n; };
const bytes = readFileSync(process.argv[2]); lap('file');
const f = readJepsenEdn(bytes); lap('read');
const a = analyzeListAppend(f.history); lap('analysis ' + [...a.verdicts].join(' '));
