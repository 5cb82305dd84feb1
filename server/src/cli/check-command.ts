// `isocheck check FILE… [--level L,L…] [--claim L] [--json | --output-format F] [--format hist|plume|edn|json|dbcop|awdit-test]`: verdicts, witnesses, exit status.

import { FORMAT_NAMES } from '../engine/readers/registry.ts';
import { analyzeSource } from '../engine/analyze.ts';
import { DEFAULT_LEVELS, LEVELS, parseLevel, type Level } from '../engine/levels/levels.ts';
import { DEFAULT_STRONG_BUDGET, implicitStrongBudget } from '../engine/strong/strong-check.ts';
import { fileReport } from '../engine/report.ts';
import { lastValue, numberArg, parseArgs } from './args.ts';
import { capDiagnostics } from './cap-diagnostics.ts';
import { applyClaim, type ClaimedReport } from './claim.ts';
import { formatOf, HISTORY_EXTENSIONS, inputErrorLine, listInputs, parsePlumeInit, readCheckInput, readSourceOnce, unknownFormat } from './inputs.ts';
import { createProgress } from './progress.ts';
import { OUTPUT_FORMATS, parseOutputFormat, renderReport } from './report-formats.ts';
import { jsonSafe, terminalSafe, terminalSafeLines } from './terminal-text.ts';
import { renderDetails, renderHeading, renderTable } from './text-report.ts';


/** The most witness cycles per level `--witnesses` may ask for. */
export const MAX_WITNESSES = 1000;

export const CHECK_USAGE = `usage: isocheck check FILE|DIR… [--level L,L…] [--claim L [--undecided ok|fail]] [--json | --output-format table|json|sarif|junit] [--quiet] [--docs-url URL] [--format ${FORMAT_NAMES.join('|')}] [--plume-init zero|none] [--witnesses N]`;

/** Exit statuses of `check`, most serious first when files disagree: 2, then 1, then 3. */
export const EXIT_OK = 0;
export const EXIT_ERRORS = 1;
export const EXIT_USAGE = 2;
export const EXIT_UNDECIDED = 3;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress lines are shown only there). */
  errIsTty: boolean;
  /** Whether stdout is a terminal: data formats written there get their control characters escaped. */
  outIsTty?: boolean;
}

