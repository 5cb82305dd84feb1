// isocheck.exportWitness: writes the file's verdicts and witness cycles as JSON in the CLI's report shape.

import * as vscode from 'vscode';
import { AnalysisRequest } from '../../../server/src/protocol/messages.ts';
import { exportReport, witnessCount, type ExportedDiagnostic } from '../witness-export.ts';
import { targetUri, type CommandContext } from './context.ts';

const SEVERITY: Record<vscode.DiagnosticSeverity, ExportedDiagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** `target` skips the save dialog (used by tests and by other commands). Returns the written file. */
export async function exportWitness(ctx: CommandContext, arg?: unknown, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const uri = targetUri(vscode, arg, ctx.statusBar);
  const client = ctx.client();
  if (!uri || !client) {
    void vscode.window.showWarningMessage('IsoCheck: open a history file (with the language server running) to export its witnesses.');
    return undefined;
  }
  const analysis = await client.sendRequest(AnalysisRequest.type, { uri: uri.toString() });
  if (!analysis) {
    void vscode.window.showWarningMessage('IsoCheck: this file has not been analysed yet; try again in a moment.');
    return undefined;
  }
  const diagnostics = vscode.languages.getDiagnostics(uri).map((d): ExportedDiagnostic => ({
    code: typeof d.code === 'object' ? String(d.code.value) : String(d.code ?? ''),
    severity: SEVERITY[d.severity],
    message: d.message,
    range: { start: { line: d.range.start.line, character: d.range.start.character }, end: { line: d.range.end.line, character: d.range.end.character } },
  }));
  const report = exportReport(vscode.workspace.asRelativePath(uri), analysis, diagnostics);
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
