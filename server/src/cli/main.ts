// The isocheck command line: dispatches to check, witness, gen and lsp; exit 0 clean, 1 findings, 2 usage or I/O, 3 undecided claim.

import { CHECK_USAGE, MAX_WITNESSES, runCheck, type Io } from './check-command.ts';
import { DEFAULT_LEVELS, LEVELS } from '../engine/levels/levels.ts';
import { runGen } from './gen-command.ts';
import { HERMITAGE_USAGE, RUN_USAGE } from '../harness/usage.ts';
import { packageVersion } from './report-formats.ts';
import { terminalSafeLines } from './terminal-text.ts';
import { CONVERT_USAGE, runConvert } from './convert-command.ts';
import { runWitness, WITNESS_USAGE } from './witness-command.ts';
import { createRequire } from 'node:module';
import { DIRECTORY_EXTENSIONS, FORMAT_NAMES } from '../engine/readers/registry.ts';
import { join } from 'node:path';

/**
 * The database drivers and the LSP libraries are ~80% of the CLI's code: they live in their own
 * bundle (out/cli-lazy.js, built from lazy-commands.ts), loaded only by the commands that need
 * them. Measured: loading them cost every command ~30 ms (`--version` 0.09 → 0.06 s).
 */
function lazyCommands(): typeof import('./lazy-commands.ts') {
  return createRequire(__filename)(join(__dirname, 'cli-lazy.js')) as typeof import('./lazy-commands.ts');
}

const HELP = `isocheck — does a transactional history honour its isolation level?

${CHECK_USAGE}
  Checks .hist files (and AWDIT/Plume text files: .txt, .plume; Jepsen histories: .edn, .jsonl;
  dbcop histories: .dbcop, .txt; AWDIT's test histories: .txt) at all seven levels (or those
  given with --level) and the file's mixed levels; prints a verdict table and each violation's
  witness. A .txt file is read as the format it looks like (plume when none fits).
  --level L,L…    only these of ${LEVELS.join(', ')} (may be repeated; default: all
                  but ${LEVELS.filter((l) => !DEFAULT_LEVELS.includes(l)).join(', ')})
  --format F      read every input as F (${FORMAT_NAMES.join(', ')}) whatever its ending
  --witnesses N   up to N witness cycles per violated level (default 1, at most ${MAX_WITNESSES})
  --output-format table|json|sarif|junit  json is the report as JSON, sarif is SARIF 2.1.0 for
                  code scanning, junit is JUnit XML for test reports (docs/ci.md)
  --json          short for --output-format json
  --quiet         no progress bar (drawn on standard error only when that is a terminal)
  --docs-url URL  where SARIF help links point (docs/anomalies.md; default: the installed copy)
  --claim L       the level the system under test claims (added to --level): its violation is an
                  error, with or without a witness; an undecided verdict is reported as a warning
  --undecided ok  an undecided claimed level is not a failure (exit 0 instead of 3)
  --plume-init none|zero  zero (default): a plume value 0 is the initial value; none: 0 is an
                  ordinary written value (PolySI/IsoVista files write it explicitly)
  Only regular files are read (at most 512 MB each, plume files 2 GB); directories expand to their ${DIRECTORY_EXTENSIONS.join(', ')}
  files (not recursively), skipping FIFOs, devices and sockets with a message.
  Exit status:
    0  no errors (every claimed level holds)
    1  some file has an error: a syntax error, a read-consistency violation, a violation of the
       claimed, mixed or file's level, a failed expect
    2  usage error, unreadable or non-regular file, unwritable output, or internal error
    3  the claimed level is undecided within the search budget (and nothing worse happened)

${WITNESS_USAGE}
  Exports one level's witness: the cycle as JSON, Graphviz DOT, an SVG drawing, or a minimised .hist.

${RUN_USAGE}
  Runs concurrent transactions against a database (embedded SQLite by default), records the
  history, checks it and prints the verdict (docs/harness.md).

${HERMITAGE_USAGE}
  Runs Hermitage's anomaly scripts at each isolation level of a database and prints its table.
${CONVERT_USAGE}
  Writes any input (Jepsen EDN .edn, JSON lines .jsonl, plume, dbcop, AWDIT test, .hist) as a .hist file
  with the same verdicts (--plume-init as for check: none when the plume file writes 0 as an ordinary value).

usage: isocheck gen [options] [-o FILE]      (isocheck gen --help for the options)
usage: isocheck lsp [--stdio]                (the language server, for editors: docs/editors.md)
usage: isocheck --version
`;

/** `lsp --help`: the server's transports (without this the server started and waited for LSP messages). */
const LSP_HELP = `usage: isocheck lsp [--stdio | --node-ipc | --socket=PORT | --pipe=PATH]
  Runs the IsoCheck language server, the one the VS Code extension starts, for any editor with an
  LSP client (Neovim, Helix, Emacs…: docs/editors.md). Without a flag it talks over standard input
  and output, as --stdio does.
`;

/** `check --help` and `convert --help`: their options are the main help's (the other commands have their own). */
function asksHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

function help(io: Io): number {
  io.out(HELP);
  return 0;
}

function main(argv: readonly string[]): number | Promise<number> {
  const io: Io = {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    // Messages may quote file names and other text from the input: escaped for the terminal.
    err: (t) => process.stderr.write(terminalSafeLines(t.endsWith('\n') ? t : t + '\n')),
    errIsTty: process.stderr.isTTY === true,
    outIsTty: process.stdout.isTTY === true,
  };
  const [command, ...rest] = argv;
  switch (command) {
    case 'check':
      return asksHelp(rest) ? help(io) : runCheck(rest, io);
    case 'gen':
      return runGen(rest, io);
    case 'witness':
      return runWitness(rest, io);
    case 'run':
    case 'hermitage':
      // Loaded on demand (the database drivers); asynchronous: they talk to a database.
      return command === 'run' ? lazyCommands().runWorkload(rest, io) : lazyCommands().runHermitage(rest, io);
    case 'convert':
      return asksHelp(rest) ? help(io) : runConvert(rest, io);
    case 'lsp':
      if (asksHelp(rest)) {
        io.out(LSP_HELP);
        return 0;
      }
      // Loaded on demand, so that `check` does not pay for the LSP libraries. The server runs until
      // the client sends exit (or closes stdin), then ends the process itself. Its output is the
      // protocol: a client that closes it is gone without `shutdown`, which the server's transport
      // reports (status 1, a line on stderr), not the quiet exit 0 meant for `check | head`.
      process.stdout.off('error', quietOnClosedPipe);
      lazyCommands().startServer(rest);
      return 0;
    case '--version':
    case '-V':
    case 'version':
      io.out(packageVersion());
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      io.out(HELP);
      return command === undefined ? 2 : 0;
    default:
      io.err(`isocheck: unknown command '${command}'\n${HELP}`);
      return 2;
  }
}

// A closed pipe (`isocheck check … | head`) ends the output quietly instead of crashing; any other
// failure to write the output (a full disk: `> /dev/full`) is one line and exit 2, not a stack trace.
function quietOnClosedPipe(e: NodeJS.ErrnoException): void {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`isocheck: cannot write to standard output: ${e.code ?? e.message}\n`);
  process.exit(2);
}
process.stdout.on('error', quietOnClosedPipe);

const status = main(process.argv.slice(2));
if (typeof status === 'number') process.exitCode = status;
else {
  void status.then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`isocheck: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 2;
    },
  );
}
