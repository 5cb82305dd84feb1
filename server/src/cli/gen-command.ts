// `isocheck gen`: random histories from a simulated store, as .hist or plume text, for tests and benchmarks.

import { DEFAULT_GEN_OPTIONS, generateHistory, optionsForEvents, STORE_KINDS, validateGenOptions, type GenOptions, type StoreKind } from '../engine/gen/generate.ts';
import { histChunks, plumeChunks } from '../engine/gen/history-writers.ts';
import { lastValue, numberArg, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';
import { emitOutput } from './output.ts';
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
  --format     hist (default) or plume; -o writes to FILE instead of standard output (atomically:
               a temporary file beside FILE, renamed over it at the end)
  A history has at most 100,000,000 operations (transactions × (2 × ops − 1), the most it may draw).
  Exit status: 0 written, 2 usage error or an output that cannot be written (the old file is kept).
  List-append histories (Elle's workload, .hist or Jepsen EDN / JSON lines): isocheck gen --workload list-append --help`;

export async function runGen(argv: readonly string[], io: Io): Promise<number> {
  // Either spelling: `--workload=list-append` was an unknown option of the register generator.
  if (argv.some((a) => a === '--workload' || a.startsWith('--workload='))) return runGenList(argv, io);
  const parsed = parseArgs(argv, ['--sessions', '--txns', '--events', '--ops', '--keys', '--dist', '--zipf', '--reads', '--aborts', '--store', '--seed', '--format', '-o', '--output'], ['--help']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.switches.has('--help')) {
    io.out(GEN_USAGE);
    return 0;
  }
  if (args.positional.length > 0) return usage(io, `unexpected argument '${args.positional[0]}'`);
  // (--events has its own message below: "--events must be a number >= 1".)
  const numeric = ['--sessions', '--txns', '--ops', '--keys', '--zipf', '--reads', '--aborts', '--seed'];
  const notNumber = numeric.find((name) => { const v = lastValue(args, name); return v !== undefined && Number.isNaN(numberArg(v)); });
  if (notNumber !== undefined) return usage(io, `${notNumber} needs a number (got '${lastValue(args, notNumber)}')`);
  const num = (name: string): number | undefined => {
    const v = lastValue(args, name);
    return v === undefined ? undefined : numberArg(v);
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
  if (events !== undefined && !(events >= 1)) return usage(io, `--events must be a number >= 1 (got '${lastValue(args, '--events')}')`);
  const options: GenOptions = events !== undefined
    ? optionsForEvents(events, partial)
    : { ...DEFAULT_GEN_OPTIONS, ...partial, ...(txns !== undefined ? { transactions: txns } : {}) };
  const problems = validateGenOptions(options);
  if (problems.length > 0) return usage(io, problems.join('; '));
  const format = lastValue(args, '--format') ?? 'hist';
  if (format !== 'hist' && format !== 'plume') return usage(io, `unknown format '${format}' (hist or plume)`);

  const output = lastValue(args, '-o', '--output');
  const g = generateHistory(options);
  const chunks = format === 'plume' ? plumeChunks(g) : histChunks(g, `${options.store} store, seed ${options.seed}`);
  return emitOutput(output, chunks, io);
}

function usage(io: Io, message: string): number {
  io.err(`isocheck gen: ${message}\n${GEN_USAGE}`);
  return 2;
}
