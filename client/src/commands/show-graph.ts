// isocheck.showGraph: opens the history graph of the active (or given) .hist file beside the editor, optionally at a level.

import * as vscode from 'vscode';
import { GRAPH_LEVELS, type GraphLevel } from '../../../server/src/protocol/webview.ts';
import type { GraphPanelInfo, GraphPanels } from '../graph/graph-panel.ts';
import type { StatusBar } from '../status-bar.ts';
import { targetUri } from './context.ts';

/** `level` comes from a level's code lens: the graph shows that level's witness. */
export function showGraph(panels: GraphPanels, statusBar: StatusBar, arg?: unknown, level?: unknown): GraphPanelInfo | undefined {
  const uri = targetUri(vscode, arg, statusBar);
  if (!uri) {
    void vscode.window.showWarningMessage('IsoCheck: open a history file to show its graph.');
    return undefined;
  }
  // Returned so tests (and other commands) can see which panel is showing what.
  const asked = (GRAPH_LEVELS as readonly unknown[]).includes(level) ? level as GraphLevel : undefined;
  return panels.show(uri, asked).info();
}
