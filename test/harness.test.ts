// The harness on embedded SQLite and its parts: URLs, options, the journal, the recorded history, Hermitage's table.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Analysis } from '../server/src/engine/analyze.ts';
import { claimVerdict, parseRunArgs } from '../server/src/cli/run-command.ts';
import { renderEdn } from '../server/src/harness/edn-writer.ts';
import { histFeatures } from '../server/src/harness/hist-features.ts';
import { findIsolation } from '../server/src/harness/isolation.ts';
import { Recorder, renderHistory, type RecordedTxn } from '../server/src/harness/recorder.ts';
import { runHarness } from '../server/src/harness/run.ts';
import { materialize, parseTarget } from '../server/src/harness/targets.ts';
import { runScenario, scenarioFile } from '../server/src/harness/hermitage.ts';
import { SCENARIOS } from '../server/src/harness/hermitage-scenarios.ts';
import { SqliteDriver } from '../server/src/harness/sqlite-driver.ts';
import { OutputError } from '../server/src/io/atomic-write.ts';
import { assertListsPrefixConsistent, assertRealCycle, checkRecorded, removeTempDirs, tempDir, verdict } from './helpers/harness-checks.ts';

function errorOf(r: ReturnType<typeof parseRunArgs>): string {
  return typeof r === 'string' ? r : 'no error';
}

function txnNames(a: Analysis): string[] {
  const out: string[] = [];
  for (let t = 0; t < a.history.txnCount; t++) if (/^T\d+$/.test(a.history.names.txnName(t))) out.push(a.history.names.txnName(t));
  return out.sort();
}

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
/** Directories the CLI made itself (its default SQLite file and history). */
const cliDirs: string[] = [];
after(() => removeTempDirs(...cliDirs));

describe('targets and options', () => {
  test('URLs name the database; passwords are not printed', () => {
    const pg = parseTarget('postgres://u:secret@localhost:5432/db');
    assert.ok(pg.ok && pg.target.kind === 'postgres' && !pg.target.label.includes('secret'));
    const my = parseTarget('mariadb://root@127.0.0.1:3306/x');
    assert.ok(my.ok && my.target.kind === 'mysql' && my.target.location.startsWith('mysql:'));
    const lite = parseTarget('sqlite:/tmp/a.db');
    assert.ok(lite.ok && lite.target.kind === 'sqlite' && lite.target.location === '/tmp/a.db');
    const dflt = parseTarget(undefined);
    assert.ok(dflt.ok && dflt.target.kind === 'sqlite' && dflt.target.location === '');
    const fresh = materialize(dflt.target);
    assert.ok(fresh.location.endsWith('.sqlite') && existsSync(dirname(fresh.location)));
    cliDirs.push(dirname(fresh.location));
    assert.equal(parseTarget('oracle://x').ok, false);
    assert.equal(parseTarget('sqlite:').ok, false);
    // sqlite:///abs is /abs, sqlite:rel is relative; sqlite://rel was //rel, a file at the root (/rel): refused, with both forms.
    const abs = parseTarget('sqlite:///tmp/a.db');
    assert.ok(abs.ok && abs.target.location === '/tmp/a.db');
    const rel = parseTarget('sqlite:a.db');
    assert.ok(rel.ok && rel.target.location === 'a.db');
    const hosty = parseTarget('sqlite://a.db');
    assert.ok(!hosty.ok && hosty.error === "'sqlite://a.db': write sqlite:a.db for a path relative to the current directory, or sqlite:///ABSOLUTE/PATH", JSON.stringify(hosty));
  });

  test('isolation levels by the database’s own names, with the level each claims', () => {
    assert.equal(findIsolation('postgres', 'repeatable-read')?.claims, 'SI');
    assert.equal(findIsolation('postgres', 'REPEATABLE READ')?.claims, 'SI');
    assert.equal(findIsolation('mysql', 'serializable')?.claims, 'SER');
    assert.equal(findIsolation('mysql', 'read-uncommitted')?.claims, null);
    assert.equal(findIsolation('sqlite', 'read-committed'), null);
  });

  test('run options: defaults, ranges and conflicts', () => {
    const d = parseRunArgs([]);
    assert.ok(typeof d === 'object');
    assert.deepEqual([d.clients, d.seconds, d.txns, d.keys, d.opsMin, d.opsMax], [8, 10, undefined, 8, 1, 4]);
    assert.equal(d.workload, histFeatures().listAppend ? 'list-append' : 'rw-register');
    assert.match(errorOf(parseRunArgs(['--txns', '5', '--seconds', '1'])), /not both/);
    assert.match(errorOf(parseRunArgs(['--ops-per-txn', '3..2'])), /ops-per-txn/);
    assert.match(errorOf(parseRunArgs(['--clients', '0'])), /positive/);
    assert.match(errorOf(parseRunArgs(['--keys', '100000000'])), /--keys: at most 100000/);
    assert.ok(typeof parseRunArgs(['--keys', '100000']) === 'object');
    assert.match(errorOf(parseRunArgs(['--workload', 'bank'])), /unknown workload/);
    // Beyond 2^53 the seed would not be the number given (…993 is read as …992): refused.
    assert.match(errorOf(parseRunArgs(['--seed', '9007199254740993'])), /--seed needs an integer between/);
    assert.ok(typeof parseRunArgs(['--seed', '-9007199254740991']) === 'object');
    // `-o -` is standard output for gen and witness; run prints its report there (it made a file named -).
    assert.match(errorOf(parseRunArgs(['-o', '-'])), /-o - is not for run/);
    assert.match(errorOf(parseRunArgs(['--edn', '-'])), /--edn - is not for run/);
    const o = parseRunArgs(['--ops-per-txn', '2..6', '--txns', '10']);
    assert.ok(typeof o === 'object' && o.opsMin === 2 && o.opsMax === 6 && o.seconds === undefined);
  });
});

