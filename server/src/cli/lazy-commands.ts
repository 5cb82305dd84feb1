// Entry of out/cli-lazy.js: the commands `check` never needs (database drivers, the LSP libraries), bundled apart.

import { runCommand as runWorkload } from './run-command.ts';
import { runCommand as runHermitage } from './hermitage-command.ts';
import { startServer } from '../lsp/server.ts';

export { runWorkload, runHermitage, startServer };
