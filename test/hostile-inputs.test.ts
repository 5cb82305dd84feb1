// The hostile-input catalogue: every input a hostile user tried gets a clear answer, a known exit status and bounded output.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/**
 * How a run meets permission bits as root, who reads any directory: 'no-dac' keeps root but drops
 * the two capabilities that bypass them (setpriv, util-linux), so the checkout stays reachable; a
 * uid (nobody) cannot reach a checkout under a directory closed to others, as /root is (0700):
 * there the CLI failed with "Cannot find module", every time.
 */
type Confinement = 'no-dac' | { uid: number; gid: number };
const NO_DAC = ['--inh-caps=-dac_override,-dac_read_search', '--bounding-set=-dac_override,-dac_read_search'];

function run(args: string[], timeout = 60_000, as?: Confinement): Run {
  const node = [`--max-old-space-size=${HEAP_MB}`, CLI, ...args];
  const options = { cwd: ROOT, encoding: 'utf8' as const, timeout, maxBuffer: 64 * 1024 * 1024 };
  const r = as === 'no-dac'
    ? spawnSync('setpriv', [...NO_DAC, process.execPath, ...node], options)
    : spawnSync(process.execPath, node, { ...options, ...as });
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
  test('131,072 duplicate writes in one transaction: 100 warnings and one "N more", text and --json bounded', () => {
    const p = file('dup-writes.hist', `session s1\n  T1: ${'w(x, 1) '.repeat(131_072)}\nsession s2\n  T2: r(q, 5)\n`);
    const json = run(['check', p, '--json', '--level', 'RC']);
    assertClean(json, 'duplicate writes');
    assert.equal(json.status, 1, 'the thin-air read is an error');
    assert.ok(json.stdout.length < 200_000, `${json.stdout.length} characters`);
    const dups = reportsOf(json)[0].diagnostics.filter((d) => d.code === 'duplicate-write');
    assert.equal(dups.length, 101);
    const more = /^(\d+) more duplicate-write findings in this file not shown \(the first 100 are\)$/.exec(dups[100].message);
    assert.ok(more, dups[100].message);
    assert.ok(Number(more[1]) + 100 >= 131_071, 'the count covers every duplicate');
  });

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

  test('a subdirectory named like a history is passed over silently (directories are not expanded recursively)', () => {
    const d = join(dir, 'with-subdir');
    mkdirSync(d);
    writeFileSync(join(d, 'a.hist'), GOOD);
    mkdirSync(join(d, 'sub.hist'));
    writeFileSync(join(d, 'sub.hist', 'inner.hist'), GOOD);
    const r = run(['check', d, '--json'], 20_000);
    assertClean(r, 'subdirectory');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(reportsOf(r).map((x) => x.file), [join(d, 'a.hist')]);
  });

  test('a file in a checked directory whose name is not UTF-8 is read (by its bytes) and shown with U+FFFD', () => {
    const d = join(dir, 'odd-names');
    mkdirSync(d);
    const raw = Buffer.concat([Buffer.from(join(d, 'bad'), 'utf8'), Buffer.from([0xff, 0xfe]), Buffer.from('.hist')]);
    writeFileSync(raw, GOOD);
    writeFileSync(join(d, 'z.hist'), GOOD);
    const r = run(['check', d, '--json'], 20_000);
    assertClean(r, 'non-UTF-8 name');
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(reportsOf(r).map((x) => x.file), [join(d, 'bad\ufffd\ufffd.hist'), join(d, 'z.hist')]);
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
    // Root reads any directory: run the CLI without root's reach then; as nobody (with the way to
    // the files open to it) only where setpriv cannot drop capabilities.
    const root = process.getuid?.() === 0;
    const asNobody = root && spawnSync('setpriv', [...NO_DAC, 'true']).status !== 0 ? { uid: 65534, gid: 65534 } : undefined;
    const confined: Confinement | undefined = root ? asNobody ?? 'no-dac' : undefined;
    if (asNobody) for (const d of [dir, base, join(base, 'open')]) chmodSync(d, 0o755);
    if (asNobody) chmodSync(join(base, 'open', 'a.hist'), 0o644);
    chmodSync(join(base, 'locked'), 0o000);
    try {
      const r = run(['check', join(base, 'locked'), join(base, 'open'), '--json'], 60_000, confined);
      assertClean(r, 'unreadable dir');
      assert.equal(r.status, 2);
      assert.match(r.stderr, /^isocheck: cannot read directory .*locked: permission denied$/m);
      assert.deepEqual(reportsOf(r).map((x) => x.file), [join(base, 'open', 'a.hist')]);
      const text = run(['check', join(base, 'locked'), join(base, 'open')], 60_000, confined);
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

/** A small deterministic generator, so a failing case can be reproduced byte for byte. */
function bytesOf(seed: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out[i] = s & 0xff;
  }
  return out;
}

interface Case {
  name: string;
  /** Writes the input; returns the arguments after `check`. */
  make: () => string[];
  status: number;
  /** Bounds on standard output (characters), text and --json. */
  maxText?: number;
  maxJson?: number;
  /** Reports expected in --json (default 1). */
  reports?: number;
}

const HIST_OK = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';

const CATALOGUE: Case[] = [
  { name: 'an empty .hist file', make: () => [file('empty.hist', '')], status: 0 },
  { name: 'an empty plume file', make: () => [file('empty.txt', '')], status: 0 },
  { name: '1 MB of random bytes as .hist', make: () => [file('random.hist', bytesOf(1, 1 << 20))], status: 1 },
  { name: '1 MB of random bytes as plume', make: () => [file('random.txt', bytesOf(2, 1 << 20))], status: 1 },
  { name: '100 KB of NUL bytes as .hist', make: () => [file('nul.hist', Buffer.alloc(100_000))], status: 1 },
  { name: '100 KB of NUL bytes as plume', make: () => [file('nul.txt', Buffer.alloc(100_000))], status: 1 },
  {
    name: 'invalid UTF-8 between valid lines',
    make: () => [file('bad-utf8.hist', Buffer.concat([Buffer.from('session s1\n  T1: w(x, 1)\n'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1]), Buffer.from('\nsession s2\n  T2: r(x, 1)\n')]))],
    status: 1,
  },
  { name: 'a UTF-8 BOM', make: () => [file('bom.hist', `\ufeff${HIST_OK}`)], status: 0 },
  { name: 'a 1 MB line of operations', make: () => [file('long-line.hist', `session s1\n  T1: ${'w(x, 1) '.repeat(131_072)}\n`), '--level', 'RC'], status: 0 },
  { name: 'a 1 MB plume line (trailing blanks)', make: () => [file('long-line.txt', `w(1,1,0,1)${' '.repeat(1 << 20)}\nr(1,1,1,2)\n`)], status: 0 },
  { name: '100k opening brackets in a read', make: () => [file('brackets.hist', `session s1\n  T1: r(x, ${'['.repeat(100_000)}\n`)], status: 1 },
  { name: '100k brackets of each kind', make: () => [file('brackets2.hist', '['.repeat(100_000) + ']'.repeat(100_000) + '('.repeat(100_000))], status: 1 },
  {
    name: 'a 5M-character key name',
    make: () => {
      const k = 'k'.repeat(5_000_000);
      return [file('long-key.hist', `session s1\n  T1: w(${k}, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(${k}, 1)\n`), '--claim', 'RA'];
    },
    status: 1, maxText: 10_000, maxJson: 40_000_000,
  },
  { name: '2^53+1 written, 2^53 read (.hist): distinct values, thin air', make: () => [file('2p53.hist', 'session s1\n  T1: w(x, 9007199254740993)\nsession s2\n  T2: r(x, 9007199254740992)\n')], status: 1 },
  {
    name: '10^6 sessions (plume)',
    make: () => {
      const lines: string[] = [];
      for (let i = 0; i < 1_000_000; i++) lines.push(`w(${i % 100},${i + 1},${i},${i})`);
      return [file('million-sessions.txt', lines.join('\n')), '--level', 'RC'];
    },
    status: 0,
  },
  {
    name: 'a directory of 5,000 files',
    make: () => {
      const d = join(dir, 'five-thousand');
      mkdirSync(d);
      for (let i = 0; i < 5000; i++) writeFileSync(join(d, `f${String(i).padStart(4, '0')}.hist`), i % 7 === 0 ? 'session s1\n  T1: r(x, 5)\n' : HIST_OK);
      return [d, '--level', 'RC'];
    },
    status: 1, maxText: 2_000_000, maxJson: 8_000_000, reports: 5000,
  },
  { name: '4M bad tokens', make: () => [file('bad-tokens-2.hist', 'r( '.repeat(4_000_000))], status: 1 },
  { name: 'CR-only line endings', make: () => [file('cr.hist', `# comment\r${HIST_OK.replaceAll('\n', '\r')}  T3: r(z, 9)\r`)], status: 1 },
  {
    name: 'a symbolic link loop',
    make: () => {
      const p = join(dir, 'self-loop.hist');
      symlinkSync(p, p);
      return [p, file('next-to-loop.hist', HIST_OK)];
    },
    status: 2, reports: 2,
  },
  {
    name: 'a FIFO',
    make: () => {
      const p = join(dir, 'catalogue-fifo.hist');
      spawnSync('mkfifo', [p]);
      return [p, file('next-to-fifo.hist', HIST_OK)];
    },
    status: 2, reports: 2,
  },
  { name: '/dev/zero', make: () => ['/dev/zero', file('next-to-zero.hist', HIST_OK)], status: 2, reports: 2 },
  {
    name: 'files over the size caps (sparse: 600 MB .hist, 3 GB plume), refused without reading them',
    make: () => {
      const hist = file('huge.hist', '');
      const plume = file('huge.txt', '');
      assert.equal(spawnSync('truncate', ['-s', '600M', hist]).status, 0);
      assert.equal(spawnSync('truncate', ['-s', '3G', plume]).status, 0);
      return [hist, plume, file('next-to-huge.hist', HIST_OK)];
    },
    status: 2, reports: 3,
  },
];

describe('the catalogue: exit status, bounded output, bounded memory, no hang', () => {
  for (const c of CATALOGUE) {
    test(c.name, () => {
      const args = c.make();
      const text = run(['check', ...args]);
      assertClean(text, `${c.name} (text)`);
      assert.equal(text.status, c.status, `${c.name}: ${text.stderr.slice(0, 400)}`);
      assert.ok(text.stdout.length <= (c.maxText ?? 50_000), `${c.name}: ${text.stdout.length} characters of text`);
      const json = run(['check', ...args, '--json']);
      assertClean(json, `${c.name} (--json)`);
      assert.equal(json.status, c.status);
      assert.ok(json.stdout.length <= (c.maxJson ?? 200_000), `${c.name}: ${json.stdout.length} characters of JSON`);
      const reports = reportsOf(json);
      const expected = c.reports ?? 1;
      assert.equal(reports.length, expected, `${c.name}: reports`);
      for (const r of reports) {
        const perCode = new Map<string, number>();
        for (const d of r.diagnostics) perCode.set(d.code, (perCode.get(d.code) ?? 0) + 1);
        for (const [code, n] of perCode) assert.ok(n <= 101, `${c.name}: ${n} ${code} diagnostics`);
      }
    });
  }
});

describe('determinism', () => {
  /** A .hist from the generator, its sessions in another order (the same transactions, names and lines within a session). */
  const shuffledSessions = (text: string, seed: number): string => {
    const blocks = text.split(/\n(?=session )/);
    const head = blocks.shift() ?? '';
    let s = seed;
    const next = (): number => {
      s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
      return s / 0x80000000;
    };
    for (let i = blocks.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [blocks[i], blocks[j]] = [blocks[j], blocks[i]];
    }
    return `${head}\n${blocks.map((b) => (b.endsWith('\n') ? b : `${b}\n`)).join('\n')}`;
  };
  /** Verdicts and witness cycles without source positions (they move when sessions move). */
  const verdicts = (r: Run): string => JSON.stringify(reportsOf(r).map((x) => ({ levels: x.levels, mixed: x.mixed })), (k, v: unknown) => (k === 'range' ? undefined : v));
  let made: string[] | null = null;
  const histories = (): string[] => {
    if (made) return made;
    const out: string[] = (made = []);
    for (const [store, seed] of [['permissive', 3], ['causal', 5], ['snapshot', 7], ['read-committed', 11]] as const) {
      const p = join(dir, `det-${store}.hist`);
      assert.equal(run(['gen', '--txns', '40', '--sessions', '5', '--keys', '6', '--store', store, '--seed', String(seed), '-o', p]).status, 0);
      out.push(p);
    }
    return out;
  };

  test('the same file gives byte-identical --json in 5 runs (all levels, generated histories with violations)', () => {
    const files = histories();
    const first = run(['check', ...files, '--json']);
    assert.ok(reportsOf(first).some((r) => Object.values(r.levels).some((v) => v.consistent === false)), 'some level is violated');
    for (let i = 0; i < 4; i++) assert.equal(run(['check', ...files, '--json']).stdout, first.stdout, `run ${i + 2}`);
  });

  test('session-order shuffles of the text: the same verdicts (with the same notes)', () => {
    for (const p of histories()) {
      const text = readFileSync(p, 'utf8');
      const base = JSON.parse(verdicts(run(['check', p, '--json']))) as { levels: Record<string, { consistent: boolean | null; note?: string }> }[];
      for (const seed of [1, 2, 3]) {
        const q = file(`shuffled-${seed}-${basename(p)}`, shuffledSessions(text, seed));
        const got = JSON.parse(verdicts(run(['check', q, '--json']))) as typeof base;
        const strip = (x: typeof base): unknown => x.map((r) => Object.fromEntries(Object.entries(r.levels).map(([l, v]) => [l, [v.consistent, v.note ?? null]])));
        assert.deepEqual(strip(got), strip(base), `${basename(p)}, shuffle ${seed}`);
      }
    }
  });

  test('session-order shuffles of the text: the same witness cycles (ids are canonical; test/canonical-order.test.ts covers hundreds more)', () => {
    for (const p of histories()) {
      const text = readFileSync(p, 'utf8');
      const base = verdicts(run(['check', p, '--json']));
      for (const seed of [1, 2, 3]) {
        const q = file(`shuffled-w-${seed}-${basename(p)}`, shuffledSessions(text, seed));
        assert.equal(verdicts(run(['check', q, '--json'])), base, `${basename(p)}, shuffle ${seed}`);
      }
    }
  });
});

describe('witness exports on a terminal', () => {
  test('dot and hist written to a terminal escape control characters; to a pipe they stay exact', (t) => {
    if (spawnSync('script', ['--version']).status !== 0) {
      t.skip('needs script(1) for a pseudo-terminal');
      return;
    }
    const p = file('esc-witness.hist', 'history "\x1b[2Jtitle"\nsession s1\n  T1: w("\x1b[31mk", 1) w(y, 1)\nsession s2\n  T2: r(y, init) r("\x1b[31mk", 1)\n');
    for (const format of ['dot', 'hist']) {
      const piped = run(['witness', p, '--level', 'RA', '--format', format]);
      assert.equal(piped.status, 0);
      assert.match(piped.stdout, /\x1b\[2Jtitle/, `${format} to a pipe: exact`);
      const tty = spawnSync('script', ['-qec', `"${process.execPath}" "${CLI}" witness "${p}" --level RA --format ${format}`, '/dev/null'], { encoding: 'utf8', timeout: 30_000 });
      assert.equal(tty.status, 0, tty.stderr);
      assert.doesNotMatch(tty.stdout, /\x1b/, `${format} on a terminal: no raw ESC`);
      assert.match(tty.stdout, /\\x1b\[2Jtitle/);
    }
  });
});

describe('a .txt holding a text format (dbcop, AWDIT test) over 512 MB', () => {
  test('is refused by its first piece, as text formats are, instead of failing as one string (sparse files)', () => {
    for (const [name, head] of [['huge-awdit.txt', 'w 1 1\n=====\nr 1 1\n'], ['huge-dbcop.txt', '[x:=1]\n---\n[x==1]\n']]) {
      const p = file(name, head);
      assert.equal(spawnSync('truncate', ['-s', '600M', p]).status, 0);
      for (const args of [['check', p], ['convert', p]]) {
        const r = run(args);
        assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /larger than 512 MB \(the limit for text formats/, args.join(' '));
        assert.doesNotMatch(r.stderr, /internal error/);
      }
    }
  });
});
