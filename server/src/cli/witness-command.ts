// `isocheck witness FILE --level L --format json|dot|svg|hist [-o FILE]`: one level's witness, exported.

import { statSync, writeFileSync } from 'node:fs';
import { exportWitnessOfSource } from '../engine/export/witness-of-text.ts';
import { WITNESS_FORMATS, type WitnessFormat } from '../engine/export/witness-export.ts';
import type { ViewLevel } from '../engine/export/layout.ts';
import { parseLevel } from '../engine/levels/levels.ts';
import { lastValue, parseArgs } from './args.ts';
import type { Io } from './check-command.ts';
import { readInputs, readSource, unknownFormat } from './inputs.ts';

export const WITNESS_USAGE = 'usage: isocheck witness FILE --level L|mixed [--format json|dot|svg|hist] [-o FILE] [--input-format hist|plume|dbcop]';

export const WITNESS_HELP = `${WITNESS_USAGE}
  Exports the witness of FILE's violation of level L (RC, RA, CC, PC, PSI, SI, SER, or mixed):
    json  the witness cycle as in \`isocheck check --json\` (default)
    dot   the witness subgraph for Graphviz (dot -Tsvg)
    svg   the graph drawing with the witness highlighted, self-contained
    hist  a minimised litmus history that still violates L (delta debugging), as a .hist file
  Exit status: 0 written (L is violated), 1 L holds or is undecided (nothing written), 2 usage or unreadable file.`;

export function runWitness(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--level', '--format', '-o', '--output', '--input-format'], ['--help', '-h']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.switches.has('--help') || args.switches.has('-h')) {
    io.out(WITNESS_HELP);
    return 0;
  }
  if (args.positional.length !== 1) return usage(io, args.positional.length === 0 ? 'no input file' : 'one input file at a time');
  const levelText = lastValue(args, '--level');
  if (levelText === undefined) return usage(io, '--level is required');
  const level: ViewLevel | null = levelText.toLowerCase() === 'mixed' ? 'mixed' : parseLevel(levelText);
  if (!level) return usage(io, `unknown level '${levelText}' (RC, RA, CC, PC, PSI, SI, SER or mixed)`);
  const format = (lastValue(args, '--format') ?? 'json') as WitnessFormat;
  if (!WITNESS_FORMATS.includes(format)) return usage(io, `unknown format '${String(format)}' (${WITNESS_FORMATS.join(', ')})`);
  const inputFormat = lastValue(args, '--input-format');
  const badFormat = inputFormat === undefined ? null : unknownFormat(inputFormat);
  if (badFormat) return usage(io, `input ${badFormat}`);
  const output = lastValue(args, '-o', '--output');

  if (args.positional.length !== 1) return usage(io, 'give exactly one history file');
  if (isDirectory(args.positional[0])) return usage(io, `${args.positional[0]} is a directory: give one history file`);
  const inputs = readInputs(args.positional);
  if (inputs.length !== 1) return usage(io, `${args.positional[0]} is not one history file`);
  const [input] = inputs;
  if (!input || 'error' in input) {
    io.err(`isocheck: cannot read ${args.positional[0]}: ${input && 'error' in input ? input.error : 'not a history file'}`);
    return 2;
  }
  const options = { file: input.file, level, format };
  const result = exportWitnessOfSource(readSource(input, inputFormat), options);
  if (!result.ok) {
    io.err(`isocheck: ${result.message}`);
    return 1;
  }
  if (output !== undefined && output !== '-') {
    try {
      writeFileSync(output, result.text);
    } catch (e) {
      io.err(`isocheck: cannot write ${output}: ${(e as Error).message}`);
      return 2;
    }
  } else {
    io.out(result.text);
  }
  return 0;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck: ${message}\n${WITNESS_USAGE}`);
  return 2;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // unreadable paths are reported by readInputs
  }
}
