// `isocheck convert FILE [--format F] [-o OUT.hist]`: any input the reader registry reads (Jepsen EDN, JSON lines, plume, dbcop, .hist) as a .hist file.

import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { writeHistoryAsHist } from '../engine/export/convert-hist.ts';
import { lastValue, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';
import { readSource, unknownFormat } from './inputs.ts';

export const CONVERT_USAGE = 'usage: isocheck convert FILE [--format hist|plume|edn|json|dbcop] [-o OUT.hist]';

export function runConvert(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--format', '-o', '--output'], []);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.positional.length !== 1) return usage(io, 'give exactly one input file');
  const file = args.positional[0];
  const forced = lastValue(args, '--format');
  const badFormat = forced === undefined ? null : unknownFormat(forced);
  if (badFormat) return usage(io, badFormat);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    io.err(`isocheck: cannot read ${file}: ${(e as Error).message}`);
    return 2;
  }
  const read = readSource({ file, bytes }, forced);
  const problems = read.findings.filter((f) => f.severity === 'error');
  for (const f of problems.slice(0, 20)) {
    const at = read.lines.range(f.span.start, f.span.end).start;
    io.err(`${file}:${at.line + 1}:${at.character + 1}: ${f.message}`);
  }
  if (read.history.txnCount <= 1 && problems.length > 0) {
    io.err(`isocheck: nothing to convert in ${file}`);
    return 2;
  }
  const parts: string[] = [];
  writeHistoryAsHist(read.history, `converted from ${basename(file)}`, (c) => parts.push(c));
  const text = parts.join('');
  const output = lastValue(args, '-o', '--output');
  if (output === undefined) {
    io.out(text);
  } else {
    // Atomically: a temporary file beside the target, then a rename.
    const tmp = `${output}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, text);
      renameSync(tmp, output);
    } catch (e) {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing to clean up
      }
      io.err(`isocheck: cannot write ${output}: ${(e as Error).message}`);
      return 2;
    }
  }
  return problems.length > 0 ? 1 : 0;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck convert: ${message}\n${CONVERT_USAGE}`);
  return 2;
}
