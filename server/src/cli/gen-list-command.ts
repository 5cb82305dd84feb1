// `isocheck gen --workload list-append`: Elle-style list-append histories as .hist, Jepsen EDN or JSON lines.

import { emitOutput } from './output.ts';
import { DEFAULT_LIST_GEN, generateListHistory, ListGenLimitError, listEventChunks, listHistChunks, type ListGenOptions, type ListHistoryData } from '../engine/gen/list-append-store.ts';
import { outputProblem } from '../io/atomic-write.ts';
import { lastValue, numberArg, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';

export const GEN_LIST_USAGE = `usage: isocheck gen --workload list-append [--txns N] [--sessions N] [--keys N] [--max-appends N]
                    [--ops N] [--fixed-ops] [--reads R] [--aborts R] [--unknown R]
                    [--store serial|permissive] [--no-times] [--seed N] [--format hist|edn|json] [-o FILE]
  --txns        transactions (default ${DEFAULT_LIST_GEN.transactions}); --sessions client threads (default ${DEFAULT_LIST_GEN.sessions})
  --keys        keys live at once (default ${DEFAULT_LIST_GEN.keys}); a key is retired after --max-appends appends (default ${DEFAULT_LIST_GEN.maxAppends})
  --ops         operations per transaction: 1..N, or exactly N with --fixed-ops (default ${DEFAULT_LIST_GEN.opsPerTxn})
  --reads       share of reads (default ${DEFAULT_LIST_GEN.readRatio}); --aborts, --unknown: shares of :fail and :info outcomes
  --store       serial (every read sees the latest state) or permissive (stale and torn reads: anomalies)
  --no-times    no @ START..END intervals in .hist (Jepsen events always carry their :time)
  --format      hist (default), edn (Jepsen events, one map per line) or json (the same as JSON lines)
  A history has at most 100,000,000 operations (transactions × ops) and 2^26 list elements read in all.`;

export async function runGenList(argv: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(argv, ['--workload', '--txns', '--sessions', '--keys', '--max-appends', '--ops', '--reads', '--aborts', '--unknown', '--store', '--seed', '--format', '-o', '--output'], ['--help', '--no-times', '--fixed-ops']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.switches.has('--help')) {
    io.out(GEN_LIST_USAGE);
    return 0;
  }
  if (lastValue(args, '--workload') !== 'list-append') return usage(io, `unknown workload '${lastValue(args, '--workload')}' (list-append)`);
  if (args.positional.length > 0) return usage(io, `unexpected argument '${args.positional[0]}'`);
  const o: ListGenOptions = { ...DEFAULT_LIST_GEN };
  const ints: [string, 'transactions' | 'sessions' | 'keys' | 'maxAppends' | 'opsPerTxn' | 'seed', number][] = [
    ['--txns', 'transactions', 1], ['--sessions', 'sessions', 1], ['--keys', 'keys', 1], ['--max-appends', 'maxAppends', 1], ['--ops', 'opsPerTxn', 1], ['--seed', 'seed', -2147483648],
  ];
  for (const [flag, field, min] of ints) {
    const v = lastValue(args, flag);
    if (v === undefined) continue;
    const n = numberArg(v);
    if (!Number.isSafeInteger(n) || n < min || n > 100_000_000) return usage(io, `${flag} needs an integer from ${min} to 100000000`);
    o[field] = n;
  }
  const ratios: [string, 'readRatio' | 'abortRatio' | 'unknownRatio'][] = [['--reads', 'readRatio'], ['--aborts', 'abortRatio'], ['--unknown', 'unknownRatio']];
  for (const [flag, field] of ratios) {
    const v = lastValue(args, flag);
    if (v === undefined) continue;
    const n = numberArg(v);
    if (!(n >= 0 && n <= 1)) return usage(io, `${flag} needs a number from 0 to 1`);
    o[field] = n;
  }
  if (o.abortRatio + o.unknownRatio > 1) return usage(io, '--aborts and --unknown add up to more than 1');
  const store = lastValue(args, '--store') ?? 'serial';
  if (store !== 'serial' && store !== 'permissive') return usage(io, `unknown store '${store}' (serial or permissive)`);
  o.store = store;
  o.times = !args.switches.has('--no-times');
  o.fixedSize = args.switches.has('--fixed-ops');
  const format = lastValue(args, '--format') ?? 'hist';
  if (format !== 'hist' && format !== 'edn' && format !== 'json') return usage(io, `unknown format '${format}' (hist, edn or json)`);
  const output = lastValue(args, '-o', '--output');
  const toFile = output !== undefined && output !== '-';
  // A bad path is reported before the history is generated (a large one takes seconds).
  const problem = toFile ? outputProblem(output) : null;
  if (problem !== null) {
    io.err(`isocheck: ${problem}`);
    return 2;
  }
  let d: ListHistoryData;
  try {
    d = generateListHistory(o);
  } catch (e) {
    if (e instanceof ListGenLimitError) return usage(io, e.message);
    throw e;
  }
  // The text in pieces made as they are written: a large generation is never whole in memory.
  const chunks = function* (): Generator<string> {
    if (format === 'hist') {
      yield `# list-append, ${o.store} store, seed ${o.seed}\nhistory "list-append ${o.store} store"\n`;
      yield* listHistChunks(d, o.times);
    } else yield* listEventChunks(d, format);
  };
  // As the register `gen` (output.ts): a pipe is non-blocking, and writeSync to it wrote part of a
  // chunk (spliced events, exit 0) or failed with EAGAIN.
  return emitOutput(output, chunks(), io);
}

function usage(io: Io, message: string): number {
  io.err(`isocheck gen: ${message}\n${GEN_LIST_USAGE}`);
  return 2;
}
