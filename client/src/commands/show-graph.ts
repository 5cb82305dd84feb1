// isocheck.showGraph: until the graph view lands (graph issue) it states the file's verdicts instead of drawing them.

import * as vscode from 'vscode';
import { summarySentence } from '../summary.ts';
import { targetUri, type CommandContext } from './context.ts';

export function showGraph(ctx: CommandContext, arg?: unknown): string | undefined {
  const uri = targetUri(vscode, arg);
  if (!uri) {
    void vscode.window.showWarningMessage('IsoCheck: open a .hist file to show its graph.');
    return undefined;
  }
  const status = ctx.statusBar.get(uri);
  const name = vscode.workspace.asRelativePath(uri);
  const text = status ? `${name}: ${summarySentence(status)} The graph view is not available yet.` : `${name} has not been checked yet.`;
  void vscode.window.showInformationMessage(text);
  // Returned so tests (and a future graph view) can see what was shown.
  return text;
}
