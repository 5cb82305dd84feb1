// The document stage: open, change, save and close keep one DocState per document and schedule checks.

import type { ServerContext } from './context.ts';
import { formatOfDocument } from './document-format.ts';

export function registerDocumentSync(ctx: ServerContext): void {
  const { documents, connection } = ctx;

  documents.onDidOpen(ctx.notification('open', (e) => {
    const { uri, languageId } = e.document;
    ctx.cancelRunning(uri);
    const st = ctx.docs.open(uri, formatOfDocument(uri, languageId, e.document.getText()));
    if (st.format === null) {
      void connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    ctx.scheduler.now(uri);
  }));

  documents.onDidChangeContent(ctx.notification('change', (e) => {
    const { uri, version } = e.document;
    const st = ctx.docs.get(uri);
    if (!st) return;
    if (st.opening) {
      st.opening = false; // the open itself, handled above
      return;
    }
    // A document read by its name and content (a .txt, .edn, .json) is read as a fresh open of
    // this text would be: one that has become a history is checked, one that no longer looks like
    // the history it was (or looks like another format) is left alone or read anew, never kept
    // under a reader chosen for an older text. (For a history language id this costs nothing.)
    const format = formatOfDocument(uri, e.document.languageId, e.document.getText());
    if (format !== st.format) {
      st.format = format;
      st.model = null;
      ctx.cancelRunning(uri);
      if (format === null) {
        ctx.scheduler.cancel(uri);
        void connection.sendDiagnostics({ uri, diagnostics: [] });
      }
    }
    if (st.format === null) return;
    void ctx.settingsFor(uri).then((s) => {
      if (s.checkOn !== 'change') return;
      // A newer edit makes a running analysis stale: stop it now rather than when the next one starts.
      if ((st.running?.version ?? version) < version) ctx.cancelRunning(uri);
      ctx.scheduler.edited(uri);
    });
  }));

  documents.onDidSave(ctx.notification('save', (e) => ctx.scheduler.now(e.document.uri)));

  documents.onDidClose(ctx.notification('close', (e) => {
    const uri = e.document.uri;
    ctx.scheduler.forget(uri);
    ctx.cancelRunning(uri);
    ctx.runner?.forget(uri);
    ctx.docs.close(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  }));
}
