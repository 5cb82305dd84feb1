// isocheck.checkWorkspace: opens every .hist, .plume and .dbcop file in the background so the server checks it, then sums up.

import * as vscode from 'vscode';
import type { StatusParams } from '../../../server/src/protocol/shapes.ts';
import type { CommandContext } from './context.ts';

/** More than this many files would flood the server and the Problems panel; the rest are named in the summary. */
const MAX_FILES = 500;
const WAIT_MS = 60_000;

export interface WorkspaceSummary {
  files: number;
  checked: number;
  withErrors: string[];
  skipped: number;
}

export async function checkWorkspace(ctx: CommandContext): Promise<WorkspaceSummary> {
  const found = await vscode.workspace.findFiles('**/*.{hist,plume,dbcop}', '**/{node_modules,.git,.vscode-test}/**', MAX_FILES + 1);
  const uris = found.slice(0, MAX_FILES);
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'IsoCheck: checking histories', cancellable: true },
    async (progress, token) => {
      // The language client sends didOpen for every open hist document, so opening is enough to get it checked.
      for (const [i, uri] of uris.entries()) {
        if (token.isCancellationRequested) break;
        progress.report({ message: vscode.workspace.asRelativePath(uri), increment: 100 / Math.max(1, uris.length) / 2 });
        await vscode.workspace.openTextDocument(uri);
        if (i % 50 === 49) await new Promise((r) => setTimeout(r, 0));
      }
      const statuses = await waitForStatuses(ctx, uris, token);
      const withErrors = statuses.filter((s) => s.errors > 0 || s.state === 'failed').map((s) => vscode.workspace.asRelativePath(vscode.Uri.parse(s.uri)));
      return { files: uris.length, checked: statuses.length, withErrors, skipped: found.length - uris.length };
    },
  );
  const errors = summary.withErrors.length === 0 ? 'none has errors' : `${summary.withErrors.length} with errors: ${summary.withErrors.slice(0, 5).join(', ')}${summary.withErrors.length > 5 ? ', …' : ''}`;
  const skipped = summary.skipped > 0 ? ` (only the first ${MAX_FILES} files were opened)` : '';
  ctx.output.appendLine(`checkWorkspace: ${summary.checked}/${summary.files} checked; ${summary.withErrors.join(', ') || 'no errors'}`);
  void vscode.window.showInformationMessage(`IsoCheck: checked ${summary.checked} of ${summary.files} histories; ${errors}${skipped}.`);
  if (summary.withErrors.length > 0) void vscode.commands.executeCommand('workbench.actions.view.problems');
  return summary;
}

/** Resolves with the finished statuses of `uris` once all are done, cancelled, or after WAIT_MS. */
async function waitForStatuses(ctx: CommandContext, uris: vscode.Uri[], token: vscode.CancellationToken): Promise<StatusParams[]> {
  const deadline = Date.now() + WAIT_MS;
  const finished = (s: StatusParams | undefined): s is StatusParams => s !== undefined && s.state !== 'checking';
  const done = (): StatusParams[] => uris.map((u) => ctx.statusBar.get(u)).filter(finished);
  while (done().length < uris.length && Date.now() < deadline && !token.isCancellationRequested) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return done();
}
