// Creates the language client that runs the bundled server (out/server.js) in a Node child process over IPC.

import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { CONFIGURATION_SECTION } from '../../server/src/protocol/commands.ts';
import { HISTORY_LANGUAGES, TEXT_HISTORY_PATTERN } from '../../server/src/protocol/languages.ts';

/** The client id: vscode-languageclient reads `isocheck.trace.server` because of it. */
export const CLIENT_ID = 'isocheck';

/** .hist, .plume and .dbcop documents, and .txt, .edn, .jsonl and .json files (the server reads those whose content looks like a history). */
export const HIST_SELECTOR: { scheme: string; language?: string; pattern?: string }[] = [
  ...HISTORY_LANGUAGES.flatMap((language) => [{ scheme: 'file', language }, { scheme: 'untitled', language }]),
  { scheme: 'file', pattern: TEXT_HISTORY_PATTERN },
];

export function createClient(context: vscode.ExtensionContext, output: vscode.OutputChannel): LanguageClient {
  const module = context.asAbsolutePath('out/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: HIST_SELECTOR,
    // Pushes didChangeConfiguration when `isocheck.*` changes, so the server re-checks with the new levels.
    synchronize: { configurationSection: CONFIGURATION_SECTION },
    outputChannel: output,
    traceOutputChannel: output,
  };
  return new LanguageClient(CLIENT_ID, 'IsoCheck', serverOptions, clientOptions);
}
