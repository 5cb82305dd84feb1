// The isocheck command line: dispatches to check, gen and lsp; exit 0 clean, 1 findings, 2 usage or I/O.

import { CHECK_USAGE, runCheck, type Io } from './check-command.ts';
import { runGen } from './gen-command.ts';
import { packageVersion } from './report-formats.ts';
import { runWitness, WITNESS_USAGE } from './witness-command.ts';

const HELP = `isocheck — does a transactional history honour its isolation level?

${CHECK_USAGE}
  Checks .hist files (and AWDIT/Plume text files: .txt, .plume, or --format plume) at all seven
  levels (or those given with --level) and the file's mixed levels; prints a verdict table and
  each violation's witness. Exit status: 0 no errors, 1 some file has an error, 2 usage error,
  unreadable file or internal error. --output-format json (or --json), sarif (SARIF 2.1.0, for
  code scanning) or junit (JUnit XML, for test reports) print machine-readable reports instead
  (docs/ci.md); a progress bar shows on standard error when it is a terminal, unless --quiet.

${WITNESS_USAGE}
  Exports one level's witness: the cycle as JSON, Graphviz DOT, an SVG drawing, or a minimised .hist.

usage: isocheck gen [options] [-o FILE]      (isocheck gen --help for the options)
usage: isocheck lsp [--stdio]                (the language server, for editors: docs/editors.md)
usage: isocheck --version
`;

function main(argv: readonly string[]): number {
  const io: Io = {
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    errIsTty: process.stderr.isTTY === true,
  };
  const [command, ...rest] = argv;
  switch (command) {
    case 'check':
      return runCheck(rest, io);
    case 'gen':
      return runGen(rest, io);
    case 'witness':
      return runWitness(rest, io);
    case 'lsp':
      // Loaded on demand, so that `check` does not pay for the LSP libraries. The server runs until
      // the client sends exit (or closes stdin), then ends the process itself.
      void import('../lsp/server.ts').then((m) => m.startServer(rest));
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

// A closed pipe (`isocheck check … | head`) ends the output quietly instead of crashing.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

process.exitCode = main(process.argv.slice(2));
