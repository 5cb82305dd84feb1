// Regression tests for issue 8's engine defects 3–5 and issue 9's engine items: each failed before its fix.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeHistText, analyzePlumeBytes, type Analysis } from '../server/src/engine/analyze.ts';

function verdicts(a: Analysis): Record<string, boolean | null> {
  const out: Record<string, boolean | null> = {};
  for (const v of a.levels) out[v.level] = v.consistent;
  out.mixed = a.mixed?.consistent ?? null;
  return out;
}
const codes = (a: Analysis): string[] => a.findings.map((f) => `${f.code} ${f.severity}`);

test('defect 3: an ambiguous read is an error at the read, and the verdicts are those of the history without it', () => {
  const text = `level SER
session s1
  T1: w(x, 1)
session s2
  T2: w(x, 1) w(y, 2)
session s3
  T3: r(x, 1) r(y, 2)
`;
  const a = analyzeHistText(text);
  assert.deepEqual(codes(a), ['duplicate-write warning', 'duplicate-write warning', 'ambiguous-read error']);
  const without = analyzeHistText(text.replace('r(x, 1) ', ''));
  assert.deepEqual(verdicts(a), verdicts(without));
  assert.deepEqual(verdicts(a), { RC: true, RA: true, CC: true, PC: true, PSI: true, SI: true, SER: true, mixed: true });
  // A real violation elsewhere is still found.
  const skew = analyzeHistText(`${text}session s4\n  T4: r(y, 0) w(z, 1)\nsession s5\n  T5: r(z, 1) r(y, 0)\n`.replace('T2: w(x, 1) w(y, 2)', 'T2: w(x, 1) w(y, 2) r(z, 0)'));
  assert.equal(skew.levels.find((v) => v.level === 'SER')?.consistent, false);
});

test('defect 3: a plume file that writes 0 gets ambiguous reads that name --plume-init none, and its levels hold', () => {
  const a = analyzePlumeBytes(new TextEncoder().encode('w(0,0,0,1)\nr(0,0,1,2)\n'));
  assert.deepEqual(codes(a), ['duplicate-write warning', 'ambiguous-read error']);
  assert.match(a.findings[1].message, /--plume-init none/);
  assert.ok(a.levels.every((v) => v.consistent === true), JSON.stringify(verdicts(a)));
});
