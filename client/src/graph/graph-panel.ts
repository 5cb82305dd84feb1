// The graph panel: a webview beside the editor that draws the document's analysis and follows edits, cursor and restarts.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { AnalysisRequest, WitnessExportRequest } from '../../../server/src/protocol/messages.ts';
import type { AnalysisResult, JsonRange } from '../../../server/src/protocol/shapes.ts';
import {
  asGraphViewState, assertNever, GRAPH_VIEW_TYPE, isViewToHostMessage, type ExportFormat, type GraphLevel, type HostToViewMessage, type ViewToHostMessage,
} from '../../../server/src/protocol/webview.ts';
import type { CommandContext } from '../commands/context.ts';

/** What tests (and the export command) can learn about an open panel. */
export interface GraphPanelInfo {
  uri: string;
  visible: boolean;
  /** The webview said it is ready. */
  ready: boolean;
  /** The last analysis sent: its version and each level's witness as `from-kind->to` names. */
  version: number | null;
  witnesses: Record<string, string[]>;
}

export class GraphPanels implements vscode.Disposable {
  private readonly panels = new Map<string, GraphPanel>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly ctx: CommandContext, private readonly extensionUri: vscode.Uri) {
    this.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(GRAPH_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => {
          const s = asGraphViewState(state);
          // A state saved before any analysis names no document; one panel per document is kept.
          if (!s || s.uri === '' || this.panels.has(s.uri)) {
            panel.dispose();
            return;
          }
          this.adopt(vscode.Uri.parse(s.uri), panel);
          await Promise.resolve();
        },
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        const p = this.panels.get(e.textEditor.document.uri.toString());
        const at = e.selections[0]?.active;
        if (p && at) p.post({ type: 'cursor', uri: p.uri.toString(), position: { line: at.line, character: at.character } });
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.panels.get(d.uri.toString())?.post({ type: 'cleared', uri: d.uri.toString(), reason: 'The document was closed; open it again to see its graph.' });
      }),
    );
  }

  /** Opens (or reveals) the panel of `uri` beside the editor. */
  show(uri: vscode.Uri): GraphPanel {
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, titleOf(uri), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, this.options());
    return this.adopt(uri, panel);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    // Only the bundle's folder can be loaded; no command links, no forms.
    return { enableScripts: true, retainContextWhenHidden: false, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'out', 'webview')] };
  }

  private adopt(uri: vscode.Uri, panel: vscode.WebviewPanel): GraphPanel {
    panel.webview.options = this.options();
    const key = uri.toString();
    // On dispose, forget this panel only: a newer panel of the same document may have replaced it.
    const p: GraphPanel = new GraphPanel(uri, panel, this.ctx, this.extensionUri, () => {
      if (this.panels.get(key) === p) this.panels.delete(key);
    });
    this.panels.set(key, p);
    return p;
  }

  /** The server has a new analysis of `uri`. */
  analysisChanged(uri: string): void {
    void this.panels.get(uri)?.refresh();
  }

  refreshAll(): void {
    for (const p of this.panels.values()) void p.refresh();
  }

  get(uri: vscode.Uri): GraphPanel | undefined {
    return this.panels.get(uri.toString());
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.panel.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function titleOf(uri: vscode.Uri): string {
  return `Graph: ${uri.path.split('/').pop() ?? uri.toString()}`;
}

export class GraphPanel {
  private ready = false;
  private last: AnalysisResult | null = null;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(readonly uri: vscode.Uri, readonly panel: vscode.WebviewPanel, private readonly ctx: CommandContext,
    extensionUri: vscode.Uri, onDispose: () => void) {
    panel.title = titleOf(uri);
    panel.webview.html = html(panel.webview, extensionUri);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => {
        if (!isViewToHostMessage(m)) {
          ctx.output.appendLine(`graph: ignored a malformed message from the webview: ${JSON.stringify(m).slice(0, 200)}`);
          return;
        }
        // Requests can fail (the server restarting, a file that cannot be written): say so.
        this.handle(m).catch((e: unknown) => {
          const message = e instanceof Error ? e.message : String(e);
          ctx.output.appendLine(`graph: ${m.type} failed: ${message}`);
          void vscode.window.showWarningMessage(`IsoCheck graph: ${m.type} failed: ${message}`);
        });
      }),
      panel.onDidDispose(() => {
        onDispose();
        for (const d of this.disposables) d.dispose();
      }),
    );
  }

  info(): GraphPanelInfo {
    const witnesses: Record<string, string[]> = {};
    const a = this.last;
    if (a) {
      const name = (t: number): string => (t === 0 ? 'init' : a.transactions[t]?.name ?? `#${t}`);
      for (const v of [...a.levels, ...(a.mixed ? [a.mixed] : [])]) {
        if (v.witness) witnesses[v.level] = v.witness.cycle.map((e) => `${name(e.from)}-${e.kind}->${name(e.to)}`);
      }
    }
    return { uri: this.uri.toString(), visible: this.panel.visible, ready: this.ready, version: a?.version ?? null, witnesses };
  }

  post(m: HostToViewMessage): void {
    void this.panel.webview.postMessage(m);
  }

  /** Fetches the latest analysis from the server and sends it to the view. */
  async refresh(): Promise<void> {
    if (!this.ready) return;
    const client = this.ctx.client();
    if (!client?.isRunning()) {
      this.post({ type: 'cleared', uri: this.uri.toString(), reason: 'The IsoCheck language server is not running.' });
      return;
    }
    try {
      const a = await client.sendRequest(AnalysisRequest.type, { uri: this.uri.toString() });
      if (!a) {
        this.post({ type: 'cleared', uri: this.uri.toString(), reason: 'Not analysed yet: open the file in an editor.' });
        return;
      }
      this.last = a;
      this.post({ type: 'analysis', analysis: a });
    } catch (e) {
      this.ctx.output.appendLine(`graph: could not fetch the analysis: ${String(e)}`);
    }
  }

  /** Every message the view can send, handled (the switch is exhaustive). */
  async handle(m: ViewToHostMessage): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        await this.refresh();
        return;
      case 'reveal':
        await this.reveal(m.range);
        return;
      case 'export':
        await exportFromGraph(this.ctx, this.uri, m.level, m.format, m.svg);
        return;
      default:
        assertNever(m);
    }
  }

  /** Shows the document in the editor column it is in (else the first) with `range` selected. */
  async reveal(range: JsonRange): Promise<vscode.TextEditor> {
    const r = new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === this.uri.toString());
    const editor = await vscode.window.showTextDocument(this.uri, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One, selection: r, preserveFocus: false });
    editor.revealRange(r, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return editor;
  }
}

