// The harness against real PostgreSQL and MariaDB servers started for the test: verdicts, Hermitage's table, a killed server.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { basename, join } from 'node:path';
import type { Analysis } from '../server/src/engine/analyze.ts';
import type { Level } from '../server/src/engine/levels/levels.ts';
import { histFeatures } from '../server/src/harness/hist-features.ts';
import { renderHermitageTable, type HermitageRow } from '../server/src/cli/hermitage-command.ts';
import { driverFor } from '../server/src/harness/drivers.ts';
import { runScenario, scenarioFile } from '../server/src/harness/hermitage.ts';
import { SCENARIOS } from '../server/src/harness/hermitage-scenarios.ts';
import { findIsolation, ISOLATION } from '../server/src/harness/isolation.ts';
import { runHarness } from '../server/src/harness/run.ts';
import { parseTarget } from '../server/src/harness/targets.ts';
import { missing, startMariadb, startPostgres, type DbServer } from './helpers/db-servers.ts';
import { assertListsPrefixConsistent, assertRealCycle, checkRecorded, evidence, removeTempDirs, tempDir, verdict } from './helpers/harness-checks.ts';

const ROOT = join(import.meta.dirname, '..');
after(() => removeTempDirs());
const CLI = join(ROOT, 'out', 'cli.js');
/**
 * 20 runs × 2,000 transactions per setting is the full size (CI sets it: about 4.5 minutes on two
 * cores); a local `npm test` defaults to 3 runs × 1,000 (ISOCHECK_HARNESS_RUNS / _TXNS).
 */
const RUNS = Number(process.env.ISOCHECK_HARNESS_RUNS ?? 3);
const TXNS = Number(process.env.ISOCHECK_HARNESS_TXNS ?? 1000);
/** Longer than the command's 500 ms default: on a loaded machine a slow step must not pass for a lock wait. */
const BLOCK_MILLIS = 1000;
const CHECKED: Level[] = ['RC', 'RA', 'PSI', 'SI', 'SER'];
/**
 * Once this build checks list-append histories the runs record them and the tests assert the
 * anomalies by name (G2-item, G-single, lost-update findings); before that they record
 * rw-register histories and read the anomalies from level verdicts: SER violated with SI intact
 * is write skew, PSI violated with RA intact a lost update, SI violated a lost update or read skew.
 */
const NAMED = histFeatures().listAppend;

function anomalies(a: Analysis): Set<string> {
  return new Set(a.findings.map((f) => f.code));
}

/** Skip with the reason outside CI; under CI=true a missing server is a failure, not a skip. */
function skipUnless(kind: 'postgres' | 'mysql'): string | false {
  const why = missing(kind);
  if (why === null) return false;
  if (process.env.CI === 'true') throw new Error(`${why}: CI must run the server tests (.ci/run installs it)`);
  return `${why}; skipped outside CI`;
}

/** A short list-append run: the history parses and every read list is a prefix of the key's longest. */
async function listAppend(url: string, isolation: string): Promise<void> {
  const t = parseTarget(url);
  assert.ok(t.ok);
  const setting = findIsolation(t.target.kind, isolation);
  assert.ok(setting);
  const r = await runHarness({
    target: t.target, setting, isolation, outFile: join(tempDir('isocheck-la-'), 'la.hist'), workload: 'list-append',
    clients: 8, txns: 300, keys: 4, opsMin: 1, opsMax: 4, seed: 5, levels: ['RC'],
  });
  assert.equal(r.stats.fatal, null);
  checkRecorded(r.text);
  assert.ok(assertListsPrefixConsistent(r.text) > 50, 'too few list reads');
}

async function runs(url: string, isolation: string, n = RUNS) {
  const t = parseTarget(url);
  assert.ok(t.ok);
  const setting = findIsolation(t.target.kind, isolation);
  assert.ok(setting);
  const dir = tempDir('isocheck-srv-');
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = await runHarness({
      target: t.target, setting, isolation, outFile: join(dir, `${isolation}-${i}.hist`), workload: NAMED ? 'list-append' : 'rw-register',
      clients: 16, txns: TXNS, keys: 8, opsMin: 1, opsMax: 4, seed: i + 1, levels: CHECKED,
    });
    assert.equal(r.stats.fatal, null);
    assert.equal(r.stats.committed + r.stats.aborted + r.stats.unknown, TXNS);
    out.push({ ...r, analysis: checkRecorded(r.text) });
  }
  return out;
}

