// The standard editor features (hover, navigation, symbols, lenses, completion), answered on the message loop from the latest analysis.

import type { Position } from 'vscode-languageserver/node';
import type { ServerContext } from './context.ts';
import type { DocModel } from './doc-model.ts';
import { codeActions } from './features/code-actions.ts';
import { codeLenses } from './features/code-lens.ts';
import { completions } from './features/completion.ts';
import { hoverAt } from './features/hover.ts';
import { definitionAt, referencesAt } from './features/navigation.ts';
import { documentSymbols, foldingRanges } from './features/symbols.ts';

export function registerEditorFeatures(ctx: ServerContext): void {
  const { connection } = ctx;
  const model = (uri: string): DocModel | null => ctx.docs.get(uri)?.model ?? null;
  /**
   * For position-based features: the analysis of the text the client shows. While a newer version
   * is being analysed, the older analysis still answers for positions before the first change.
   */
  const currentModel = (uri: string, position?: Position): DocModel | null => {
    const m = model(uri);
    const doc = ctx.documents.get(uri);
    if (!m || !doc) return null;
    if (m.version === doc.version) return m;
    if (!position) return null;
    return doc.offsetAt(position) < m.unchangedPrefix(doc.version, doc.getText()) ? m : null;
  };

  connection.onHover(ctx.request('hover', null, (p) => {
    const m = currentModel(p.textDocument.uri, p.position);
    return m ? hoverAt(m, p.position) : null;
  }));
  connection.onDefinition(ctx.request('definition', null, (p) => {
    const m = currentModel(p.textDocument.uri, p.position);
    return m ? definitionAt(m, p.position) : null;
  }));
  connection.onReferences(ctx.request('references', [], (p) => {
    const m = currentModel(p.textDocument.uri);
    return m ? referencesAt(m, p.position, p.context.includeDeclaration) : [];
  }));
  connection.onDocumentSymbol(ctx.request('document symbols', [], (p) => {
    const m = model(p.textDocument.uri);
    return m ? documentSymbols(m) : [];
  }));
  connection.onFoldingRanges(ctx.request('folding ranges', [], (p) => {
    const m = model(p.textDocument.uri);
    return m ? foldingRanges(m) : [];
  }));
  connection.onCodeLens(ctx.request('code lens', [], (p) => {
    const m = model(p.textDocument.uri);
    return m ? codeLenses(m) : [];
  }));
  connection.onCodeAction(ctx.request('code actions', [], (p) => {
    const doc = ctx.documents.get(p.textDocument.uri);
    return doc ? codeActions(p.textDocument.uri, doc.getText(), p.context.diagnostics) : [];
  }));
  connection.onCompletion(ctx.request('completion', null, (p) => {
    const st = ctx.docs.get(p.textDocument.uri);
    if (st && st.format !== 'hist') return null; // completion knows the .hist language only
    const doc = ctx.documents.get(p.textDocument.uri);
    const prefix = doc ? doc.getText({ start: { line: p.position.line, character: 0 }, end: p.position }) : '';
    return completions(model(p.textDocument.uri), prefix);
  }));
}
