// The hostile-input catalogue: every input a hostile user tried gets a clear answer, a known exit status and bounded output.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
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

function run(args: string[], timeout = 60_000, as?: { uid: number; gid: number }): Run {
  const r = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, CLI, ...args], {
    cwd: ROOT, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024, ...as,
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

describe('line endings', () => {
  const HIST = '# a leading comment\n// and another\nlevel RA\nhistory "cr"\nsession s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1) # trailing\n  T3: r(z, 7)\n';
  const PLUME = '# comment\nw(1,5,0,1)\nw(2,6,0,1)\n\nr(2,0,1,2)\nr(1,5,1,2)\nr(3,9,1,3)\nbad\n';
  const same = (name: string, lf: string): void => {
    const a = run(['check', file(`lf-${name}`, lf), '--json']);
    const b = run(['check', file(`cr-${name}`, lf.replaceAll('\n', '\r')), '--json']);
    const c = run(['check', file(`crlf-${name}`, lf.replaceAll('\n', '\r\n')), '--json']);
    assert.equal(a.status, 1);
    const strip = (r: Run): unknown => reportsOf(r).map(({ file: _f, ...rest }) => rest);
    assert.ok(reportsOf(a)[0].diagnostics.some((d) => d.severity === 'error'));
    assert.deepEqual(strip(b), strip(a), 'CR-only twin');
    assert.equal(b.status, a.status);
    assert.deepEqual(strip(c), strip(a), 'CRLF twin');
  };

  test('CR-only .hist: a leading # comment ends at a lone \\r; the same errors at the same lines as the LF twin', () => same('h.hist', HIST));
  test('CR-only plume: the same errors at the same lines as the LF twin', () => same('p.txt', PLUME));
});

describe('only regular files are read', () => {
  const GOOD = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
  const fifo = (path: string): string => {
    assert.equal(spawnSync('mkfifo', [path]).status, 0);
    return path;
  };

  test('a FIFO named on the command line: exit 2 with a message, no hang', () => {
    const p = fifo(join(dir, 'pipe.hist'));
    const r = run(['check', p], 20_000);
    assertClean(r, 'fifo');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /pipe\.hist: not a regular file \(a FIFO\)/);
    const w = run(['witness', p, '--level', 'RA'], 20_000);
    assert.equal(w.status, 2);
    assert.match(w.stderr, /not a regular file \(a FIFO\)/);
  });

  test('a FIFO inside a directory is skipped with a message, the other files are checked, exit 2', () => {
    const d = join(dir, 'with-fifo');
    mkdirSync(d);
    writeFileSync(join(d, 'a.hist'), GOOD);
    fifo(join(d, 'b.hist'));
    writeFileSync(join(d, 'c.txt'), 'w(1,5,0,1)\nr(1,5,1,2)\n');
    const r = run(['check', d, '--json'], 20_000);
    assertClean(r, 'fifo in dir');
    assert.equal(r.status, 2);
    assert.deepEqual(reportsOf(r).map((x) => x.file), [join(d, 'a.hist'), join(d, 'c.txt')]);
    assert.match(r.stderr, /b\.hist: not a regular file \(a FIFO\), skipped/);
  });

  test('/dev/zero and /dev/null: devices are refused, memory stays bounded', () => {
    for (const dev of ['/dev/zero', '/dev/null']) {
      const r = run(['check', dev], 20_000);
      assertClean(r, dev);
      assert.equal(r.status, 2);
      assert.match(r.stderr, new RegExp(`${dev}: not a regular file \\(a character device\\)`));
    }
  });

  test('a socket is refused', async () => {
    const path = join(dir, 'sock.hist');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const r = run(['check', path], 20_000);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /not a regular file \(a socket\)/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('a symbolic link loop: exit 2 with a message', () => {
    const p = join(dir, 'loop.hist');
    symlinkSync(p, p);
    const r = run(['check', p]);
    assertClean(r, 'loop');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /loop\.hist: too many levels of symbolic links/);
    const d = join(dir, 'loop-dir');
    mkdirSync(d);
    writeFileSync(join(d, 'a.hist'), GOOD);
    symlinkSync(join(d, 'z.hist'), join(d, 'z.hist'));
    const rd = run(['check', d, '--json']);
    assert.equal(rd.status, 2);
    assert.equal(reportsOf(rd).length, 1);
  });
});

describe('unreadable directories', () => {
  test('a directory that cannot be listed: a clear message, exit 2, the other files\' reports still printed', () => {
    const base = join(dir, 'perm');
    mkdirSync(join(base, 'locked'), { recursive: true });
    mkdirSync(join(base, 'open'));
    writeFileSync(join(base, 'open', 'a.hist'), 'session s1\n  T1: w(x, 1)\n');
    writeFileSync(join(base, 'locked', 'b.hist'), 'session s1\n  T1: w(x, 1)\n');
    // Root reads any directory: run the CLI as nobody then, with the way to the files open to it.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    if (asNobody) for (const d of [dir, base, join(base, 'open')]) chmodSync(d, 0o755);
    if (asNobody) chmodSync(join(base, 'open', 'a.hist'), 0o644);
    chmodSync(join(base, 'locked'), 0o000);
    try {
      const r = run(['check', join(base, 'locked'), join(base, 'open'), '--json'], 60_000, asNobody);
      assertClean(r, 'unreadable dir');
      assert.equal(r.status, 2);
      assert.match(r.stderr, /^isocheck: cannot read directory .*locked: permission denied$/m);
      assert.deepEqual(reportsOf(r).map((x) => x.file), [join(base, 'open', 'a.hist')]);
      const text = run(['check', join(base, 'locked'), join(base, 'open')], 60_000, asNobody);
      assert.equal(text.status, 2);
      assert.match(text.stdout, /a\.hist\s+✓/);
    } finally {
      chmodSync(join(base, 'locked'), 0o755);
    }
  });
});

describe('byte order marks, big numbers', () => {
  const PLUME = 'w(1,5,0,1)\nw(2,6,0,1)\nr(2,6,1,2)\nr(1,5,1,2)\n';
  const HIST = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
  const withoutFile = (r: Run): unknown => reportsOf(r).map(({ file: _f, ...rest }) => rest);

  test('a UTF-8 BOM is ignored in plume and .hist files: no syntax or thin-air error, the same report', () => {
    for (const [name, text] of [['p.txt', PLUME], ['h.hist', HIST]]) {
      const plain = run(['check', file(`plain-${name}`, text), '--json']);
      const bom = run(['check', file(`bom-${name}`, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])), '--json']);
      assert.equal(plain.status, 0, name);
      assert.equal(bom.status, 0, `${name} with a BOM: ${bom.stdout.slice(0, 600)}`);
      assert.deepEqual(withoutFile(bom), withoutFile(plain), name);
    }
  });

  test('plume numbers up to 2^63−1 are accepted (keys, values, sessions), exactly: 2^53+1 is not 2^53', () => {
    const max = '9223372036854775807';
    const ok = run(['check', file('int64.txt', `w(${max},${max},${max},1)\nw(7,3000000000,${max},1)\nr(${max},${max},4,2)\nr(7,3000000000,4,2)\n`), '--json']);
    assert.equal(ok.status, 0, ok.stdout.slice(0, 800));
    const exact = run(['check', file('2p53.txt', 'w(1,9007199254740993,0,1)\nr(1,9007199254740992,1,2)\n'), '--json']);
    assert.equal(exact.status, 1);
    const [d] = reportsOf(exact)[0].diagnostics;
    assert.equal(d.code, 'thin-air');
    assert.match(d.message, /read 1 = 9007199254740992, but no transaction writes 9007199254740992/);
    // Names keep the full numbers.
    const fr = run(['check', file('int64-fractured.txt', `w(${max},5,0,1)\nw(2,${max},0,1)\nr(2,0,1,2)\nr(${max},5,1,2)\n`), '--json']);
    assert.match(JSON.stringify(reportsOf(fr)[0].levels.RA.witness), new RegExp(`key ${max}`));
  });

  test('2^63 and longer plume numbers are syntax errors, also with 4M digits (quickly, bounded)', () => {
    const r = run(['check', file('2p63.txt', 'w(1,9223372036854775808,0,1)\n'), '--json']);
    assert.equal(r.status, 1);
    assert.match(reportsOf(r)[0].diagnostics[0].message, /numbers may be at most 2\^63−1/);
    const huge = run(['check', file('huge-number.txt', `w(1,${'7'.repeat(4_000_000)},0,1)\nw(2,5,0,2)\n`), '--json']);
    assertClean(huge, 'huge plume number');
    assert.equal(huge.status, 1);
    assert.ok(huge.stdout.length < 10_000);
    assert.match(reportsOf(huge)[0].diagnostics[0].message, /this one has 4000000 digits/);
  });

  test('.hist numeric literals over 30 digits are syntax errors (no super-linear conversion), 30 are fine', () => {
    const ok = run(['check', file('30-digits.hist', `session s1\n  T1: w(x, ${'9'.repeat(30)})\nsession s2\n  T2: r(x, ${'9'.repeat(30)})\n`)]);
    assert.equal(ok.status, 0, ok.stdout);
    const huge = run(['check', file('huge-number.hist', `session s1\n  T1: w(x, ${'7'.repeat(4_000_000)})\n`), '--json']);
    assertClean(huge, 'huge .hist number');
    assert.equal(huge.status, 1);
    assert.ok(huge.stdout.length < 10_000);
    assert.match(reportsOf(huge)[0].diagnostics[0].message, /a number may have at most 30 digits \(this one has 4000000\)/);
  });
});

