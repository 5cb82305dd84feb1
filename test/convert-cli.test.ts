// `isocheck convert` on the command line: never over its input, refusals with exit 2 and nothing written, verdicts kept.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileReport } from '../server/src/engine/report.ts';
import { CLI, ensureBuilt, ROOT } from './helpers/lsp-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'isocheck-convert-'));
before(() => ensureBuilt());
after(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const example = readFileSync(join(ROOT, 'examples', 'fractured-read.hist'), 'utf8');

test('-o naming the input is refused: exit 2, the input unchanged, no file left beside it', () => {
  const sub = join(dir, 'self');
  mkdirSync(sub);
  const input = join(sub, 'in.hist');
  writeFileSync(input, example);
  const r = run('convert', input, '-o', input);
  assert.equal(r.status, 2);
  assert.equal(r.stderr, `isocheck: refusing to write ${input}: it is the input ${input}\n`);
  assert.equal(readFileSync(input, 'utf8'), example);
  assert.deepEqual(readdirSync(sub), ['in.hist']);
});

test('-o through a symbolic link or a hard link to the input is refused too', () => {
  const sub = join(dir, 'links');
  mkdirSync(sub);
  const input = join(sub, 'in.hist');
  writeFileSync(input, example);
  symlinkSync('in.hist', join(sub, 'soft.hist'));
  linkSync(input, join(sub, 'hard.hist'));
  for (const target of ['soft.hist', 'hard.hist']) {
    const r = run('convert', input, '-o', join(sub, target));
    assert.equal(r.status, 2, target);
    assert.equal(r.stderr, `isocheck: refusing to write ${join(sub, target)}: it is the input ${input}\n`);
  }
  assert.equal(readFileSync(input, 'utf8'), example);
  assert.ok(lstatSync(join(sub, 'soft.hist')).isSymbolicLink());
  assert.deepEqual(readdirSync(sub).sort(), ['hard.hist', 'in.hist', 'soft.hist']);
});

test('a conversion keeps init, level, tags and expect lines: the converted file checks as the input does', () => {
  const input = join(dir, 'init.hist');
  writeFileSync(input, 'history "kept"\nlevel RA\nexpect RA ok\ninit x = 5\nsession s1\n  T1 [CC] @ 1..2: r(x, 5)\n');
  const out = join(dir, 'init-converted.hist');
  const r = run('convert', input, '-o', out);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(out, 'utf8'), '# Converted by isocheck convert.\nhistory "kept"\nlevel RA\nexpect RA ok\ninit x = 5\n\nsession s1\n  T1 [CC] @ 1..2: r(x, 5)\n');
  const c = run('check', '--json', input, out);
  assert.equal(c.status, 0, c.stdout);
  // The same report but for the file and the positions (the converted file starts with a comment).
  const positionless = (x: FileReport): unknown => ({ ...x, file: null, diagnostics: [], expectations: x.expectations?.map((e) => ({ ...e, range: null })) });
  const [a, b] = JSON.parse(c.stdout) as FileReport[];
  assert.deepEqual(positionless(b), positionless(a));
  assert.equal(a.expectations?.length, 1);
});

