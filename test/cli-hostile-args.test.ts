// Command lines and outputs an audit broke: repeated flags, numbers Number() took, gen sizes without bound, a full disk, reader messages.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { numberArg, parseArgs } from '../server/src/cli/args.ts';
import { generateHistory, DEFAULT_GEN_OPTIONS } from '../server/src/engine/gen/generate.ts';
import { histChunks, plumeChunks } from '../server/src/engine/gen/history-writers.ts';
import { DEFAULT_LIST_GEN, generateListHistory, LOP_APPEND, LOP_READ, listEventChunks, listHistChunks, MAX_LIST_ELEMENTS } from '../server/src/engine/gen/list-append-store.ts';
import { readJepsenEdn } from '../server/src/engine/readers/edn-reader.ts';
import { readJepsenJson } from '../server/src/engine/readers/json-events-reader.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'isocheck-hostile-args-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const run = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: ROOT });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

before(() => {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
});

test('output to a full disk (> /dev/full) is one line and exit 2, not a stack trace', { skip: !existsSync('/dev/full') }, () => {
  for (const args of ['check examples/write-skew.hist', 'gen --txns 2000']) {
    const r = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" ${args} > /dev/full`], { encoding: 'utf8', cwd: ROOT });
    assert.equal(r.status, 2, args);
    assert.equal(r.stderr, 'isocheck: cannot write to standard output: ENOSPC\n', args);
  }
});

test('a flag given twice is refused, except those documented as repeatable (--level of check, --isolation of hermitage)', () => {
  for (const args of [
    ['check', 'examples/write-skew.hist', '--claim', 'SER', '--claim', 'RC'],
    ['witness', 'examples/write-skew.hist', '--level', 'RA', '--level', 'CC'],
    ['gen', '-o', join(dir, 'a.hist'), '--output', join(dir, 'b.hist')],
    ['gen', '--workload', 'list-append', '--txns', '5', '--txns', '6'],
    ['convert', 'examples/write-skew.hist', '--format=hist', '--format', 'plume'],
  ]) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, /given more than once/, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
  }
  assert.equal(existsSync(join(dir, 'a.hist')) || existsSync(join(dir, 'b.hist')), false);
  const both = run('check', 'examples/write-skew.hist', '--level', 'RA', '--level', 'SER');
  assert.match(both.stdout, /RA\s+SER\s+result/);
  const parsed = parseArgs(['--isolation', 'a', '--isolation', 'b'], ['--isolation'], [], ['--isolation']);
  assert.ok(parsed.ok && parsed.args.values.get('--isolation')?.length === 2);
});

test('numbers are decimal: Number() also took 0x10, " 5", 0b11 and the empty string (as 0)', () => {
  for (const [text, value] of [['12', 12], ['0.5', 0.5], ['1e6', 1e6], ['-3', -3], ['.25', 0.25]] as const) assert.equal(numberArg(text), value, text);
  for (const text of ['0x10', ' 5', '5 ', '', '0b11', 'Infinity', 'NaN', '1e', '--1', '1,000']) assert.ok(Number.isNaN(numberArg(text)), JSON.stringify(text));
  const cases: [string[], RegExp][] = [
    [['check', 'examples/write-skew.hist', '--witnesses', '0x10'], /--witnesses needs an integer/],
    [['check', 'examples/write-skew.hist', '--witnesses', ' 5'], /--witnesses needs an integer/],
    [['gen', '--txns', ''], /--txns needs a number \(got ''\)/],
    [['gen', '--workload', 'list-append', '--txns', '0x10'], /--txns needs an integer/],
    [['check', 'examples/write-skew.hist', '--level', 'RA,,SER'], /empty name between commas/],
  ];
  for (const [args, message] of cases) {
    const r = run(...args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, message, args.join(' '));
  }
  assert.notEqual(run('check', 'examples/write-skew.hist', '--witnesses', '1e1').status, 2);
  // `--flag=value` is the same flag: the list-append generator was not found by `--workload=list-append`.
  const eq = run('gen', '--workload=list-append', '--txns=2', '--format=edn');
  assert.equal(eq.status, 0, eq.stderr);
  assert.match(eq.stdout, /:f :txn/);
});

test('gen refuses sizes beyond its bound before it allocates (--ops 1e9 ran for hours, --ops 3e7 --txns 1 ran out of heap)', () => {
  const r = run('gen', '--ops', '1e9', '--txns', '1', '-o', join(dir, 'huge.hist'));
  assert.equal(r.status, 2);
  assert.match(r.stderr, /at most 100,000,000 \(got 1,999,999,999\)/);
  const list = run('gen', '--workload', 'list-append', '--txns', '100000000', '--ops', '100', '-o', join(dir, 'huge.edn'));
  assert.equal(list.status, 2);
  assert.match(list.stderr, /transactions × ops is at most 100,000,000/);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('huge') || f.includes('.tmp')), []);
});

