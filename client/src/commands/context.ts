// What the command handlers share: the running client (replaced on restart) and the status bar.

import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { StatusBar } from '../status-bar.ts';
import type { WorkspaceDiagnostics } from '../workspace-diagnostics.ts';
import { isHistoryLanguage } from '../../../server/src/protocol/languages.ts';

export interface CommandContext {
  client(): LanguageClient | undefined;
  statusBar: StatusBar;
  output: vscode.OutputChannel;
  /** The workspace check's findings of documents VS Code has closed since. */
  workspaceDiagnostics: WorkspaceDiagnostics;
}

/**
 * Whether IsoCheck checks this document: a history language (.hist, .plume, .dbcop), or a file of another
 * language (.edn, .jsonl, .json, .txt) that the server found to be a history and sent a status for.
 */
export function isCheckedDocument(doc: vscode.TextDocument, statusBar: Pick<StatusBar, 'get'>): boolean {
  return isHistoryLanguage(doc.languageId) || statusBar.get(doc.uri) !== undefined;
}

/** A command's target: a URI argument (code lens, explorer) or else the active editor when IsoCheck checks it. */
export function targetUri(vscodeApi: typeof vscode, arg: unknown, statusBar: Pick<StatusBar, 'get'>): vscode.Uri | undefined {
  if (arg instanceof vscodeApi.Uri) return arg;
  if (typeof arg === 'string' && arg.length > 0) return vscodeApi.Uri.parse(arg);
  const editor = vscodeApi.window.activeTextEditor;
  return editor && isCheckedDocument(editor.document, statusBar) ? editor.document.uri : undefined;
}
