// The isocheck command line: dispatches to check, gen and lsp; exit 0 clean, 1 findings, 2 usage or I/O.

import { CHECK_USAGE, runCheck, type Io } from './check-command.ts';
import { runGen } from './gen-command.ts';
import { HERMITAGE_USAGE, RUN_USAGE } from '../harness/usage.ts';
import { runWitness, WITNESS_USAGE } from './witness-command.ts';

const HELP = `isocheck — does a transactional history honour its isolation level?

${CHECK_USAGE}
  Checks .hist files (and AWDIT/Plume text files: .txt, .plume, or --format plume) at all seven
  levels (or those given with --level) and the file's mixed levels; prints a verdict table and
  each violation's witness. Exit status: 0 no errors, 1 some file has an error, 2 usage error,
  unreadable file or internal error.

${WITNESS_USAGE}
  Exports one level's witness: the cycle as JSON, Graphviz DOT, an SVG drawing, or a minimised .hist.

${RUN_USAGE}
  Runs concurrent transactions against a database (embedded SQLite by default), records the
  history, checks it and prints the verdict (docs/harness.md).

${HERMITAGE_USAGE}
  Runs Hermitage's anomaly scripts at each isolation level of a database and prints its table.

usage: isocheck gen [options] [-o FILE]      (isocheck gen --help for the options)
usage: isocheck lsp [--stdio]                (the language server, for editors: docs/editors.md)
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
    case 'run':
    case 'hermitage':
      // Asynchronous (they talk to a database): the exit status is set when they finish.
      void import(command === 'run' ? './run-command.ts' : './hermitage-command.ts')
        .then((m: { runCommand: (a: readonly string[], io: Io) => Promise<number> }) => m.runCommand(rest, io))
        .then((code) => { process.exitCode = code; }, (e: Error) => { io.err(`isocheck: internal error: ${e.stack ?? e.message}`); process.exitCode = 2; });
      return 0;
    case 'lsp':
      // Loaded on demand, so that `check` does not pay for the LSP libraries. The server runs until
      // the client sends exit (or closes stdin), then ends the process itself.
      void import('../lsp/server.ts').then((m) => m.startServer(rest));
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
