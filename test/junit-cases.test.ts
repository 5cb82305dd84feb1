// `check --output-format junit`: a report has a failure exactly when the exit status is 1 (docs/ci.md), also for
// anomaly expectations (`expect A found|absent`) and SSER claims, and each failure is counted once.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');

let dir = '';
before(() => { dir = mkdtempSync(join(tmpdir(), 'isocheck-junit-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

function junit(name: string, text: string): { status: number | null; cases: { name: string; failed: boolean }[] } {
  const p = join(dir, name);
  writeFileSync(p, text);
  const r = spawnSync(process.execPath, [CLI, 'check', p, '--output-format', 'junit'], { encoding: 'utf8', timeout: 60_000 });
  const cases = [...r.stdout.matchAll(/<testcase [^>]*name="([^"]*)"(\/>|>([\s\S]*?)<\/testcase>)/g)]
    .map((m) => ({ name: m[1].replace(/&apos;/g, "'"), failed: (m[3] ?? '').includes('<failure') }));
  return { status: r.status, cases };
}

describe('JUnit XML: failures match the exit status', () => {
  test('a failed anomaly expectation (expect G0 found) fails the report, as it fails the check', () => {
    const r = junit('g0-found.hist', 'expect G0 found\nsession s1\n  T1: a(x, 1)\n');
    assert.equal(r.status, 1);
    assert.ok(r.cases.some((c) => c.failed), `a failing case: ${JSON.stringify(r.cases)}`);
    assert.deepEqual(r.cases.filter((c) => c.failed).map((c) => c.name), ['no other errors']);
  });

  test('an anomaly expectation that holds, beside level expectations: no failure, exit 0', () => {
    const r = junit('g0-absent.hist', 'expect G0 absent\nexpect RC ok\nsession s1\n  T1: a(x, 1)\n');
    assert.equal(r.status, 0);
    assert.deepEqual(r.cases.filter((c) => c.failed), []);
  });

  test('a failed level expectation is failed once, in its own case', () => {
    const r = junit('rc-violated.hist', 'expect RC violated\nsession s1\n  T1: w(x, 1)\n');
    assert.equal(r.status, 1);
    assert.deepEqual(r.cases.filter((c) => c.failed).map((c) => c.name), ['expect RC violated (line 1)']);
  });

  test('a violated SSER claim (level SSER) fails the mixed-verdict case only, as a violated SER claim does', () => {
    const sser = junit('stale.hist', 'init x = 0\nlevel SSER\nsession s1\n  T1 @ 100..130: w(x, 1)\nsession s2\n  T2 @ 140..150: r(x, 0)\n');
    assert.equal(sser.status, 1);
    assert.deepEqual(sser.cases.filter((c) => c.failed).map((c) => c.name), ["the file's level and tags (mixed verdict)"]);
    const ser = junit('skew.hist', 'level SER\nsession s1\n  T1: r(x, init) r(y, init) w(x, 1)\nsession s2\n  T2: r(x, init) r(y, init) w(y, 1)\n');
    assert.equal(ser.status, 1);
    assert.deepEqual(ser.cases.filter((c) => c.failed).map((c) => c.name), ["the file's level and tags (mixed verdict)"]);
  });
});
