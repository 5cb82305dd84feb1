// Unusual inputs and command lines: what the checker must say instead of crashing or guessing.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { analyzeHistText, analyzePlumeBytes } from '../server/src/engine/analyze.ts';

const CLI = join(import.meta.dirname, '..', 'out', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'isocheck-edges-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

before(() => {
  execFileSync('npm', ['run', 'build'], { cwd: join(import.meta.dirname, '..'), stdio: 'ignore' });
});

test('a plume write of 0 (the initial value) makes reads of 0 ambiguous, with a warning at the write', () => {
  const a = analyzePlumeBytes(new TextEncoder().encode('w(0,0,0,1)\nw(1,5,0,1)\nr(1,0,1,2)\nr(0,0,1,2)\n'));
  assert.deepEqual(a.findings.map((f) => `${f.code} ${f.severity}`), ['duplicate-write warning', 'ambiguous-read error']);
  // The ambiguous read is left out of the checks, not a violation of every level (issue 8 defect 3).
  assert.equal(a.levels.find((v) => v.level === 'RC')?.consistent, true);
  assert.match(a.findings[1].message, /--plume-init none/);
});

test('many sessions beyond the vector-clock budget: CC undecided with a note, no crash', () => {
  const lines = Array.from({ length: 100_000 }, (_, i) => `w(${i % 50},${i + 1},${i},${i})`).join('\n');
  const a = analyzePlumeBytes(new TextEncoder().encode(lines));
  const cc = a.levels.find((v) => v.level === 'CC');
  assert.equal(cc?.consistent, null);
  assert.match(cc?.note ?? '', /vector clock/);
  assert.equal(a.levels.find((v) => v.level === 'RA')?.consistent, true);
});

test('an initial value set twice is an error at the second; strings keep unknown escapes', () => {
  const a = analyzeHistText('init x = 1, x = 2\nsession s1\n  T1: r(x, 1) w(y, "a\\nb")\n');
  assert.deepEqual(a.findings.map((f) => f.code), ['duplicate-name']);
  assert.equal(a.history.names.valueText(a.history.opValue[1]), JSON.stringify('a\\nb'));
});

test('gen into a pipe closed early ends quietly', () => {
  const r = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" gen --txns 20000 | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8' });
  assert.equal(r.stdout.trim(), '0');
});

test('usage errors: empty --level, a directory for witness, no histories in a directory, huge gen tables', () => {
  writeFileSync(join(dir, 'a.hist'), 'session s1\n  T1: w(x, 1)\n');
  assert.equal(run('check', join(dir, 'a.hist'), '--level', ',').status, 2);
  assert.equal(run('witness', dir, '--level', 'RA').status, 2);
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const r = run('check', empty);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /no history files/);
  assert.equal(run('gen', '--keys', '1e12', '--txns', '3').status, 2);
  assert.equal(run('gen', '--sessions', '1e9', '--txns', '2').status, 2);
});

test('a stop request abandons the checks from then on: the strong-level searches after it are undecided, the weak verdicts before it stand', () => {
  const text = 'session s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2: r(x, init) r(y, init) w(y, 2)\n';
  let strong = false;
  const onProgress = (stage: string): void => {
    strong ||= ['PC', 'PSI', 'SI', 'SER'].includes(stage);
  };
  const stopped = analyzeHistText(text, { onProgress, stop: () => strong });
  assert.deepEqual(stopped.levels.map((v) => v.consistent), [true, true, true, null, null, null, null]);
  // Stopped before any check (the RC/RA/CC checks poll too): nothing is decided.
  assert.deepEqual(analyzeHistText(text, { stop: () => true }).levels.map((v) => v.consistent), Array(7).fill(null));
  const full = analyzeHistText(text);
  assert.equal(full.levels.find((v) => v.level === 'SER')?.consistent, false);
});
