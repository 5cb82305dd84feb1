// `isocheck convert FILE [--format F] [-o OUT.hist]`: any input the reader registry reads (Jepsen EDN, JSON lines, plume, dbcop, AWDIT test, .hist) as a .hist file.

import { FORMAT_NAMES } from '../engine/readers/registry.ts';
import { basename } from 'node:path';
import { writeHistoryAsHist } from '../engine/export/convert-hist.ts';
import { HistWriteError } from '../engine/export/hist-writer.ts';
import type { ReadSource } from '../engine/analyze.ts';
import type { ReaderOptions } from '../engine/readers/registry.ts';
import { lastValue, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';
import { inputErrorLine, isDirectory, parsePlumeInit, readInputs, readSource, unknownFormat, type InputFormat } from './inputs.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { terminalSafeLines } from './terminal-text.ts';

export const CONVERT_USAGE = `usage: isocheck convert FILE [--format ${FORMAT_NAMES.join('|')}] [--plume-init zero|none] [-o OUT.hist]`;

export function runConvert(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--format', '--plume-init', '-o', '--output'], []);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.positional.length !== 1) return usage(io, 'give exactly one input file');
  const file = args.positional[0];
  const forced = lastValue(args, '--format');
  const badFormat = forced === undefined ? null : unknownFormat(forced);
  if (badFormat) return usage(io, badFormat);
  // As for check: PolySI and IsoVista plume files write 0 as an ordinary value.
  const plumeInit = parsePlumeInit(lastValue(args, '--plume-init'));
  if (plumeInit === null) return usage(io, `--plume-init takes zero or none, not '${lastValue(args, '--plume-init')}'`);
  const read = readOne(file, forced, io, { plumeInit });
  if (typeof read === 'number') return read;
  const problems = read.findings.filter((f) => f.severity === 'error');
  for (const f of problems.slice(0, 20)) {
    const at = read.lines.range(f.span.start, f.span.end).start;
    io.err(`${file}:${at.line + 1}:${at.character + 1}: ${f.message}`);
  }
  if (read.history.txnCount <= 1 && problems.length > 0) {
    io.err(`isocheck: nothing to convert in ${file}`);
    return 2;
  }
  const parts = convertedText(read, file, io);
  if (parts === null) return 2;
  const output = lastValue(args, '-o', '--output');
  if (output === undefined) {
    // On a terminal a name's control characters are shown escaped (a history cannot clear the screen).
    io.out(io.outIsTty ? terminalSafeLines(parts.join('')) : parts.join(''));
  } else {
    // Atomic, and never over the input itself (a symbolic link to it included): that would lose it.
    const written = writeFileAtomic(output, parts, [file]);
    if (!written.ok) {
      io.err(`isocheck: ${written.message}`);
      return 2;
    }
  }
  return problems.length > 0 ? 1 : 0;
}

/** The input through its reader, or the exit status after saying why it cannot be read. */
function readOne(file: string, forced: InputFormat | undefined, io: Io, options: ReaderOptions): ReadSource | number {
  if (isDirectory(file)) return usage(io, `${file} is a directory: give one history file`);
  // readInputs refuses FIFOs, devices and oversized files as `check` does.
  const [input] = readInputs([file], forced);
  if (!input || 'error' in input) {
    io.err(`isocheck: ${input ? inputErrorLine(input) : `cannot read ${file}: not a history file`}`);
    return 2;
  }
  return readSource(input, forced, options);
}

/** The .hist text in chunks (the input's title, else "converted from FILE"), or null after saying what it cannot hold. */
function convertedText(read: ReadSource, file: string, io: Io): string[] | null {
  const parts: string[] = [];
  try {
    writeHistoryAsHist(read.history, `converted from ${basename(file)}`, (c) => parts.push(c), read.directives ?? null);
  } catch (e) {
    if (!(e instanceof HistWriteError)) throw e;
    io.err(`isocheck: cannot convert ${file} to .hist: ${e.message}; nothing written`);
    return null;
  }
  return parts;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck convert: ${message}\n${CONVERT_USAGE}`);
  return 2;
}
