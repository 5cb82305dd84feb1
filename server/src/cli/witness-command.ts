// `isocheck witness FILE --level L --format json|dot|svg|hist [-o FILE]`: one level's witness, exported.

import { FORMAT_NAMES } from '../engine/readers/registry.ts';
import { exportWitnessOfSource } from '../engine/export/witness-of-text.ts';
import { WITNESS_FORMATS, type WitnessFormat } from '../engine/export/witness-export.ts';
import type { ViewLevel } from '../engine/export/layout.ts';
import { LEVELS, parseLevel } from '../engine/levels/levels.ts';
import { lastValue, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';
import { inputErrorLine, isDirectory, parsePlumeInit, readInputs, readSource, unknownFormat } from './inputs.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { terminalSafeLines } from './terminal-text.ts';

export const WITNESS_USAGE = `usage: isocheck witness FILE --level L|mixed [--format json|dot|svg|hist] [-o FILE] [--input-format ${FORMAT_NAMES.join('|')}] [--plume-init zero|none]`;

export const WITNESS_HELP = `${WITNESS_USAGE}
  Exports the witness of FILE's violation of level L (${LEVELS.join(', ')}, or mixed):
    json  the witness cycle as in \`isocheck check --json\` (default)
    dot   the witness subgraph for Graphviz (dot -Tsvg)
    svg   the graph drawing with the witness highlighted, self-contained
    hist  a minimised litmus history that still violates L (delta debugging), as a .hist file
  -o FILE is written atomically (a temporary file renamed over FILE); FILE may not be the input.
  --input-format F reads FILE as F whatever its ending (as check's --format does).
  --plume-init none reads a plume value 0 as an ordinary value (see isocheck --help).
  Exit status: 0 written (L is violated), 1 L holds or is undecided (nothing written), 2 usage error,
  unreadable or non-regular input, or an output that cannot be written (the old file is kept).`;

export function runWitness(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--level', '--format', '-o', '--output', '--input-format', '--plume-init'], ['--help']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.switches.has('--help')) {
    io.out(WITNESS_HELP);
    return 0;
  }
  if (args.positional.length !== 1) return usage(io, args.positional.length === 0 ? 'no input file' : 'one input file at a time');
  const levelText = lastValue(args, '--level');
  if (levelText === undefined) return usage(io, '--level is required');
  const level: ViewLevel | null = levelText.toLowerCase() === 'mixed' ? 'mixed' : parseLevel(levelText);
  if (!level) return usage(io, `unknown level '${levelText}' (${LEVELS.join(', ')} or mixed)`);
  const format = (lastValue(args, '--format') ?? 'json') as WitnessFormat;
  if (!WITNESS_FORMATS.includes(format)) return usage(io, `unknown format '${String(format)}' (${WITNESS_FORMATS.join(', ')})`);
  const inputFormat = lastValue(args, '--input-format');
  const badFormat = inputFormat === undefined ? null : unknownFormat(inputFormat);
  if (badFormat) return usage(io, `input ${badFormat}`);
  const output = lastValue(args, '-o', '--output');
  const plumeInit = parsePlumeInit(lastValue(args, '--plume-init'));
  if (plumeInit === null) return usage(io, `--plume-init takes zero or none, not '${lastValue(args, '--plume-init')}'`);

  if (args.positional.length !== 1) return usage(io, 'give exactly one history file');
  if (isDirectory(args.positional[0])) return usage(io, `${args.positional[0]} is a directory: give one history file`);
  const inputs = readInputs(args.positional, inputFormat);
  if (inputs.length !== 1) return usage(io, `${args.positional[0]} is not one history file`);
  const [input] = inputs;
  if (!input || 'error' in input) {
    io.err(`isocheck: ${input ? inputErrorLine(input) : `cannot read ${args.positional[0]}: not a history file`}`);
    return 2;
  }
  const options = { file: input.file, level, format };
  const result = exportWitnessOfSource(readSource(input, inputFormat, { plumeInit }), options);
  if (!result.ok) {
    io.err(`isocheck: ${result.message}`);
    return result.reason === 'unwritable' ? 2 : 1;
  }
  if (output !== undefined && output !== '-') {
    const written = writeFileAtomic(output, [result.text], [input.file]);
    if (!written.ok) {
      io.err(`isocheck: ${written.message}`);
      return 2;
    }
  } else {
    // Written to a file or a pipe the text stays exact; on a terminal, nothing in it may act on the terminal.
    io.out(io.outIsTty ? terminalSafeLines(result.text) : result.text);
  }
  return 0;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck: ${message}\n${WITNESS_USAGE}`);
  return 2;
}
