// What the command handlers share: the running client (replaced on restart) and the status bar.

import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { StatusBar } from '../status-bar.ts';
import { isHistoryLanguage } from '../../../server/src/protocol/languages.ts';

export interface CommandContext {
  client(): LanguageClient | undefined;
  statusBar: StatusBar;
  output: vscode.OutputChannel;
}

/** A command's target: a URI argument (code lens, explorer) or else the active .hist editor. */
export function targetUri(vscodeApi: typeof vscode, arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscodeApi.Uri) return arg;
  if (typeof arg === 'string' && arg.length > 0) return vscodeApi.Uri.parse(arg);
  const editor = vscodeApi.window.activeTextEditor;
  return editor && isHistoryLanguage(editor.document.languageId) ? editor.document.uri : undefined;
}
