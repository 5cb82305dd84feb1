// List-append at scale: a Jepsen EDN history (default 1,000,000 transactions of 4 ops, 64 client
// threads, 10 % unknown outcomes, real-time intervals) read and fully analysed, phase by phase.
// Usage: npm run bench:list [-- TRANSACTIONS [serial|permissive] [--keep FILE]]   (not a test: figures only)
// --keep FILE: the EDN is written to FILE once and reused by later runs (for profiling with --cpu-prof).

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIST_GEN, generateListHistory, writeListEvents } from '../server/src/engine/gen/list-append-store.ts';
import { readJepsenEdn } from '../server/src/engine/readers/edn-reader.ts';
import { inferListAppend } from '../server/src/engine/listappend/infer.ts';
import { decideListLevel, ListLevelContext, uniformLevels } from '../server/src/engine/listappend/list-levels.ts';
import { cycleInference, findCycles } from '../server/src/engine/listappend/cycles.ts';
import { CYCLE_CLASSES, LIST_LEVELS } from '../server/src/engine/listappend/anomaly-table.ts';

const txns = Number(process.argv[2] ?? '1000000');
const store = (process.argv[3] ?? 'serial') as 'serial' | 'permissive';

/** In a child process (`--write FILE`): the history's EDN, so the measured process starts clean. */
function writeHistory(file: string): void {
  const d = generateListHistory({ ...DEFAULT_LIST_GEN, transactions: txns, sessions: 64, keys: 1024, maxAppends: 32, opsPerTxn: 4, fixedSize: true, abortRatio: 0.01, unknownRatio: 0.1, store, seed: 1 });
  const fd = openSync(file, 'w');
  writeListEvents(d, 'edn', (c) => writeSync(fd, c));
  closeSync(fd);
}

if (process.argv[4] === '--write') {
  writeHistory(process.argv[5]);
  process.exit(0);
}
const keepAt = process.argv.indexOf('--keep');
const kept = keepAt > 0 ? process.argv[keepAt + 1] : null;
const dir = mkdtempSync(join(tmpdir(), 'isocheck-bench-'));
const file = kept ?? join(dir, 'history.edn');
let peak = 0;
const sample = (): void => {
  peak = Math.max(peak, process.memoryUsage().rss);
};
const timer = setInterval(sample, 20);
try {
  if (!kept || !existsSync(file)) {
    const child = spawnSync(process.execPath, [...process.execArgv.filter((a) => !a.startsWith('--cpu-prof')), process.argv[1], String(txns), store, '--write', file], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error('writing the history failed');
  }
  peak = 0;
  const bytes = readFileSync(file);
  console.log(`${txns} transactions, ${(bytes.length / 1e6).toFixed(0)} MB of EDN (${store} store)`);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let t = t0;
  let c = c0;
  // Wall time, and this process's CPU time beside it (the machine is shared: CPU time is steadier).
  const lap = (what: string): void => {
    sample();
    const now = performance.now();
    const cpu = process.cpuUsage();
    console.log(`  ${what.padEnd(44)} ${((now - t) / 1000).toFixed(2)} s  (cpu ${((cpu.user + cpu.system - c.user - c.system) / 1e6).toFixed(2)} s, peak RSS so far ${(peak / 1e9).toFixed(2)} GB)`);
    t = now;
    c = cpu;
  };
  const f = readJepsenEdn(bytes);
  lap(`read (${f.history.txnCount - 1} txns, ${f.history.opCount} ops, ${f.history.sessionCount} sessions)`);
  const inf = inferListAppend(f.history);
  lap(`infer (version orders, ${inf.edges.length} edges)`);
  const ctx = new ListLevelContext(inf);
  const verdicts: string[] = [];
  const ser = decideListLevel(ctx, uniformLevels(f.history, 'SER'));
  for (const l of LIST_LEVELS) verdicts.push(`${l} ${l === 'SER' ? ser : ser === true && l !== 'SSER' ? true : decideListLevel(ctx, uniformLevels(f.history, l))}`);
  lap(`levels (${verdicts.join(', ')})`);
  const cycles = findCycles(cycleInference(inf), true, CYCLE_CLASSES).found;
  lap(`SCC and cycle search (${cycles.length} classes found)`);
  const cpu = process.cpuUsage(c0);
  console.log(`  total ${((performance.now() - t0) / 1000).toFixed(2)} s (cpu ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s), peak RSS ${(peak / 1e9).toFixed(2)} GB`);
} finally {
  clearInterval(timer);
  rmSync(dir, { recursive: true, force: true });
}
