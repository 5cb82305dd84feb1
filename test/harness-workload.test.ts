// The workload's clients against a scripted in-memory driver: how many transactions a run starts, the final reads.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Driver, Session } from '../server/src/harness/driver.ts';
import type { RecordedTxn } from '../server/src/harness/recorder.ts';
import { Workload } from '../server/src/harness/workload.ts';

/**
 * Registers and lists in memory, every statement answered on the next turn of the event loop, as
 * a socket would (no isolation: these tests count, they do not check). Client i's connection
 * takes i × connectMillis to open.
 */
function memoryDriver(connectMillis = 0): Driver & { lists: Map<number, number[]> } {
  const values = new Map<number, number>();
  const lists = new Map<number, number[]>();
  let opened = 0;
  const turn = (): Promise<void> => new Promise((r) => setImmediate(r));
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
      return [...(lists.get(k) ?? [])];
    },
    append: async (k, v) => {
      await turn();
      lists.set(k, [...(lists.get(k) ?? []), v]);
    },
    commit: turn,
    rollback: turn,
    close: turn,
    destroy: () => undefined,
  });
  return {
    kind: 'sqlite',
    lists,
    reset: turn,
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
  const stats = await w.run();
  assert.equal(stats.committed, 400);
  const final = recorded.filter((t) => t.session === 'final');
  // 300 keys: two transactions (at most 256 reads each), after every other one ended, in the journal file after the clients'.
  assert.equal(final.length, 2);
  assert.deepEqual(recorded.slice(-2), final);
  assert.ok(final[0].start >= Math.max(...recorded.filter((t) => t.session !== 'final').map((t) => t.end)));
  assert.deepEqual(clients.slice(-2), [4, 4]);
  const read = new Map<number, number[]>();
  for (const o of final.flatMap((t) => t.ops)) if (o.kind === 'rl') read.set(o.key, o.list);
  assert.deepEqual([...read.keys()].sort((a, b) => a - b), Array.from({ length: 300 }, (_, i) => i + 1));
  for (const [k, l] of driver.lists) assert.deepEqual(read.get(k), l, `key ${k}`);
});