describe('PostgreSQL', { skip: skipUnless('postgres') }, () => {
  let pg: DbServer;
  before(async () => {
    pg = await startPostgres();
  });
  after(async () => {
    await pg?.stop();
  });

  test("serializable: no anomaly but PostgreSQL's own rare G2-item, then a real cycle", async () => {
    let g2 = 0;
    for (const r of await runs(pg.url, 'serializable')) {
      const name = `postgres-${basename(r.outFile)}`;
      for (const l of CHECKED.filter((x) => x !== 'SER')) if (verdict(r.analysis, l) === false) assert.fail(`${l} violated at serializable: ${evidence(name, r.text, r.analysis, l)}`);
      const errors = r.analysis.findings.filter((f) => f.severity === 'error');
      if (verdict(r.analysis, 'SER') === false) {
        // PostgreSQL's SERIALIZABLE rarely lets a G2-item through (docs/harness.md: about one run
        // in 900 here; Jepsen reported it on 18.4). Then it is a G2-item, a real cycle, and nothing else.
        const why = evidence(name, r.text, r.analysis, 'SER');
        assertRealCycle(r.analysis, 'SER');
        assert.ok(anomalies(r.analysis).has('G2-item'), why);
        assert.deepEqual(errors.filter((f) => f.code !== 'G2-item' && f.code !== 'SER').map((f) => f.message), [], why);
        g2++;
        continue;
      }
      assert.equal(verdict(r.analysis, 'SER'), true, r.outFile);
      assert.deepEqual(errors.map((f) => f.message), [], r.outFile);
    }
    assert.ok(g2 <= Math.max(1, Math.ceil(RUNS / 10)), `G2-item in ${g2} of ${RUNS} runs: far more often than PostgreSQL's rare one`);
  });

  test('repeatable read: write skew (G2-item) found, never a lost update or read skew', async () => {
    let skews = 0;
    for (const r of await runs(pg.url, 'repeatable-read')) {
      assert.notEqual(verdict(r.analysis, 'SI'), false, `SI violated at repeatable read: ${r.outFile}`);
      assert.notEqual(verdict(r.analysis, 'PSI'), false, r.outFile);
      assert.equal(verdict(r.analysis, 'RA'), true, r.outFile);
      if (NAMED) {
        const found = anomalies(r.analysis);
        assert.ok(!found.has('G-single') && !found.has('lost-update'), `${[...found].join(', ')}: ${r.outFile}`);
      }
      if (verdict(r.analysis, 'SER') === false) {
        if (NAMED) assert.ok(anomalies(r.analysis).has('G2-item'), r.outFile);
        skews++;
        assertRealCycle(r.analysis, 'SER');
      }
    }
    assert.ok(skews > 0, 'no write skew in any run');
  });

  test('read committed: a lost update or read skew (G-single) found, RC holds', async () => {
    let found = 0;
    for (const r of await runs(pg.url, 'read-committed')) {
      assert.equal(verdict(r.analysis, 'RC'), true, r.outFile);
      if (verdict(r.analysis, 'SI') === false) {
        if (NAMED) assert.ok(anomalies(r.analysis).has('G-single') || anomalies(r.analysis).has('lost-update'), r.outFile);
        found++;
        assertRealCycle(r.analysis, 'SI');
      }
    }
    assert.ok(found > 0, 'no G-single or lost update in any run');
  });

  test('list-append at read committed: every read list is a prefix of the longest', async () => {
    await listAppend(pg.url, 'read-committed');
  });

  test('Ctrl-C while connecting: the run stops before it starts (it said "stopping" and ran its whole time)', async () => {
    // A proxy that holds each connection 1.5 s before forwarding it: connecting and creating the tables take seconds.
    const port = Number(new URL(pg.url).port);
    const proxy = createServer((c) => {
      c.pause();
      setTimeout(() => {
        const s = connect(port, '127.0.0.1');
        c.pipe(s);
        s.pipe(c);
        c.resume();
        c.on('error', () => s.destroy());
        s.on('error', () => c.destroy());
      }, 1500);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const url = pg.url.replace(`:${port}/`, `:${(proxy.address() as AddressInfo).port}/`);
      const out = join(tempDir('isocheck-int-pg-'), 'h.hist');
      const child = spawn(process.execPath, [CLI, 'run', '--db', url, '--seconds', '60', '--clients', '2', '-o', out], { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
      // Ctrl-C once the banner is out (the handler is installed with it), while the proxy holds the
      // connection: a fixed 500 ms came before the handler under load (the CLI starting up took
      // longer), and the default action ended the process (exit status null, seen once in 7 runs).
      for (let i = 0; i < 300 && !stderr.includes('isocheck run:'); i++) await new Promise((r) => setTimeout(r, 20));
      assert.match(stderr, /isocheck run: /);
      child.kill('SIGINT');
      const t0 = Date.now();
      assert.equal(await exited, 0, stdout + stderr);
      assert.ok(Date.now() - t0 < 20_000, `ran on for ${Date.now() - t0} ms`);
      assert.match(stdout, /^0 transactions in /m);
    } finally {
      proxy.close();
    }
  });

  // On a server: a file size limit on the command must not reach the database (SQLite's WAL hit
  // it first, a refusal that now ends the run before the history is written).
  test('run -o over a file, the history too large to write (ulimit -f): exit 2, the old file intact, no temporary file', () => {
    const dir = tempDir('isocheck-run-efbig-');
    const out = join(dir, 'keep.hist');
    const precious = '# precious line\n'.repeat(200);
    writeFileSync(out, precious);
    // 64 KB: each client's journal file (about 35 KB) fits, the assembled history (about 140 KB) does not.
    const cmd = `ulimit -f 64; exec "${process.execPath}" "${CLI}" run --db "${pg.url}" --workload rw-register --txns 2000 --clients 4 --keys 2 --ops-per-txn 4 -o "${out}"`;
    const r = spawnSync('bash', ['-c', cmd], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^isocheck: cannot write ${out}: file too large \\(over the file size limit\\) \\(the old file is unchanged\\)`, 'm'));
    assert.equal(readFileSync(out, 'utf8'), precious);
    const parts = `${out}.parts`;
    if (r.stderr.includes(`the run is kept in its journal ${parts}/`)) {
      // The journal is the run's only copy now: whole, and a history once joined.
      checkRecorded(readdirSync(parts).sort().map((f) => readFileSync(join(parts, f), 'utf8')).join(''));
    } else assert.equal(existsSync(parts), false);
    assert.deepEqual(readdirSync(dir).filter((f) => f !== 'keep.hist.parts'), ['keep.hist']);
  });

  test('Hermitage: the table matches Hermitage’s PostgreSQL rows', async () => {
    const dir = tempDir('isocheck-herm-pg-');
    const t = parseTarget(pg.url);
    assert.ok(t.ok);
    const driver = driverFor(t.target);
    const rows: HermitageRow[] = [];
    for (const setting of ISOLATION.postgres) {
      const results = [];
      for (const sc of SCENARIOS) results.push(await runScenario(driver, setting.name, sc, scenarioFile(dir, 'postgres', setting.name, sc.id), { blockMillis: BLOCK_MILLIS }));
      rows.push({ setting, results });
    }
    // The driver holds the database's isocheck lock from its first reset until it is closed.
    await driver.close();
    assert.equal(renderHermitageTable('postgres', rows), [
      '| DBMS       | So-called isolation level | Claims | G0 | G1a | G1b | G1c | OTV | PMP | P4 | G-single | G2-item |',
      '|------------|---------------------------|--------|----|-----|-----|-----|-----|-----|----|----------|---------|',
      '| PostgreSQL | "read uncommitted"        | —      | ✓  | ✓   | ✓   | ✓   | ✓   | n/a | —  | —        | —       |',
      '|            | "read committed"          | RC     | ✓  | ✓   | ✓   | ✓   | ✓   | n/a | —  | —        | —       |',
      '|            | "repeatable read"         | SI     | ✓  | ✓   | ✓   | ✓   | ✓   | n/a | ✓  | ✓        | —       |',
      '|            | "serializable"            | SER    | ✓  | ✓   | ✓   | ✓   | ✓   | n/a | ✓  | ✓        | ✓       |',
    ].join('\n'));
    // Every "—" has its witness: the history violates the scenario's level with a real cycle.
    for (const row of rows) for (const r of row.results.filter((x) => x.outcome === 'allowed')) {
      const sc = SCENARIOS.find((s) => s.id === r.id);
      assert.ok(sc);
      assertRealCycle(checkRecorded(readFileSync(r.file, 'utf8')), sc.level);
    }
  });
});

describe('MariaDB', { skip: skipUnless('mysql') }, () => {
  let db: DbServer;
  before(async () => {
    db = await startMariadb();
  });
  after(async () => {
    await db?.stop();
  });

  test('repeatable read: a lost update found (Hermitage: P4 allowed)', async () => {
    let found = 0;
    for (const r of await runs(db.url, 'repeatable-read')) {
      // With rw-register only snapshot reads are seen: no read skew. (List-append histories also
      // show G-single: InnoDB's UPDATE appends to the newest list, not the snapshot's.)
      if (!NAMED) assert.equal(verdict(r.analysis, 'RA'), true, r.outFile);
      if (NAMED ? anomalies(r.analysis).has('lost-update') : verdict(r.analysis, 'PSI') === false) {
        found++;
        assertRealCycle(r.analysis, 'SI');
      }
    }
    assert.ok(found > 0, 'no lost update in any run');
  });

  test('serializable: no anomaly', async () => {
    for (const r of await runs(db.url, 'serializable')) {
      for (const l of CHECKED) if (verdict(r.analysis, l) === false) assert.fail(`${l} violated at serializable: ${evidence(`mariadb-${basename(r.outFile)}`, r.text, r.analysis, l)}`);
      assert.deepEqual(r.analysis.findings.filter((f) => f.severity === 'error').map((f) => f.message), [], r.outFile);
    }
  });

  test('list-append at read committed: every read list is a prefix of the longest', async () => {
    await listAppend(db.url, 'read-committed');
  });

  test('Hermitage: the table matches MySQL/InnoDB’s rows (G-single R/O: the read-only script, ✓)', async () => {
    const dir = tempDir('isocheck-herm-my-');
    const t = parseTarget(db.url);
    assert.ok(t.ok);
    const driver = driverFor(t.target);
    const rows: HermitageRow[] = [];
    for (const setting of ISOLATION.mysql) {
      const results = [];
      for (const sc of SCENARIOS) results.push(await runScenario(driver, setting.name, sc, scenarioFile(dir, 'mysql', setting.name, sc.id), { blockMillis: BLOCK_MILLIS }));
      rows.push({ setting, results });
    }
    // The driver holds the database's isocheck lock from its first reset until it is closed.
    await driver.close();
    assert.equal(renderHermitageTable('mysql', rows), [
      '| DBMS          | So-called isolation level | Claims | G0 | G1a | G1b | G1c | OTV | PMP | P4 | G-single | G2-item |',
      '|---------------|---------------------------|--------|----|-----|-----|-----|-----|-----|----|----------|---------|',
      '| MySQL/MariaDB | "read uncommitted"        | —      | ✓  | —   | —   | —   | —   | n/a | —  | —        | —       |',
      '|               | "read committed"          | RC     | ✓  | ✓   | ✓   | ✓   | ✓   | n/a | —  | —        | —       |',
      '|               | "repeatable read"         | SI     | ✓  | ✓   | ✓   | ✓   | ✓   | n/a | —  | ✓        | —       |',
      '|               | "serializable"            | SER    | ✓  | ✓   | ✓   | ✓   | ✓   | n/a | ✓  | ✓        | ✓       |',
    ].join('\n'));
    for (const row of rows) for (const r of row.results.filter((x) => x.outcome === 'allowed')) {
      const sc = SCENARIOS.find((s) => s.id === r.id);
      assert.ok(sc);
      assertRealCycle(checkRecorded(readFileSync(r.file, 'utf8')), sc.level);
    }
    // OTV as mysql.md shows it: the observer reads T2's x beside T1's y, then T2's y.
    const otv = rows[0].results.find((r) => r.id === 'OTV');
    assert.match(readFileSync(otv?.file ?? '', 'utf8'), /T3 @ \d+\.\.\d+: r\(x, 12\) r\(y, 19\) r\(x, 12\) r\(y, 18\)/);
  });
});

describe('a database killed mid-run', { skip: skipUnless('mysql') }, () => {
  test('the history so far checks, in-flight transactions are unknown or aborted, and the harness says what happened', async () => {
    const db = await startMariadb();
    try {
      const dir = tempDir('isocheck-kill-');
      const out = join(dir, 'killed.hist');
      const child = spawn(process.execPath, [CLI, 'run', '--db', db.url, '--isolation', 'serializable', '--workload', 'rw-register', '--clients', '16', '--seconds', '120', '-o', out], { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      // Wait until the journal holds some transactions, then kill the server outright.
      const parts = `${out}.parts`;
      for (let i = 0; i < 600; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (existsSync(parts) && readdirSync(parts).length > 4) break;
      }
      await new Promise((r) => setTimeout(r, 500));
      process.kill(db.pid(), 'SIGKILL');
      const code = await exited;
      assert.equal(code, 2, stderr);
      assert.match(stderr, /the run ended early: the database went away/);
      assert.match(stdout, /\d+ transactions in .*: \d+ committed, \d+ aborted, \d+ unknown/);
      assert.match(stdout, /history: /);
      const a = checkRecorded(readFileSync(out, 'utf8'));
      // Nothing the killed server had promised is contradicted by the history recorded up to its death.
      assert.notEqual(verdict(a, 'SER'), false, out);
      assert.equal(a.findings.filter((f) => f.code === 'thin-air' || f.code === 'aborted-read').length, 0);
    } finally {
      await db.stop();
    }
  });
});
