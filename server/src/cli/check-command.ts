// `isocheck check FILE… [--level L,L…] [--json] [--format hist|plume|dbcop]`: verdicts, witnesses, exit status.

import { analyzeSource } from '../engine/analyze.ts';
import { parseLevel, type Level } from '../engine/levels/levels.ts';
import { fileReport, type FileReport } from '../engine/report.ts';
import { lastValue, parseArgs } from './args.ts';
import { readInputs, readSource, unknownFormat } from './inputs.ts';
import { renderDetails, renderTable } from './text-report.ts';

const LARGE_INPUT_BYTES = 2_000_000;
const IMPLICIT_STRONG_MILLIS = 2_000;

export const CHECK_USAGE = 'usage: isocheck check FILE|DIR… [--level L,L…] [--json] [--format hist|plume|dbcop] [--witnesses N]';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress lines are shown only there). */
  errIsTty: boolean;
}

export function runCheck(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--level', '--format', '--witnesses'], ['--json']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  if (args.positional.length === 0) return usage(io, 'no input files');
  let levels: Level[] | undefined;
  for (const spec of args.values.get('--level') ?? []) {
    if (spec.split(',').every((s) => s.length === 0)) return usage(io, '--level needs one or more levels');
    for (const name of spec.split(',').filter((s) => s.length > 0)) {
      const l = parseLevel(name);
      if (!l) return usage(io, `unknown level '${name}' (RC, RA, CC, PC, PSI, SI, SER)`);
      (levels ??= []).push(l);
    }
  }
  const format = lastValue(args, '--format');
  const badFormat = format === undefined ? null : unknownFormat(format);
  if (badFormat) return usage(io, badFormat);
  const witnessesText = lastValue(args, '--witnesses');
  const maxWitnesses = witnessesText === undefined ? 1 : Number(witnessesText);
  if (!Number.isInteger(maxWitnesses) || maxWitnesses < 1) return usage(io, '--witnesses needs a positive integer');

  const reports: FileReport[] = [];
  let unreadable = false;
  let internal = false;
  let errors = false;
  const inputs = readInputs(args.positional);
  if (inputs.length === 0) return usage(io, `no history files (.hist, .txt, .plume) in ${args.positional.join(', ')}`);
  for (const input of inputs) {
    if ('error' in input) {
      io.err(`isocheck: cannot read ${input.file}: ${input.error}`);
      unreadable = true;
      continue;
    }
    const progress = io.errIsTty && input.bytes.length > 4_000_000;
    if (progress) io.err(`checking ${input.file} (${(input.bytes.length / 1e6).toFixed(0)} MB)…`);
    // Not asked for by name, the strong levels of a large input get a short search budget: a
    // default run over a million operations should not spend minutes on levels nobody requested.
    const strongMillis = levels === undefined && input.bytes.length > LARGE_INPUT_BYTES ? IMPLICIT_STRONG_MILLIS : undefined;
    const options = { levels, maxWitnesses, strongMillis };
    let report: FileReport;
    try {
      const analysis = analyzeSource(readSource(input, format), options);
      report = fileReport(input.file, analysis);
    } catch (e) {
      // The engine reports problems as findings; a throw is a bug or an exhausted resource, and
      // must not take the other files' reports with it.
      io.err(`isocheck: internal error while checking ${input.file}: ${(e as Error).message}`);
      internal = true;
      continue;
    }
    errors ||= report.diagnostics.some((d) => d.severity === 'error');
    reports.push(report);
  }
  if (args.switches.has('--json')) {
    io.out(JSON.stringify(reports, null, 2));
  } else if (reports.length > 0) {
    io.out(renderTable(reports));
    for (const r of reports) {
      const details = renderDetails(r);
      if (details) io.out(`\n${r.file}${r.title ? ` — ${r.title}` : ''}\n${details}`);
    }
  }
  return unreadable || internal ? 2 : errors ? 1 : 0;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck: ${message}\n${CHECK_USAGE}`);
  return 2;
}
