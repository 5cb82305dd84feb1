// isocheck.exportWitness: writes the file's verdicts and witness cycles as JSON, the CLI's report of the file.

import * as vscode from 'vscode';
import { ReportRequest } from '../../../server/src/protocol/messages.ts';
import { witnessCount } from '../witness-export.ts';
import { targetUri, type CommandContext } from './context.ts';

/**
 * `target` skips the save dialog (used by tests and by other commands). Returns the written file.
 * The server writes the report with the CLI's own function, from the analysis the editor shows:
 * the file's object of `isocheck check --json` (verdicts with their basis, witnesses, anomalies,
 * diagnostics with related information, expectations), named by its workspace-relative path.
 */
export async function exportWitness(ctx: CommandContext, arg?: unknown, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const uri = targetUri(vscode, arg, ctx.statusBar);
  const client = ctx.client();
  if (!uri || !client) {
    void vscode.window.showWarningMessage('IsoCheck: open a history file (with the language server running) to export its witnesses.');
    return undefined;
  }
  const report = await client.sendRequest(ReportRequest.type, { uri: uri.toString(), file: vscode.workspace.asRelativePath(uri) });
  if (!report) {
    void vscode.window.showWarningMessage('IsoCheck: this file has not been analysed yet; try again in a moment.');
    return undefined;
  }
  const file = target ?? await vscode.window.showSaveDialog({
    defaultUri: uri.with({ path: uri.path.replace(/\.[^./]*$/, '') + '.witness.json' }),
    filters: { JSON: ['json'] },
    title: 'Export IsoCheck witness cycles',
  });
  if (!file) return undefined;
  // An array, as `isocheck check --json` prints one object per file.
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify([report], null, 2) + '\n'));
  if (!target) void vscode.window.showInformationMessage(`IsoCheck: exported ${witnessCount(report)} witness cycle(s) to ${vscode.workspace.asRelativePath(file)}.`);
  return file;
}
