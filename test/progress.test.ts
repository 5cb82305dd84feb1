// Progress on standard error: shown on a terminal (a pseudo-terminal made by script(1)), never in pipes or files, and not with --quiet.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

let dir = '';
let history = '';

/** Runs `check` with standard error on a pseudo-terminal and standard output in a file; returns both. */
function onTerminal(args: string): { terminal: string; stdout: string; status: number | null } {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}.txt`);
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} check ${args} > ${JSON.stringify(out)}`;
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { terminal: r.stdout, stdout: readFileSync(out, 'utf8'), status: r.status };
}

before(() => {
  execSync('npm run build', { cwd: ROOT, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'isocheck-progress-'));
  history = join(dir, 'serial.hist');
  // SER is searched for (and found: a serial store), so the output does not depend on how long
  // a witness may be shrunk on a busy machine.
  execSync(`${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} gen --store serial --txns 400 --sessions 8 --seed 3 -o ${JSON.stringify(history)}`);
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('progress', { skip: hasScript ? false : 'needs script(1) from util-linux for a pseudo-terminal' }, () => {
  test('on a terminal: the file, the level being decided, the strong search against its budget; then the line is cleared', () => {
    const r = onTerminal(`${JSON.stringify(history)} examples/write-skew.hist`);
    assert.equal(r.status, 0);
    assert.match(r.terminal, /isocheck \[1\/2\] \S*serial\.hist \[[=-]+\] 0\/7 levels · reading/);
    assert.match(r.terminal, /isocheck \[1\/2\] \S*serial\.hist \(\d+ kB\) \[[=-]+\] 0\/7 levels · parsing/);
    assert.match(r.terminal, /\[2\/2\] examples\/write-skew\.hist/);
    assert.match(r.terminal, /\d\/7 levels · (RC|RA|CC|PC|PSI|SI|SER)/);
    assert.match(r.terminal, /(PC|PSI|SI|SER): searching, \d+\.\d s of its 10\.0 s budget/);
    assert.match(r.terminal, /\u001b\[2K\s*$/, 'the bar is cleared at the end');
    // Standard output is the same as without a terminal.
    const plain = spawnSync(process.execPath, [CLI, 'check', history, 'examples/write-skew.hist'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.stdout, plain.stdout);
    assert.doesNotMatch(r.stdout, /\u001b/);
  });

  test('--quiet: nothing on the terminal', () => {
    const r = onTerminal(`${JSON.stringify(history)} --quiet --output-format sarif`);
    assert.equal(r.terminal, '');
    assert.equal((JSON.parse(r.stdout) as { version: string }).version, '2.1.0');
  });

  test('standard error a pipe: no progress, whatever the output format', () => {
    for (const format of ['table', 'json', 'sarif', 'junit']) {
      const r = spawnSync(process.execPath, [CLI, 'check', history, 'examples/write-skew.hist', '--output-format', format], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '', `${format}: standard error stays empty`);
      assert.doesNotMatch(r.stdout, /\u001b|levels ·/);
    }
  });

  test('errors still reach a terminal, and the bar does not garble them', () => {
    const r = onTerminal(`${join(dir, 'missing.hist')} examples/write-skew.hist`);
    assert.equal(r.status, 2);
    assert.match(r.terminal, /isocheck: cannot read \S*missing\.hist: no such file or directory/);
  });
});
