// Runs Hermitage's scripts against a database: steps in order, lock waits detected, each run recorded and checked.

import { join } from 'node:path';
import { analyzeHistText } from '../engine/analyze.ts';
import { writeFileAtomicOrThrow } from '../io/atomic-write.ts';
import { bounded, DbError, STATEMENT_TIMEOUT_MS, type Driver, type Session } from './driver.ts';
import { histFeatures } from './hist-features.ts';
import { INITIAL, KEY_NAMES, type Scenario, type Step } from './hermitage-scenarios.ts';
import { renderHistory, type RecordedOp, type RecordedTxn } from './recorder.ts';
import { clock } from './workload.ts';

export type Outcome = 'prevented' | 'allowed' | 'undecided' | 'failed';

export interface ScenarioResult {
  id: string;
  outcome: Outcome;
  /** The recorded history's file. */
  file: string;
  /** What happened, step by step ("T2 w(x, 12) blocked", "T2 aborted: could not serialize…"). */
  log: string[];
  /** When outcome is 'failed': why (a lost connection, a step stuck past every bound). */
  error?: string;
}

export interface HermitageOptions {
  /** A step that has not returned after this long counts as blocked (a lock wait); the script goes on. */
  blockMillis: number;
  /** A blocked step still waiting this long after the script needs its session again: the scenario failed. */
  stuckMillis?: number;
  /** How long the closing ROLLBACK or goodbye of a session may take before the connection is dropped. */
  statementMillis?: number;
}

const keyName = (k: number): string => KEY_NAMES[k] ?? `k${k}`;

function describe(step: Step): string {
  switch (step.op) {
    case 'r':
      return `r(${keyName(step.key)})`;
    case 'w':
      return `w(${keyName(step.key)}, ${step.value})`;
    default:
      return step.op;
  }
}

function delay(ms: number): Promise<'timeout'> {
  return new Promise((r) => setTimeout(() => r('timeout'), ms).unref());
}

