// `isocheck run`: run a concurrent workload against a database, record the history, check it, print the verdict.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileReport } from '../engine/report.ts';
import { DbError } from '../harness/driver.ts';
import { histFeatures } from '../harness/hist-features.ts';
import { DEFAULT_ISOLATION, findIsolation, ISOLATION } from '../harness/isolation.ts';
import { runHarness, runOutputsProblem, type RunRequest, type RunResult } from '../harness/run.ts';
import { materialize, parseTarget, removeIfEmpty, removeTemporaryDatabase } from '../harness/targets.ts';
import type { Workload, WorkloadKind } from '../harness/workload.ts';
import { OutputError } from '../io/atomic-write.ts';
import { lastValue, numberArg, parseArgs } from './args.ts';
import { EXIT_ERRORS, EXIT_OK, EXIT_UNDECIDED, EXIT_USAGE, type Io } from './check-command.ts';
import { renderDetails, renderTable } from './text-report.ts';
import { RUN_USAGE } from '../harness/usage.ts';


const MAX_DETAIL_LINES = 30;

/** SQLite clients are worker threads (see runCommand). */
const MAX_SQLITE_CLIENTS = 100;

/** More keys than this are hardly ever touched twice (no contention to test) and make the tables' set-up heavy. */
const MAX_KEYS = 100_000;

interface Parsed {
  db: string | undefined;
  isolation: string | undefined;
  workload: WorkloadKind;
  clients: number;
  txns: number | undefined;
  seconds: number | undefined;
  keys: number;
  opsMin: number;
  opsMax: number;
  seed: number;
  out: string | undefined;
  edn: string | undefined;
}

function positiveInt(v: string | undefined, name: string, dflt: number | undefined): number | undefined | string {
  if (v === undefined) return dflt;
  const n = numberArg(v);
  return Number.isInteger(n) && n > 0 && n <= 1e9 ? n : `${name} needs a positive integer`;
}

export function parseRunArgs(argv: readonly string[]): Parsed | string {
  const parsed = parseArgs(argv, ['--db', '--isolation', '--workload', '--clients', '--txns', '--seconds', '--keys', '--ops-per-txn', '--seed', '-o', '--output', '--edn'], ['--help']);
  if (!parsed.ok) return parsed.error;
  const { args } = parsed;
  if (args.switches.has('--help')) return 'help';
  if (args.positional.length > 0) return `unexpected argument '${args.positional[0]}'`;
  const workload = lastValue(args, '--workload') ?? (histFeatures().listAppend ? 'list-append' : 'rw-register');
  if (workload !== 'list-append' && workload !== 'rw-register') return `unknown workload '${workload}' (list-append or rw-register)`;
  const clients = positiveInt(lastValue(args, '--clients'), '--clients', 8);
  const txns = positiveInt(lastValue(args, '--txns'), '--txns', undefined);
  const keys = positiveInt(lastValue(args, '--keys'), '--keys', 8);
  const seedText = lastValue(args, '--seed');
  const seed = seedText === undefined ? 1 : numberArg(seedText);
  for (const v of [clients, txns, keys]) if (typeof v === 'string') return v;
  // Beyond 2^53 a seed is not the number given (9007199254740993 is read as ...992): refused, not rounded.
  if (!Number.isSafeInteger(seed)) return '--seed needs an integer between -(2^53 - 1) and 2^53 - 1';
  if ((clients as number) > 1000) return '--clients: at most 1000';
  // Each key is a row made when the run starts, in one statement: 10^8 keys ran out of memory
  // (SQLite: a V8 heap dump; MySQL: "Invalid string length") before a transaction ran.
  if ((keys as number) > MAX_KEYS) return `--keys: at most ${MAX_KEYS}`;
  const secondsText = lastValue(args, '--seconds');
  let seconds: number | undefined;
  if (secondsText !== undefined) {
    seconds = numberArg(secondsText);
    if (!(seconds > 0 && seconds <= 86_400)) return '--seconds needs a positive number of seconds';
  }
  if (seconds !== undefined && txns !== undefined) return 'give --txns or --seconds, not both';
  if (seconds === undefined && txns === undefined) seconds = 10;
  const ops = lastValue(args, '--ops-per-txn') ?? '1..4';
  const m = /^(\d+)(?:\.\.(\d+))?$/.exec(ops);
  const opsMin = m ? Number(m[1]) : NaN;
  const opsMax = m ? Number(m[2] ?? m[1]) : NaN;
  if (!m || opsMin < 1 || opsMax < opsMin || opsMax > 1000) return '--ops-per-txn needs A..B with 1 ≤ A ≤ B ≤ 1000';
  // gen and witness write `-o -` to standard output; run's report goes there, so the history needs a file.
  if (lastValue(args, '-o', '--output') === '-') return '-o - is not for run: its report is standard output; name a file for the history';
  if (lastValue(args, '--edn') === '-') return '--edn - is not for run: its report is standard output; name a file for the history';
  return {
    db: lastValue(args, '--db'), isolation: lastValue(args, '--isolation'), workload, clients: clients as number,
    txns: txns as number | undefined, seconds, keys: keys as number, opsMin, opsMax, seed, out: lastValue(args, '-o', '--output'), edn: lastValue(args, '--edn'),
  };
}