export function runCheck(argv: readonly string[], io: Io): number {
  const parsed = parseArgs(argv, ['--level', '--format', '--witnesses', '--claim', '--undecided', '--plume-init', '--output-format', '--docs-url'], ['--json', '--quiet'], ['--level']);
  if (!parsed.ok) return usage(io, parsed.error);
  const { args } = parsed;
  let levels: Level[] | undefined;
  for (const spec of args.values.get('--level') ?? []) {
    if (spec.split(',').every((s) => s.length === 0)) return usage(io, '--level needs one or more levels');
    // `RA,,SER` is a typo (a level left out), not two levels.
    if (spec.split(',').some((s) => s.length === 0)) return usage(io, `--level '${spec}' has an empty name between commas`);
    for (const name of spec.split(',')) {
      const l = parseLevel(name);
      if (!l) return usage(io, `unknown level '${name}' (${LEVELS.join(', ')})`);
      (levels ??= []).push(l);
    }
  }
  const claimText = lastValue(args, '--claim');
  const claim = claimText === undefined ? undefined : parseLevel(claimText);
  if (claim === null) return usage(io, `unknown level '${claimText}' for --claim (${LEVELS.join(', ')})`);
  // After the options' own checks: `--claim a.hist` (the level left out) names the level it took.
  if (args.positional.length === 0) return usage(io, 'no input files');
  if (claim && levels && !levels.includes(claim)) levels.push(claim);
  // A claimed level outside the default set (SSER) is evaluated too, beside the default ones.
  if (claim && !levels && !DEFAULT_LEVELS.includes(claim)) levels = [...DEFAULT_LEVELS, claim];
  const undecidedText = lastValue(args, '--undecided') ?? 'fail';
  if (undecidedText !== 'ok' && undecidedText !== 'fail') return usage(io, `--undecided takes ok or fail, not '${undecidedText}'`);
  if (args.values.has('--undecided') && !claim) return usage(io, '--undecided needs --claim');
  const format = lastValue(args, '--format');
  const badFormat = format === undefined ? null : unknownFormat(format);
  if (badFormat) return usage(io, badFormat);
  const plumeInit = parsePlumeInit(lastValue(args, '--plume-init'));
  if (plumeInit === null) return usage(io, `--plume-init takes zero or none, not '${lastValue(args, '--plume-init')}'`);
  const witnessesText = lastValue(args, '--witnesses');
  const maxWitnesses = witnessesText === undefined ? 1 : numberArg(witnessesText);
  // Bounded like every output: a thousand cycles per level is more than anyone reads.
  if (!Number.isInteger(maxWitnesses) || maxWitnesses < 1 || maxWitnesses > MAX_WITNESSES) return usage(io, `--witnesses needs an integer from 1 to ${MAX_WITNESSES}`);
  const outputText = lastValue(args, '--output-format') ?? (args.switches.has('--json') ? 'json' : 'table');
  const output = parseOutputFormat(outputText);
  if (!output) return usage(io, `unknown output format '${outputText}' (${OUTPUT_FORMATS.join(', ')})`);
  if (args.switches.has('--json') && output !== 'json') return usage(io, '--json is short for --output-format json');
  const docsUrl = lastValue(args, '--docs-url');
  if (docsUrl !== undefined && !URL.canParse(docsUrl)) return usage(io, `--docs-url needs an absolute URL, not '${docsUrl}'`);
  const progress = createProgress(io.errIsTty && !args.switches.has('--quiet'));

  const reports: ClaimedReport[] = [];
  // --json has one object per file given, in order: one that could not be read or checked says why.
  const entries: (ClaimedReport | UncheckedFile)[] = [];
  let unreadable = false;
  let internal = false;
  let errors = false;
  let undecided = false;
  const refs = listInputs(args.positional);
  if (refs.length === 0) return usage(io, `no history files (${HISTORY_EXTENSIONS.join(', ')}) in ${args.positional.join(', ')}`);
  for (const [index, ref] of refs.entries()) {
    progress.file(ref.file, index, refs.length);
    // Large plume files come back parsed already (read through a small buffer: inputs.ts).
    const input = readCheckInput(ref, format, { plumeInit });
    if ('error' in input) {
      progress.end();
      io.err(`isocheck: ${inputErrorLine(input)}`);
      // (A file named on the command line; a directory's entries that are passed over, and a
      // directory that cannot be listed, are not files of the run: their message says so.)
      if (!('inDirectory' in ref && ref.inDirectory) && !input.error.startsWith('cannot read directory')) entries.push(unchecked(input.file, `cannot read: ${input.error}`));
      unreadable = true;
      continue;
    }
    const fmt = 'source' in input ? 'plume' : formatOf(input.file, format, input.bytes);
    const size = 'source' in input ? input.size : input.bytes.length;
    // Not asked for by name, the strong levels of a large input share one search budget: a default
    // run over a million operations should not spend minutes on levels nobody requested. A claimed
    // level always gets the full budget.
    const { strongTotalMillis } = levels === undefined && !claim ? implicitStrongBudget(size) : {};
    progress.read(size, strongTotalMillis ?? DEFAULT_STRONG_BUDGET.millis, strongTotalMillis !== undefined);
    // Reports never show the forced co edges (editor features): saturations a verdict does not need are skipped.
    const options = { levels, maxWitnesses, strongTotalMillis, plumeInit, onProgress: progress.stage, stop: progress.poll, keepForced: false };
    let report: ClaimedReport;
    try {
      const analysis = analyzeSource('source' in input ? input.source : readSourceOnce(input, fmt, { plumeInit }), options);
      report = fileReport(input.file, analysis);
      progress.fileDone();
    } catch (e) {
      progress.end();
      // The engine reports problems as findings; a throw is a bug or an exhausted resource, and
      // must not take the other files' reports with it.
      io.err(`isocheck: internal error while checking ${input.file}: ${(e as Error).message}`);
      entries.push(unchecked(input.file, `internal error: ${(e as Error).message}`));
      internal = true;
      continue;
    }
    if (claim && applyClaim(report, claim).consistent === null) undecided = true;
    errors ||= report.diagnostics.some((d) => d.severity === 'error');
    if (fmt === 'plume' && plumeInit !== 'none' && report.diagnostics.some((d) => d.code === 'ambiguous-read')) {
      progress.end();
      io.err(`isocheck: hint: ${terminalSafe(input.file)} writes the value 0, which plume reads as the initial value; if 0 is an ordinary value there (files from PolySI or IsoVista), check it with --plume-init none`);
    }
    capDiagnostics(report);
    reports.push(report);
    entries.push(report);
  }
  progress.end();
  if (output === 'sarif' || output === 'junit') {
    const text = renderReport(output, reports, docsUrl === undefined ? {} : { docsUrl });
    // XML keeps C1 controls and bidi overrides as they are: escaped only when a terminal shows them.
    io.out(io.outIsTty && output === 'junit' ? terminalSafeLines(text) : text);
  } else if (output === 'json') {
    writeJsonArray(entries, io);
  } else if (reports.length > 0) {
    io.out(renderTable(reports));
    for (const r of reports) {
      const details = renderDetails(r);
      if (details) io.out(`\n${renderHeading(r)}\n${details}`);
    }
  }
  if (unreadable || internal) return EXIT_USAGE;
  if (errors) return EXIT_ERRORS;
  return undecided && undecidedText === 'fail' ? EXIT_UNDECIDED : EXIT_OK;
}

