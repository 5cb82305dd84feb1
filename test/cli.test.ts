// The command-line contract of history-dsl.md: `isocheck check FILE… [--level L,L…] [--json]`.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileReport } from '../server/src/engine/report.ts';
import { witnessLines } from '../server/src/cli/text-report.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
const LEVEL_NAMES = ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER', 'SSER'];
const EDGE_KINDS = ['so', 'wr', 'co', 'ww', 'rw'];
const SEVERITIES = ['error', 'warning', 'information'];

let dir = '';

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runJson(args: string[]): { status: number | null; reports: FileReport[]; stderr: string } {
  const r = run([...args, '--json']);
  let reports: FileReport[];
  try {
    reports = JSON.parse(r.stdout) as FileReport[];
  } catch (e) {
    throw new Error(`--json output is not one JSON document (${String(e)}):\n${r.stdout}\n${r.stderr}`);
  }
  return { status: r.status, reports, stderr: r.stderr };
}

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** Zero-based line of the first line containing `needle`. */
function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  assert.ok(i >= 0, `no line contains ${needle}`);
  return i;
}

const CLEAN = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
const THIN_AIR = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 42)\n';
const FRACTURED = 'session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n';

// Plume (AWDIT) format: op(key, value, session, txn); value 0 is the initial value.
const PLUME_CLEAN = 'w(1,5,0,1)\nr(1,5,1,2)\n';
const PLUME_FRACTURED = 'w(1,5,0,1)\nw(2,6,0,1)\nr(2,0,1,2)\nr(1,5,1,2)\n';

