// isocheck.showGraph: opens the history graph of the active (or given) .hist file beside the editor, optionally at a level.

import * as vscode from 'vscode';
import { GRAPH_LEVELS, type GraphLevel } from '../../../server/src/protocol/webview.ts';
import type { GraphPanelInfo, GraphPanels } from '../graph/graph-panel.ts';
import { targetUri } from './context.ts';

/** `level` comes from a level's code lens: the graph shows that level's witness. */
export function showGraph(panels: GraphPanels, arg?: unknown, level?: unknown): GraphPanelInfo | undefined {
  const uri = targetUri(vscode, arg);
  if (!uri) {
    void vscode.window.showWarningMessage('IsoCheck: open a .hist file to show its graph.');
    return undefined;
  }
  // Returned so tests (and other commands) can see which panel is showing what.
  const asked = (GRAPH_LEVELS as readonly unknown[]).includes(level) ? level as GraphLevel : undefined;
  return panels.show(uri, asked).info();
}
