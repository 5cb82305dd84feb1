// Two harness runs on one database (SQLite file, PostgreSQL, MariaDB): the second is refused before it drops the first's tables; an UPDATE that matched no row is never recorded.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { SqliteDriver } from '../server/src/harness/sqlite-driver.ts';
import { DbError, type Driver } from '../server/src/harness/driver.ts';
import { driverFor } from '../server/src/harness/drivers.ts';
import { findIsolation } from '../server/src/harness/isolation.ts';
import { runHarness } from '../server/src/harness/run.ts';
import { materialize, parseTarget, removeTemporaryDatabase, type Target } from '../server/src/harness/targets.ts';
import { missing, startMariadb, startPostgres, type DbServer } from './helpers/db-servers.ts';
import { removeTempDirs, tempDir } from './helpers/harness-checks.ts';

after(() => removeTempDirs());

function target(url: string | undefined): Target {
  const t = parseTarget(url);
  assert.ok(t.ok);
  return t.target;
}

/** A write and an append to key 99, which has no row (as after another run recreated the tables): refused, not recorded as done. */
async function noRowRefused(driver: Driver, isolation: string): Promise<void> {
  await driver.reset(2);
  const s = await driver.open(isolation);
  try {
    await s.begin();
    await assert.rejects(s.write(99, 5), (e) => e instanceof DbError && e.failure === 'error' && /matched no row k = 99/.test(e.message));
    await s.rollback();
    await s.begin();
    await assert.rejects(s.append(99, 6), (e) => e instanceof DbError && e.failure === 'error' && /isocheck_list matched no row/.test(e.message));
    await s.rollback();
    // The keys that have rows still work.
    await s.begin();
    await s.write(1, 7);
    await s.append(2, 8);
    await s.commit();
  } finally {
    await s.close();
  }
}

/**
 * While one driver owns the database, a run on it is refused (exit 2 in the CLI) and the owner's
 * tables are untouched. Before, the second run dropped and recreated them: the first read the
 * second's values and lost its writes (a PostgreSQL serializable run ended with SER violated).
 */
async function secondRunRefused(url: string, isolation: string): Promise<void> {
  const owner = driverFor(target(url));
  await owner.reset(3);
  const s = await owner.open(isolation);
  try {
    await s.begin();
    await s.write(3, 42);
    await s.commit();
    const t = target(url);
    const setting = findIsolation(t.kind, isolation);
    assert.ok(setting);
    await assert.rejects(runHarness({
      target: t, setting, isolation, outFile: join(tempDir('isocheck-shared-'), 'h.hist'), workload: 'rw-register',
      clients: 2, txns: 20, keys: 3, opsMin: 1, opsMax: 2, seed: 1, levels: ['RC'],
    }), (e) => e instanceof DbError && /another isocheck run or hermitage is using this database/.test(e.message));
    await s.begin();
    assert.equal(await s.read(3), 42, 'the owner\'s table was recreated under it');
    await s.commit();
  } finally {
    await s.close();
    await owner.close();
  }
  // Once the owner is done the database is free again.
  const next = driverFor(target(url));
  try {
    await next.reset(1);
  } finally {
    await next.close();
  }
}

test('SQLite: an UPDATE that matched no row is a refusal, not a recorded write', async () => {
  const t = materialize(target(undefined));
  const driver = driverFor(t);
  try {
    await noRowRefused(driver, 'serializable');
  } finally {
    await driver.close();
    removeTemporaryDatabase(t);
  }
});

test('SQLite: a second run on one sqlite:PATH file is refused while the first holds it (it dropped the first\'s tables before)', async () => {
  const file = join(tempDir('isocheck-shared-'), 'shared.sqlite');
  await secondRunRefused(`sqlite:${file}`, 'serializable');
  // Released on close: no lock file is left beside the database.
  assert.equal(existsSync(`${file}.isocheck-lock`), false);
});

