// isocheck.checkWorkspace: opens every .hist, .plume and .dbcop file in the background, a batch at a time, so the server checks it, then sums up.

import * as vscode from 'vscode';
import { DIAGNOSTIC_SOURCE } from '../../../server/src/protocol/commands.ts';
import type { StatusParams } from '../../../server/src/protocol/shapes.ts';
import { CHECKED_FILES_GLOB } from '../workspace-diagnostics.ts';
import type { CommandContext } from './context.ts';

/** More than this many files would flood the server and the Problems panel; the rest are named in the summary. */
const MAX_FILES = 500;
/**
 * VS Code keeps at most 50 documents that an extension opened without an editor and closes the oldest beyond
 * that (the server then drops their diagnostics, the status bar their verdicts): each batch is read in full
 * before the next one is opened.
 */
const BATCH = 20;
const BATCH_WAIT_MS = 60_000;

export interface WorkspaceSummary {
  files: number;
  checked: number;
  withErrors: string[];
  skipped: number;
}

export async function checkWorkspace(ctx: CommandContext): Promise<WorkspaceSummary> {
  const found = await vscode.workspace.findFiles(CHECKED_FILES_GLOB, '**/{node_modules,.git,.vscode-test}/**', MAX_FILES + 1);
  const uris = found.slice(0, MAX_FILES);
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'IsoCheck: checking histories', cancellable: true },
    async (progress, token) => {
      const statuses: StatusParams[] = [];
      for (let i = 0; i < uris.length && !token.isCancellationRequested; i += BATCH) {
        const batch = uris.slice(i, i + BATCH);
        progress.report({ message: vscode.workspace.asRelativePath(batch[0]), increment: (100 * batch.length) / Math.max(1, uris.length) });
        // The language client sends didOpen for every open history document, so opening is enough to get it checked.
        // Documents the user has open keep the server's live diagnostics only (no kept copy goes
        // stale); those an earlier check opened are still the check's.
        const openBefore = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
        for (const uri of batch) {
          await vscode.workspace.openTextDocument(uri).then(undefined, () => undefined);
          // After the open (its event makes WorkspaceDiagnostics forget what an earlier check kept).
          if (!openBefore.has(uri.toString())) ctx.workspaceDiagnostics.markOpened(uri);
        }
        for (const s of await waitForStatuses(ctx, batch, token)) {
          statuses.push(s);
          const uri = vscode.Uri.parse(s.uri);
          // Read while the document is surely open: the server has published its diagnostics before its status.
          if (ctx.workspaceDiagnostics.openedByCheck(uri)) ctx.workspaceDiagnostics.remember(uri, vscode.languages.getDiagnostics(uri).filter((d) => d.source === DIAGNOSTIC_SOURCE));
        }
      }
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

/** The finished statuses of `uris` once all are done, cancelled, or after BATCH_WAIT_MS. */
async function waitForStatuses(ctx: CommandContext, uris: vscode.Uri[], token: vscode.CancellationToken): Promise<StatusParams[]> {
  const deadline = Date.now() + BATCH_WAIT_MS;
  const finished = (s: StatusParams | undefined): s is StatusParams => s !== undefined && s.state !== 'checking';
  const done = (): StatusParams[] => uris.map((u) => ctx.statusBar.get(u)).filter(finished);
  while (done().length < uris.length && Date.now() < deadline && !token.isCancellationRequested) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return done();
}
