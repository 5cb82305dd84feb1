// The long differential run: optimised RC/RA/CC and mixed verdicts against the naive axioms, or
// (with --strong) PC, PSI, SI, SER and mixed verdicts against brute force, or (with --list) the
// list-append levels RC … SSER and mixed verdicts against the list-append oracle.
// Usage: npm run bench:diff [-- [--strong|--list] COUNT [FIRST_SEED]]   (default 100,000 histories)

import { runDifferential, runStrongDifferential } from '../test/helpers/differential.ts';
import { runListDifferential } from '../test/helpers/listappend-differential.ts';

const strong = process.argv.includes('--strong');
const list = process.argv.includes('--list');
const args = process.argv.slice(2).filter((a) => a !== '--strong' && a !== '--list');
const count = Number(args[0] ?? '100000');
const first = Number(args[1] ?? '1000000');
const run = list ? runListDifferential : strong ? runStrongDifferential : runDifferential;
const chunk = 10_000;
const start = Date.now();
let mismatches = 0;
const violated: Record<string, number> = list
  ? { RC: 0, RA: 0, CC: 0, PC: 0, PSI: 0, SI: 0, SER: 0, SSER: 0, mixed: 0 }
  : strong ? { PC: 0, PSI: 0, SI: 0, SER: 0, mixed: 0 } : { RC: 0, RA: 0, CC: 0, mixed: 0 };
for (let done = 0; done < count; done += chunk) {
  const stats = run(Math.min(chunk, count - done), first + done);
  for (const k of Object.keys(violated)) violated[k] += stats.violated[k];
  for (const m of stats.mismatches.slice(0, 3)) console.log(`MISMATCH seed ${m.seed}: ${m.what}\n${m.text}`);
  mismatches += stats.mismatches.length;
  console.log(`${Math.min(done + chunk, count)} histories, ${mismatches} mismatches (${((Date.now() - start) / 1000).toFixed(0)} s)`);
}
console.log(`violations: ${Object.entries(violated).map(([k, v]) => `${k} ${v}`).join(', ')} of ${count}`);
console.log(`${count - mismatches} passed, ${mismatches} failed`);
process.exitCode = mismatches === 0 ? 0 : 1;
