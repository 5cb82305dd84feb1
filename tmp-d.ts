import { readFileSync } from 'node:fs';
import { readJepsenEdn } from './server/src/engine/readers/edn-reader.ts';
const f = readJepsenEdn(readFileSync(process.argv[2]));
for (const x of f.findings.slice(0, 3)) console.log(x.message, f.lines.range(x.span.start, x.span.end).start);