/** Saves one level's witness (the server renders json, dot, svg and hist; the panel may send its own svg). */
export async function exportFromGraph(ctx: CommandContext, uri: vscode.Uri, level: GraphLevel, format: ExportFormat, svg?: string, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  let text = svg;
  let extension = 'svg';
  if (text === undefined) {
    const client = ctx.client();
    if (!client) {
      void vscode.window.showWarningMessage('IsoCheck: the language server is not running.');
      return undefined;
    }
    const r = await client.sendRequest(WitnessExportRequest.type, { uri: uri.toString(), level, format });
    if (!r.ok) {
      void vscode.window.showWarningMessage(`IsoCheck: ${r.message}`);
      return undefined;
    }
    text = r.text;
    extension = r.extension;
  }
  const base = uri.path.replace(/\.[^./]*$/, '');
  const suffix = format === 'hist' ? `.${level}.min.hist` : `.${level}.witness.${extension}`;
  const file = target ?? await vscode.window.showSaveDialog({
    defaultUri: uri.with({ path: base + suffix }),
    filters: { [format.toUpperCase()]: [extension] },
    title: `Export the ${level} witness`,
  });
  if (!file) return undefined;
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
  if (!target) void vscode.window.showInformationMessage(`IsoCheck: exported the ${level} witness to ${vscode.workspace.asRelativePath(file)}.`);
  return file;
}

/** The page: a strict CSP with a nonce, the bundle and its stylesheet from out/webview only. */
function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
  const base = vscode.Uri.joinPath(extensionUri, 'out', 'webview');
  const js = webview.asWebviewUri(vscode.Uri.joinPath(base, 'webview.js'));
  const css = webview.asWebviewUri(vscode.Uri.joinPath(base, 'webview.css'));
  const csp = [`default-src 'none'`, `img-src ${webview.cspSource} data:`, `style-src ${webview.cspSource}`, `font-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${css.toString()}">
<title>IsoCheck graph</title>
</head>
<body>
<div id="app"></div>
<script nonce="${nonce}" src="${js.toString()}"></script>
</body>
</html>`;
}
