// Keeps the workspace check's findings in the Problems panel after VS Code closes the documents the check opened.

import * as vscode from 'vscode';

/** The files the workspace check opens (and whose kept findings a change on disk makes stale). */
export const CHECKED_FILES_GLOB = '**/*.{hist,plume,dbcop}';

function isOpen(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.workspace.textDocuments.some((d) => d.uri.toString() === key);
}

/**
 * VS Code closes documents an extension opened without an editor (beyond 50 of them, and after a few minutes),
 * and the language server clears a closed document's diagnostics. The workspace check hands its findings here:
 * a closed document's last findings live in this collection until the document is opened again, when the
 * server's live diagnostics take over (so nothing shows twice).
 */
export class WorkspaceDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('isocheck-workspace');
  /** Findings of documents still open: moved into the collection when VS Code closes them. */
  private readonly pending = new Map<string, readonly vscode.Diagnostic[]>();
  /**
   * Documents a workspace check opened (this run or an earlier one), until the user opens or edits
   * them: a document VS Code closed during the check is still the check's (its findings are kept).
   */
  private readonly opened = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidCloseTextDocument((d) => {
        const key = d.uri.toString();
        const found = this.pending.get(key);
        if (found === undefined) return;
        this.pending.delete(key);
        this.collection.set(d.uri, found);
      }),
      // Opened again (by the user or a new check): the server's diagnostics of the text as it is now apply.
      vscode.workspace.onDidOpenTextDocument((d) => this.forget(d.uri)),
      // Edited while open (findings of an older text), or changed or deleted on disk while closed:
      // what was found no longer describes the file.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.forget(e.document.uri);
      }),
    ];
    const watcher = vscode.workspace.createFileSystemWatcher(CHECKED_FILES_GLOB, true, false, false);
    this.subscriptions.push(watcher, watcher.onDidChange((u) => this.forgetClosed(u)), watcher.onDidDelete((u) => this.forget(u)));
  }

  /** A file changed on disk: a closed document's kept findings go (an open one's are the server's). */
  private forgetClosed(uri: vscode.Uri): void {
    if (!isOpen(uri)) this.forget(uri);
  }

  /** Records what the server found in `uri` while it was open (only documents the check itself opened: a user's own editor keeps the server's live diagnostics). */
  remember(uri: vscode.Uri, diagnostics: readonly vscode.Diagnostic[]): void {
    const key = uri.toString();
    if (isOpen(uri)) {
      this.pending.set(key, diagnostics);
      this.collection.delete(uri);
    } else {
      this.pending.delete(key);
      this.collection.set(uri, diagnostics);
    }
  }

  /** The check opened `uri` (it was not open before): its findings may be kept when VS Code closes it. */
  markOpened(uri: vscode.Uri): void {
    this.opened.add(uri.toString());
  }

  /** Whether a workspace check opened this document (this one or an earlier one), not the user. */
  openedByCheck(uri: vscode.Uri): boolean {
    return this.opened.has(uri.toString());
  }

  forget(uri: vscode.Uri): void {
    this.opened.delete(uri.toString());
    this.pending.delete(uri.toString());
    this.collection.delete(uri);
  }

  /** What the collection shows for `uri` (tests). */
  shown(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
    this.pending.clear();
  }
}