test('list-append reads beyond MAX_LIST_ELEMENTS in all end the run with exit 2 and no file', () => {
  const out = join(dir, 'elements.hist');
  // One key never retired, 40,000 operations half reads of a list growing to 20,000: 4 × 10^8 elements.
  const r = run('gen', '--workload', 'list-append', '--keys', '1', '--max-appends', '100000000', '--ops', '40000', '--fixed-ops', '--txns', '1', '-o', out);
  assert.equal(r.status, 2);
  assert.match(r.stderr, new RegExp(`more than ${MAX_LIST_ELEMENTS.toLocaleString('en-US')} list elements`));
  assert.equal(existsSync(out), false);
});

test('list-append keys retire at --max-appends inside one transaction too: no list (nor read) grows past it', () => {
  for (const store of ['serial', 'permissive'] as const) {
    const d = generateListHistory({ ...DEFAULT_LIST_GEN, store, transactions: 3, opsPerTxn: 2_000, fixedSize: true, keys: 2, maxAppends: 8, abortRatio: 0.3, seed: 5 });
    // Appends per key and transaction (an aborted transaction's appends leave the key's list as it was).
    const appends = new Map<string, number>();
    let longest = 0;
    for (let t = 0; t < d.txnCount; t++) {
      for (let o = d.opStart[t]; o < d.opStart[t + 1]; o++) {
        if (d.opKind[o] === LOP_APPEND) appends.set(`${t} ${d.opKey[o]}`, (appends.get(`${t} ${d.opKey[o]}`) ?? 0) + 1);
        if (d.opKind[o] === LOP_READ) longest = Math.max(longest, d.listStart[o + 1] - d.listStart[o]);
      }
    }
    assert.ok(Math.max(...appends.values()) <= 8, store);
    // At most the key's appends, plus one aborted element (permissive store).
    assert.ok(longest <= 9, `${store}: a read of ${longest}`);
    assert.ok(appends.size > 100, `${store}: keys retired and replaced (${appends.size} keys)`);
  }
});

test('list-append --keys 10^8 touches only the keys it uses (it made 10^8 lists up front)', () => {
  const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: 200, keys: 100_000_000, seed: 2 });
  assert.equal(d.txnCount, 200);
  assert.ok(new Set(d.opKey).size <= d.opKind.length);
  assert.ok(Math.max(...d.opKey) < 100_000_000 + d.opKind.length);
});

test('the writers hand one huge transaction out in pieces (a string of 10^7 operations is longer than V8 allows)', () => {
  const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: 1, opsPerTxn: 30_000, fixedSize: true, keys: 3, seed: 9, unknownRatio: 0, abortRatio: 0 });
  const g = generateHistory({ ...DEFAULT_GEN_OPTIONS, transactions: 4, sessions: 1, opsPerTxn: 20_000, keys: 50, seed: 9 });
  let most = 0;
  for (let t = 0; t < g.txnCount; t++) most = Math.max(most, g.txnOpStart[t + 1] - g.txnOpStart[t]);
  assert.ok(most > 15_000, `a transaction of ${most} operations`);
  const pieces: [string, Iterable<string>][] = [
    ['list hist', listHistChunks(d)], ['list edn', listEventChunks(d, 'edn')], ['list json', listEventChunks(d, 'json')],
    ['register hist', histChunks(g)], ['register plume', plumeChunks(g)],
  ];
  for (const [what, chunks] of pieces) {
    const all = [...chunks];
    assert.ok(all.length > 3, `${what}: ${all.length} pieces`);
    assert.ok(all.every((c) => c.length < 3 * 65_536), `${what}: pieces of at most ~64K`);
  }
  // In pieces, the same text: the EDN still reads as the history (two events, every op).
  const edn = readJepsenEdn(new TextEncoder().encode([...listEventChunks(d, 'edn')].join('')));
  assert.deepEqual(edn.findings, []);
});

test('reader messages: JSON 1e400 is no "null", and an EDN error is at its token, not at the event start', () => {
  const json = readJepsenJson('{"type":"invoke","f":"txn","value":[["append",1,2]],"process":1e400,"time":1}\n');
  assert.match(json.findings[0].message, /found a number beyond the range of a double/);
  const line = '{:type :invoke, :f :txn, :value [[:append 1 2]], :time 1, :process 0, :index 0, :foo [1 2 3 :bar}';
  const edn = readJepsenEdn(new TextEncoder().encode(`${line}\n`));
  const { start, end } = edn.lines.range(edn.findings[0].span.start, edn.findings[0].span.end);
  assert.deepEqual([start.line, start.character, end.character], [0, line.length - 1, line.length]);
  const dup = '{:type :ok, :f :txn, :value [[:append 1 2]], :time 1, :process 0, :index 1, :process -5}';
  const twice = readJepsenEdn(new TextEncoder().encode(`${dup}\n`));
  assert.equal(twice.lines.range(twice.findings[0].span.start, twice.findings[0].span.end).start.character, dup.lastIndexOf(':process'));
});
