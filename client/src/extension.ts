// The VS Code extension's entry point: starts the language server, the status bar and the commands.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { AnalysisChangedNotification, StatusNotification } from '../../server/src/protocol/messages.ts';
import { checkWorkspace } from './commands/check-workspace.ts';
import type { CommandContext } from './commands/context.ts';
import { exportWitness } from './commands/export-witness.ts';
import { exportWitnessAs } from './commands/export-witness-as.ts';
import { showGraph } from './commands/show-graph.ts';
import { GraphPanels } from './graph/graph-panel.ts';
import { createClient } from './language-client.ts';
import { StatusBar } from './status-bar.ts';
import { WorkspaceDiagnostics } from './workspace-diagnostics.ts';

let client: LanguageClient | undefined;

/** What activate() returns: the tests in real VS Code reach the running client through it. */
export interface IsoCheckApi {
  client(): LanguageClient | undefined;
  statusBar: StatusBar;
  graphs: GraphPanels;
  workspaceDiagnostics: WorkspaceDiagnostics;
}

let graphs: GraphPanels | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<IsoCheckApi> {
  const output = vscode.window.createOutputChannel('IsoCheck');
  const statusBar = new StatusBar();
  const workspaceDiagnostics = new WorkspaceDiagnostics();
  const ctx: CommandContext = { client: () => client, statusBar, output, workspaceDiagnostics };
  const panels = new GraphPanels(ctx, context.extensionUri);
  graphs = panels;
  context.subscriptions.push(
    output,
    statusBar,
    workspaceDiagnostics,
    panels,
    vscode.commands.registerCommand('isocheck.checkWorkspace', () => checkWorkspace(ctx)),
    vscode.commands.registerCommand('isocheck.showGraph', (arg?: unknown, level?: unknown) => showGraph(panels, statusBar, arg, level)),
    vscode.commands.registerCommand('isocheck.exportWitnessAs', (arg?: unknown, choice?: unknown, target?: vscode.Uri) => exportWitnessAs(ctx, arg, choice, target)),
    vscode.commands.registerCommand('isocheck.exportWitness', (arg?: unknown, target?: vscode.Uri) => exportWitness(ctx, arg, target)),
    vscode.commands.registerCommand('isocheck.restartServer', () => restart(context, ctx)),
  );
  await start(context, ctx);
  return { client: () => client, statusBar, graphs: panels, workspaceDiagnostics };
}

async function start(context: vscode.ExtensionContext, ctx: CommandContext): Promise<void> {
  const c = createClient(context, ctx.output);
  // Registered before start so no status sent during the first analysis is lost.
  c.onNotification(StatusNotification.type, (status) => ctx.statusBar.update(status));
  c.onNotification(AnalysisChangedNotification.type, (p) => graphs?.analysisChanged(p.uri));
  client = c;
  try {
    await c.start();
    graphs?.refreshAll();
  } catch (e) {
    ctx.output.appendLine(`IsoCheck: the language server did not start: ${String(e)}`);
    void vscode.window.showErrorMessage('IsoCheck: the language server did not start; see the IsoCheck output channel.');
  }
}

/** Stops the old server completely before starting a fresh one, so two never check the same files. */
async function restart(context: vscode.ExtensionContext, ctx: CommandContext): Promise<void> {
  const old = client;
  client = undefined;
  ctx.statusBar.clear();
  if (old) await stopQuietly(old, ctx.output);
  await start(context, ctx);
  ctx.output.appendLine('IsoCheck: language server restarted');
}

async function stopQuietly(c: LanguageClient, output: vscode.OutputChannel): Promise<void> {
  try {
    await c.dispose(2000);
  } catch (e) {
    // A server that already died cannot be stopped; that is fine for a restart.
    output.appendLine(`IsoCheck: stopping the language server: ${String(e)}`);
  }
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.stop(2000).catch(() => undefined);
}
