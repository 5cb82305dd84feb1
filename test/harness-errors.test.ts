// How the drivers sort database errors (a conflict, a lost connection, a refusal) and what a refusal does to a run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DbError, type Driver, type Session } from '../server/src/harness/driver.ts';
import { classify as mysqlClassify } from '../server/src/harness/mysql-driver.ts';
import { classify as pgClassify } from '../server/src/harness/pg-driver.ts';
import type { RecordedTxn } from '../server/src/harness/recorder.ts';
import { Workload } from '../server/src/harness/workload.ts';

test('PostgreSQL: conflicts abort, connection failures are lost, anything else the server says is a refusal', () => {
  const kind = (e: object): string => pgClassify(Object.assign(new Error('m'), e)).failure;
  for (const code of ['40001', '40P01', '40002', '55P03', '57014']) assert.equal(kind({ code }), 'aborted', code);
  for (const code of ['57P01', '57P02', '57P03', '57P04', '08006', '08003']) assert.equal(kind({ code }), 'lost', code);
  assert.equal(kind({ message: 'Connection terminated unexpectedly' }), 'lost');
  for (const code of ['42P01', '42501', '25006', '53100', '23505', 'XX000']) assert.equal(kind({ code }), 'error', code);
});

test('MySQL/MariaDB: deadlocks and lock timeouts abort, socket and fatal errors are lost, other server errors are refusals', () => {
  const kind = (e: object): string => mysqlClassify(Object.assign(new Error('m'), e)).failure;
  for (const errno of [1213, 1205, 1020]) assert.equal(kind({ errno }), 'aborted', String(errno));
  assert.equal(kind({ errno: 1213, fatal: true }), 'lost');
  for (const e of [{ code: 'ECONNRESET', errno: -104 }, { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }, { errno: 1927 }, { errno: 1053 }, { code: 'ETIMEDOUT' }]) {
    assert.equal(kind(e), 'lost', JSON.stringify(e));
  }
  for (const errno of [1146, 1142, 1290, 1114]) assert.equal(kind({ errno }), 'error', String(errno));
});

test('a refused statement ends the run with the reason, without a reconnect per transaction', async () => {
  let statements = 0;
  const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
  // After 200 statements every statement is refused, as when the tables were dropped under the run.
  const statement = async (): Promise<void> => {
    await turn();
    if (++statements > 200) throw new DbError('relation "isocheck_reg" does not exist', 'error', '42P01');
  };
  let opened = 0;
  const session = (): Session => ({
    begin: statement,
    read: async () => {
      await statement();
      return 0;
    },
    write: statement,
    readList: async () => {
      await statement();
      return [];
    },
    append: statement,
    commit: statement,
    rollback: turn,
    close: turn,
    destroy: () => undefined,
  });
  const driver: Driver = {
    kind: 'postgres',
    reset: turn,
    addLists: turn,
    open: () => {
      opened++;
      return Promise.resolve(session());
    },
    close: turn,
  };
  const recorded: RecordedTxn[] = [];
  const w = new Workload(driver, { workload: 'rw-register', isolation: 'serializable', clients: 4, seconds: 30, keys: 4, opsMin: 1, opsMax: 3, seed: 1 }, (_c, t) => recorded.push(t));
  const t0 = Date.now();
  const stats = await w.run();
  assert.ok(Date.now() - t0 < 5000, 'the run went on');
  assert.equal(stats.fatal, 'the database refused a statement: relation "isocheck_reg" does not exist');
  assert.equal(opened, 4, 'one connection per client: a refusal is not a lost connection');
  assert.ok(stats.aborted >= 1 && stats.aborted <= 4, JSON.stringify(stats));
  assert.equal(recorded.filter((t) => t.session === 'final').length, 0, 'no final reads after a refusal');
});