export async function runCommand(argv: readonly string[], io: Io): Promise<number> {
  const p = parseRunArgs(argv);
  if (p === 'help') {
    io.out(RUN_USAGE);
    return 0;
  }
  if (typeof p === 'string') return usage(io, p);
  const t = parseTarget(p.db);
  if (!t.ok) return usage(io, t.error);
  const kind = t.target.kind;
  // Each SQLite client is a worker thread, a V8 isolate of its own (about 8 MB resident): 1,000
  // clients held 8 GB after 30 s, enough to have a smaller machine kill the run with no message.
  // SQLite takes one writer at a time, so more clients only add waiting (100: 1 GB, 6× fewer
  // transactions per second than 8).
  if (kind === 'sqlite' && p.clients > MAX_SQLITE_CLIENTS) return usage(io, `--clients: at most ${MAX_SQLITE_CLIENTS} with SQLite (each client is a worker thread of about 8 MB)`);
  const isoName = p.isolation ?? DEFAULT_ISOLATION[kind];
  const setting = findIsolation(kind, isoName);
  if (!setting) return usage(io, `${kind} has no isolation level '${isoName}' (${ISOLATION[kind].map((s) => s.name).join(', ')})`);
  if (p.workload === 'list-append' && !histFeatures().listAppend) {
    io.err('isocheck: note: this build does not check list-append histories yet; the history is recorded but no level is decided on it');
  }
  const ednFile = p.edn === undefined ? undefined : resolve(p.edn);
  // Before the default database's directory is made and the workload runs: a bad path costs nothing.
  const problem = runOutputsProblem(p.out === undefined ? undefined : resolve(p.out), ednFile, t.target);
  if (problem !== null) {
    io.err(`isocheck: ${problem}`);
    return EXIT_USAGE;
  }
  const target = materialize(t.target);
  // Without -o the history goes to the default database's directory, or to a new one.
  let outDir: string | null = null;
  let outFile: string;
  if (p.out !== undefined) outFile = resolve(p.out);
  else {
    outDir = target.tempDir ?? mkdtempSync(join(tmpdir(), 'isocheck-run-'));
    outFile = resolve(outDir, 'history.hist');
  }
  // The default database stays beside a history in its own directory (its final state can be looked at); otherwise it is scratch.
  const keepWhenRecorded = target.tempDir !== undefined && outDir !== null;
  let keepDatabase = false;
  try {
    // Scratch is removed before the check, which Ctrl-C can end at once (no cleanup runs then).
    const result = await record(p, io, { target, setting, outFile, ednFile }, () => {
      if (!keepWhenRecorded) removeTemporaryDatabase(target);
    });
    if (result === null) return EXIT_USAGE;
    const code = report(result, io, setting.name);
    keepDatabase = keepWhenRecorded;
    if (keepDatabase) io.out(`database: ${target.location} (kept beside the history)`);
    return code;
  } finally {
    if (!keepDatabase) removeTemporaryDatabase(target);
    if (outDir !== null) removeIfEmpty(outDir);
    // A hung server can leave a socket that never closes; the report or the error is out, so do
    // not wait for it (an unref'd timer does not delay a normal exit).
    setTimeout(() => process.exit(), 2000).unref();
  }
}

/**
 * Runs the workload with progress and Ctrl-C handling; null when the database or an output failed
 * (said on stderr). `beforeCheck` runs once the history is written, before the check.
 */
