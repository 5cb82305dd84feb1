// How open documents follow the client's edits: after any edits ending in a text, the server holds that text and checks it as if freshly opened.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DidChangeTextDocumentNotification, DocumentSymbolRequest, FoldingRangeRequest, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver-protocol/node';
import { Rng } from '../server/src/engine/gen/generate.ts';
import { DocModel } from '../server/src/lsp/doc-model.ts';
import { definitionAt } from '../server/src/lsp/features/navigation.ts';
import { buildSnapshot } from '../server/src/lsp/snapshot.ts';
import { SyncedDocument } from '../server/src/lsp/synced-document.ts';
import { ensureBuilt, fileUri, suiteClient, ROOT } from './helpers/lsp-client.ts';

type Pos = { line: number; character: number };

/** The offset of a position as an editor counts it on the whole text: `\r\n`, `\r` and `\n` end lines; a character past the line's end is its end. */
function offsetIn(text: string, p: Pos): number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\r' && text[i + 1] === '\n') i++;
    if (c === '\r' || c === '\n') starts.push(i + 1);
  }
  if (p.line >= starts.length) return text.length;
  if (p.line < 0) return 0;
  let o = Math.min(starts[p.line] + Math.max(0, p.character), p.line + 1 < starts.length ? starts[p.line + 1] : text.length);
  while (o > starts[p.line] && (text[o - 1] === '\n' || text[o - 1] === '\r')) o--;
  return o;
}

function edited(text: string, start: Pos, end: Pos, insert: string): string {
  return text.slice(0, offsetIn(text, start)) + insert + text.slice(offsetIn(text, end));
}

describe('the server\'s copy of a document', () => {
  test('an edit that joins a \\r and a \\n into one line break leaves every later position where the client has it', () => {
    // "\r" typed at the end of line 0 of a "\n" file: the text has two lines, not three.
    let doc = SyncedDocument.create('file:///a.hist', 'hist', 1, 'ab\ncd\n');
    doc = SyncedDocument.update(doc, [{ range: { start: { line: 0, character: 2 }, end: { line: 0, character: 2 } }, text: '\r' }], 2);
    assert.equal(doc.getText(), 'ab\r\ncd\n');
    assert.equal(doc.lineCount, 3);
    assert.deepEqual(doc.positionAt(4), { line: 1, character: 0 });
    doc = SyncedDocument.update(doc, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, text: 'X' }], 3);
    assert.equal(doc.getText(), 'ab\r\nXd\n');
  });

  test('a range on lines past the end (a client\'s "end of document") changes the text at its end, and the lines stay counted', () => {
    let doc = SyncedDocument.create('file:///a.hist', 'hist', 1, 'x');
    doc = SyncedDocument.update(doc, [{ range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, text: '\ny' }], 2);
    assert.equal(doc.getText(), 'x\ny');
    assert.equal(doc.lineCount, 2);
    assert.deepEqual(doc.positionAt(3), { line: 1, character: 1 });
  });

  test('a version whose changes include a malformed one is refused whole: no earlier change of it is applied', () => {
    const doc = SyncedDocument.create('file:///a.hist', 'hist', 1, 'ab\ncd');
    const good = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: 'X' };
    for (const bad of [{ range: null, text: 'y' }, { text: 5 }, {}, null, { range: { start: { line: 0.5, character: 0 }, end: { line: 1, character: 0 } }, text: 'y' }, { range: { start: { line: 0 }, end: { line: 1, character: 0 } }, text: 'y' }]) {
      assert.throws(() => SyncedDocument.update(doc, [good, bad as never], 2), /change 2 of 2 .* is malformed/);
      assert.equal(doc.getText(), 'ab\ncd');
      assert.equal(doc.version, 1);
    }
  });

  test('an analysis answers hovers for a text given its version number, not for another text given the same number', () => {
    const text = 'session s2\n  T2: r(x, 1)\nsession s1\n  T1: w(x, 1)\n';
    const { snapshot } = buildSnapshot(text, { uri: 'file:///v.hist', levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 });
    const m = new DocModel('file:///v.hist', 2, 'k', snapshot, false, text);
    const other = text.replace('session s1', '# a\nsession s1');
    assert.equal(m.analysed(2, text), true);
    assert.equal(m.analysed(2, other), false);
    // The write moved a line down in the other text: its definition is found there, not at the analysed line.
    const read = { line: 1, character: 7 };
    assert.deepEqual(definitionAt(m, read, m.view(2, other))?.range, { start: { line: 4, character: 6 }, end: { line: 4, character: 13 } });
    assert.equal(m.unchangedPrefix(2, other), text.indexOf('session s1'));
  });

  test('random edits at line breaks (CR LF joined, lone CRs, positions past the ends): the text and its lines are a fresh document\'s', () => {
    const rng = new Rng(20250710);
    const pick = <T>(xs: readonly T[]): T => xs[rng.below(xs.length)];
    for (let run = 0; run < 300; run++) {
      let text = pick(['ab\ncd\nef\n', 'ab\r\ncd\r\n', 'a\rb\rc', '', '\n\n\r\r']);
      let doc = SyncedDocument.create('file:///r.hist', 'hist', 0, text);
      for (let v = 1; v <= 30; v++) {
        const changes = [];
        for (let k = 0, n = 1 + rng.below(3); k < n; k++) {
          const p = (): Pos => ({ line: rng.below(6) - 1, character: pick([0, 1, 2, 1e6, -1]) });
          const start = p();
          const end = rng.below(2) === 0 ? start : p();
          const [a, b] = start.line < end.line || (start.line === end.line && start.character <= end.character) ? [start, end] : [end, start];
          const insert = pick(['', '\r', '\n', '\r\n', 'x', 'x\r', '\ny', 'z\r\nz']);
          text = edited(text, a, b, insert);
          changes.push({ range: { start, end }, text: insert });
        }
        doc = SyncedDocument.update(doc, changes, v);
        assert.equal(doc.getText(), text);
        const fresh = TextDocument.create('file:///f.hist', 'hist', v, text);
        assert.equal(doc.lineCount, fresh.lineCount, JSON.stringify(text));
        for (let o = 0; o <= text.length; o++) assert.deepEqual(doc.positionAt(o), fresh.positionAt(o), `offset ${o} of ${JSON.stringify(text)}`);
      }
    }
  });
});