test('the claim line of a run with no transaction says it tested nothing (the empty history holds every level)', () => {
  assert.equal(claimVerdict(true, 0), 'not tested (no transaction ran)');
  assert.equal(claimVerdict(true, 3), 'holds');
  assert.equal(claimVerdict(false, 3), 'VIOLATED (witness above)');
  assert.equal(claimVerdict(null, 3), 'undecided');
});

describe('recorder', () => {
  const txn = (name: string, session: string, status: RecordedTxn['status'], ops: RecordedTxn['ops']): RecordedTxn => ({ name, session, status, start: 1, end: 2, ops });
  const header = { title: 't', comments: ['c'], level: 'SER', registerKeys: [1, 2] };

  test('the journal is a readable history at every moment (a crash leaves a checkable prefix)', () => {
    const dir = tempDir('isocheck-rec-');
    const rec = new Recorder(join(dir, 'h.hist'), header, histFeatures());
    rec.add(0, txn('T1', 'c1', 'committed', [{ kind: 'w', key: 1, value: 1 }]));
    rec.add(1, txn('T2', 'c2', 'aborted', [{ kind: 'r', key: 1, value: 0 }, { kind: 'w', key: 2, value: 2 }]));
    rec.add(0, txn('T3', 'c1', 'committed', [{ kind: 'r', key: 1, value: 1 }]));
    rec.add(1, txn('T4', 'c2.1', 'committed', [{ kind: 'r', key: 2, value: 0 }]));
    // No finish(): what `cat h.hist.parts/*` gives after a crash.
    const prefix = rec.parts().map((f) => readFileSync(f, 'utf8')).join('');
    const a = checkRecorded(prefix);
    assert.equal(txnNames(a).length, 4);
    assert.equal(verdict(a, 'SER'), true);
    const text = rec.finish();
    assert.equal(readFileSync(join(dir, 'h.hist'), 'utf8'), text);
    assert.equal(existsSync(rec.partsDir), false);
    assert.deepEqual(txnNames(checkRecorded(text)), ['T1', 'T2', 'T3', 'T4']);
  });

  test('a history that cannot be written: OutputError naming the file and the journal, which stays (the only copy)', () => {
    const dir = tempDir('isocheck-rec-fail-');
    const out = join(dir, 'h.hist');
    const rec = new Recorder(out, header, histFeatures());
    rec.add(0, txn('T1', 'c1', 'committed', [{ kind: 'w', key: 1, value: 1 }]));
    mkdirSync(out); // the target turned into a directory under the run's feet
    assert.throws(() => rec.finish(), (e: unknown) => e instanceof OutputError
      && e.message === `cannot write ${out}: is a directory; the run is kept in its journal ${rec.partsDir}/ (cat ${rec.partsDir}/* joins it into the history)`);
    assert.equal(verdict(checkRecorded(rec.parts().map((f) => readFileSync(f, 'utf8')).join('')), 'SER'), true);
    // A journal that broke off (here: removed) is no copy: it is not kept, nor named.
    const out2 = join(dir, 'h2.hist');
    const rec2 = new Recorder(out2, header, histFeatures());
    rmSync(rec2.partsDir, { recursive: true });
    rec2.add(0, txn('T1', 'c1', 'committed', [{ kind: 'w', key: 1, value: 1 }]));
    mkdirSync(out2);
    assert.throws(() => rec2.finish(), (e: unknown) => e instanceof OutputError && e.message === `cannot write ${out2}: is a directory`);
    assert.deepEqual(readdirSync(dir).sort(), ['h.hist', 'h.hist.parts', 'h2.hist']);
    // The journal's directory is never created for a missing output directory.
    assert.throws(() => new Recorder(join(dir, 'no-such-dir', 'h.hist'), header, histFeatures()), (e: unknown) => e instanceof OutputError && /^cannot write the journal .*no-such-dir\/h\.hist\.parts: no such directory$/.test(e.message));
    assert.equal(existsSync(join(dir, 'no-such-dir')), false);
  });

  test('EDN: an :invoke and one completion per transaction, in time order, Jepsen’s types for the outcomes', () => {
    const txns: RecordedTxn[] = [
      { name: 'T1', session: 'c1', status: 'committed', start: 5, end: 9, ops: [{ kind: 'a', key: 1, value: 3 }, { kind: 'rl', key: 1, list: [2, 3] }] },
      { name: 'T2', session: 'c2', status: 'aborted', start: 1, end: 7, ops: [{ kind: 'r', key: 2, value: 0 }] },
      { name: 'T3', session: 'c1.1', status: 'unknown', start: 10, end: 12, ops: [{ kind: 'w', key: 2, value: 4 }] },
    ];
    assert.equal(renderEdn(txns), [
      '{:type :invoke, :f :txn, :value [[:r 2 nil]], :process 1, :time 1000, :index 0}',
      '{:type :invoke, :f :txn, :value [[:append 1 3] [:r 1 nil]], :process 0, :time 5000, :index 1}',
      '{:type :fail, :f :txn, :value [[:r 2 nil]], :process 1, :time 7000, :index 2}',
      '{:type :ok, :f :txn, :value [[:append 1 3] [:r 1 [2 3]]], :process 0, :time 9000, :index 3}',
      '{:type :invoke, :f :txn, :value [[:w 2 4]], :process 2, :time 10000, :index 4}',
      '{:type :info, :f :txn, :value [[:w 2 4]], :process 2, :time 12000, :index 5}',
      '',
    ].join('\n'));
    // A committed read of a register's initial 0 is Jepsen's nil (a number would need a writer); a written value is itself.
    const reads = renderEdn([{ name: 'T1', session: 'c1', status: 'committed', start: 1, end: 2, ops: [{ kind: 'r', key: 1, value: 0 }, { kind: 'r', key: 2, value: 7 }] }]);
    assert.match(reads, /:type :ok, :f :txn, :value \[\[:r 1 nil\] \[:r 2 7\]\]/);
  });

  test('an unknown transaction counts as committed exactly when a committed one read its writes', () => {
    const txns = [
      txn('T1', 'c1', 'unknown', [{ kind: 'w', key: 1, value: 5 }]),
      txn('T2', 'c2', 'committed', [{ kind: 'r', key: 1, value: 5 }]),
      txn('T3', 'c3', 'unknown', [{ kind: 'w', key: 2, value: 6 }]),
    ];
    const text = renderHistory(header, txns, histFeatures());
    const a = checkRecorded(text);
    // T2's read of T1's write is no thin-air read: T1 is in the history one way or another.
    assert.equal(a.findings.filter((f) => f.severity === 'error').length, 0);
    assert.equal(verdict(a, 'SER'), true);
    if (!histFeatures().unknownStatus) {
      assert.match(text, /^ {2}T1: w\(k1, 5\)/m);
      assert.match(text, /^ {2}# T3 unknown/m);
    } else assert.match(text, /T3 unknown/);
  });
});

describe('SQLite (embedded)', () => {
  test('default isolation: no anomaly in a concurrent rw-register run', async () => {
    const dir = tempDir('isocheck-sqlite-');
    const t = parseTarget(`sqlite:${join(dir, 'db.sqlite')}`);
    assert.ok(t.ok);
    const setting = findIsolation('sqlite', 'serializable');
    assert.ok(setting);
    const r = await runHarness({
      target: t.target, setting, isolation: 'serializable', outFile: join(dir, 'h.hist'), workload: 'rw-register',
      clients: 8, txns: 600, keys: 8, opsMin: 1, opsMax: 4, seed: 7,
    });
    assert.equal(r.stats.committed + r.stats.aborted + r.stats.unknown, 600);
    assert.ok(r.stats.committed > 100, `few commits: ${JSON.stringify(r.stats)}`);
    const a = checkRecorded(readFileSync(r.outFile, 'utf8'));
    for (const level of ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER']) assert.notEqual(verdict(a, level), false, `${level} violated on SQLite`);
    assert.equal(verdict(a, 'SER'), true);
    assert.equal(a.mixed?.consistent, true);
  });

  test('list-append: every read list is a prefix of the longest', async () => {
    const dir = tempDir('isocheck-sqlite-la-');
    const t = parseTarget(`sqlite:${join(dir, 'db.sqlite')}`);
    const setting = findIsolation('sqlite', 'serializable');
    assert.ok(t.ok && setting);
    const r = await runHarness({
      target: t.target, setting, isolation: 'serializable', outFile: join(dir, 'la.hist'), workload: 'list-append',
      clients: 8, txns: 300, keys: 4, opsMin: 1, opsMax: 4, seed: 5, levels: ['RC'],
    });
    checkRecorded(r.text);
    assert.ok(assertListsPrefixConsistent(r.text) > 50);
  });

  test('Hermitage on SQLite: every anomaly prevented', async () => {
    const dir = tempDir('isocheck-herm-');
    const driver = new SqliteDriver(join(dir, 'db.sqlite'));
    for (const sc of SCENARIOS) {
      const r = await runScenario(driver, 'serializable', sc, scenarioFile(dir, 'sqlite', 'serializable', sc.id), { blockMillis: 300 });
      assert.equal(r.outcome, 'prevented', `${sc.id}: ${r.log.join('; ')}`);
      checkRecorded(readFileSync(r.file, 'utf8'));
    }
  });

  test('a witness found in a recorded history is a real cycle (a lost update written by hand as a run would record it)', () => {
    const text = renderHistory({ title: 'p4', comments: [], level: 'SI', registerKeys: [1] }, [
      { name: 'T1', session: 'c1', status: 'committed', start: 1, end: 5, ops: [{ kind: 'r', key: 1, value: 0 }, { kind: 'w', key: 1, value: 1 }] },
      { name: 'T2', session: 'c2', status: 'committed', start: 2, end: 6, ops: [{ kind: 'r', key: 1, value: 0 }, { kind: 'w', key: 1, value: 2 }] },
    ], histFeatures());
    assertRealCycle(checkRecorded(text), 'SI');
  });
});

describe('isocheck run (CLI)', () => {
  test('no options needed: a fresh SQLite database, a verdict and the history path', () => {
    const r = spawnSync(process.execPath, [CLI, 'run', '--seconds', '2'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stderr, /isocheck run: sqlite:.*serializable \(claims SER\)/);
    assert.match(r.stdout, /transactions in .* committed/);
    assert.match(r.stdout, /serializable claims SER: holds/);
    const path = /history: (.*)/.exec(r.stdout)?.[1];
    assert.ok(path && existsSync(path));
    cliDirs.push(dirname(path));
    checkRecorded(readFileSync(path, 'utf8'));
  });

  test('Ctrl-C stops the clients, then the history so far is assembled and checked', async () => {
    const dir = tempDir('isocheck-int-');
    const out = join(dir, 'h.hist');
    const child = spawn(process.execPath, [CLI, 'run', '--db', `sqlite:${join(dir, 'db.sqlite')}`, '--seconds', '300', '--workload', 'rw-register', '-o', out], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    for (let i = 0; i < 600 && !(existsSync(`${out}.parts`) && readdirSync(`${out}.parts`).length > 4); i++) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGINT');
    assert.equal(await exited, 0, stderr);
    assert.match(stderr, /stopping: finishing the transactions in flight/);
    assert.match(stdout, /serializable claims SER: holds/);
    assert.equal(existsSync(`${out}.parts`), false);
    checkRecorded(readFileSync(out, 'utf8'));
  });

  test('isocheck hermitage on SQLite prints Hermitage’s table and the histories’ directory', () => {
    // -o: a new directory in an existing parent is made.
    const dir = join(tempDir('isocheck-hcli-'), 'histories');
    const r = spawnSync(process.execPath, [CLI, 'hermitage', '--db', `sqlite:${join(dir, '..', 'h.sqlite')}`, '-o', dir, '--block-ms', '300'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /\| DBMS +\| So-called isolation level \| Claims \| G0 \| G1a \| G1b \| G1c \| OTV \| PMP \| P4 \| G-single \| G2-item \|/);
    assert.match(r.stdout, /\| SQLite \| "serializable" +\| SER +\| ✓ +\| ✓ +\| ✓ +\| ✓ +\| ✓ +\| n\/a \| ✓ +\| ✓ +\| ✓ +\|/);
    assert.deepEqual(readdirSync(dir).filter((f) => !f.endsWith('.hist')), [], 'the histories only: no temporary file left');
    assert.equal(readdirSync(dir).length, 8);
  });

  test('run -o: a directory, a missing directory, the --edn file, the database are refused before the run; nothing is created', () => {
    const dir = tempDir('isocheck-run-out-');
    const db = join(dir, 'db.sqlite');
    writeFileSync(db, '');
    const cases: [string[], string][] = [
      [['-o', dir], `cannot write ${dir}: is a directory`],
      [['-o', join(dir, 'missing', 'x.hist')], `cannot write ${join(dir, 'missing', 'x.hist')}: no such directory`],
      [['-o', join(dir, 'h.hist'), '--edn', join(dir, 'h.hist')], `refusing to write ${join(dir, 'h.hist')}: --edn and -o name the same file`],
      [['-o', join(dir, 'h.hist'), '--edn', dir], `cannot write ${dir}: is a directory`],
      [['--db', `sqlite:${db}`, '-o', db], `refusing to write ${db}: it is the database ${db}`],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync(process.execPath, [CLI, 'run', '--txns', '20', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 2, args.join(' '));
      // No banner: the message comes before the database is made or a transaction runs.
      assert.equal(r.stderr, `isocheck: ${message}\n`, args.join(' '));
      assert.deepEqual(readdirSync(dir), ['db.sqlite'], args.join(' '));
    }
  });

  test('run -o: a journal left by an interrupted run is replaced, a directory of that name holding anything else is refused and kept', () => {
    const dir = tempDir('isocheck-run-parts-');
    const out = join(dir, 'h.hist');
    const parts = `${out}.parts`;
    mkdirSync(parts);
    writeFileSync(join(parts, 'notes.txt'), 'not a journal');
    const refused = spawnSync(process.execPath, [CLI, 'run', '--txns', '20', '-o', out], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(refused.status, 2, refused.stderr);
    assert.equal(refused.stderr, `isocheck: cannot write the journal ${parts}: that directory holds notes.txt, which is not a journal's (move it, or choose another -o)\n`);
    assert.equal(readFileSync(join(parts, 'notes.txt'), 'utf8'), 'not a journal');
    assert.deepEqual(readdirSync(dir), ['h.hist.parts']);
    // A journal's own files (as a second Ctrl-C leaves them): replaced by the run, which removes it at the end.
    rmSync(join(parts, 'notes.txt'));
    writeFileSync(join(parts, '000-header.hist'), 'history "old"\n');
    writeFileSync(join(parts, '001-c1.hist'), '\nsession c1\n  T1: w(k1, 1)\n');
    const run = spawnSync(process.execPath, [CLI, 'run', '--txns', '20', '-o', out], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(readdirSync(dir), ['h.hist']);
  });

  test('SQLite out of room (ulimit -f): the run ends at the first refusal and says why, exit 2', () => {
    const dir = tempDir('isocheck-run-full-');
    // 64 KB: the WAL outgrows it within a few dozen commits; each refusal used to pass for a lost connection, and the run went on.
    const cmd = `ulimit -f 64; exec "${process.execPath}" "${CLI}" run --db "sqlite:${join(dir, 'db.sqlite')}" --workload rw-register --txns 2000 --clients 4 --keys 2 -o "${join(dir, 'h.hist')}"`;
    const r = spawnSync('bash', ['-c', cmd], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^isocheck: the run ended early: the database refused a statement: disk I\/O error;/m);
    const done = /^(\d+) transactions in/m.exec(r.stdout)?.[1];
    assert.ok(done !== undefined && Number(done) < 2000, r.stdout);
    checkRecorded(readFileSync(join(dir, 'h.hist'), 'utf8'));
  });

  test('hermitage -o: an existing file or a missing parent is refused before any test runs', () => {
    const dir = tempDir('isocheck-herm-out-');
    const f = join(dir, 'f');
    writeFileSync(f, 'mine\n');
    const cases: [string, string][] = [
      [f, `cannot write the histories into ${f}: not a directory (-o names a directory)`],
      [join(dir, 'missing', 'sub'), `cannot write the histories into ${join(dir, 'missing', 'sub')}: no such directory ${join(dir, 'missing')}`],
    ];
    for (const [out, message] of cases) {
      const r = spawnSync(process.execPath, [CLI, 'hermitage', '--db', `sqlite:${join(dir, 'h.sqlite')}`, '-o', out], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 2, out);
      assert.equal(r.stderr, `isocheck: ${message}\n`);
      assert.equal(r.stdout, '');
    }
    assert.equal(readFileSync(f, 'utf8'), 'mine\n');
    assert.deepEqual(readdirSync(dir), ['f']);
  });

  test('a server that accepts and never answers: exit 2 after the connect timeout with a clear message, nothing left in the temporary directory', async () => {
    const tmp = tempDir('isocheck-silent-');
    const sockets = new Set<Socket>();
    const silent = createServer((s) => sockets.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as AddressInfo).port;
    const newDir = join(tmp, 'histories');
    const cases = [
      ['run', '--db', `postgres://postgres@127.0.0.1:${port}/postgres`, '--txns', '10'],
      ['hermitage', '--db', `postgres://postgres@127.0.0.1:${port}/postgres`],
      ['run', '--db', `mysql://root@127.0.0.1:${port}/test`, '--txns', '10'],
      // -o names a new directory: made by the command, so removed when nothing was recorded in it.
      ['hermitage', '--db', `mysql://root@127.0.0.1:${port}/test`, '-o', newDir],
    ];
    try {
      const t0 = Date.now();
      // Side by side: each waits out the same 10 s connect timeout.
      const results = await Promise.all(cases.map((args) => new Promise<{ code: number | null; stderr: string; args: string[] }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp } });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.once('exit', (code) => {
          clearTimeout(kill);
          resolve({ code, stderr, args });
        });
      })));
      for (const r of results) {
        assert.equal(r.code, 2, `${r.args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /^isocheck: (postgres|mysql):\/\/.*: no answer from the database within 10 s of connecting$/m, r.args.join(' '));
      }
      assert.ok(Date.now() - t0 < 40_000, `took ${Date.now() - t0} ms`);
      assert.deepEqual(readdirSync(tmp), [], 'no temporary directory left behind');
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  test('rw-register --edn: the EDN history re-checks to the history’s verdicts (initial reads are nil); -o leaves no temporary database', () => {
    const tmp = tempDir('isocheck-edn-');
    const out = tempDir('isocheck-edn-out-');
    const hist = join(out, 'r.hist');
    const edn = join(out, 'r.edn');
    const r = spawnSync(process.execPath, [CLI, 'run', '--workload', 'rw-register', '--txns', '500', '-o', hist, '--edn', edn], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TMPDIR: tmp } });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.doesNotMatch(r.stdout, /^database: /m);
    assert.deepEqual(readdirSync(tmp), [], 'the default database is removed when the history went elsewhere');
    assert.match(readFileSync(edn, 'utf8'), /\[:r \d+ nil\]\]?, :process \d+, :time \d+, :index \d+\}/);
    const c = spawnSync(process.execPath, [CLI, 'check', '--json', hist, edn], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const reports = JSON.parse(c.stdout) as { file: string; levels: Record<string, { consistent: boolean | null }>; diagnostics: { severity: string; message: string }[] }[];
    const table = (i: number): [string, boolean | null][] => Object.entries(reports[i].levels).map(([level, v]) => [level, v.consistent]);
    assert.equal(table(0).length, 8);
    assert.deepEqual(table(1), table(0));
    assert.deepEqual(reports[1].diagnostics.filter((d) => d.severity === 'error').map((d) => d.message), []);
    assert.equal(c.status, 0, c.stdout);
  });

  test('hermitage on the default SQLite leaves the histories only; run without -o keeps its database beside the history and says so', () => {
    const tmp = tempDir('isocheck-htmp-');
    const h = spawnSync(process.execPath, [CLI, 'hermitage', '--block-ms', '200'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TMPDIR: tmp } });
    assert.equal(h.status, 0, h.stderr + h.stdout);
    // Not the database's random path, removed by then: two runs print the same table.
    assert.match(h.stdout, /^Hermitage's tests on a fresh temporary SQLite database \(/);
    const left = readdirSync(tmp);
    assert.equal(left.length, 1, left.join(' '));
    assert.match(left[0], /^isocheck-hermitage-/);
    assert.deepEqual(readdirSync(join(tmp, left[0])).filter((f) => !f.endsWith('.hist')), []);
    rmSync(join(tmp, left[0]), { recursive: true });
    const r = spawnSync(process.execPath, [CLI, 'run', '--txns', '50'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, TMPDIR: tmp } });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    const db = /^database: (.*) \(kept beside the history\)$/m.exec(r.stdout)?.[1];
    const history = /^history: (.*)$/m.exec(r.stdout)?.[1];
    assert.ok(db && history && dirname(db) === dirname(history), r.stdout);
    assert.deepEqual(readdirSync(dirname(db)).sort(), ['history.hist', 'isocheck.sqlite']);
  });

  test('a SQLite path that cannot be opened (a directory): exit 2 with SQLite’s reason', () => {
    const dir = tempDir('isocheck-sqlite-dir-');
    for (const cmd of ['run', 'hermitage']) {
      const r = spawnSync(process.execPath, [CLI, cmd, '--db', `sqlite:${dir}`], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 2, cmd);
      // It said "the SQLite worker stopped: undefined": the worker's open error lost its message on the way.
      assert.match(r.stderr, new RegExp(`^isocheck: sqlite:${dir}: unable to open database file$`, 'm'), cmd);
    }
  });

  test('usage errors exit 2 with a message', () => {
    const r = spawnSync(process.execPath, [CLI, 'run', '--isolation', 'snapshot'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /sqlite has no isolation level 'snapshot'/);
    // Each SQLite client is a worker thread (~8 MB): 1,000 of them held 8 GB. Refused before anything is made.
    const tmp = tempDir('isocheck-run-clients-');
    const c = spawnSync(process.execPath, [CLI, 'run', '--clients', '101', '--txns', '1'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, TMPDIR: tmp } });
    assert.equal(c.status, 2, c.stderr);
    assert.match(c.stderr, /^isocheck: --clients: at most 100 with SQLite/);
    assert.deepEqual(readdirSync(tmp), []);
    assert.ok(typeof parseRunArgs(['--clients', '1000']) === 'object', 'servers take up to 1000');
    const h = spawnSync(process.execPath, [CLI, 'hermitage', '--db', 'oracle://x'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.equal(h.status, 2);
    assert.match(h.stderr, /unsupported database 'oracle:'/);
    // An --isolation that names no level ran every level.
    for (const value of [',', '']) {
      const e = spawnSync(process.execPath, [CLI, 'hermitage', `--isolation=${value}`], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
      assert.equal(e.status, 2, value);
      assert.match(e.stderr, /--isolation names no level \(serializable\)/);
    }
  });
});
