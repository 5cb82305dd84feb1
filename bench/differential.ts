// The long differential run: optimised RC/RA/CC and mixed verdicts against the naive axioms.
// Usage: npm run bench:diff [-- COUNT [FIRST_SEED]]   (default 100,000 histories)

import { runDifferential } from '../test/helpers/differential.ts';

const count = Number(process.argv[2] ?? '100000');
const first = Number(process.argv[3] ?? '1000000');
const chunk = 10_000;
const start = Date.now();
let mismatches = 0;
const violated: Record<string, number> = { RC: 0, RA: 0, CC: 0, mixed: 0 };
for (let done = 0; done < count; done += chunk) {
  const stats = runDifferential(Math.min(chunk, count - done), first + done);
  for (const k of Object.keys(violated)) violated[k] += stats.violated[k];
  for (const m of stats.mismatches.slice(0, 3)) console.log(`MISMATCH seed ${m.seed}: ${m.what}\n${m.text}`);
  mismatches += stats.mismatches.length;
  console.log(`${Math.min(done + chunk, count)} histories, ${mismatches} mismatches (${((Date.now() - start) / 1000).toFixed(0)} s)`);
}
console.log(`violations: RC ${violated.RC}, RA ${violated.RA}, CC ${violated.CC}, mixed ${violated.mixed} of ${count}`);
console.log(`${count - mismatches} passed, ${mismatches} failed`);
process.exitCode = mismatches === 0 ? 0 : 1;
