// The standard editor features (hover, navigation, symbols, lenses, completion), answered on the message loop from the latest analysis.

import type { Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.ts';
import type { DocModel } from './doc-model.ts';
import { codeActions } from './features/code-actions.ts';
import { codeLenses } from './features/code-lens.ts';
import { completions } from './features/completion.ts';
import { hoverAt } from './features/hover.ts';
import { definitionAt, referencesAt } from './features/navigation.ts';
import { documentSymbols, foldingRanges } from './features/symbols.ts';
import type { TextView } from './text-view.ts';

/** Whether a position is inside the document: its line exists, its character is at most the line's length (no clamping). */
function inside(doc: TextDocument, p: Position): boolean {
  if (p.line < 0 || p.character < 0 || p.line >= doc.lineCount) return false;
  const line = doc.getText({ start: { line: p.line, character: 0 }, end: { line: p.line + 1, character: 0 } });
  return p.character <= line.replace(/\r?\n$|\r$/, '').length;
}

export function registerEditorFeatures(ctx: ServerContext): void {
  const { connection } = ctx;
  const model = (uri: string): DocModel | null => ctx.docs.get(uri)?.model ?? null;
  /**
   * For position-based features: the analysis that answers for a position of the text the client
   * shows, and where its offsets stand in that text. While a newer version is being analysed, the
   * older analysis still answers for positions before the first change, its ranges and lines
   * mapped through the edits made since.
   */
  const currentModel = (uri: string, position: Position): { m: DocModel; view: TextView } | null => {
    const m = model(uri);
    const doc = ctx.documents.get(uri);
    if (!m || !doc || !inside(doc, position)) return null;
    const text = doc.getText();
    if (m.analysed(doc.version, text)) return { m, view: m.view() };
    return doc.offsetAt(position) < m.unchangedPrefix(doc.version, text) ? { m, view: m.view(doc.version, text) } : null;
  };

  connection.onHover(ctx.request('hover', null, (p) => {
    const c = currentModel(p.textDocument.uri, p.position);
    return c ? hoverAt(c.m, p.position, c.view) : null;
  }));
  connection.onDefinition(ctx.request('definition', null, (p) => {
    const c = currentModel(p.textDocument.uri, p.position);
    return c ? definitionAt(c.m, p.position, c.view) : null;
  }));
  connection.onReferences(ctx.request('references', [], (p) => {
    // Only from the analysis of the text shown: references list the whole file, the edited part too.
    const m = model(p.textDocument.uri);
    const doc = ctx.documents.get(p.textDocument.uri);
    return m && doc && m.analysed(doc.version, doc.getText()) && inside(doc, p.position) ? referencesAt(m, p.position, p.context.includeDeclaration) : [];
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
    const st = ctx.docs.get(p.textDocument.uri);
    if (st && st.format !== 'hist') return []; // the fixes edit .hist text
    const doc = ctx.documents.get(p.textDocument.uri);
    return doc ? codeActions(p.textDocument.uri, doc.getText(), p.context.diagnostics) : [];
  }));
  connection.onCompletion(ctx.request('completion', null, (p) => {
    const st = ctx.docs.get(p.textDocument.uri);
    if (st && st.format !== 'hist') return null; // completion knows the .hist language only
    const doc = ctx.documents.get(p.textDocument.uri);
    const prefix = doc ? doc.getText({ start: { line: p.position.line, character: 0 }, end: p.position }) : '';
    return completions(model(p.textDocument.uri), prefix, p.context?.triggerCharacter);
  }));
}
