// Requests about a document that is not open (never opened, or closed): every feature answers with nothing.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DidCloseTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { ensureBuilt, fileUri, suiteClient } from './helpers/lsp-client.ts';

const TEXT = 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n';

describe('features of documents that are not open', () => {
  ensureBuilt();
  const c = suiteClient({}, { noFailures: true });

  test('closed and never-opened documents: no hover, completion, definition, code action or lens', async () => {
    const closed = fileUri('closed-doc.hist');
    await c.open(closed, TEXT);
    await c.diagnosticsOfVersion(closed, 1);
    await c.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: closed } });
    for (const uri of [closed, fileUri('never-opened.hist')]) {
      const doc = { textDocument: { uri } };
      const at = { ...doc, position: { line: 3, character: 5 } };
      assert.equal(await c.connection.sendRequest('textDocument/hover', at), null, uri);
      // The position's line of a text that is not there: completion offered every keyword.
      assert.equal(await c.connection.sendRequest('textDocument/completion', at), null, uri);
      assert.equal(await c.connection.sendRequest('textDocument/definition', at), null, uri);
      assert.deepEqual(await c.connection.sendRequest('textDocument/codeAction', { ...doc, range: { start: at.position, end: at.position }, context: { diagnostics: [] } }), [], uri);
      assert.deepEqual(await c.connection.sendRequest('textDocument/codeLens', doc), [], uri);
    }
  });
});

describe('positions outside an open document', () => {
  ensureBuilt();
  const c = suiteClient({}, { noFailures: true });

  test('completion past the last line or past a line end answers nothing; inside, it answers', async () => {
    const uri = fileUri('outside-positions.hist');
    await c.open(uri, TEXT);
    await c.diagnosticsOfVersion(uri, 1);
    const complete = (line: number, character: number): Promise<unknown> =>
      c.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line, character } });
    // (getText clamps a position: line 40 was read as an empty line and offered every keyword.)
    assert.equal(await complete(40, 0), null);
    assert.equal(await complete(1, 200), null);
    const inside = (await complete(4, 0)) as { items: unknown[] } | null;
    assert.ok(inside !== null && inside.items.length > 0);
  });
});