describe('text from the file is escaped on the terminal', () => {
  const ESC = '\x1b';
  const nasty = `${ESC}[2J${ESC}[H\u009b31m\u202eALL LEVELS OK`;

  test('titles, keys, values, tokens and file names: control characters shown as \\x1b…, never raw', () => {
    const text = `history "${nasty}"\nsession s1\n  T1: w("${nasty}", 1) w(y, 1)\nsession s2\n  T2: r(y, init) r("${nasty}", 1)\n  T3: r(z, "${nasty}") ${ESC}[31m\n`;
    const p = file(`name${ESC}[2J\nfake.hist`, text);
    const r = run(['check', p, '--level', 'RA']);
    assertClean(r, 'escapes');
    assert.equal(r.status, 1);
    for (const out of [r.stdout, r.stderr]) {
      assert.doesNotMatch(out, /[\x1b\x9b\u202e]/, 'no raw escape characters');
    }
    assert.match(r.stdout, /\\x1b\[2J\\x1b\[H\\x9b31m\\u202eALL LEVELS OK/, 'the title and key, escaped');
    assert.match(r.stdout, /name\\x1b\[2J\\x0afake\.hist/, 'the file name, newline included');
    assert.ok(r.stdout.split('\n').every((l) => !l.startsWith('fake.hist')), 'no line faked by a newline in a file name');
    // --json stays valid JSON with the same values, and nothing raw that a terminal acts on.
    const j = run(['check', p, '--level', 'RA', '--json']);
    assert.doesNotMatch(j.stdout, /[\x1b\x9b\u202e]/);
    assert.equal(reportsOf(j)[0].title, nasty);
    // Messages on standard error too.
    const missing = run(['check', join(dir, `gone${ESC}[2J.hist`)]);
    assert.match(missing.stderr, /gone\\x1b\[2J\.hist/);
    assert.doesNotMatch(missing.stderr, /\x1b/);
  });
});
