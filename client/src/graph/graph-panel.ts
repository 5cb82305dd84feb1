// The graph panel: a webview beside the editor that draws the document's analysis and follows edits, cursor and restarts.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { AnalysisRequest, WitnessExportRequest } from '../../../server/src/protocol/messages.ts';
import type { AnalysisResult, JsonRange } from '../../../server/src/protocol/shapes.ts';
import {
  asGraphViewState, assertNever, GRAPH_VIEW_TYPE, isViewToHostMessage, type ExportFormat, type GraphLevel, type HostToViewMessage, type ViewToHostMessage,
} from '../../../server/src/protocol/webview.ts';
import { isCheckedDocument, type CommandContext } from '../commands/context.ts';
import { graphCsp } from './csp.ts';

/** What tests (and the export command) can learn about an open panel. */
export interface GraphPanelInfo {
  uri: string;
  visible: boolean;
  /** The webview said it is ready. */
  ready: boolean;
  pinned: boolean;
  /** The last analysis sent: its version and each level's witness as `from-kind->to` names. */
  version: number | null;
  witnesses: Record<string, string[]>;
  /** The level a code lens last asked the view to show (sent with the analysis), or null. */
  level: GraphLevel | null;
}

/**
 * The graph panel: one webview that follows the active `.hist` editor unless pinned, restored (with its
 * document's analysis) after a window reload.
 */
