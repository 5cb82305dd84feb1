// `isocheck check FILE… [--level L,L…] [--json | --output-format F] [--format hist|plume]`: verdicts, witnesses, exit status.

import { analyzeHistText, analyzePlumeBytes } from '../engine/analyze.ts';
import { parseLevel, type Level } from '../engine/levels/levels.ts';
import { DEFAULT_STRONG_BUDGET } from '../engine/strong/strong-check.ts';
import { fileReport, type FileReport } from '../engine/report.ts';
import { lastValue, parseArgs } from './args.ts';
import { formatOf, readInputs } from './inputs.ts';
import { OUTPUT_FORMATS, parseOutputFormat, renderReports } from './report-formats.ts';
import { createProgress } from './progress.ts';

const LARGE_INPUT_BYTES = 2_000_000;
const IMPLICIT_STRONG_MILLIS = 2_000;

export const CHECK_USAGE = 'usage: isocheck check FILE|DIR… [--level L,L…] [--json | --output-format table|json|sarif|junit] [--quiet] [--docs-url URL] [--format hist|plume] [--witnesses N]';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress lines are shown only there). */
  errIsTty: boolean;
}

export function runCheck(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--level', '--format', '--witnesses', '--output-format', '--docs-url'], ['--json', '--quiet']);
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
  if (format !== undefined && format !== 'hist' && format !== 'plume') return usage(io, `unknown format '${format}' (hist or plume)`);
  const witnessesText = lastValue(args, '--witnesses');
  const maxWitnesses = witnessesText === undefined ? 1 : Number(witnessesText);
  if (!Number.isInteger(maxWitnesses) || maxWitnesses < 1) return usage(io, '--witnesses needs a positive integer');
  const outputText = lastValue(args, '--output-format') ?? (args.switches.has('--json') ? 'json' : 'table');
  const output = parseOutputFormat(outputText);
  if (!output) return usage(io, `unknown output format '${outputText}' (${OUTPUT_FORMATS.join(', ')})`);
  if (args.switches.has('--json') && output !== 'json') return usage(io, '--json is short for --output-format json');
  const docsUrl = lastValue(args, '--docs-url');
  if (docsUrl !== undefined && !URL.canParse(docsUrl)) return usage(io, `--docs-url needs an absolute URL, not '${docsUrl}'`);
  const progress = createProgress(io.errIsTty && !args.switches.has('--quiet'));

  const reports: FileReport[] = [];
  let unreadable = false;
  let internal = false;
  let errors = false;
  const inputs = readInputs(args.positional);
  if (inputs.length === 0) return usage(io, `no history files (.hist, .txt, .plume) in ${args.positional.join(', ')}`);
  for (const [index, input] of inputs.entries()) {
    if ('error' in input) {
      progress.end();
      io.err(`isocheck: cannot read ${input.file}: ${input.error}`);
      unreadable = true;
      continue;
    }
    const fmt = formatOf(input.file, format);
    // Not asked for by name, the strong levels of a large input get a short search budget: a
    // default run over a million operations should not spend minutes on levels nobody requested.
    const strongMillis = levels === undefined && input.bytes.length > LARGE_INPUT_BYTES ? IMPLICIT_STRONG_MILLIS : undefined;
    progress.file(input.file, index, inputs.length, input.bytes.length, strongMillis ?? DEFAULT_STRONG_BUDGET.millis);
    const options = { levels, maxWitnesses, strongMillis, onProgress: progress.stage, stop: progress.poll };
    let report: FileReport;
    try {
      const analysis = fmt === 'plume' ? analyzePlumeBytes(input.bytes, options) : analyzeHistText(input.bytes.toString('utf8'), options);
      report = fileReport(input.file, analysis);
      progress.fileDone();
    } catch (e) {
      progress.end();
      // The engine reports problems as findings; a throw is a bug or an exhausted resource, and
      // must not take the other files' reports with it.
      io.err(`isocheck: internal error while checking ${input.file}: ${(e as Error).message}`);
      internal = true;
      continue;
    }
    errors ||= report.diagnostics.some((d) => d.severity === 'error');
    reports.push(report);
  }
  progress.end();
  const text = renderReports(output, reports, docsUrl === undefined ? {} : { docsUrl });
  if (text) io.out(text);
  return unreadable || internal ? 2 : errors ? 1 : 0;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck: ${message}\n${CHECK_USAGE}`);
  return 2;
}