before(() => {
  execSync('npm run build', { cwd: ROOT, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'isocheck-cli-test-'));
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function assertRange(r: unknown, where: string): void {
  const range = r as { start: { line: number; character: number }; end: { line: number; character: number } };
  for (const p of [range.start, range.end]) {
    assert.ok(Number.isInteger(p.line) && p.line >= 0, `${where}: line ${JSON.stringify(p)}`);
    assert.ok(Number.isInteger(p.character) && p.character >= 0, `${where}: character ${JSON.stringify(p)}`);
  }
  const before = range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character);
  assert.ok(before, `${where}: start <= end`);
}

describe('check --json', () => {
  test('examples: an array with one report per file, in order, in the contract shape; exit 0', () => {
    const { status, reports } = runJson(['check', 'examples']);
    assert.equal(status, 0);
    assert.ok(Array.isArray(reports));
    const expectedFiles = readdirSync(join(ROOT, 'examples')).filter((f) => /\.(hist|txt|plume)$/.test(f)).sort().map((f) => `examples/${f}`);
    assert.deepEqual(reports.map((r) => r.file), expectedFiles);
    for (const r of reports) {
      for (const key of ['file', 'levels', 'mixed', 'diagnostics']) assert.ok(key in r, `${r.file}: ${key}`);
      const names = Object.keys(r.levels);
      assert.ok(names.length > 0);
      assert.deepEqual(names, LEVEL_NAMES.filter((l) => names.includes(l)), `${r.file}: known levels, weakest first`);
      const verdicts = [...Object.entries(r.levels), ...(r.mixed ? [['mixed', r.mixed] as const] : [])];
      for (const [name, v] of verdicts) {
        assert.ok(v.consistent === true || v.consistent === false || v.consistent === null, `${r.file} ${name}`);
        if (v.consistent === false) assert.ok(v.witness, `${r.file} ${name}: a violation has a witness`);
        if (!v.witness) continue;
        assert.ok(Array.isArray(v.witness.cycle));
        for (const e of v.witness.cycle) {
          assert.equal(typeof e.from, 'string');
          assert.equal(typeof e.to, 'string');
          assert.ok(EDGE_KINDS.includes(e.kind), e.kind);
          assert.ok(e.key === null || typeof e.key === 'string');
          assert.equal(typeof e.because, 'string');
          assertRange(e.range, `${r.file} ${name} edge`);
        }
      }
      assert.ok(Array.isArray(r.diagnostics));
      for (const d of r.diagnostics) {
        assert.equal(typeof d.code, 'string');
        assert.ok(SEVERITIES.includes(d.severity), d.severity);
        assert.equal(typeof d.message, 'string');
        assertRange(d.range, `${r.file} ${d.code}`);
        assert.notEqual(d.severity, 'error', `${r.file}: every expectation holds`);
      }
    }
  });

  test('fractured-read: RA violated with a witness cycle, the RA diagnostic at r(y, init) (zero-based range)', () => {
    const path = 'examples/fractured-read.hist';
    const text = readFileSync(join(ROOT, path), 'utf8');
    const { reports } = runJson(['check', path]);
    assert.equal(reports.length, 1);
    const [r] = reports;
    assert.equal(r.file, path);
    assert.equal(r.levels.RC?.consistent, true);
    assert.equal(r.levels.RA?.consistent, false);
    assert.ok((r.levels.RA?.witness?.cycle.length ?? 0) >= 2);
    assert.ok(r.levels.RA?.witness?.cycle.some((e) => e.kind === 'co' && e.from === 'T1' && e.key === 'y'));
    assert.equal(r.mixed?.consistent, false);
    const line = lineOf(text, 'r(y, init)');
    const character = text.split('\n')[line].indexOf('r(y, init)');
    const ra = r.diagnostics.filter((d) => d.code === 'RA');
    assert.deepEqual(ra.map((d) => d.range), [{ start: { line, character }, end: { line, character: character + 'r(y, init)'.length } }]);
    assert.ok(ra[0].relatedInformation && ra[0].relatedInformation.length >= 2, 'the witness as related information');
  });

  test('mixed is null without a level directive or tags', () => {
    const { reports } = runJson(['check', 'examples/long-fork.hist']);
    assert.equal(reports[0].mixed, null);
  });

  test('exact zero-based range of a read-consistency error', () => {
    const p = file('thin-air.hist', THIN_AIR);
    const { status, reports } = runJson(['check', p]);
    assert.equal(status, 1);
    assert.deepEqual(reports[0].diagnostics.map((d) => [d.code, d.severity, d.range]), [
      ['thin-air', 'error', { start: { line: 3, character: 6 }, end: { line: 3, character: 14 } }],
    ]);
  });

  test('--level RC,CC narrows levels to exactly those', () => {
    const { status, reports } = runJson(['check', 'examples', '--level', 'RC,CC']);
    assert.equal(status, 0);
    assert.ok(reports.length >= 15);
    for (const r of reports) assert.deepEqual(Object.keys(r.levels), ['RC', 'CC'], r.file);
  });

  test('--level accepts aliases and --level=…, and repeats add up', () => {
    const p = file('fractured.hist', FRACTURED);
    const a = runJson(['check', p, '--level=read-atomic,causal']);
    assert.deepEqual(Object.keys(a.reports[0].levels), ['RA', 'CC']);
    const b = runJson(['check', p, '--level', 'RC', '--level', 'SER']);
    assert.deepEqual(Object.keys(b.reports[0].levels), ['RC', 'SER']);
  });

  test('without --level every one of the seven levels is evaluated', () => {
    const p = file('clean-all-levels.hist', CLEAN);
    const { reports } = runJson(['check', p]);
    assert.deepEqual(Object.keys(reports[0].levels), LEVEL_NAMES.filter((l) => l !== 'SSER'));
  });
});

describe('exit status', () => {
  test('0 for a clean file', () => {
    const r = run(['check', file('clean.hist', CLEAN)]);
    assert.equal(r.status, 0, r.stderr);
  });

  test('0 for a violation of an unclaimed level (information only)', () => {
    assert.equal(run(['check', file('fractured-unclaimed.hist', FRACTURED)]).status, 0);
  });

  test('1 for a violation of the claimed level', () => {
    assert.equal(run(['check', file('fractured-claimed.hist', `level RA\n${FRACTURED}`)]).status, 1);
  });

  test('1 for a read-consistency error', () => {
    assert.equal(run(['check', file('thin-air.hist', THIN_AIR)]).status, 1);
  });

  test('1 for a syntax error, also in a file with expect lines', () => {
    assert.equal(run(['check', file('syntax.hist', `expect RC ok\n${CLEAN}  T3: q(x, 1)\n`)]).status, 1);
  });

  test('1 for a failed expectation', () => {
    assert.equal(run(['check', file('failed-expectation.hist', `expect RA ok\n${FRACTURED}`)]).status, 1);
  });

  test('0 when every expectation holds, although levels are violated', () => {
    assert.equal(run(['check', file('met-expectation.hist', `level RA\nexpect RA violated\n${FRACTURED}`)]).status, 0);
  });

  test('1 when one of several files has an error', () => {
    assert.equal(run(['check', file('a-clean.hist', CLEAN), file('b-thin-air.hist', THIN_AIR)]).status, 1);
  });

  test('2 for an unknown option', () => {
    const r = run(['check', 'examples', '--bogus']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--bogus/);
  });

  test('2 for an unknown level, an unknown format, no input files, an unknown command', () => {
    assert.equal(run(['check', 'examples', '--level', 'RC,XX']).status, 2);
    assert.equal(run(['check', 'examples', '--format', 'xml']).status, 2);
    assert.equal(run(['check']).status, 2);
    assert.equal(run(['frobnicate']).status, 2);
  });

  test('2 for --claim with its level left out: the word it took for a level is named (not "no input files")', () => {
    const r = run(['check', '--claim', 'a2.hist']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown level 'a2\.hist' for --claim/);
    const g = run(['gen', '--events', 'abc']);
    assert.equal(g.status, 2);
    assert.match(g.stderr, /--events must be a number >= 1 \(got 'abc'\)/);
  });

  test('2 for a missing file, naming it', () => {
    const r = run(['check', join(dir, 'does-not-exist.hist')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /does-not-exist\.hist/);
  });

  test('2 for a missing file even when another file has an error', () => {
    assert.equal(run(['check', file('thin-air2.hist', THIN_AIR), join(dir, 'nope.hist')]).status, 2);
  });

  test('--json keeps one object per file in order: a file it could not read has one saying why, with no verdicts', () => {
    const missing = join(dir, 'nope-json.hist');
    const r = run(['check', file('thin-air3.hist', THIN_AIR), missing, file('clean-json.hist', CLEAN), '--json']);
    assert.equal(r.status, 2);
    const reports = JSON.parse(r.stdout) as { file: string; error?: string; levels: object; mixed: null; diagnostics: unknown[] }[];
    assert.deepEqual(reports.map((x) => x.file.split('/').pop()), ['thin-air3.hist', 'nope-json.hist', 'clean-json.hist']);
    assert.deepEqual(reports[1], { file: missing, error: 'cannot read: no such file or directory', levels: {}, mixed: null, diagnostics: [] });
    assert.equal(reports[0].error, undefined);
    assert.match(r.stderr, /cannot read .*nope-json\.hist: no such file or directory/);
  });

  test('2 for an unreadable entry of a directory (a dangling link)', () => {
    const d = join(dir, 'with-broken-entry');
    mkdirSync(d);
    writeFileSync(join(d, 'a.hist'), CLEAN);
    symlinkSync(join(d, 'missing-target.hist'), join(d, 'broken.hist'));
    const r = run(['check', d]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /broken\.hist/);
  });

  test('2 for a directory entry that is itself a directory named like a history', () => {
    const d = join(dir, 'with-dir-entry');
    mkdirSync(join(d, 'sub.hist'), { recursive: true });
    assert.equal(run(['check', d]).status, 2);
  });
});

describe('other formats', () => {
  test('.txt is read as plume: a clean history exits 0', () => {
    const { status, reports } = runJson(['check', file('clean.txt', PLUME_CLEAN)]);
    assert.equal(status, 0);
    assert.deepEqual(reports[0].diagnostics, []);
    assert.equal(reports[0].levels.CC?.consistent, true);
  });

  test('.txt plume fractured read: RC holds, RA is violated, at the read line', () => {
    const { status, reports } = runJson(['check', file('fractured.txt', PLUME_FRACTURED)]);
    assert.equal(status, 0, 'no level is claimed: information only');
    const [r] = reports;
    assert.equal(r.levels.RC?.consistent, true);
    assert.equal(r.levels.RA?.consistent, false);
    assert.equal(r.levels.CC?.consistent, false);
    assert.equal(r.mixed, null);
    const ra = r.diagnostics.filter((d) => d.code === 'RA');
    assert.equal(ra.length, 1);
    assert.equal(ra[0].severity, 'information');
    assert.equal(ra[0].range.start.line, 2, 'the read of the initial value of key 2');
  });

  test('--format plume reads any extension as plume', () => {
    const p = file('fractured.log', PLUME_FRACTURED);
    const { reports } = runJson(['check', p, '--format', 'plume']);
    assert.equal(reports[0].levels.RA?.consistent, false);
    assert.equal(reports[0].levels.RC?.consistent, true);
    assert.deepEqual(reports[0].diagnostics.filter((d) => d.severity === 'error'), []);
    // and --format hist reads a .txt as .hist (where plume lines are syntax errors)
    assert.equal(run(['check', file('hist-forced.txt', PLUME_FRACTURED), '--format', 'hist']).status, 1);
  });

  test('.plume extension and a directory of plume files', () => {
    const d = join(dir, 'plume-dir');
    mkdirSync(d);
    writeFileSync(join(d, 'one.plume'), PLUME_FRACTURED);
    writeFileSync(join(d, 'two.txt'), PLUME_CLEAN);
    writeFileSync(join(d, 'notes.md'), '# not a history\n');
    const { status, reports } = runJson(['check', d]);
    assert.equal(status, 0);
    assert.deepEqual(reports.map((r) => r.file), [join(d, 'one.plume'), join(d, 'two.txt')]);
    assert.equal(reports[0].levels.RA?.consistent, false);
  });

  test('plume read-consistency problems are errors: thin air, an aborted write (txn -1)', () => {
    const thin = runJson(['check', file('thin.txt', 'w(1,5,0,1)\nr(1,7,1,2)\n')]);
    assert.equal(thin.status, 1);
    assert.deepEqual(thin.reports[0].diagnostics.map((d) => [d.code, d.range.start.line]), [['thin-air', 1]]);
    const aborted = runJson(['check', file('aborted.txt', 'w(1,5,0,-1)\nr(1,5,1,2)\n')]);
    assert.equal(aborted.status, 1);
    assert.deepEqual(aborted.reports[0].diagnostics.map((d) => d.code), ['aborted-read']);
  });

  test('a malformed plume line is a syntax error at that line', () => {
    const { status, reports } = runJson(['check', file('bad.txt', 'w(1,5,0,1)\nq(1,5,1,2)\nr(1,5,1,2)\n')]);
    assert.equal(status, 1);
    assert.deepEqual(reports[0].diagnostics.map((d) => [d.code, d.severity, d.range.start.line]), [['syntax', 'error', 1]]);
  });
});

describe('human output', () => {
  test('without --json a verdict table is printed', () => {
    const r = run(['check', 'examples']);
    assert.equal(r.status, 0);
    assert.throws(() => JSON.parse(r.stdout) as unknown);
    const lines = r.stdout.split('\n');
    assert.match(lines[0], /^file\s+RC\s+RA\s+CC\b/);
    const row = lines.find((l) => l.startsWith('examples/fractured-read.hist'));
    assert.ok(row, r.stdout);
    const cells = row.split(/\s+/);
    assert.deepEqual(cells.slice(1, 4), ['✓', '✗', '✗'], 'RC ✓, RA ✗, CC ✗');
    for (const f of readdirSync(join(ROOT, 'examples')).filter((x) => x.endsWith('.hist'))) {
      assert.ok(lines.some((l) => l.startsWith(`examples/${f}`)), `a row for ${f}`);
    }
  });

  test('the human output shows errors with their code and a 1-based position', () => {
    const r = run(['check', file('thin-air-human.hist', THIN_AIR)]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /thin-air/);
    assert.match(r.stdout, /line 4:7/);
  });

  test('a witness without a cycle or explained orders prints its message (a strong violation shrunk to a part too large to explain)', () => {
    const range = { start: { line: 4, character: 2 }, end: { line: 4, character: 9 } };
    const w = { anomaly: 'SI', message: 'no commit order satisfies SI; the smallest violating part found within the work budget has 21 transactions: T1, T2, …', range, cycle: [] };
    assert.deepEqual(witnessLines(w), [`line 5:3 ${w.message}`]);
    assert.deepEqual(witnessLines({ ...w, explanation: [] }), [`line 5:3 ${w.message}`], 'an empty explanation is no explanation');
    assert.deepEqual(witnessLines({ ...w, explanation: ['in the commit order T1, T2: …'] }), ['no commit order works (line 5:3):', '- in the commit order T1, T2: …']);
  });

  test('help exits 0 and shows the usage', () => {
    const r = run(['--help']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /isocheck check/);
  });
});

describe('--claim L: the level the system under test claims', () => {
  /** About 100k transactions in as many sessions: CC's vector clocks exceed their budget, so CC is undecided. */
  const manySessions = (): string => {
    const p = join(dir, 'clocks.txt');
    writeFileSync(p, Array.from({ length: 100_000 }, (_, i) => `w(${i % 50},${i + 1},${i},${i})`).join('\n'));
    return p;
  };

  test('a violated claim is an error (exit 1), a level that holds is not (exit 0), on a plume file without directives', () => {
    const p = file('claim-fractured.txt', PLUME_FRACTURED);
    const ra = runJson(['check', p, '--claim', 'RA']);
    assert.equal(ra.status, 1);
    assert.deepEqual(ra.reports[0].levels.RA.consistent, false);
    assert.deepEqual((ra.reports[0] as FileReport & { claim?: unknown }).claim, { level: 'RA', consistent: false });
    const errs = ra.reports[0].diagnostics.filter((d) => d.severity === 'error');
    assert.deepEqual(errs.map((d) => d.code), ['RA']);
    assert.equal(errs[0].range.start.line, lineOf(PLUME_FRACTURED, 'r(2,0,1,2)'));
    const rc = runJson(['check', p, '--claim', 'RC']);
    assert.equal(rc.status, 0);
    assert.deepEqual((rc.reports[0] as FileReport & { claim?: unknown }).claim, { level: 'RC', consistent: true });
    assert.ok(rc.reports[0].diagnostics.every((d) => d.severity !== 'error'));
    // Without --claim the same file exits 0: violations of unclaimed levels are information.
    assert.equal(run(['check', p, '--level', 'RA']).status, 0);
  });

  test('a claimed level implied by a weaker violation is an error too, with the witness message', () => {
    const p = file('claim-ser.txt', PLUME_FRACTURED);
    const r = runJson(['check', p, '--claim', 'SER']);
    assert.equal(r.status, 1);
    const errs = r.reports[0].diagnostics.filter((d) => d.severity === 'error');
    assert.equal(errs.length, 1);
    assert.equal(errs[0].code, 'SER');
    assert.match(errs[0].message, /SER violated \(the claimed level\): /);
  });

  test('--claim adds its level to --level; the table shows it', () => {
    const p = file('claim-levels.txt', PLUME_FRACTURED);
    const r = runJson(['check', p, '--level', 'RC', '--claim', 'RA']);
    assert.deepEqual(Object.keys(r.reports[0].levels), ['RC', 'RA']);
    const t = run(['check', p, '--level', 'RC', '--claim', 'RA']);
    assert.equal(t.status, 1);
    assert.match(t.stdout, /error \[RA\] Fractured read \(RA\): /);
  });

  test('an undecided claim is reported and exits 3, or 0 with --undecided ok', () => {
    const p = manySessions();
    const r = runJson(['check', p, '--level', 'CC', '--claim', 'CC']);
    assert.equal(r.status, 3);
    assert.deepEqual((r.reports[0] as FileReport & { claim?: unknown }).claim, { level: 'CC', consistent: null });
    const notes = r.reports[0].diagnostics.filter((d) => d.code === 'not-checked' && d.severity === 'warning');
    assert.equal(notes.length, 1);
    assert.match(notes[0].message, /claimed level CC is undecided/);
    const text = run(['check', p, '--claim', 'CC', '--level', 'CC']);
    assert.equal(text.status, 3);
    assert.match(text.stdout, /CC \(claimed\) undecided/);
    assert.equal(run(['check', p, '--claim', 'CC', '--level', 'CC', '--undecided', 'ok']).status, 0);
    // An error in another file outranks an undecided claim: 1.
    assert.equal(run(['check', p, file('claim-thin.hist', THIN_AIR), '--claim', 'CC', '--level', 'CC']).status, 1);
  });

  test('usage errors: an unknown claimed level, a bad --undecided, --undecided without --claim', () => {
    const p = file('claim-usage.txt', PLUME_CLEAN);
    for (const args of [['--claim', 'XX'], ['--claim', 'RA', '--undecided', 'maybe'], ['--undecided', 'ok']]) {
      const r = run(['check', p, ...args]);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, /usage: isocheck check/);
    }
  });

  test('--help documents every exit status', () => {
    const r = run(['--help']);
    for (const s of [/0\s+no errors/, /1\s+some file has an error/, /2\s+usage error/, /3\s+the claimed level is undecided/]) assert.match(r.stdout, s);
    assert.match(r.stdout, /--claim L/);
  });

  test('check --help explains every option its usage line names, each on a line of its own', () => {
    const r = run(['check', '--help']);
    assert.equal(r.status, 0);
    const usage = /usage: isocheck check .*/.exec(r.stdout)![0];
    const options = [...new Set(usage.match(/--[a-z-]+/g))];
    assert.ok(options.length >= 10, usage);
    for (const o of options) assert.match(r.stdout, new RegExp(`^  ${o}[ =]`, 'm'), `${o} has no line of its own`);
  });
});

describe('gen into pipes', () => {
  const sh = (script: string): { status: number | null; stdout: string; stderr: string } => {
    const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const gen = `"${process.execPath}" "${CLI}" gen --events 2000000 --format plume`;

  test('| wc -c: every byte arrives, no EAGAIN, exit 0 (the same bytes as -o)', () => {
    const out = join(dir, 'gen-2m.txt');
    assert.equal(run(['gen', '--events', '2000000', '--format', 'plume', '-o', out]).status, 0);
    const r = sh(`${gen} | wc -c; echo "status \${PIPESTATUS[0]}"`);
    assert.equal(r.stderr, '');
    const [count, status] = r.stdout.trim().split('\n');
    assert.equal(status, 'status 0');
    assert.equal(Number(count.trim()), readFileSync(out).length);
  });

  test('| head -c 100: the reader stops early, gen ends quietly with exit 0', () => {
    const r = sh(`${gen} | head -c 100 | wc -c; echo "status \${PIPESTATUS[0]}"`);
    assert.equal(r.stderr, '');
    assert.deepEqual(r.stdout.trim().split('\n').map((s) => s.trim()), ['100', 'status 0']);
  });
});

describe('-o writes atomically and never over an input', () => {
  const FRACTURED_HIST = 'session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n';
  const leftovers = (d: string): string[] => readdirSync(d).filter((f) => f.includes('.isocheck-') && f.endsWith('.tmp'));

  test('witness -o onto its own input, directly or through a symbolic link: refused, exit 2, the input unchanged', () => {
    const sub = mkdtempSync(join(dir, 'self-'));
    const input = join(sub, 'h.hist');
    writeFileSync(input, FRACTURED_HIST);
    symlinkSync(input, join(sub, 'link.hist'));
    for (const [src, out] of [[input, input], [input, join(sub, 'link.hist')], [join(sub, 'link.hist'), input]]) {
      const r = run(['witness', src, '--level', 'RA', '--format', 'dot', '-o', out]);
      assert.equal(r.status, 2, `${src} -o ${out}`);
      assert.match(r.stderr, /refusing to write .*: it is the input/);
      assert.equal(readFileSync(input, 'utf8'), FRACTURED_HIST);
    }
    assert.deepEqual(leftovers(sub), []);
  });

  test('witness -o and gen -o replace an existing file whole and leave no temporary file', () => {
    const sub = mkdtempSync(join(dir, 'replace-'));
    const input = join(sub, 'h.hist');
    writeFileSync(input, FRACTURED_HIST);
    const out = join(sub, 'out.dot');
    writeFileSync(out, 'x'.repeat(100_000));
    chmodSync(out, 0o640);
    assert.equal(run(['witness', input, '--level', 'RA', '--format', 'dot', '-o', out]).status, 0);
    assert.match(readFileSync(out, 'utf8'), /^digraph/);
    assert.equal(statSync(out).mode & 0o777, 0o640, 'the old permissions are kept');
    assert.ok(readFileSync(out).length < 100_000);
    // A symbolic link as target is kept; the file it points to gets the output.
    const real = join(sub, 'real.txt');
    writeFileSync(real, 'old');
    symlinkSync(real, join(sub, 'via-link.txt'));
    assert.equal(run(['gen', '--txns', '20', '--format', 'plume', '-o', join(sub, 'via-link.txt')]).status, 0);
    assert.match(readFileSync(real, 'utf8'), /^[rw]\(/);
    assert.deepEqual(leftovers(sub), []);
  });

  test('-o onto a device or a FIFO writes into it and leaves it what it was (never a regular file renamed over it)', () => {
    const input = file('device-input.hist', FRACTURED_HIST);
    for (const args of [['gen', '--txns', '5'], ['witness', input, '--level', 'RA', '--format', 'dot']]) {
      assert.equal(run([...args, '-o', '/dev/null']).status, 0, args.join(' '));
      assert.ok(statSync('/dev/null').isCharacterDevice(), '/dev/null is still a device');
    }
    if (existsSync('/dev/full')) {
      const full = run(['gen', '--txns', '5', '-o', '/dev/full']);
      assert.equal(full.status, 2);
      assert.match(full.stderr, /^isocheck: cannot write \/dev\/full: no space left on device\n$/);
      assert.ok(statSync('/dev/full').isCharacterDevice(), '/dev/full is still a device');
    }
    const sub = mkdtempSync(join(dir, 'fifo-'));
    const fifo = join(sub, 'pipe');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo here: the device cases stand
    // A reader on the FIFO first (the shell's `>(cat > copy)`), then the CLI writes into it.
    const copy = join(sub, 'copy.dot');
    const reader = spawn('bash', ['-c', `cat "${fifo}" > "${copy}"`]);
    const w = run(['witness', input, '--level', 'RA', '--format', 'dot', '-o', fifo]);
    assert.equal(w.status, 0, w.stderr);
    return new Promise<void>((done) => reader.on('exit', () => {
      assert.match(readFileSync(copy, 'utf8'), /^digraph/);
      assert.ok(statSync(fifo).isFIFO(), 'the FIFO is still a FIFO');
      assert.deepEqual(leftovers(sub), []);
      done();
    }));
  });

  test('an unwritable target: exit 2 with a message, no stack trace', () => {
    const r = run(['gen', '--txns', '20', '-o', join(dir, 'no-such-dir', 'x.hist')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^isocheck: cannot write .*x\.hist: no such directory\n$/);
    const d = run(['gen', '--txns', '20', '-o', dir]);
    assert.equal(d.status, 2);
    assert.match(d.stderr, /is a directory/);
  });

  test('gen --workload list-append -o: atomic as the register gen (a file size limit keeps the old file; bad paths exit 2)', () => {
    const sub = mkdtempSync(join(dir, 'list-gen-'));
    const keep = join(sub, 'keep.hist');
    const precious = '# precious line\n'.repeat(200);
    writeFileSync(keep, precious);
    chmodSync(keep, 0o640);
    // A 2 KB file size limit (bash counts in 1024-byte blocks): the history does not fit.
    const limited = spawnSync('bash', ['-c', `ulimit -f 2; exec "${process.execPath}" "${CLI}" gen --workload list-append --txns 2000 -o "${keep}"`], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(limited.status, 2, limited.stderr);
    assert.equal(limited.stderr, `isocheck: cannot write ${keep}: file too large (over the file size limit) (the old file is unchanged)\n`);
    assert.equal(readFileSync(keep, 'utf8'), precious);
    assert.deepEqual(readdirSync(sub), ['keep.hist']);
    // Without the limit it is replaced whole, keeping its permissions, in each format.
    for (const format of ['hist', 'edn', 'json']) {
      assert.equal(run(['gen', '--workload', 'list-append', '--txns', '50', '--format', format, '-o', keep]).status, 0, format);
      assert.equal(statSync(keep).mode & 0o777, 0o640);
    }
    assert.match(readFileSync(keep, 'utf8'), /^\{/);
    assert.deepEqual(readdirSync(sub), ['keep.hist']);
    const bad: [string, RegExp][] = [
      [sub, /^isocheck: cannot write .*list-gen-\w+: is a directory\n$/],
      [join(sub, 'no-such-dir', 'x.hist'), /^isocheck: cannot write .*x\.hist: no such directory\n$/],
    ];
    if (existsSync('/dev/full')) bad.push(['/dev/full', /^isocheck: cannot write \/dev\/full: no space left on device\n$/]);
    for (const [target, message] of bad) {
      const r = run(['gen', '--workload', 'list-append', '--txns', '50', '-o', target]);
      assert.equal(r.status, 2, target);
      assert.match(r.stderr, message);
    }
    assert.deepEqual(readdirSync(sub), ['keep.hist']);
  });

  test('a full disk (a 64 KB tmpfs): gen -o and witness -o exit 2 saying so, the old files intact, no partial file', (t) => {
    if (process.getuid?.() !== 0) {
      t.skip('needs root to mount a small tmpfs');
      return;
    }
    const mnt = mkdtempSync(join(dir, 'full-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt]);
    if (mounted.status !== 0) {
      t.skip(`cannot mount a tmpfs here: ${String(mounted.stderr).trim()}`);
      return;
    }
    try {
      const old = join(mnt, 'old.txt');
      writeFileSync(old, 'the old output\n');
      const g = run(['gen', '--events', '200000', '--format', 'plume', '-o', old]);
      assert.equal(g.status, 2);
      assert.match(g.stderr, /^isocheck: cannot write .*old\.txt: no space left on device \(the old file is unchanged\)\n$/);
      assert.equal(readFileSync(old, 'utf8'), 'the old output\n');
      assert.deepEqual(readdirSync(mnt), ['old.txt']);
      // Witness: fill the disk, then ask for an SVG over the old file.
      const input = file('full-input.hist', FRACTURED_HIST);
      writeFileSync(join(mnt, 'filler'), Buffer.alloc(0));
      const fill = spawnSync('bash', ['-c', `head -c 1000000 /dev/zero > "${join(mnt, 'filler')}"`]);
      assert.notEqual(fill.status, null);
      const w = run(['witness', input, '--level', 'RA', '--format', 'svg', '-o', old]);
      assert.equal(w.status, 2);
      assert.match(w.stderr, /no space left on device \(the old file is unchanged\)/);
      assert.equal(readFileSync(old, 'utf8'), 'the old output\n');
      assert.deepEqual(readdirSync(mnt).sort(), ['filler', 'old.txt']);
    } finally {
      spawnSync('umount', [mnt]);
    }
  });
});

describe('--plume-init zero|none', () => {
  // A PolySI-style file: key 1's initial 0 is written explicitly by T1.
  const POLYSI = 'w(1,0,0,1)\nw(2,5,0,1)\nr(1,0,1,2)\nr(2,5,1,2)\n';

  test('zero (the default): a read of a written 0 is ambiguous, an error; none: 0 is an ordinary value, exit 0', () => {
    const p = file('polysi.txt', POLYSI);
    const zero = runJson(['check', p]);
    assert.equal(zero.status, 1);
    assert.ok(zero.reports[0].diagnostics.some((d) => d.code === 'ambiguous-read'));
    assert.match(zero.stderr, /hint: .*polysi\.txt writes the value 0, .* check it with --plume-init none/);
    assert.equal(runJson(['check', p, '--plume-init', 'zero']).status, 1);
    const none = runJson(['check', p, '--plume-init', 'none']);
    assert.equal(none.status, 0);
    assert.deepEqual(none.reports[0].diagnostics, []);
    assert.equal(none.reports[0].levels.SER.consistent, true);
  });

  test('none: there is no implicit initial write of 0, so a read of an unwritten 0 is thin air', () => {
    const p = file('no-init.txt', 'w(1,5,0,1)\nr(2,0,1,2)\n');
    assert.equal(runJson(['check', p]).status, 0);
    const none = runJson(['check', p, '--plume-init', 'none']);
    assert.equal(none.status, 1);
    assert.deepEqual(none.reports[0].diagnostics.map((d) => d.code), ['thin-air']);
  });

  test('witness takes it too; a bad value is a usage error', () => {
    const p = file('polysi-fractured.txt', 'w(1,0,0,1)\nw(2,0,0,1)\nw(1,5,0,3)\nw(2,6,0,3)\nr(2,0,1,2)\nr(1,5,1,2)\n');
    assert.equal(run(['witness', p, '--level', 'RA', '--plume-init', 'none']).status, 0);
    assert.equal(run(['check', p, '--plume-init', 'maybe']).status, 2);
    assert.equal(run(['witness', p, '--level', 'RA', '--plume-init', 'maybe']).status, 2);
  });
});