test('--plume-init none, as for check: a plume file that writes 0 converts with 0 as an ordinary value, verdicts kept; a bad value is a usage error', () => {
  // PolySI-style: T1 writes 0 to key 1 explicitly; T2 reads it (read from T1, not the initial state).
  const input = join(dir, 'zero.plume');
  writeFileSync(input, 'w(1,0,1,1)\nw(2,5,1,1)\nr(1,0,2,2)\nr(2,5,2,2)\nw(1,3,3,3)\nr(1,3,4,4)\n');
  const out = join(dir, 'zero.hist');
  const r = run('convert', input, '--plume-init', 'none', '-o', out);
  assert.equal(r.status, 0, r.stderr);
  const text = readFileSync(out, 'utf8');
  assert.doesNotMatch(text, /^init /m);
  assert.match(text, /T1: w\(1, 0\) w\(2, 5\)/);
  const verdicts = (...args: string[]): unknown => (JSON.parse(run('check', '--json', ...args).stdout) as FileReport[]).map((x) => [x.levels, x.diagnostics.map((d) => d.code)]);
  assert.deepEqual(verdicts(out), verdicts('--plume-init', 'none', input));
  // Without it the explicit 0 is the initial value written again: reads of 0 are ambiguous.
  const zero = JSON.parse(run('check', '--json', input).stdout) as FileReport[];
  assert.ok(zero[0].diagnostics.some((d) => d.code === 'ambiguous-read'));
  const bad = run('convert', input, '--plume-init', 'sometimes');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--plume-init takes zero or none, not 'sometimes'/);
});

test('a title-less input gets "converted from FILE"; standard output without -o', () => {
  const input = join(dir, 'plain.dbcop');
  writeFileSync(input, '[x:=1]\n---\n[x==1]\n');
  const r = run('convert', input);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '# Converted by isocheck convert.\nhistory "converted from plain.dbcop"\n\nsession s1\n  T1: w(x, 1)\n\nsession s2\n  T2: r(x, 1)\n');
});

test('what .hist cannot say exactly is refused: exit 2, a message, nothing written', () => {
  const cases: [string, string, RegExp][] = [
    ['newline.jsonl', '{"type":"invoke","f":"txn","value":[["append",1,"a\\nb"]],"process":0,"time":1}\n{"type":"ok","f":"txn","value":[["append",1,"a\\nb"]],"process":0,"time":2}\n',
      /^isocheck: cannot convert .*newline\.jsonl to \.hist: the value "a\\nb" contains a line break, which a \.hist string cannot hold; nothing written\n$/],
    ['keys.jsonl', '{"type":"invoke","f":"txn","value":[["append",1,1],["append","1",2]],"process":0,"time":1}\n{"type":"ok","f":"txn","value":[["append",1,1],["append","1",2]],"process":0,"time":2}\n',
      /^isocheck: cannot convert .*keys\.jsonl to \.hist: the keys 1 and "1" would both be the key "1" in \.hist, which does not tell them apart; nothing written\n$/],
  ];
  for (const [name, text, message] of cases) {
    const input = join(dir, name);
    writeFileSync(input, text);
    assert.equal(run('check', input).stderr, '', `${name} reads cleanly`);
    const out = join(dir, `${name}.hist`);
    const r = run('convert', input, '-o', out);
    assert.equal(r.status, 2, name);
    assert.match(r.stderr, message);
    assert.equal(existsSync(out), false);
  }
});

test('a 31-digit dbcop version is a reader error (the fuzzer\'s d31.dbcop); 30 digits convert to a .hist that parses', () => {
  const v31 = '1234567890123456789012345678901';
  const bad = join(dir, 'd31.dbcop');
  writeFileSync(bad, `[x:=${v31}]\n---\n[x==${v31}]\n`);
  const c = run('check', bad);
  assert.equal(c.status, 1);
  assert.match(c.stdout, /line 1: a version may have at most 30 digits, as numbers in \.hist files \(this one has 31\)/);
  const good = join(dir, 'd30.dbcop');
  writeFileSync(good, `[x:=${v31.slice(1)}]\n---\n[x==${v31.slice(1)}]\n`);
  const out = join(dir, 'd30.hist');
  assert.equal(run('convert', good, '-o', out).status, 0);
  assert.match(readFileSync(out, 'utf8'), /T1: w\(x, 234567890123456789012345678901\)/);
  const both = run('check', good, out);
  assert.equal(both.status, 0, both.stdout);
});

test('a directory or a missing file is no input: exit 2', () => {
  assert.equal(run('convert', dir).status, 2);
  const missing = run('convert', join(dir, 'missing.hist'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^isocheck: cannot read .*missing\.hist/);
});