before(() => ensureBuilt());

describe('the server over edits', () => {
  const c = suiteClient({ settings: {}, initializationOptions: { debounceMs: 0 } });

  test('a change notification with a malformed change: refused whole; the next edit is checked on the text before it', async () => {
    const uri = fileUri('sync-malformed.hist');
    const text = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
    await c.open(uri, text);
    assert.deepEqual(await c.diagnosticsOfVersion(uri, 1), []);
    // Line 3 would become "  T2: r(x, 2)" (a thin-air read), but the second change is malformed.
    await c.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: 2 }, contentChanges: [
      { range: { start: { line: 3, character: 11 }, end: { line: 3, character: 12 } }, text: '2' }, { range: null, text: 'x' } as never] });
    // The client's next edit (numbered 2 again: the refused version never existed).
    const version = await c.edit(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '# a comment\n');
    assert.deepEqual(await c.diagnosticsOfVersion(uri, version), [], 'no change of the refused version was applied');
  });

  test('a didOpen without a whole document (no text, no version…) is ignored: the open document keeps its text and is checked after the next edit', async () => {
    const uri = fileUri('sync-malformed-open.hist');
    const text = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
    await c.open(uri, text);
    assert.deepEqual(await c.diagnosticsOfVersion(uri, 1), []);
    const failedBefore = c.logs.filter((l) => /failed/.test(l)).length;
    for (const textDocument of [{ uri }, { uri, languageId: 'hist', version: 2 }, { uri, languageId: 'hist', version: 'two', text: '' }, { uri, languageId: 5, version: 2, text: '' }]) {
      await c.connection.sendNotification('textDocument/didOpen', { textDocument });
    }
    await c.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: fileUri('sync-malformed-new.hist'), languageId: 'hist', version: 1 } });
    // "T2: r(x, 1)" becomes "T2: r(x, 2)", a thin-air read: checked on the text the client has.
    const version = await c.edit(uri, { start: { line: 3, character: 11 }, end: { line: 3, character: 12 } }, '2');
    assert.deepEqual((await c.diagnosticsOfVersion(uri, version, 5000)).map((d) => d.code), ['thin-air']);
    assert.deepEqual(c.logs.filter((l) => /failed/.test(l)).slice(failedBefore), [], 'no handler failed');
    assert.ok(c.logs.some((l) => /ignored a textDocument\/didOpen without a whole document/.test(l)));
  });

  test('a .txt read as plume and edited into prose, or into AWDIT\'s format: diagnostics as a fresh open of the text gets', async () => {
    const plume = 'w(1,1,0,1)\nw(2,1,0,1)\nr(2,0,1,2)\nr(1,1,1,2)\nbad\n';
    const awdit = readFileSync(join(ROOT, 'test', 'fixtures', 'awdit-test', 'fractured-read.txt'), 'utf8');
    const prose = 'Remember: session order matters.\n';
    for (const [k, later] of [prose, awdit, plume].entries()) {
      const uri = fileUri(`sync-sniffed-${k}.txt`);
      await c.open(uri, plume, 'plaintext');
      assert.ok((await c.diagnosticsOfVersion(uri, 1)).some((d) => d.code === 'syntax'), 'read as plume');
      const version = await c.change(uri, later);
      const freshUri = fileUri(`sync-sniffed-${k}-fresh.txt`);
      await c.open(freshUri, later, 'plaintext');
      const fresh = later === prose ? (await c.diagnosticsFor(freshUri)).diagnostics : await c.diagnosticsOfVersion(freshUri, 1);
      const edited = later === prose
        ? (await c.diagnosticsFor(uri, (p) => p.diagnostics.length === 0, 5000).catch(() => c.diagnostics.get(uri)))?.diagnostics ?? []
        : await c.diagnosticsOfVersion(uri, version);
      assert.deepEqual(edited.map((d) => [d.code, d.message, d.range]), fresh.map((d) => [d.code, d.message, d.range]), JSON.stringify(later.slice(0, 40)));
    }
  });

  test('a client that numbers two texts alike (against LSP), or goes back to the opened version: the latest text is checked', async () => {
    const uri = fileUri('sync-versions.hist');
    const clean = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
    const thinAir = clean.replace('r(x, 1)', 'r(x, 2)');
    await c.open(uri, clean);
    assert.deepEqual(await c.diagnosticsOfVersion(uri, 1), []);
    const send = (version: number, text: string): Promise<void> =>
      c.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    await send(2, `${clean}# two\n`);
    assert.deepEqual(await c.diagnosticsOfVersion(uri, 2), []);
    await send(2, thinAir);
    const again = await c.diagnosticsFor(uri, (p) => p.version === 2 && p.diagnostics.length > 0, 5000);
    assert.deepEqual(again.diagnostics.map((d) => d.code), ['thin-air']);
    await send(1, clean);
    const back = await c.diagnosticsFor(uri, (p) => p.version === 1, 5000);
    assert.deepEqual(back.diagnostics, []);
  });

  test('a \\r typed before a \\n, then an edit on the next line: the diagnostics of the client\'s text', async () => {
    const uri = fileUri('sync-crlf.hist');
    let text = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';
    await c.open(uri, text);
    await c.diagnosticsOfVersion(uri, 1);
    const edits: [Pos, Pos, string][] = [[{ line: 0, character: 10 }, { line: 0, character: 10 }, '\r'], [{ line: 1, character: 0 }, { line: 1, character: 4 }, '']];
    let version = 1;
    for (const [start, end, insert] of edits) {
      text = edited(text, start, end, insert);
      version = await c.edit(uri, { start, end }, insert);
    }
    assert.equal(text, 'session s1\r\n: w(x, 1)\nsession s2\n  T2: r(x, 1)\n');
    const afterEdits = await c.diagnosticsOfVersion(uri, version);
    const freshUri = fileUri('sync-crlf-fresh.hist');
    await c.open(freshUri, text);
    const fresh = await c.diagnosticsOfVersion(freshUri, 1);
    assert.ok(fresh.some((d) => d.code === 'syntax'), 'the text has lost its transaction header');
    assert.deepEqual(afterEdits.map((d) => [d.code, d.message, d.range]), fresh.map((d) => [d.code, d.message, d.range]));
  });
});

