// One harness run: reset the tables, run the workload with a journal, assemble the history and check it.

import { readdirSync, statSync } from 'node:fs';
import { analyzeHistText, type Analysis } from '../engine/analyze.ts';
import type { Level } from '../engine/levels/levels.ts';
import { OutputError, outputProblem, samePath } from '../io/atomic-write.ts';
import { driverFor } from './drivers.ts';
import { writeEdn } from './edn-writer.ts';
import { histFeatures } from './hist-features.ts';
import type { IsolationSetting } from './isolation.ts';
import { Recorder } from './recorder.ts';
import type { Target } from './targets.ts';
import { Workload, type RunStats, type WorkloadOptions } from './workload.ts';

export interface RunRequest extends WorkloadOptions {
  target: Target;
  setting: IsolationSetting;
  outFile: string;
  /** Also write the run in Jepsen's EDN history shape here. */
  ednFile?: string;
  /** Levels to decide (default all seven); the claimed level is decided through `level` either way. */
  levels?: readonly Level[];
  /** Called once the workload runs, with a way to stop it (Ctrl-C) and to read live counts. */
  onStart?: (w: Workload) => void;
  /** Called when recording ends and the check begins (a long check should not look like a hang); awaited. */
  onCheck?: (transactions: number) => void | Promise<void>;
}

export interface RunResult {
  stats: RunStats;
  outFile: string;
  ednFile: string | undefined;
  text: string;
  analysis: Analysis;
  claims: Level | null;
  elapsedMillis: number;
  checkMillis: number;
}

/**
 * Why a run could not write its outputs, or null: checked before the workload (`isocheck run`
 * checks before it creates anything), so that a bad -o costs neither the run nor litter. The
 * history, the EDN file and the journal beside the history must not be one another, nor the
 * SQLite database. No outFile: a fresh temporary directory's, nothing to check.
 */
export function runOutputsProblem(outFile: string | undefined, ednFile: string | undefined, target: Target): string | null {
  const outputs = [outFile, ednFile].filter((f) => f !== undefined);
  const db = target.kind === 'sqlite' && target.location !== '' ? target.location : null;
  for (const file of outputs) {
    if (db !== null && samePath(file, db)) return `refusing to write ${file}: it is the database ${db}`;
    const problem = outputProblem(file);
    if (problem !== null) return problem;
  }
  if (outFile === undefined) return null;
  if (ednFile !== undefined && samePath(ednFile, outFile)) return `refusing to write ${ednFile}: --edn and -o name the same file`;
  const parts = `${outFile}.parts`;
  // A journal left by an interrupted run is replaced; anything else of that name is not ours to
  // delete (a directory of the user's, whatever it held, used to be removed with its contents).
  const st = statSync(parts, { throwIfNoEntry: false });
  if (st === undefined) return null;
  if (!st.isDirectory()) return `cannot write the journal ${parts}: a file of that name is in the way`;
  const foreign = readdirSync(parts, { withFileTypes: true }).find((e) => !e.isFile() || !JOURNAL_FILE.test(e.name));
  if (foreign !== undefined) return `cannot write the journal ${parts}: that directory holds ${foreign.name}, which is not a journal's (move it, or choose another -o)`;
  return null;
}

/** The files of a journal (Recorder): 000-header.hist, then one per client, 001-c1.hist, … */
const JOURNAL_FILE = /^\d{3,}-[\w.]*\.hist$/;

/** Records and checks one run; throws DbError (the database) or OutputError (a file it cannot write). */
export async function runHarness(r: RunRequest): Promise<RunResult> {
  const problem = runOutputsProblem(r.outFile, r.ednFile, r.target);
  if (problem !== null) throw new OutputError(problem);
  const features = histFeatures();
  const driver = driverFor(r.target);
  let recorder: Recorder;
  const workload = new Workload(driver, r, (client, t) => recorder.add(client, t));
  try {
    await driver.reset(r.keys);
    await workload.prepare();
    recorder = new Recorder(r.outFile, {
      title: `isocheck run: ${r.target.kind} ${r.setting.name} ${r.workload}`,
      comments: [
        `Recorded by isocheck run against ${r.target.label}`,
        `isolation ${r.setting.name} (claims ${r.setting.claims ?? 'no checkable level'}: ${r.setting.why})`,
        `workload ${r.workload}, ${r.clients} clients, ${r.keys} keys, ${r.opsMin}..${r.opsMax} operations per transaction, seed ${r.seed}`,
        'Each session is one client connection; @ START..END are microseconds on one monotonic clock.',
        'Session final reads every key once the clients have stopped (it reveals the last writes\' order; not counted in the run).',
      ],
      level: r.setting.claims,
      registerKeys: r.workload === 'rw-register' ? Array.from({ length: r.keys }, (_, i) => i + 1) : [],
    }, features);
  } catch (e) {
    // The SQLite driver's worker thread would keep the process alive after the error is reported.
    await driver.close();
    throw e;
  }
  const t0 = Date.now();
  r.onStart?.(workload);
  let stats: RunStats;
  try {
    stats = await workload.run();
  } finally {
    await driver.close();
  }
  if (stats.fatal && workload.lastLoss) stats.fatal = `the database went away (${workload.lastLoss}); ${stats.fatal}`;
  const elapsedMillis = Date.now() - t0;
  const text = recorder.finish();
  if (r.ednFile) {
    try {
      writeEdn(r.ednFile, recorder.txns);
    } catch (e) {
      throw e instanceof OutputError ? new OutputError(`${e.message}; the history itself is written: ${r.outFile}`) : e;
    }
  }
  await r.onCheck?.(recorder.txns.length);
  const c0 = Date.now();
  const analysis = analyzeHistText(text, { maxWitnesses: 1, levels: r.levels });
  return { stats, outFile: r.outFile, ednFile: r.ednFile, text, analysis, claims: r.setting.claims, elapsedMillis, checkMillis: Date.now() - c0 };
}
