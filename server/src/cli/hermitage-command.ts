// `isocheck hermitage`: Hermitage's anomaly tests at every isolation level of a database, printed as its table.

import { existsSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { driverFor } from '../harness/drivers.ts';
import { DbError } from '../harness/driver.ts';
import { runScenario, scenarioFile, type ScenarioResult } from '../harness/hermitage.ts';
import { COLUMNS, SCENARIOS } from '../harness/hermitage-scenarios.ts';
import { findIsolation, ISOLATION, type IsolationSetting } from '../harness/isolation.ts';
import { discardTemporaryDatabase, materialize, parseTarget, removeIfEmpty, type Target } from '../harness/targets.ts';
import { HERMITAGE_USAGE } from '../harness/usage.ts';
import { describeWriteError, OutputError } from '../io/atomic-write.ts';
import { lastValue, numberArg, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';

const DB_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB' };

export interface HermitageRow {
  setting: IsolationSetting;
  results: ScenarioResult[];
}

const CELL: Record<ScenarioResult['outcome'], string> = { prevented: '✓', allowed: '—', undecided: '?', failed: '!' };

/** Hermitage's layout: one row per level, ✓ prevented, — allowed (PMP: n/a, it needs predicate reads). */
export function renderHermitageTable(kind: keyof typeof DB_NAMES, rows: readonly HermitageRow[]): string {
  const header = ['DBMS', 'So-called isolation level', 'Claims', ...COLUMNS];
  const body = rows.map((row, i) => [
    i === 0 ? DB_NAMES[kind] : '',
    `"${row.setting.name.replace(/-/g, ' ')}"`,
    row.setting.claims ?? '—',
    ...COLUMNS.map((c) => {
      const r = row.results.find((x) => x.id === c);
      return r ? CELL[r.outcome] : 'n/a';
    }),
  ]);
  const all = [header, ...body];
  const widths = header.map((_, i) => Math.max(...all.map((r) => [...r[i]].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c + ' '.repeat(widths[i] - [...c].length)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

export async function runCommand(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, ['--db', '--isolation', '-o', '--output', '--block-ms'], ['--help'], ['--isolation']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.switches.has('--help')) {
    io.out(HERMITAGE_USAGE);
    return 0;
  }
  if (args.positional.length > 0) return usage(io, `unexpected argument '${args.positional[0]}'`);
  const t = parseTarget(lastValue(args, '--db'));
  if (!t.ok) return usage(io, t.error);
  const blockText = lastValue(args, '--block-ms');
  const blockMillis = blockText === undefined ? 500 : numberArg(blockText);
  if (!Number.isInteger(blockMillis) || blockMillis < 10 || blockMillis > 60_000) return usage(io, '--block-ms needs an integer from 10 to 60000');
  const settings: IsolationSetting[] = [];
  const specs = args.values.get('--isolation') ?? [];
  for (const spec of specs) {
    for (const name of spec.split(',').filter((s) => s.length > 0)) {
      const s = findIsolation(t.target.kind, name);
      if (!s) return usage(io, `${t.target.kind} has no isolation level '${name}' (${ISOLATION[t.target.kind].map((x) => x.name).join(', ')})`);
      // A level named twice is tested once (its histories would replace each other).
      if (!settings.includes(s)) settings.push(s);
    }
  }
  // `--isolation ,` (or an empty value) names no level: an error, not "every level".
  if (specs.length > 0 && settings.length === 0) return usage(io, `--isolation names no level (${ISOLATION[t.target.kind].map((x) => x.name).join(', ')})`);
  if (settings.length === 0) settings.push(...ISOLATION[t.target.kind]);
  const outText = lastValue(args, '-o', '--output');
  let madeDir = outText === undefined;
  if (outText !== undefined) {
    const prepared = prepareHistDir(outText);
    if (typeof prepared === 'string') {
      io.err(`isocheck: ${prepared}`);
      return 2;
    }
    madeDir = prepared.made;
  }
  const target = materialize(t.target);
  const dir = resolve(outText ?? mkdtempSync(join(tmpdir(), 'isocheck-hermitage-')));
  const cleanUp = (): void => {
    // The database is reset before every test: its last state is worth nothing, unlike the histories.
    discardTemporaryDatabase(target);
    // A directory this command made and left empty (the database could not be reached) is not kept.
    if (madeDir) removeIfEmpty(dir);
  };
  // Ctrl-C: each history is written whole or not at all, so only the temporary database is
  // litter. Then the signal's default action ends the process (process.exit would terminate the
  // SQLite worker threads, and one in SQLite's busy wait aborts Node).
  const onSigint = (): void => {
    cleanUp();
    io.err(`\nisocheck: interrupted${existsSync(dir) ? `; the histories recorded so far: ${dir}` : ''}`);
    process.off('SIGINT', onSigint);
    process.kill(process.pid, 'SIGINT');
  };
  process.on('SIGINT', onSigint);
  try {
    return await runAll(target, settings, dir, blockMillis, io);
  } finally {
    process.off('SIGINT', onSigint);
    cleanUp();
    // A hung server can leave a socket open; the table or the error is out, so do not wait for it.
    setTimeout(() => process.exit(), 2000).unref();
  }
}

/** Every scenario at every setting, then the table; 2 when the database failed a scenario or the whole command. */
async function runAll(target: Target, settings: readonly IsolationSetting[], dir: string, blockMillis: number, io: Io): Promise<number> {
  const driver = driverFor(target);
  const rows: HermitageRow[] = [];
  let failures = 0;
  let recorded = 0;
  try {
    for (const setting of settings) {
      const results: ScenarioResult[] = [];
      for (const sc of SCENARIOS) {
        if (io.errIsTty) process.stderr.write(`\r  ${setting.name} ${sc.id}…          `);
        const r = await runScenario(driver, setting.name, sc, scenarioFile(dir, target.kind, setting.name, sc.id), { blockMillis });
        if (r.outcome === 'failed') failures++;
        recorded++;
        results.push(r);
      }
      rows.push({ setting, results });
    }
  } catch (e) {
    if (!(e instanceof OutputError) && !(e instanceof DbError)) throw e;
    io.err(`isocheck: ${e instanceof DbError ? `${target.label}: ` : ''}${e.message}`);
    if (recorded > 0) io.err(`isocheck: the histories recorded until then: ${dir}`);
    return 2;
  } finally {
    if (io.errIsTty) process.stderr.write('\r' + ' '.repeat(40) + '\r');
    await driver.close();
  }
  // The default SQLite file is removed when the command ends: its random path would only make two tables differ.
  const on = target.tempDir !== undefined ? 'a fresh temporary SQLite database' : target.label;
  io.out(`Hermitage's tests on ${on} (✓ prevented, — allowed, n/a: needs predicate reads)\n`);
  io.out(renderHermitageTable(target.kind, rows));
  const allowed = rows.flatMap((row) => row.results.filter((r) => r.outcome !== 'prevented').map((r) => ({ row, r })));
  if (allowed.length > 0) {
    io.out('\nWitnesses (each history shows the anomaly; open it in the editor for the cycle):');
    for (const { row, r } of allowed) io.out(`  ${row.setting.name} ${r.id}: ${r.outcome === 'allowed' ? '' : `${r.outcome}${r.error ? ` (${r.error})` : ''}: `}${r.file}`);
  }
  io.out(`\nhistories: ${dir}`);
  return failures > 0 ? 2 : 0;
}

/**
 * -o names the directory of the scenario histories: an existing one (files of the same names in
 * it are replaced, each atomically) or a new one, made here in an existing parent. Anything else
 * is refused before a scenario runs. Returns why the directory cannot be had, or whether it was made.
 */
function prepareHistDir(dir: string): { made: boolean } | string {
  const st = statSync(dir, { throwIfNoEntry: false });
  if (st?.isDirectory()) return { made: false };
  if (st) return `cannot write the histories into ${dir}: not a directory (-o names a directory)`;
  const parent = dirname(resolve(dir));
  if (!statSync(parent, { throwIfNoEntry: false })?.isDirectory()) return `cannot write the histories into ${dir}: no such directory ${parent}`;
  try {
    mkdirSync(dir);
    return { made: true };
  } catch (e) {
    return `cannot create ${dir}: ${describeWriteError(e)}`;
  }
}

function usage(io: Io, message: string): number {
  io.err(`isocheck: ${message}\n${HERMITAGE_USAGE}`);
  return 2;
}
