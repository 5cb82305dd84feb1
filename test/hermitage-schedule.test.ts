// Hermitage's script runner against an in-memory locking database: blocked steps, the steps after them, what unblocks them.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Driver, Session } from '../server/src/harness/driver.ts';
import { runScenario } from '../server/src/harness/hermitage.ts';
import { SCENARIOS, type Scenario } from '../server/src/harness/hermitage-scenarios.ts';
import { removeTempDirs, tempDir } from './helpers/harness-checks.ts';

// The runner's own timers are unref'd (a real driver's sockets keep the process alive); this database has none.
const alive = setInterval(() => undefined, 1000);
after(() => {
  clearInterval(alive);
  removeTempDirs();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Writes take exclusive locks held to the end of the transaction and are applied in place (undone
 * by a rollback). 'serializable': reads take shared locks too (strict two-phase locking, as
 * InnoDB's SERIALIZABLE); 'read-uncommitted': reads take no lock and see the latest write. A
 * request waits, with no timeout and no deadlock detection; a write that waited is applied
 * `wakeMillis` after its lock is granted (a server's wake-up, not instantaneous).
 */
function lockingDriver(wakeMillis = 0): Driver {
  const current = new Map<number, number>();
  const shared = new Map<number, Set<number>>();
  const exclusive = new Map<number, number>();
  let waiters: (() => void)[] = [];
  let nextId = 0;
  const wake = (): void => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  /** Whether the request had to wait. */
  const acquire = async (id: number, key: number, mode: 'S' | 'X'): Promise<boolean> => {
    for (let waited = false; ; waited = true) {
      const x = exclusive.get(key);
      const s = shared.get(key) ?? new Set<number>();
      const free = (x === undefined || x === id) && (mode === 'S' || [...s].every((o) => o === id));
      if (free) {
        if (mode === 'S') shared.set(key, s.add(id));
        else exclusive.set(key, id);
        return waited;
      }
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  const session = (isolation: string): Session => {
    const id = nextId++;
    const undo = new Map<number, number | undefined>();
    const release = (): void => {
      for (const s of shared.values()) s.delete(id);
      for (const [k, x] of exclusive) if (x === id) exclusive.delete(k);
      undo.clear();
      wake();
    };
    return {
      begin: () => Promise.resolve(),
      read: async (k) => {
        if (isolation === 'serializable') await acquire(id, k, 'S');
        return current.get(k) ?? null;
      },
      write: async (k, v) => {
        if (await acquire(id, k, 'X')) await sleep(wakeMillis);
        if (!undo.has(k)) undo.set(k, current.get(k));
        current.set(k, v);
      },
      readList: () => Promise.reject(new Error('not used')),
      append: () => Promise.reject(new Error('not used')),
      commit: () => Promise.resolve(release()),
      rollback: () => {
        for (const [k, v] of undo) if (v === undefined) current.delete(k); else current.set(k, v);
        release();
        return Promise.resolve();
      },
      close: () => Promise.resolve(release()),
      destroy: release,
    };
  };
  return {
    kind: 'mysql',
    reset: (keys, initial = []) => {
      current.clear();
      for (let k = 1; k <= keys; k++) current.set(k, initial[k - 1] ?? 0);
      return Promise.resolve();
    },
    addLists: () => Promise.resolve(),
    open: (isolation) => Promise.resolve(session(isolation)),
    close: () => Promise.resolve(),
  };
}

function scenario(id: string): Scenario {
  const sc = SCENARIOS.find((s) => s.id === id);
  assert.ok(sc, id);
  return sc;
}

test('a commit that unblocks a session: the next step waits for the unblocked one to return (OTV at read uncommitted)', async () => {
  const file = join(tempDir('isocheck-sched-'), 'otv.hist');
  // T1's commit releases x; T2's write of x then lands 30 ms later, and T3 reads x next.
  const r = await runScenario(lockingDriver(30), 'read-uncommitted', scenario('OTV'), file, { blockMillis: 200, stuckMillis: 3000 });
  assert.equal(r.outcome, 'allowed', r.log.join('\n'));
  assert.match(readFileSync(file, 'utf8'), /T3 @ \d+\.\.\d+: r\(x, 12\) r\(y, 19\) r\(x, 12\) r\(y, 18\)/);
});

test('a step typed after a blocked one waits for it while the script goes on with the other sessions', async () => {
  const dir = tempDir('isocheck-sched-');
  const driver = lockingDriver();
  // No lock timeout here: a runner that waited for the blocked step before going on stayed stuck ('failed').
  // (P4, G1c and G2-item deadlock under two-phase locking: a database's deadlock detection ends them, not the runner.)
  for (const id of ['G0', 'G1a', 'G1b', 'OTV', 'G-single']) {
    const t0 = Date.now();
    const r = await runScenario(driver, 'serializable', scenario(id), join(dir, `${id}.hist`), { blockMillis: 50, stuckMillis: 3000 });
    assert.equal(r.outcome, 'prevented', `${id}: ${r.error ?? ''}\n${r.log.join('\n')}`);
    assert.ok(Date.now() - t0 < 2000, `${id} took ${Date.now() - t0} ms`);
  }
});

test('G-single under two-phase locking: T2 blocks on T1\'s read lock, its later steps wait, T1 reads y and commits, then T2 completes', async () => {
  const r = await runScenario(lockingDriver(), 'serializable', scenario('G-single'), join(tempDir('isocheck-sched-'), 'g.hist'), { blockMillis: 50, stuckMillis: 3000 });
  assert.deepEqual(r.log, [
    'T1 r(x): ok',
    'T2 r(x): ok',
    'T2 r(y): ok',
    'T2 w(x, 12): blocks',
    "T2 w(y, 18): waits for T2's blocked step",
    "T2 commit: waits for T2's blocked step",
    'T1 r(y): ok',
    'T1 commit: ok',
    'T2 w(x, 12): ok (unblocked)',
    'T2 w(y, 18): ok (after the blocked step)',
    'T2 commit: ok (after the blocked step)',
  ]);
});

test('a server that stops answering mid-script, or at the goodbye: the scenario ends (failed, or recorded), its connections dropped', { timeout: 15_000 }, async () => {
  const never = (): Promise<never> => new Promise(() => undefined);
  /** The locking database, but from the `frozenAfter`-th statement on nothing answers; close never does. */
  const freezing = (frozenAfter: number): Driver & { dropped: () => number } => {
    const base = lockingDriver();
    let statements = 0;
    let dropped = 0;
    const gate = <A extends unknown[], R>(f: (...a: A) => Promise<R>) => (...a: A): Promise<R> => (++statements > frozenAfter ? never() : f(...a));
    return {
      ...base,
      open: async (isolation) => {
        const s = await base.open(isolation);
        return {
          ...s,
          read: gate((k: number) => s.read(k)),
          write: gate((k: number, v: number) => s.write(k, v)),
          commit: gate(() => s.commit()),
          rollback: gate(() => s.rollback()),
          close: never,
          destroy: () => void dropped++,
        };
      },
      dropped: () => dropped,
    };
  };
  const dir = tempDir('isocheck-sched-');
  // Frozen after G1a's first write: every later step blocks, the script's end finds them stuck.
  const frozen = freezing(1);
  const t0 = Date.now();
  const r = await runScenario(frozen, 'read-committed', scenario('G1a'), join(dir, 'frozen.hist'), { blockMillis: 50, stuckMillis: 300, statementMillis: 300 });
  assert.equal(r.outcome, 'failed', r.log.join('\n'));
  assert.match(r.error ?? '', /stayed blocked/);
  assert.equal(frozen.dropped(), 2);
  // Answers every statement of G1c, but never its goodbye: recorded and decided all the same (its
  // reads see uncommitted writes: allowed).
  const mute = freezing(Infinity);
  const g = await runScenario(mute, 'read-uncommitted', scenario('G1c'), join(dir, 'mute.hist'), { blockMillis: 50, stuckMillis: 300, statementMillis: 300 });
  assert.equal(g.outcome, 'allowed', g.log.join('\n'));
  assert.equal(mute.dropped(), 2);
  assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
});
