// One harness run: reset the tables, run the workload with a journal, assemble the history and check it.

import { analyzeHistText, type Analysis } from '../engine/analyze.ts';
import type { Level } from '../engine/levels/levels.ts';
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
  /** Called when recording ends and the check begins (a long check should not look like a hang). */
  onCheck?: (transactions: number) => void;
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

export async function runHarness(r: RunRequest): Promise<RunResult> {
  const features = histFeatures();
  const driver = driverFor(r.target);
  await driver.reset(r.keys);
  const recorder = new Recorder(r.outFile, {
    title: `isocheck run: ${r.target.kind} ${r.setting.name} ${r.workload}`,
    comments: [
      `Recorded by isocheck run against ${r.target.label}`,
      `isolation ${r.setting.name} (claims ${r.setting.claims ?? 'no checkable level'}: ${r.setting.why})`,
      `workload ${r.workload}, ${r.clients} clients, ${r.keys} keys, ${r.opsMin}..${r.opsMax} operations per transaction, seed ${r.seed}`,
      'Each session is one client connection; @ START..END are microseconds on one monotonic clock.',
    ],
    level: r.setting.claims,
    registerKeys: r.workload === 'rw-register' ? Array.from({ length: r.keys }, (_, i) => i + 1) : [],
  }, features);
  const workload = new Workload(driver, r, (client, t) => recorder.add(client, t));
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
  if (r.ednFile) writeEdn(r.ednFile, recorder.txns);
  r.onCheck?.(recorder.txns.length);
  const c0 = Date.now();
  const analysis = analyzeHistText(text, { maxWitnesses: 1, levels: r.levels });
  return { stats, outFile: r.outFile, ednFile: r.ednFile, text, analysis, claims: r.setting.claims, elapsedMillis, checkMillis: Date.now() - c0 };
}
