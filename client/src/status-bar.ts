// The status bar item: the active .hist file's verdicts, fed by the server's isocheck/status notification.

import * as vscode from 'vscode';
import type { StatusParams } from '../../server/src/protocol/shapes.ts';
import { isCheckedDocument } from './commands/context.ts';
import { statusText, summarySentence } from './summary.ts';

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('isocheck.status', vscode.StatusBarAlignment.Left, 100);
  /** Latest status per document URI; kept for hidden documents so switching editors shows them at once. */
  private readonly byUri = new Map<string, StatusParams>();
  private readonly subscriptions: vscode.Disposable[];
  /** What the item shows, or null while hidden (VS Code's item cannot be asked; tests read this). */
  private showing: string | null = null;
  /** The `isocheck.activeHistory` context key as last set (menus of .edn, .json, .txt histories use it). */
  private activeHistory: boolean | null = null;

  constructor() {
    this.item.name = 'IsoCheck';
    this.item.command = 'workbench.actions.view.problems';
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      vscode.workspace.onDidCloseTextDocument((d) => this.byUri.delete(d.uri.toString())),
    ];
    this.render();
  }

  update(status: StatusParams): void {
    const previous = this.byUri.get(status.uri);
    // Notifications of an older version can arrive after a newer one's 'checking'; keep the newest.
    if (previous && previous.version > status.version) return;
    this.byUri.set(status.uri, status);
    this.render();
  }

  get(uri: vscode.Uri): StatusParams | undefined {
    return this.byUri.get(uri.toString());
  }

  /** Every status received, by URI (the workspace check reads them). */
  all(): ReadonlyMap<string, StatusParams> {
    return this.byUri;
  }

  clear(): void {
    this.byUri.clear();
    this.render();
  }

  private render(): void {
    const editor = vscode.window.activeTextEditor;
    // .edn, .json, .txt … histories too: the server's status says it checks them.
    const checked = editor !== undefined && isCheckedDocument(editor.document, this);
    if (checked !== this.activeHistory) {
      this.activeHistory = checked;
      void vscode.commands.executeCommand('setContext', 'isocheck.activeHistory', checked);
    }
    if (!editor || !checked) {
      this.item.hide();
      this.showing = null;
      return;
    }
    const status = this.byUri.get(editor.document.uri.toString());
    if (!status) {
      this.item.text = '$(sync~spin) IsoCheck';
      this.item.tooltip = 'IsoCheck is starting';
      this.item.backgroundColor = undefined;
    } else {
      this.item.text = statusText(status);
      this.item.tooltip = summarySentence(status);
      this.item.backgroundColor = status.errors > 0 || status.state === 'failed' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    }
    this.item.show();
    this.showing = this.item.text;
  }

  /** Whether the `isocheck.activeHistory` context key (the commands' menus) says the active editor is a history. */
  activeIsHistory(): boolean {
    return this.activeHistory === true;
  }

  /** The item's text as shown for the active editor, or null when it is hidden. */
  shown(): string | null {
    return this.showing;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.item.dispose();
  }
}