export class GraphPanels implements vscode.Disposable {
  private current: GraphPanel | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly ctx: CommandContext, private readonly extensionUri: vscode.Uri) {
    this.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(GRAPH_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel, state) => {
          const s = asGraphViewState(state);
          // A state saved before any analysis names no document; there is one panel.
          if (!s || s.uri === '' || this.current) {
            panel.dispose();
            return;
          }
          this.adopt(vscode.Uri.parse(s.uri), panel, s.pinned);
          await Promise.resolve();
        },
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        const p = this.current;
        // Any document IsoCheck checks (.plume, .dbcop, .edn … as well as .hist).
        if (p && !p.pinned && e && isCheckedDocument(e.document, ctx.statusBar) && e.document.uri.toString() !== p.uri.toString()) p.follow(e.document.uri);
      }),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        const p = this.current;
        const at = e.selections[0]?.active;
        if (p && at && e.textEditor.document.uri.toString() === p.uri.toString()) p.post({ type: 'cursor', uri: p.uri.toString(), position: { line: at.line, character: at.character } });
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        const p = this.current;
        if (p && d.uri.toString() === p.uri.toString()) p.post({ type: 'cleared', uri: d.uri.toString(), reason: 'The document was closed; open it again to see its graph.' });
      }),
    );
  }

  /** Opens (or reveals) the panel beside the editor, showing `uri` (at `level`, when a level's lens asks). */
  show(uri: vscode.Uri, level?: GraphLevel): GraphPanel {
    const existing = this.current;
    if (existing) {
      if (level) existing.showLevel(level);
      if (existing.uri.toString() !== uri.toString()) existing.follow(uri);
      else if (level) void existing.refresh();
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(GRAPH_VIEW_TYPE, titleOf(uri, false), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, this.options());
    const p = this.adopt(uri, panel, false);
    // Sent with the first analysis, once the view says it is ready.
    if (level) p.showLevel(level);
    return p;
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    // Only the bundle's folder can be loaded; no command links, no forms.
    return { enableScripts: true, retainContextWhenHidden: false, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'out', 'webview')] };
  }

  private adopt(uri: vscode.Uri, panel: vscode.WebviewPanel, pinned: boolean): GraphPanel {
    panel.webview.options = this.options();
    // On dispose, forget this panel only: a newer panel may have replaced it.
    const p: GraphPanel = new GraphPanel(uri, panel, this.ctx, this.extensionUri, pinned, () => {
      if (this.current === p) this.current = undefined;
    });
    this.current = p;
    return p;
  }

  /** The server has a new analysis of `uri`. */
  analysisChanged(uri: string): void {
    const p = this.current;
    if (!p) return;
    if (p.uri.toString() === uri) {
      void p.refresh();
      return;
    }
    // A file of another language (.edn, .json …) is known to be a history only once analysed: follow it then.
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    if (!p.pinned && active === uri) p.follow(vscode.Uri.parse(uri));
  }

  refreshAll(): void {
    if (this.current) void this.current.refresh();
  }

  /** The panel, when it shows `uri`. */
  get(uri: vscode.Uri): GraphPanel | undefined {
    return this.current?.uri.toString() === uri.toString() ? this.current : undefined;
  }

  /** The panel, whatever it shows. */
  active(): GraphPanel | undefined {
    return this.current;
  }

  dispose(): void {
    this.current?.panel.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function titleOf(uri: vscode.Uri, pinned: boolean): string {
  return `Graph: ${uri.path.split('/').pop() ?? uri.toString()}${pinned ? ' (pinned)' : ''}`;
}

export class GraphPanel {
  private ready = false;
  private last: AnalysisResult | null = null;
  /** A level a lens asked for, not yet sent; and the last one sent. */
  private pendingLevel: GraphLevel | null = null;
  private askedLevel: GraphLevel | null = null;
  private readonly disposables: vscode.Disposable[] = [];
  /** Documents this panel opened (in the background) so the server analyses them after a reload. */
  private readonly opened = new Set<string>();

  constructor(public uri: vscode.Uri, readonly panel: vscode.WebviewPanel, private readonly ctx: CommandContext,
    extensionUri: vscode.Uri, public pinned: boolean, onDispose: () => void) {
    panel.title = titleOf(uri, pinned);
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
    return {
      uri: this.uri.toString(), visible: this.panel.visible, ready: this.ready, pinned: this.pinned, version: a?.version ?? null, witnesses,
      level: this.pendingLevel ?? this.askedLevel,
    };
  }

  /** The next analysis sent asks the view to show `level` (once: afterwards the user's choice in the view stands). */
  showLevel(level: GraphLevel): void {
    this.pendingLevel = level;
  }

  /** Shows another document (the active editor changed, or the command was run on another file). */
  follow(uri: vscode.Uri): void {
    this.uri = uri;
    this.last = null;
    this.panel.title = titleOf(uri, this.pinned);
    void this.refresh();
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
        // Restored after a reload before the file's editor: open the document so the server analyses it; its
        // analysis-changed notification refreshes the panel.
        const key = this.uri.toString();
        if (!this.opened.has(key)) {
          this.opened.add(key);
          this.post({ type: 'cleared', uri: key, reason: 'Analysing…' });
          await vscode.workspace.openTextDocument(this.uri).then(undefined, () => undefined);
          return;
        }
        this.post({ type: 'cleared', uri: key, reason: 'Not analysed yet: open the file in an editor.' });
        return;
      }
      this.last = a;
      const level = this.pendingLevel;
      this.pendingLevel = null;
      if (level) this.askedLevel = level;
      this.post(level ? { type: 'analysis', analysis: a, level } : { type: 'analysis', analysis: a });
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
      case 'pin':
        this.pinned = m.pinned;
        this.panel.title = titleOf(this.uri, this.pinned);
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
  if (!target) {
    void vscode.window.showInformationMessage(`IsoCheck: exported the ${level} witness to ${vscode.workspace.asRelativePath(file)}.`, 'Open').then((choice) => {
      if (choice === 'Open') void vscode.commands.executeCommand('vscode.open', file);
    });
  }
  return file;
}

/** The page: a strict CSP with a nonce, the bundle and its stylesheet from out/webview only. */
function html(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
  const base = vscode.Uri.joinPath(extensionUri, 'out', 'webview');
  const js = webview.asWebviewUri(vscode.Uri.joinPath(base, 'webview.js'));
  const css = webview.asWebviewUri(vscode.Uri.joinPath(base, 'webview.css'));
  const csp = graphCsp(webview.cspSource, nonce);
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