/** The outline as lines: each session and transaction with the lines of its range and selection. */
function outline(symbols: DocumentSymbol[] | null): string[] {
  const line = (x: DocumentSymbol): string => `${x.name} ${x.range.start.line}-${x.range.end.line} @${x.selectionRange.start.line}`;
  return (symbols ?? []).flatMap((x) => [line(x), ...(x.children ?? []).map((y) => `  ${line(y)}`)]);
}

const folds = (f: FoldingRange[] | null): string[] => (f ?? []).map((r) => `${r.startLine}-${r.endLine}`);

describe('outline and folding while the analysis catches up with typing', () => {
  // The editor's own debounce: the last edits of a burst are analysed 150 ms after it.
  const c = suiteClient({ settings: {}, initializationOptions: { debounceMs: 150 } });
  const text = 'session s1\n  T1: w(x, 1)\n  T2: w(y, 1)\nsession s2\n  T3: r(x, 1)\n  T4: r(y, 1)\n';

  test('asked right after a burst of lines typed above the sessions: the lines of the text the client shows (an older analysis\'s were 10 lines off)', async () => {
    const uri = fileUri('sync-outline.hist');
    await c.open(uri, text);
    await c.diagnosticsOfVersion(uri, 1);
    const textDocument = { uri };
    let version = 1;
    for (let k = 0; k < 10; k++) version = await c.edit(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '# a comment\n');
    const symbols = c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument });
    const folding = c.connection.sendRequest(FoldingRangeRequest.type, { textDocument });
    const expected = ['s1 10-12 @10', '  T1 11-11 @11', '  T2 12-12 @12', 's2 13-15 @13', '  T3 14-14 @14', '  T4 15-15 @15'];
    assert.deepEqual(outline(await symbols as DocumentSymbol[]), expected);
    assert.deepEqual(folds(await folding), ['10-12', '13-15']);
    await c.diagnosticsOfVersion(uri, version);
    assert.deepEqual(outline(await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }) as DocumentSymbol[]), expected, 'as after the analysis');
  });
});

