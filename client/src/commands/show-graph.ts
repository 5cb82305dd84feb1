// isocheck.showGraph: opens the history graph of the active (or given) .hist file beside the editor.

import * as vscode from 'vscode';
import type { GraphPanelInfo, GraphPanels } from '../graph/graph-panel.ts';
import { targetUri } from './context.ts';

export function showGraph(panels: GraphPanels, arg?: unknown): GraphPanelInfo | undefined {
  const uri = targetUri(vscode, arg);
  if (!uri) {
    void vscode.window.showWarningMessage('IsoCheck: open a .hist file to show its graph.');
    return undefined;
  }
  // Returned so tests (and other commands) can see which panel is showing what.
  return panels.show(uri).info();
}