/** Runs one script and records it in `file` (atomically; OutputError when it cannot be written). */
export async function runScenario(driver: Driver, isolation: string, sc: Scenario, file: string, o: HermitageOptions): Promise<ScenarioResult> {
  const now = clock();
  const log: string[] = [];
  await driver.reset(INITIAL.length, INITIAL);
  const sessions: Session[] = [];
  const txns: RecordedTxn[] = [];
  try {
    // Connects are bounded by the drivers; BEGIN by the statement bound: a hung server fails the command, never hangs it.
    for (let i = 0; i < sc.sessions; i++) sessions.push(await driver.open(isolation));
    for (let i = 0; i < sessions.length; i++) {
      txns.push({ name: `T${i + 1}`, session: `s${i + 1}`, status: 'committed', start: now(), end: 0, ops: [] });
      await bounded(sessions[i].begin());
    }
  } catch (e) {
    // Dropped, not closed: a polite close waits for a server that may not answer.
    for (const s of sessions) s.destroy();
    throw e;
  }
  const pending: (Promise<void> | null)[] = sessions.map(() => null);
  const failed: (DbError | null)[] = sessions.map(() => null);
  const finished = sessions.map(() => false);
  let lost: string | null = null;
  /** Steps that did not return within blockMillis (logged as blocking, then as unblocked). */
  const blocked = new Set<Step>();

  /**
   * Runs a step and logs its result as it returns, so that the log is in the order the client
   * saw things happen (a commit, then the step it unblocked), whatever the script loop is doing.
   */
  const exec = async (step: Step, afterBlocked = false): Promise<void> => {
    const s = sessions[step.s];
    const t = txns[step.s];
    try {
      let op: RecordedOp | null = null;
      if (step.op === 'r') op = { kind: 'r', key: step.key, value: (await s.read(step.key)) ?? 0 };
      else if (step.op === 'w') {
        await s.write(step.key, step.value);
        op = { kind: 'w', key: step.key, value: step.value };
      } else if (step.op === 'commit') {
        await s.commit();
        finished[step.s] = true;
        t.end = now();
      } else {
        await s.rollback();
        t.status = 'aborted';
        finished[step.s] = true;
        t.end = now();
      }
      if (op) t.ops.push(op);
      log.push(`${t.name} ${describe(step)}: ${blocked.has(step) ? 'ok (unblocked)' : afterBlocked ? 'ok (after the blocked step)' : 'ok'}`);
    } catch (e) {
      if (!(e instanceof DbError)) throw e;
      failed[step.s] = e;
      t.status = e.failure === 'lost' && step.op === 'commit' ? 'unknown' : 'aborted';
      finished[step.s] = true;
      t.end = now();
      log.push(`${t.name} ${describe(step)}: ${e.message}`);
      if (e.failure === 'lost') lost ??= e.message;
      else {
        // A refusal that is not a conflict (a missing table, no permission) says nothing about the
        // anomaly: the test failed (!), it did not prevent anything.
        if (e.failure === 'error') lost ??= e.message;
        // A failed statement may leave the transaction holding its locks (PostgreSQL does until
        // ROLLBACK): release them now, so that the sessions waiting on them proceed as in Hermitage.
        await s.rollback();
      }
    }
  };

  const stuckMillis = o.stuckMillis ?? 15_000;
  /** Runs a step that waited behind its session's blocked one, once that one returned. */
  const queued = async (step: Step): Promise<void> => {
    const name = txns[step.s].name;
    if (failed[step.s] || finished[step.s]) {
      log.push(`${name} ${describe(step)}: skipped (the transaction already ended)`);
      return;
    }
    await exec(step, true);
  };
  for (const step of sc.steps) {
    const name = txns[step.s].name;
    const before = pending[step.s];
    if (before) {
      // The session's previous step blocked; the step before this one may just have released it.
      const r = await Promise.race([before.then(() => 'done' as const), delay(o.blockMillis)]);
      if (r === 'timeout') {
        // Still blocked: this step is typed into a terminal that is waiting. It runs when the
        // blocked one returns, and the script goes on with the other sessions, as Hermitage's
        // tester does; waiting here instead could only end by the database's lock timeout.
        log.push(`${name} ${describe(step)}: waits for ${name}'s blocked step`);
        pending[step.s] = before.then(() => queued(step));
        continue;
      }
      pending[step.s] = null;
    }
    if (failed[step.s] || finished[step.s]) {
      log.push(`${name} ${describe(step)}: skipped (the transaction already ended)`);
      continue;
    }
    const p = exec(step);
    const r = await Promise.race([p.then(() => 'done' as const), delay(o.blockMillis)]);
    if (r === 'timeout') {
      blocked.add(step);
      log.push(`${name} ${describe(step)}: blocks`);
      pending[step.s] = p;
    } else if (finished[step.s]) {
      // "commit; -- T1. This unblocks T2": the tester sees T2 return before typing the next step.
      // Without this the next step raced the unblocked one (OTV at read uncommitted: T3 read x
      // before or after T2's write of it landed, and the cell changed from run to run).
      const others = pending.filter((q, i): q is Promise<void> => q !== null && i !== step.s);
      if (others.length > 0) await Promise.race([Promise.all(others), delay(o.blockMillis)]);
    }
  }
  const settled = await Promise.race([Promise.all(pending.map((p) => p ?? Promise.resolve())).then(() => 'done' as const), delay(stuckMillis)]);
  if (settled === 'timeout') {
    const stuck = pending.findIndex((p, i) => p !== null && !finished[i]);
    lost ??= `${txns[Math.max(0, stuck)].name} stayed blocked for ${stuckMillis / 1000} s after the script's last step`;
  }
  // Bounded, then dropped: a server that stopped answering (a step stuck, or its ROLLBACK or
  // goodbye never answered) hung the command for ever here; dropping the connection rolls back.
  const settle = async (p: Promise<void>): Promise<boolean> => bounded(p, o.statementMillis ?? STATEMENT_TIMEOUT_MS).then(() => true, () => false);
  for (let i = 0; i < sessions.length; i++) {
    if (!finished[i]) {
      if (!lost && !(await settle(sessions[i].rollback()))) lost = `${txns[i].name}'s ROLLBACK got no answer`;
      txns[i].status = 'aborted';
      txns[i].end = now();
    }
    if (failed[i]?.failure === 'lost' || lost || !(await settle(sessions[i].close()))) sessions[i].destroy();
  }

  const text = renderHistory({
    title: `hermitage ${sc.id} (${sc.title}): ${driver.kind} ${isolation}`,
    comments: [
      `Hermitage's ${sc.id} test (${sc.title}) as run by isocheck hermitage on ${driver.kind} at ${isolation}.`,
      `The anomaly happened exactly when this history violates ${sc.level}. What each step did:`,
      ...log.map((l) => `  ${l}`),
    ],
    level: null,
    registerKeys: INITIAL.map((_, i) => i + 1),
    initial: (k) => INITIAL[k - 1],
    keyName,
  }, txns, histFeatures());
  writeFileAtomicOrThrow(file, [text]);
  if (lost) return { id: sc.id, outcome: 'failed', file, log, error: lost };
  const verdict = analyzeHistText(text, { levels: [sc.level] }).levels[0];
  const outcome: Outcome = verdict.consistent === true ? 'prevented' : verdict.consistent === false ? 'allowed' : 'undecided';
  return { id: sc.id, outcome, file, log };
}

export function scenarioFile(dir: string, kind: string, isolation: string, id: string): string {
  return join(dir, `${kind}-${isolation}-${id}.hist`);
}