describe('outline and folding with checkOn save (no analysis until the save)', () => {
  const c = suiteClient({ settings: { checkOn: 'save' }, initializationOptions: { debounceMs: 0 } });

  test('the last analysis answers through the edits since: sessions after the edit move with it, an edited one is left out', async () => {
    const uri = fileUri('sync-outline-save.hist');
    await c.open(uri, 'session s1\n  T1: w(x, 1)\n  T2: w(y, 1)\nsession s2\n  T3: r(x, 1)\n  T4: r(y, 1)\n');
    await c.diagnosticsOfVersion(uri, 1);
    const textDocument = { uri };
    await c.edit(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, '# one\n# two\n');
    const started = performance.now();
    assert.deepEqual(outline(await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }) as DocumentSymbol[]),
      ['s1 2-4 @2', '  T1 3-3 @3', '  T2 4-4 @4', 's2 5-7 @5', '  T3 6-6 @6', '  T4 7-7 @7']);
    assert.ok(performance.now() - started < 1000, 'answered at once: no analysis is coming');
    const other = fileUri('sync-outline-save-2.hist');
    await c.open(other, 'session s1\n  T1: w(x, 1)\n  T2: w(y, 1)\nsession s2\n  T3: r(x, 1)\n  T4: r(y, 1)\n');
    await c.diagnosticsOfVersion(other, 1);
    await c.edit(other, { start: { line: 4, character: 12 }, end: { line: 4, character: 12 } }, ' w(z, 1)');
    assert.deepEqual(outline(await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: other } }) as DocumentSymbol[]), ['s1 0-2 @0', '  T1 1-1 @1', '  T2 2-2 @2']);
    assert.deepEqual(folds(await c.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: other } })), ['0-2']);
  });
});
