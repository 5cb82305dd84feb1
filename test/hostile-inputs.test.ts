// The hostile-input catalogue: every input a hostile user tried gets a clear answer, a known exit status and bounded output.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileReport } from '../server/src/engine/report.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
/** A heap cap for every run: an input that makes the CLI grow without bound crashes it, and the test fails. */
const HEAP_MB = 512;

let dir = '';

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], timeout = 60_000): Run {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CLI, ...args], {
    cwd: ROOT, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

function file(name: string, content: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

function reportsOf(r: Run): FileReport[] {
  try {
    return JSON.parse(r.stdout) as FileReport[];
  } catch (e) {
    throw new Error(`--json output is not one JSON document (${String(e)}): ${r.stdout.slice(0, 500)}\n${r.stderr.slice(0, 500)}`);
  }
}

/** No stack trace, no internal error: every failure is a one-line message. */
function assertClean(r: Run, what: string): void {
  assert.equal(r.signal, null, `${what}: killed by ${r.signal} (a hang or a crash)`);
  assert.doesNotMatch(r.stderr, /\n\s+at |internal error|RangeError|TypeError|FATAL|heap/, `${what}: ${r.stderr.slice(0, 800)}`);
}

before(() => {
  execSync('npm run build', { cwd: ROOT, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'isocheck-hostile-'));
});

after(() => {
  if (dir) {
    spawnSync('chmod', ['-R', 'u+rwx', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('many problems in one file: capped, with a count of the rest', () => {
  test('4M bad tokens (.hist): 100 syntax errors and one "N more" line, in text and --json, bounded', () => {
    const p = file('bad-tokens.hist', 'r( '.repeat(4_000_000));
    const text = run(['check', p]);
    assertClean(text, 'text');
    assert.equal(text.status, 1);
    assert.ok(text.stdout.length < 20_000, `text output ${text.stdout.length} characters`);
    assert.match(text.stdout, /error \[syntax\] \d+ more problems in this file not shown \(the first 100 are\)/);
    const json = run(['check', p, '--json']);
    assertClean(json, '--json');
    assert.equal(json.status, 1);
    assert.ok(json.stdout.length < 100_000, `--json output ${json.stdout.length} characters`);
    const [r] = reportsOf(json);
    const syntax = r.diagnostics.filter((d) => d.code === 'syntax');
    assert.equal(syntax.length, 101);
    const more = syntax.find((d) => /more problems/.test(d.message));
    assert.ok(more);
    assert.equal(Number(/^(\d+) more/.exec(more.message)?.[1]) + 100, 2_000_000, 'the count covers every problem');
  });

  test('4M bad lines (plume): 100 syntax errors and one "N more" line, bounded', () => {
    const p = file('bad-lines.txt', 'x\n'.repeat(4_000_000));
    const json = run(['check', p, '--json']);
    assertClean(json, 'plume');
    assert.equal(json.status, 1);
    assert.ok(json.stdout.length < 100_000, `--json output ${json.stdout.length} characters`);
    const syntax = reportsOf(json)[0].diagnostics.filter((d) => d.code === 'syntax');
    assert.equal(syntax.length, 101);
    assert.match(syntax.find((d) => /more problems/.test(d.message))?.message ?? "", /^3999900 more problems in this file not shown/);
  });

  test('a 5M-character name in an error message is cut, the output stays small', () => {
    const p = file('long-name.hist', `session s1\n  T1: w(x, 1) ${'q'.repeat(5_000_000)}\n`);
    const r = run(['check', p, '--json']);
    assertClean(r, 'long name');
    assert.equal(r.status, 1);
    assert.ok(r.stdout.length < 10_000, `${r.stdout.length} characters`);
    assert.match(reportsOf(r)[0].diagnostics[0].message, /'q{40}…' \(5000000 characters\)/);
  });
});
