// The workload's clients against a scripted in-memory driver: how many transactions a run starts, the final reads, list lengths.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DbError, type Driver, type Session } from '../server/src/harness/driver.ts';
import type { RecordedTxn } from '../server/src/harness/recorder.ts';
import { APPENDS_PER_KEY, clientSeed, Workload } from '../server/src/harness/workload.ts';

/**
 * Registers and lists in memory, every statement answered on the next turn of the event loop, as
 * a socket would (no isolation: these tests count, they do not check). Client i's connection
 * takes i × connectMillis to open. A list key without a row fails the statement (an UPDATE of no
 * row would silently lose the append).
 */
function memoryDriver(connectMillis = 0): Driver & { lists: Map<number, number[]> } {
  const values = new Map<number, number>();
  const lists = new Map<number, number[]>();
  let opened = 0;
  const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
  const list = (k: number): number[] => {
    const l = lists.get(k);
    if (!l) throw new DbError(`no list row for key ${k}`, 'lost', 'test');
    return l;
  };
  const session = (): Session => ({
    begin: turn,
    read: async (k) => {
      await turn();
      return values.get(k) ?? 0;
    },
    write: async (k, v) => {
      await turn();
      values.set(k, v);
    },
    readList: async (k) => {
      await turn();
      return [...list(k)];
    },
    append: async (k, v) => {
      await turn();
      list(k).push(v);
    },
    commit: turn,
    rollback: turn,
    close: turn,
    destroy: () => undefined,
  });
  return {
    kind: 'sqlite',
    lists,
    reset: (keys) => {
      for (let k = 1; k <= keys; k++) lists.set(k, []);
      return turn();
    },
    addLists: async (from, to) => {
      await new Promise((r) => setTimeout(r, 5));
      for (let k = from; k <= to; k++) lists.set(k, []);
    },
    open: () => new Promise((resolve) => setTimeout(() => resolve(session()), connectMillis * opened++)),
    close: turn,
  };
}

test('--txns is the total: clients that connect after the others started every transaction start none', async () => {
  for (const txns of [1, 3, 8, 20]) {
    const recorded: RecordedTxn[] = [];
    const w = new Workload(memoryDriver(20), {
      workload: 'rw-register', isolation: 'serializable', clients: 8, txns, keys: 2, opsMin: 1, opsMax: 2, seed: 1,
    }, (_client, t) => recorded.push(t));
    const stats = await w.run();
    const run = recorded.filter((t) => t.session !== 'final');
    assert.equal(run.length, txns, `--txns ${txns} with 8 clients recorded ${run.length}`);
    assert.equal(stats.committed + stats.aborted + stats.unknown, txns);
  }
});

test('after the clients, session final reads every key (its last appends ordered), not counted in the run', async () => {
  const driver = memoryDriver();
  const recorded: RecordedTxn[] = [];
  const clients: number[] = [];
  const w = new Workload(driver, {
    workload: 'list-append', isolation: 'serializable', clients: 4, txns: 400, keys: 300, opsMin: 1, opsMax: 4, seed: 2,
  }, (client, t) => {
    recorded.push(t);
    clients.push(client);
  });
  await driver.reset(300);
  await w.prepare();
  const stats = await w.run();
  assert.equal(stats.committed, 400);
  const final = recorded.filter((t) => t.session === 'final');
  // (The 1,200 fresh lists made ahead of use were never a slot's: not read.)
  // 300 keys: two transactions (at most 256 reads each), after every other one ended, in the journal file after the clients'.
  assert.equal(final.length, 2);
  assert.deepEqual(recorded.slice(-2), final);
  assert.ok(final[0].start >= Math.max(...recorded.filter((t) => t.session !== 'final').map((t) => t.end)));
  assert.deepEqual(clients.slice(-2), [4, 4]);
  const read = new Map<number, number[]>();
  for (const o of final.flatMap((t) => t.ops)) if (o.kind === 'rl') read.set(o.key, o.list);
  assert.deepEqual([...read.keys()].sort((a, b) => a - b), Array.from({ length: 300 }, (_, i) => i + 1));
  for (const [k, l] of driver.lists) if (k <= 300) assert.deepEqual(read.get(k), l, `key ${k}`);
});

