// `isocheck gen`: random histories from a simulated store, as .hist or plume text, for tests and benchmarks.

import { closeSync, openSync, writeSync } from 'node:fs';
import { DEFAULT_GEN_OPTIONS, generateHistory, optionsForEvents, STORE_KINDS, validateGenOptions, type GenOptions, type StoreKind } from '../engine/gen/generate.ts';
import { writeHist, writePlume } from '../engine/gen/history-writers.ts';
import { lastValue, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';
import { runGenList } from './gen-list-command.ts';

export const GEN_USAGE = `usage: isocheck gen [--sessions N] [--txns N | --events N] [--ops N] [--keys N]
                    [--dist uniform|zipf] [--zipf S] [--reads R] [--aborts R]
                    [--store ${STORE_KINDS.join('|')}] [--seed N] [--format hist|plume] [-o FILE]
  --sessions   sessions (default ${DEFAULT_GEN_OPTIONS.sessions})
  --txns       transactions in all (default ${DEFAULT_GEN_OPTIONS.transactions}); or --events: about this many operations
  --ops        mean operations per transaction (default ${DEFAULT_GEN_OPTIONS.opsPerTxn})
  --keys       keys (default: one per 20 operations)
  --dist       key distribution (default uniform); --zipf sets the Zipf exponent (default ${DEFAULT_GEN_OPTIONS.zipfS})
  --reads      share of reads, 0..1 (default ${DEFAULT_GEN_OPTIONS.readRatio}); --aborts share of aborted transactions
  --store      serial (serializable), snapshot (SI), causal (CC), read-committed (RC) or permissive
               (reads pick any earlier write: anomalies are common); default causal
  --format     hist (default) or plume; -o writes to FILE instead of standard output
  --workload list-append: list-append histories (isocheck gen --workload list-append --help)`;

export function runGen(argv: readonly string[], io: Io): number {
  if (argv.includes('--workload')) return runGenList(argv, io);
  const parsed = parseArgs(argv, ['--sessions', '--txns', '--events', '--ops', '--keys', '--dist', '--zipf', '--reads', '--aborts', '--store', '--seed', '--format', '-o', '--output'], ['--help']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.switches.has('--help')) {
    io.out(GEN_USAGE);
    return 0;
  }
  if (args.positional.length > 0) return usage(io, `unexpected argument '${args.positional[0]}'`);
  const num = (name: string): number | undefined => {
    const v = lastValue(args, name);
    return v === undefined ? undefined : Number(v);
  };
  const partial: Partial<GenOptions> = {};
  const set = <K extends keyof GenOptions>(key: K, value: GenOptions[K] | undefined): void => {
    if (value !== undefined) partial[key] = value;
  };
  set('sessions', num('--sessions'));
  set('opsPerTxn', num('--ops'));
  set('keys', num('--keys'));
  set('zipfS', num('--zipf'));
  set('readRatio', num('--reads'));
  set('abortRatio', num('--aborts'));
  set('seed', num('--seed'));
  set('distribution', lastValue(args, '--dist') as GenOptions['distribution'] | undefined);
  set('store', lastValue(args, '--store') as StoreKind | undefined);
  const events = num('--events');
  const txns = num('--txns');
  if (events !== undefined && txns !== undefined) return usage(io, 'give --txns or --events, not both');
  if (events !== undefined && !(events >= 1)) return usage(io, '--events must be at least 1');
  const options: GenOptions = events !== undefined
    ? optionsForEvents(events, partial)
    : { ...DEFAULT_GEN_OPTIONS, ...partial, ...(txns !== undefined ? { transactions: txns } : {}) };
  const problems = validateGenOptions(options);
  if (problems.length > 0) return usage(io, problems.join('; '));
  const format = lastValue(args, '--format') ?? 'hist';
  if (format !== 'hist' && format !== 'plume') return usage(io, `unknown format '${format}' (hist or plume)`);

  const output = lastValue(args, '-o', '--output');
  let fd = 1;
  if (output !== undefined) {
    try {
      fd = openSync(output, 'w');
    } catch (e) {
      io.err(`isocheck: cannot write ${output}: ${(e as Error).message}`);
      return 2;
    }
  }
  const g = generateHistory(options);
  let closed = false;
  const sink = (chunk: string): void => {
    if (closed) return;
    try {
      writeSync(fd, chunk);
    } catch (e) {
      // A reader that stopped early (`isocheck gen | head`) ends the output quietly.
      if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
      closed = true;
    }
  };
  if (format === 'plume') writePlume(g, sink);
  else writeHist(g, sink, `${options.store} store, seed ${options.seed}`);
  if (fd !== 1) closeSync(fd);
  return 0;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck gen: ${message}\n${GEN_USAGE}`);
  return 2;
}
