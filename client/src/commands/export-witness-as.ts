// isocheck.exportWitnessAs: one level's witness as JSON, Graphviz DOT, SVG or a minimised .hist.

import * as vscode from 'vscode';
import { EXPORT_FORMATS, GRAPH_LEVELS, type ExportFormat, type GraphLevel } from '../../../server/src/protocol/webview.ts';
import { exportFromGraph } from '../graph/graph-panel.ts';
import { exportableLevels } from '../summary.ts';
import { targetUri, type CommandContext } from './context.ts';

export interface ExportChoice {
  level: GraphLevel;
  format: ExportFormat;
}

function isChoice(x: unknown): x is ExportChoice {
  const c = x as Partial<ExportChoice> | null;
  return typeof c === 'object' && c !== null && GRAPH_LEVELS.includes(c.level as GraphLevel) && EXPORT_FORMATS.includes(c.format as ExportFormat);
}

/** `choice` and `target` skip the pickers and the save dialog (tests, other commands). */
export async function exportWitnessAs(ctx: CommandContext, arg?: unknown, choice?: unknown, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  const uri = targetUri(vscode, arg, ctx.statusBar);
  if (!uri) {
    void vscode.window.showWarningMessage('IsoCheck: open a history file to export a witness.');
    return undefined;
  }
  let picked: ExportChoice | undefined = isChoice(choice) ? choice : undefined;
  if (!picked) {
    const status = ctx.statusBar.get(uri);
    const levels = exportableLevels(status);
    if (levels.length === 0) {
      void vscode.window.showInformationMessage(status && status.state === 'done'
        ? 'IsoCheck: no level is violated in this file, so there is no witness to export.'
        : 'IsoCheck: this file has not been checked yet; try again in a moment.');
      return undefined;
    }
    const level = await vscode.window.showQuickPick(levels, { title: 'IsoCheck: the witness of which level?' }) as GraphLevel | undefined;
    if (!level) return undefined;
    const formats = [
      { label: 'json', description: 'the witness cycle, as isocheck check --json' },
      { label: 'dot', description: 'Graphviz: the witness subgraph' },
      { label: 'svg', description: 'the graph with the witness highlighted' },
      { label: 'hist', description: 'a minimised litmus history that still violates the level' },
    ];
    const format = await vscode.window.showQuickPick(formats, { title: 'IsoCheck: export as' });
    if (!format) return undefined;
    picked = { level, format: format.label as ExportFormat };
  }
  return exportFromGraph(ctx, uri, picked.level, picked.format, undefined, target);
}
