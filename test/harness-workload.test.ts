// The workload's clients against a scripted in-memory driver: how many transactions a run starts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Driver, Session } from '../server/src/harness/driver.ts';
import type { RecordedTxn } from '../server/src/harness/recorder.ts';
import { Workload } from '../server/src/harness/workload.ts';

/** Registers in memory, every statement answered at once; client i's connection takes i × 20 ms to open. */
function slowConnectDriver(): Driver {
  const values = new Map<number, number>();
  let opened = 0;
  const session = (): Session => ({
    begin: async () => undefined,
    read: async (k) => values.get(k) ?? 0,
    write: async (k, v) => void values.set(k, v),
    readList: async () => [],
    append: async () => undefined,
    commit: async () => undefined,
    rollback: async () => undefined,
    close: async () => undefined,
    destroy: () => undefined,
  });
  return {
    kind: 'sqlite',
    reset: async () => undefined,
    open: () => new Promise((resolve) => setTimeout(() => resolve(session()), 20 * opened++)),
    close: async () => undefined,
  };
}

test('--txns is the total: clients that connect after the others started every transaction start none', async () => {
  for (const txns of [1, 3, 8, 20]) {
    const recorded: RecordedTxn[] = [];
    const w = new Workload(slowConnectDriver(), {
      workload: 'rw-register', isolation: 'serializable', clients: 8, txns, keys: 2, opsMin: 1, opsMax: 2, seed: 1,
    }, (_client, t) => recorded.push(t));
    const stats = await w.run();
    assert.equal(recorded.length, txns, `--txns ${txns} with 8 clients recorded ${recorded.length}`);
    assert.equal(stats.committed + stats.aborted + stats.unknown, txns);
  }
});