test('list-append: a key takes its share of appends, then its slot moves on to a fresh key whose row exists', async () => {
  const driver = memoryDriver();
  await driver.reset(4);
  const recorded: RecordedTxn[] = [];
  const w = new Workload(driver, {
    workload: 'list-append', isolation: 'serializable', clients: 8, txns: 20_000, keys: 4, opsMin: 1, opsMax: 4, seed: 3,
  }, (_client, t) => recorded.push(t));
  await w.prepare();
  const stats = await w.run();
  // Every statement found its row: nothing was lost, nothing aborted.
  assert.equal(stats.committed, 20_000, JSON.stringify(stats));
  const appends = recorded.flatMap((t) => t.ops.filter((o) => o.kind === 'a'));
  const longest = Math.max(...[...driver.lists.values()].map((l) => l.length));
  // Clients run one statement at a time each: at most one append per client past a key's share.
  assert.ok(longest <= APPENDS_PER_KEY + 8, `a list grew to ${longest} elements`);
  const keys = new Set(appends.map((o) => o.key));
  assert.ok(keys.size >= appends.length / (APPENDS_PER_KEY + 8), `${appends.length} appends on only ${keys.size} keys`);
  const maxRead = Math.max(...recorded.flatMap((t) => t.ops.map((o) => (o.kind === 'rl' ? o.list.length : 0))));
  assert.ok(maxRead <= APPENDS_PER_KEY + 8, `a read returned ${maxRead} elements`);
  // The final session reads every key that was appended to, retired ones included.
  const finallyRead = new Set(recorded.filter((t) => t.session === 'final').flatMap((t) => t.ops.map((o) => o.key)));
  for (const k of keys) assert.ok(finallyRead.has(k), `key ${k} not read at the end`);
});

test('a server that stops answering at ROLLBACK or at the goodbye: the run ends within the statement bound, the connection dropped', { timeout: 10_000 }, async () => {
  // Every write is refused as a conflict; then ROLLBACK, and close, never get an answer (pg and mysql2 wait for one).
  const never = (): Promise<never> => new Promise(() => undefined);
  let destroyed = 0;
  const base = memoryDriver();
  const driver: Driver = {
    ...base,
    open: async () => ({
      ...(await base.open('serializable')),
      write: () => Promise.reject(new DbError('could not serialize access', 'aborted', '40001')),
      rollback: never,
      close: never,
      destroy: () => void destroyed++,
    }),
  };
  const recorded: RecordedTxn[] = [];
  const w = new Workload(driver, {
    workload: 'rw-register', isolation: 'serializable', clients: 2, txns: 6, keys: 2, opsMin: 2, opsMax: 2, seed: 4, statementMillis: 100,
  }, (_client, t) => recorded.push(t));
  const t0 = Date.now();
  const stats = await w.run();
  assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
  assert.equal(stats.committed + stats.aborted + stats.unknown, 6);
  // A refused transaction is aborted whether or not ROLLBACK answered; its connection is dropped, the next one is a new session.
  assert.ok(recorded.filter((t) => t.session !== 'final').every((t) => t.status !== 'committed' || t.ops.every((o) => o.kind === 'r')));
  assert.ok(destroyed >= 2, `${destroyed} connections dropped`);
  assert.match(w.lastLoss ?? '', /^ROLLBACK: no answer/);
});

test('--seed: every client draws its own transactions, a millisecond timestamp or 2^53 - 1 as seed too', async () => {
  for (const seed of [1, 1_764_547_200_000, 10 ** 16, Number.MAX_SAFE_INTEGER]) {
    const recorded: RecordedTxn[] = [];
    const w = new Workload(memoryDriver(), {
      workload: 'rw-register', isolation: 'serializable', clients: 4, txns: 40, keys: 8, opsMin: 4, opsMax: 4, seed,
    }, (_client, t) => recorded.push(t));
    await w.run();
    // Each client's first transaction: which keys it reads and writes (values are the run's counter).
    const first = new Map<string, string>();
    for (const t of recorded) if (!first.has(t.session) && t.session !== 'final') first.set(t.session, t.ops.map((o) => `${o.kind}${o.key}`).join(' '));
    assert.equal(first.size, 4);
    assert.equal(new Set(first.values()).size, 4, `seed ${seed}: ${JSON.stringify([...first])}`);
  }
  // Seeds whose product is exact keep the streams they always had.
  assert.equal(clientSeed(7, 3), 7 * 1000003 + 3);
  assert.notEqual(clientSeed(10 ** 16, 0), clientSeed(10 ** 16, 3));
});
