// `check --claim L` when L has no finding of its own (implied by another level): its error carries the witness cycle (JSON related information, SARIF related locations and code flow).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type * as Sarif from 'sarif';
import type { FileReport } from '../server/src/engine/report.ts';
import { applyClaim } from '../server/src/cli/claim.ts';

const CLI = join(import.meta.dirname, '..', 'out', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'isocheck-claim-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A lost update without a `level` directive: SI is violated as implied by PSI, with no SI finding of its own. */
const LOST_UPDATE = 'session s1\n  T1: r(x, init) w(x, 1)\nsession s2\n  T2: r(x, init) w(x, 2)\n';

function run(args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout };
}

test('the claimed level\'s error carries the witness cycle in JSON and SARIF', () => {
  const file = join(dir, 'lost-update.hist');
  writeFileSync(file, LOST_UPDATE);
  const json = run(['check', file, '--claim', 'SI', '--json']);
  assert.equal(json.status, 1);
  const [report] = JSON.parse(json.stdout) as FileReport[];
  const si = report.diagnostics.filter((d) => d.code === 'SI');
  assert.equal(si.length, 1);
  assert.equal(si[0].severity, 'error');
  const cycle = report.levels.SI?.witness?.cycle ?? [];
  assert.equal(cycle.length, 2);
  assert.deepEqual(si[0].relatedInformation?.map((r) => r.range), cycle.map((e) => e.range));

  const sarif = run(['check', file, '--claim', 'SI', '--output-format', 'sarif']);
  assert.equal(sarif.status, 1);
  const log = JSON.parse(sarif.stdout) as Sarif.Log;
  const result = log.runs[0].results?.find((r) => r.ruleId === 'SI' && r.level === 'error');
  assert.ok(result, 'an error result for SI');
  assert.equal(result.relatedLocations?.length, 2);
  assert.match(result.relatedLocations?.[0].message?.text ?? '', /^T\d → T\d \[rw x\] /);
  assert.equal(result.codeFlows?.[0].threadFlows[0].locations.length, 2);
});

test('a long witness is cut to 20 related entries and one that counts the rest', () => {
  const range = (line: number): FileReport['diagnostics'][number]['range'] => ({ start: { line, character: 0 }, end: { line, character: 1 } });
  const cycle = Array.from({ length: 25 }, (_, i) => ({ from: `T${i}`, to: `T${i + 1}`, kind: 'wr' as const, key: 'x', because: `edge ${i}`, range: range(i) }));
  const report = {
    file: 'h.hist', title: null, mixed: null, diagnostics: [],
    levels: { RC: { consistent: false, basis: { kind: 'decided' }, witness: { anomaly: 'RC', message: 'a cycle', range: range(0), cycle } } },
  } as unknown as FileReport;
  applyClaim(report, 'RC');
  const related = report.diagnostics[0].relatedInformation ?? [];
  assert.equal(related.length, 21);
  assert.equal(related[0].message, 'wr: edge 0');
  assert.match(related[20].message, /5 more edges of this 25-edge cycle/);
});
