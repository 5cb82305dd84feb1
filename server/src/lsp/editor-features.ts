// The standard editor features (hover, navigation, symbols, lenses, completion), answered on the message loop from the latest analysis (outline and folding wait for the shown text's).

import type { CancellationToken, Position } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.ts';
import type { DocModel } from './doc-model.ts';
import { codeActions } from './features/code-actions.ts';
import { fixSourceOfModel } from './features/fix-source.ts';
import { codeLenses } from './features/code-lens.ts';
import { completions } from './features/completion.ts';
import { hoverAt } from './features/hover.ts';
import { definitionAt, referencesAt } from './features/navigation.ts';
import { documentSymbols, foldingRanges } from './features/symbols.ts';
import type { TextView } from './text-view.ts';
import { codeActionParams, completionParams, documentParams, positionParams, referenceParams } from './param-checks.ts';

/** Whether a position is inside the document: its line exists, its character is at most the line's length (no clamping). */
function inside(doc: TextDocument, p: Position): boolean {
  if (p.line < 0 || p.character < 0 || p.line >= doc.lineCount) return false;
  const line = doc.getText({ start: { line: p.line, character: 0 }, end: { line: p.line + 1, character: 0 } });
  return p.character <= line.replace(/\r?\n$|\r$/, '').length;
}

/** How long an outline or folding request waits for the analysis of the text the client shows. */
const WAIT_FOR_ANALYSIS_MS = 2000;
const POLL_MS = 25;

/**
 * For whole-document features (outline, folding): the analysis of the text the client shows and its view (itself);
 * while that text's analysis is still to come (typing, checkOn change), it is waited for, as LSP answers are
 * about the document's current version: the older analysis's ranges were lines off after lines were added above,
 * and the client kept them until the next edit. When none comes in time (checkOn save, a failed analysis), the
 * older analysis answers through the edits made since. Null before any analysis, or once the document closed.
 */
async function wholeDocumentModel(ctx: ServerContext, uri: string, token: CancellationToken): Promise<{ m: DocModel; view: TextView } | null> {
  const waitUntil = performance.now() + WAIT_FOR_ANALYSIS_MS;
  let waits = true;
  for (;;) {
    const st = ctx.docs.get(uri);
    const doc = ctx.documents.get(uri);
    if (!st || !doc || st.format === null) return null;
    const m = st.model;
    const text = doc.getText();
    if (m?.analysed(doc.version, text)) return { m, view: m.view() };
    if (waits && !st.running && (await ctx.settingsFor(uri)).checkOn !== 'change') waits = false;
    if (!waits || token.isCancellationRequested || performance.now() >= waitUntil) {
      // Read again: the settings' answer may have come after another edit.
      const last = ctx.docs.get(uri)?.model;
      const now = ctx.documents.get(uri);
      return last && now ? { m: last, view: last.view(now.version, now.getText()) } : null;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
  }, positionParams));
  connection.onDefinition(ctx.request('definition', null, (p) => {
    const c = currentModel(p.textDocument.uri, p.position);
    return c ? definitionAt(c.m, p.position, c.view) : null;
  }, positionParams));
  connection.onReferences(ctx.request('references', [], (p) => {
    // Only from the analysis of the text shown: references list the whole file, the edited part too.
    const m = model(p.textDocument.uri);
    const doc = ctx.documents.get(p.textDocument.uri);
    return m && doc && m.analysed(doc.version, doc.getText()) && inside(doc, p.position) ? referencesAt(m, p.position, p.context.includeDeclaration) : [];
  }, referenceParams));
  connection.onDocumentSymbol(ctx.request('document symbols', Promise.resolve([]), (p, token) =>
    wholeDocumentModel(ctx, p.textDocument.uri, token).then((c) => (c ? documentSymbols(c.m, undefined, c.view) : [])).catch((e: unknown) => {
      ctx.logError('document symbols', e);
      return [];
    }), documentParams));
  connection.onFoldingRanges(ctx.request('folding ranges', Promise.resolve([]), (p, token) =>
    wholeDocumentModel(ctx, p.textDocument.uri, token).then((c) => (c ? foldingRanges(c.m, c.view) : [])).catch((e: unknown) => {
      ctx.logError('folding ranges', e);
      return [];
    }), documentParams));
  connection.onCodeLens(ctx.request('code lens', [], (p) => {
    const m = model(p.textDocument.uri);
    return m ? codeLenses(m) : [];
  }, documentParams));
  connection.onCodeAction(ctx.request('code actions', [], (p) => {
    const st = ctx.docs.get(p.textDocument.uri);
    if (st && st.format !== 'hist') return []; // the fixes edit .hist text
    const doc = ctx.documents.get(p.textDocument.uri);
    if (!doc) return [];
    // The fixes read the latest analysis's history (and keep what they derive in it), never a parse of the text here.
    return codeActions(p.textDocument.uri, fixSourceOfModel(doc, st?.model ?? null), p.context.diagnostics);
  }, codeActionParams));
  connection.onCompletion(ctx.request('completion', null, (p) => {
    const st = ctx.docs.get(p.textDocument.uri);
    const doc = ctx.documents.get(p.textDocument.uri);
    // A document that is not open (never opened, or closed) has no text to complete in: every keyword was offered for it.
    if (!st || !doc || st.format !== 'hist') return null; // completion knows the .hist language only
    // A position past the text (getText clamps it) was offered the keywords of an empty line.
    if (!inside(doc, p.position)) return null;
    const prefix = doc.getText({ start: { line: p.position.line, character: 0 }, end: p.position });
    return completions(model(p.textDocument.uri), prefix, p.context?.triggerCharacter);
  }, completionParams));
}