async function record(p: Parsed, io: Io, where: Pick<RunRequest, 'target' | 'setting' | 'outFile' | 'ednFile'>, beforeCheck: () => void): Promise<RunResult | null> {
  const { target, setting } = where;
  io.err(`isocheck run: ${target.label}, ${setting.name} (claims ${setting.claims ?? 'no checkable level'}), ${p.workload}, ${p.clients} clients, ${p.txns !== undefined ? `${p.txns} transactions` : `${p.seconds} s`}`);

  let workload: Workload | null = null;
  let interrupts = 0;
  let written = false;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) {
      // Nothing is assembled or removed now: say where the run so far is (without -o, a temporary directory never printed yet).
      const parts = `${where.outFile}.parts`;
      io.err(written
        ? `isocheck: quit before the check; the history is written: ${where.outFile}`
        : existsSync(parts)
          ? `isocheck: quit; what was recorded is in the journal ${parts}/ (cat ${parts}/* > history.hist joins it into a history)`
          : 'isocheck: quit; nothing was recorded');
      // Ended as Ctrl-C ends a process, by the signal's default action: process.exit() would
      // terminate the SQLite worker threads, and one waiting in SQLite's busy handler then aborts
      // Node with a native stack trace (FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal).
      process.off('SIGINT', onSigint);
      process.kill(process.pid, 'SIGINT');
      return;
    }
    io.err('\nstopping: finishing the transactions in flight, then checking what was recorded (Ctrl-C again to quit at once)');
    workload?.stop();
  };
  process.on('SIGINT', onSigint);
  let ticker: NodeJS.Timeout | null = null;
  try {
    return await runHarness({
      ...p, ...where, isolation: setting.name,
      onStart: (w) => {
        workload = w;
        // Ctrl-C while connecting or creating the tables: the run stops before it starts.
        if (interrupts > 0) w.stop();
        if (!io.errIsTty) return;
        const t0 = Date.now();
        ticker = setInterval(() => {
          const s = w.stats;
          const secs = (Date.now() - t0) / 1000;
          const done = s.committed + s.aborted + s.unknown;
          process.stderr.write(`\r  ${secs.toFixed(1)} s  ${done} txns  ${(done / Math.max(secs, 0.001)).toFixed(0)} txn/s  ${s.aborted} aborted  ${s.unknown} unknown   `);
        }, 250);
      },
      onCheck: async (n) => {
        if (ticker) clearInterval(ticker);
        ticker = null;
        written = true;
        beforeCheck();
        // A Ctrl-C that came while the history was being written is caught but not yet handed to
        // the listener; taken off now, the listener would never see it (the check would run to its
        // end). Two turns of the event loop let it arrive (its I/O poll comes between them).
        await new Promise<void>((r) => setImmediate(r));
        await new Promise<void>((r) => setImmediate(r));
        // The history is written and the clients are gone; the check is one synchronous computation
        // during which no handler could run, so the listener would only hold Ctrl-C back until the
        // verdict. Without it Ctrl-C has its default effect: the process ends at once.
        process.off('SIGINT', onSigint);
        if (io.errIsTty) process.stderr.write(`\n  checking ${n} transactions… (Ctrl-C stops the check; the history is written: ${where.outFile})\n`);
      },
    });
  } catch (e) {
    // Driver errors (cannot connect, cannot create the tables) and outputs that cannot be written
    // (a full disk) are usage-level problems; others are bugs.
    if (e instanceof OutputError) {
      io.err(`isocheck: ${e.message}`);
      return null;
    }
    if (!(e instanceof DbError)) throw e;
    io.err(`isocheck: ${target.label}: ${e.message}`);
    return null;
  } finally {
    if (ticker) {
      clearInterval(ticker);
      process.stderr.write('\n');
    }
    process.off('SIGINT', onSigint);
  }
}

/**
 * The claimed level's verdict in words. With no transaction recorded (every connection refused,
 * say) the empty history holds every level, which is no finding about the database.
 */
export function claimVerdict(consistent: boolean | null, transactions: number): string {
  if (transactions === 0) return 'not tested (no transaction ran)';
  return consistent === true ? 'holds' : consistent === false ? 'VIOLATED (witness above)' : 'undecided';
}

function report(r: RunResult, io: Io, isolation: string): number {
  const s = r.stats;
  const done = s.committed + s.aborted + s.unknown;
  io.out(`${done} transactions in ${(r.elapsedMillis / 1000).toFixed(1)} s: ${s.committed} committed, ${s.aborted} aborted, ${s.unknown} unknown; checked in ${(r.checkMillis / 1000).toFixed(1)} s`);
  const rep = fileReport(r.outFile, r.analysis);
  io.out(renderTable([rep]));
  const details = renderDetails(rep).split('\n').filter((l) => l.length > 0);
  // A large run can repeat one finding at hundreds of reads: the first lines say it, the file says all.
  if (details.length > 0) io.out(details.slice(0, MAX_DETAIL_LINES).join('\n'));
  if (details.length > MAX_DETAIL_LINES) io.out(`  … ${details.length - MAX_DETAIL_LINES} more lines: isocheck check ${r.outFile}`);
  if (r.claims) io.out(`${isolation} claims ${r.claims}: ${claimVerdict(rep.levels[r.claims]?.consistent ?? null, done)}`);
  io.out(`history: ${r.outFile}`);
  if (r.ednFile) io.out(`EDN history: ${r.ednFile}`);
  if (s.fatal) {
    // In flight when it ended: aborted if COMMIT had not been sent, unknown if it had (docs/harness.md, Outcomes).
    io.err(`isocheck: the run ended early: ${s.fatal}; the history above holds every transaction recorded until then (those in flight: aborted, or unknown if they were committing)`);
    return EXIT_USAGE;
  }
  if (rep.diagnostics.some((d) => d.severity === 'error')) return EXIT_ERRORS;
  // As `isocheck check --claim`: a claimed level the search could not decide is its own status.
  return r.claims && rep.levels[r.claims]?.consistent === null ? EXIT_UNDECIDED : EXIT_OK;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck: ${message}\n${RUN_USAGE}`);
  return EXIT_USAGE;
}