test('SQLite: a lock left by a process that is gone (kill -9) is taken over; one of a live process is waited for, then refused', async () => {
  const file = join(tempDir('isocheck-shared-'), 'stale.sqlite');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  assert.ok(dead !== undefined && dead > 0);
  writeFileSync(`${file}.isocheck-lock`, `${dead}\n`);
  const driver = new SqliteDriver(file, 5000, 300);
  try {
    await driver.reset(1);
    assert.equal(readFileSync(`${file}.isocheck-lock`, 'utf8'), `${process.pid}\n`);
  } finally {
    await driver.close();
  }
  // A live holder (this test's parent process stands in for another run).
  writeFileSync(`${file}.isocheck-lock`, `${process.ppid}\n`);
  const second = new SqliteDriver(file, 5000, 300);
  try {
    // The message names the lock file and its holder: a process id reused after a kill -9 looks alive, and only the user can tell.
    await assert.rejects(second.reset(1), (e) => e instanceof DbError && /another isocheck run or hermitage is using this database/.test(e.message) &&
      e.message.includes(`its lock file ${file}.isocheck-lock names process ${process.ppid}: if no run is going on, remove the file`));
  } finally {
    await second.close();
  }
  assert.equal(readFileSync(`${file}.isocheck-lock`, 'utf8'), `${process.ppid}\n`, 'another run\'s lock was removed');
});

test('SQLite: a dead holder\'s lock is taken over under a guard: not while another run holds the guard, and an old guard left by a dead process is removed', async () => {
  const file = join(tempDir('isocheck-shared-'), 'guard.sqlite');
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  assert.ok(dead !== undefined && dead > 0);
  const lock = `${file}.isocheck-lock`;
  writeFileSync(lock, `${dead}\n`);
  // Another run (this test's parent stands in) is taking the dead holder's lock over: wait, then refuse.
  writeFileSync(`${lock}.takeover`, `${process.ppid}\n`);
  const first = new SqliteDriver(file, 5000, 300);
  try {
    await assert.rejects(first.reset(1), (e) => e instanceof DbError && /another isocheck run or hermitage is using this database/.test(e.message));
  } finally {
    await first.close();
  }
  assert.equal(readFileSync(lock, 'utf8'), `${dead}\n`, 'the lock was taken over while another run held the guard');
  // A guard whose process is gone but which is younger than a takeover could be is left alone (its remover could race another).
  writeFileSync(`${lock}.takeover`, `${dead}\n`);
  const young = new SqliteDriver(file, 5000, 300);
  try {
    await assert.rejects(young.reset(1), (e) => e instanceof DbError);
  } finally {
    await young.close();
  }
  assert.equal(readFileSync(`${lock}.takeover`, 'utf8'), `${dead}\n`);
  // The guard's process is gone too, and the guard is older than a takeover takes: both are taken over, the guard removed.
  writeFileSync(`${lock}.takeover`, `${dead}\n`);
  const old = new Date(Date.now() - 10_000);
  utimesSync(`${lock}.takeover`, old, old);
  const second = new SqliteDriver(file, 5000, 1000);
  try {
    await second.reset(1);
    assert.equal(readFileSync(lock, 'utf8'), `${process.pid}\n`);
    assert.equal(existsSync(`${lock}.takeover`), false);
  } finally {
    await second.close();
  }
  assert.equal(existsSync(lock), false);
});

describe('PostgreSQL', { skip: missing('postgres') ?? false }, () => {
  let pg: DbServer | undefined;
  after(async () => {
    await pg?.stop();
  });
  test('an UPDATE that matched no row is a refusal; a second run on the database is refused', async () => {
    pg = await startPostgres();
    const driver = driverFor(target(pg.url));
    try {
      await noRowRefused(driver, 'serializable');
    } finally {
      await driver.close();
    }
    await secondRunRefused(pg.url, 'serializable');
  });
});

describe('MariaDB', { skip: missing('mysql') ?? false }, () => {
  let db: DbServer | undefined;
  after(async () => {
    await db?.stop();
  });
  test('an UPDATE that matched no row is a refusal; a second run on the database is refused', async () => {
    db = await startMariadb();
    const driver = driverFor(target(db.url));
    try {
      await noRowRefused(driver, 'repeatable-read');
    } finally {
      await driver.close();
    }
    await secondRunRefused(db.url, 'repeatable-read');
  });
  test('a URL that names no database: the server\'s own refusal, not "another run is using this database"', async () => {
    db ??= await startMariadb();
    const driver = driverFor(target(db.url.replace(/\/isocheck$/, '')));
    try {
      await assert.rejects(driver.reset(2), (e) => e instanceof DbError && !e.message.includes('another isocheck run') && /database/i.test(e.message));
    } finally {
      await driver.close();
    }
  });
});
