// The document stage: open, change, save and close keep one DocState per document and schedule checks.

import type { ServerContext } from './context.ts';
import { formatOfDocument } from './document-format.ts';

export function registerDocumentSync(ctx: ServerContext): void {
  const { documents, connection } = ctx;

  documents.onDidOpen(ctx.notification('open', (e) => {
    const { uri, version, languageId } = e.document;
    ctx.cancelRunning(uri);
    const st = ctx.docs.open(uri, version, formatOfDocument(uri, languageId, e.document.getText()));
    if (st.format === null) {
      void connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    ctx.scheduler.now(uri);
  }));

  documents.onDidChangeContent(ctx.notification('change', (e) => {
    const { uri, version } = e.document;
    const st = ctx.docs.get(uri);
    if (!st || st.openVersion === version) return; // the open itself, handled above
    if (st.format === null) {
      // A plain .txt left alone so far: it may have become a history.
      st.format = formatOfDocument(uri, e.document.languageId, e.document.getText());
      if (st.format === null) return;
    }
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
    ctx.docs.close(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  }));
}