/** A file --json has an object for although it was not checked: why, and no verdicts. */
interface UncheckedFile {
  file: string;
  error: string;
  levels: Record<string, never>;
  mixed: null;
  diagnostics: never[];
}

function unchecked(file: string, error: string): UncheckedFile {
  return { file, error, levels: {}, mixed: null, diagnostics: [] };
}

/** Characters of JSON lines gathered before one write. */
const JSON_PIECE = 1 << 20;

/**
 * The same bytes as JSON.stringify(reports, null, 2), written a megabyte of lines at a time:
 * neither thousands of files nor one report may make one string longer than V8 allows (a witness
 * cycle of 200,000 edges, once per level, was a RangeError and a stack trace from a 1.4 MB file).
 */
function writeJsonArray(reports: readonly (ClaimedReport | UncheckedFile)[], io: Io): void {
  if (reports.length === 0) {
    io.out('[]');
    return;
  }
  io.out('[');
  reports.forEach((r, i) => {
    let piece: string[] = [];
    let size = 0;
    for (const line of jsonLines(r, '  ', '', i < reports.length - 1 ? ',' : '')) {
      piece.push(line);
      size += line.length;
      if (size >= JSON_PIECE) {
        io.out(jsonSafe(piece.join('\n')));
        piece = [];
        size = 0;
      }
    }
    if (piece.length > 0) io.out(jsonSafe(piece.join('\n')));
  });
  io.out(']');
}

/** Whether an object holds no array, nor objects nested deeper than `depth`: its JSON is small. */
function arrayless(v: object, depth: number): boolean {
  for (const x of Object.values(v) as unknown[]) {
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x) || depth <= 1 || !arrayless(x, depth - 1)) return false;
  }
  return true;
}

/**
 * The lines of JSON.stringify(v, null, 2) (plain data: no toJSON), each after `pad`; the first
 * after `head` (a member's name), the last before `end`. Containers are entered, never stringified whole.
 */
function* jsonLines(v: unknown, pad: string, head: string, end: string): Generator<string> {
  if (v === null || typeof v !== 'object') {
    yield `${pad}${head}${JSON.stringify(v)}${end}`;
    return;
  }
  if (!Array.isArray(v) && arrayless(v, 3)) {
    // A small object (an edge, a range) at once: entering each made the writing 75% slower.
    const lines = JSON.stringify(v, null, 2).split('\n');
    for (let i = 0; i < lines.length; i++) yield `${i === 0 ? `${pad}${head}` : pad}${lines[i]}${i === lines.length - 1 ? end : ''}`;
    return;
  }
  // As JSON.stringify: members without a JSON value are left out, array elements become null.
  const none = (x: unknown): boolean => x === undefined || typeof x === 'function' || typeof x === 'symbol';
  const entries: [string, unknown][] = Array.isArray(v)
    ? v.map((x: unknown) => ['', none(x) ? null : x])
    : Object.entries(v).filter(([, x]) => !none(x)).map(([k, x]) => [`${JSON.stringify(k)}: `, x]);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    yield `${pad}${head}${open}${close}${end}`;
    return;
  }
  yield `${pad}${head}${open}`;
  for (let i = 0; i < entries.length; i++) yield* jsonLines(entries[i][1], `${pad}  `, entries[i][0], i < entries.length - 1 ? ',' : '');
  yield `${pad}${close}${end}`;
}

function usage(io: Io, message: string): number {
  io.err(`isocheck: ${message}\n${CHECK_USAGE}`);
  return EXIT_USAGE;
}
