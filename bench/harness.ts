// Benchmark of the harness: its own cost per transaction on SQLite and PostgreSQL (one client, so the
// database's share is the time spent waiting for statements), the journal's cost, and the check of a
// recorded 100,000-transaction history.
// Usage: npm run bench:harness  (PostgreSQL: started from Debian's binaries when installed, or ISOCHECK_BENCH_PG=URL)

import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import type { Level } from '../server/src/engine/levels/levels.ts';
import { histFeatures } from '../server/src/harness/hist-features.ts';
import { findIsolation } from '../server/src/harness/isolation.ts';
import { Recorder, type RecordedTxn } from '../server/src/harness/recorder.ts';
import { runHarness } from '../server/src/harness/run.ts';
import { parseTarget } from '../server/src/harness/targets.ts';
import { missing, startPostgres, type DbServer } from '../test/helpers/db-servers.ts';

const dir = mkdtempSync(join(tmpdir(), 'isocheck-bench-harness-'));

async function overhead(url: string, isolation: string, txns: number, clients: number): Promise<void> {
  const t = parseTarget(url);
  if (!t.ok) throw new Error(t.error);
  const setting = findIsolation(t.target.kind, isolation);
  if (!setting) throw new Error(isolation);
  const r = await runHarness({
    target: t.target, setting, isolation, outFile: join(dir, `${t.target.kind}-${clients}.hist`), workload: 'rw-register',
    clients, txns, keys: 8, opsMin: 1, opsMax: 4, seed: 1, levels: ['RC'],
  });
  const wallUs = r.elapsedMillis * 1000;
  const perTxn = wallUs / txns;
  if (clients === 1) {
    // One client: every microsecond is either a statement round trip or the harness's own work.
    const own = Math.max(0, wallUs - r.stats.dbMicros);
    console.log(`  ${t.target.kind}, 1 client, ${txns} txns: ${perTxn.toFixed(0)} µs per transaction, of which the harness's own ${(own / txns).toFixed(1)} µs (${((100 * own) / wallUs).toFixed(1)} %)`);
  } else {
    console.log(`  ${t.target.kind}, ${clients} clients, ${txns} txns: ${(txns / (wallUs / 1e6)).toFixed(0)} txn/s (${r.stats.aborted} aborted)`);
  }
}

function journal(n: number): void {
  const rec = new Recorder(join(dir, 'journal.hist'), { title: 'journal', comments: [], level: 'SER', registerKeys: [1, 2, 3, 4] }, histFeatures());
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const t: RecordedTxn = { name: `T${i + 1}`, session: `c${(i % 16) + 1}`, status: 'committed', start: i * 10, end: i * 10 + 5, ops: [{ kind: 'r', key: 1 + (i % 4), value: i }, { kind: 'w', key: 1 + ((i + 1) % 4), value: i + 1 }] };
    rec.add(i % 16, t);
  }
  const add = performance.now() - t0;
  rec.finish();
  console.log(`  journal: ${((1000 * add) / n).toFixed(1)} µs per transaction appended (${n} transactions); assembling the history ${(performance.now() - t0 - add).toFixed(0)} ms`);
}

async function check100k(): Promise<void> {
  const file = join(dir, 'sqlite-100k.hist');
  const t = parseTarget(`sqlite:${join(dir, 'big.sqlite')}`);
  const setting = findIsolation('sqlite', 'serializable');
  if (!t.ok || !setting) return;
  const r = await runHarness({
    target: t.target, setting, isolation: 'serializable', outFile: file, workload: 'rw-register',
    clients: 8, txns: 100_000, keys: 64, opsMin: 1, opsMax: 8, seed: 3, levels: ['RC'],
  });
  const text = readFileSync(file, 'utf8');
  console.log(`  recorded 100,000 transactions on SQLite (8 clients, 64 keys) in ${(r.elapsedMillis / 1000).toFixed(1)} s: ${r.stats.committed} committed, ${(statSync(file).size / 1e6).toFixed(1)} MB`);
  for (const levels of [['RC', 'RA', 'CC'], ['SER'], ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER']] as Level[][]) {
    const t0 = performance.now();
    const a = analyzeHistText(text, { levels });
    const verdicts = a.levels.map((v) => `${v.level} ${v.consistent === true ? '✓' : v.consistent === false ? '✗' : '?'}`).join(' ');
    console.log(`  check ${levels.join(',')}: ${((performance.now() - t0) / 1000).toFixed(2)} s (${verdicts})`);
  }
}

async function main(): Promise<void> {
  console.log(`harness overhead (rw-register, 1..4 operations per transaction, 8 keys); results in ${dir}`);
  await overhead(`sqlite:${join(dir, 'one.sqlite')}`, 'serializable', 3000, 1);
  await overhead(`sqlite:${join(dir, 'many.sqlite')}`, 'serializable', 10000, 8);
  let pg: DbServer | null = null;
  let url = process.env.ISOCHECK_BENCH_PG;
  if (!url && missing('postgres') === null) {
    pg = await startPostgres();
    url = pg.url;
  }
  if (url) {
    try {
      await overhead(url, 'read-committed', 3000, 1);
      await overhead(url, 'read-committed', 10000, 16);
    } finally {
      await pg?.stop();
    }
  } else console.log('  PostgreSQL: not installed and ISOCHECK_BENCH_PG not set; skipped');
  journal(100_000);
  await check100k();
}

void main();
