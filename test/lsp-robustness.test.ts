// The server under random mutations of the examples: it must answer every request and never die or log a handler failure.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CodeLensRequest, CompletionRequest, DefinitionRequest, DocumentSymbolRequest, FoldingRangeRequest, HoverRequest,
  ReferencesRequest, type Position,
} from 'vscode-languageserver-protocol/node';
import { AnalysisRequest } from '../server/src/protocol/messages.ts';
import { ensureBuilt, fileUri, suiteClient, ROOT } from './helpers/lsp-client.ts';
import { Rng } from '../server/src/engine/gen/generate.ts';

const MUTATIONS = Number(process.env.ISOCHECK_LSP_MUTATIONS ?? 3000);
const SEED = Number(process.env.ISOCHECK_LSP_SEED ?? 20250601);

/** The engine's seeded generator (the same seed gives the same stream everywhere), as a function. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.float();
}

const examples = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.hist')).map((f) => readFileSync(join(ROOT, 'examples', f), 'utf8'));

/** Tokens and the separators between them, so that joining them gives the text back. */
function tokens(text: string): string[] {
  return text.split(/(\s+|[(),:[\]]|<-)/).filter((t) => t.length > 0);
}

const ODD = ['\u0000', '\r', '\r\n', '⊥', '\ud800', '\udc00', '😀', '"', '\\', '[', ']', '(', ')', '<-', ':', ',', '#', '//', 'session', 'level', 'T1', 'r(', 'w(', '-', '99999999999999999999', '\u200b', '\t'];

function mutate(text: string, r: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const tk = tokens(text);
  const i = Math.floor(r() * Math.max(1, tk.length));
  const j = Math.floor(r() * Math.max(1, tk.length));
  switch (Math.floor(r() * 7)) {
    case 0: // delete a token
      tk.splice(i, 1);
      return tk.join('');
    case 1: // duplicate a token
      tk.splice(i, 0, tk[i] ?? '');
      return tk.join('');
    case 2: // swap two tokens
      [tk[i], tk[j]] = [tk[j], tk[i]];
      return tk.join('');
    case 3: { // random characters, odd ones included
      const at = Math.floor(r() * (text.length + 1));
      let junk = '';
      for (let k = 0, n = 1 + Math.floor(r() * 8); k < n; k++) junk += r() < 0.5 ? pick(ODD) : String.fromCharCode(Math.floor(r() * 0xffff));
      return text.slice(0, at) + junk + text.slice(at);
    }
    case 4: { // delete a range of characters
      const a = Math.floor(r() * text.length);
      return text.slice(0, a) + text.slice(a + Math.floor(r() * 40));
    }
    case 5: // a line of another example spliced in
      {
        const lines = text.split('\n');
        const other = pick(examples).split('\n');
        lines.splice(Math.floor(r() * (lines.length + 1)), 0, pick(other));
        return lines.join('\n');
      }
    default: // truncate
      return text.slice(0, Math.floor(r() * text.length));
  }
}

function randomPosition(text: string, r: () => number): Position {
  const lines = text.split('\n');
  const line = Math.floor(r() * (lines.length + 2));
  return { line, character: Math.floor(r() * ((lines[line]?.length ?? 0) + 3)) };
}

before(() => ensureBuilt());

describe('robustness', () => {
  // No debounce: every mutation is analysed, not just the last of a burst.
  const c = suiteClient({ settings: {}, initializationOptions: { debounceMs: 0 } });

  test(`${MUTATIONS} random mutations of the examples: every one analysed, every request answered`, async (t) => {
    const r = rng(SEED);
    const uris = [0, 1, 2, 3].map((k) => fileUri(`mutant-${k}.hist`));
    const texts = uris.map((_, k) => examples[k % examples.length]);
    for (const [k, uri] of uris.entries()) await c.open(uri, texts[k]);
    let requests = 0;
    // Four documents mutate side by side; each waits for its own diagnostics before the next mutation.
    await Promise.all(uris.map(async (uri, k) => {
      for (let n = 0; n < MUTATIONS / uris.length; n++) {
        texts[k] = r() < 0.05 ? pick(examples, r) : mutate(texts[k], r);
        if (texts[k].length > 20_000) texts[k] = texts[k].slice(0, 5_000);
        const v = await c.change(uri, texts[k]);
        await c.diagnosticsOfVersion(uri, v);
        const textDocument = { uri };
        const position = randomPosition(texts[k], r);
        switch (n % 8) {
          case 0: await c.connection.sendRequest(HoverRequest.type, { textDocument, position }); break;
          case 1: await c.connection.sendRequest(DefinitionRequest.type, { textDocument, position }); break;
          case 2: await c.connection.sendRequest(ReferencesRequest.type, { textDocument, position, context: { includeDeclaration: true } }); break;
          case 3: await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }); break;
          case 4: await c.connection.sendRequest(CompletionRequest.type, { textDocument, position }); break;
          case 5: await c.connection.sendRequest(CodeLensRequest.type, { textDocument }); break;
          case 6: await c.connection.sendRequest(FoldingRangeRequest.type, { textDocument }); break;
          default: await c.connection.sendRequest(AnalysisRequest.type, { uri }); break;
        }
        requests++;
      }
    }));
    t.diagnostic(`${requests} mutations, each analysed and followed by a request`);
    assert.equal(c.process.exitCode, null, 'the server is alive');
    const failures = c.logs.filter((l) => /failed/.test(l));
    assert.deepEqual(failures, [], 'no handler or analysis failed');
  });

  test('a 5 MB document and 1 MB of random bytes: analysed in the big-document worker; a small document\'s symbols are answered, correctly, before the big analysis is published', async (t) => {
    const r = rng(SEED + 1);
    let big = '';
    while (big.length < 5_000_000) big += (r() < 0.5 ? mutate(pick(examples, r), r) : pick(examples, r)) + '\n';
    const small = fileUri('small-beside-big.hist');
    await c.open(small, examples[0]);
    await c.diagnosticsOfVersion(small, 1);
    const expected = await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: small } });
    assert.ok(Array.isArray(expected) && expected.length > 0);
    const uri = fileUri('five-megabytes.hist');
    await c.open(uri, big);
    let published = false;
    const diagnostics = c.diagnosticsOfVersion(uri, 1, 50_000).finally(() => {
      published = true;
    });
    // Back to back (no sleeps): every answer must be the small document's symbols, and some must
    // arrive while the big analysis is still running.
    let answeredWhileRunning = 0;
    while (!published) {
      const symbols = await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: small } });
      assert.deepEqual(symbols, expected);
      if (!published) answeredWhileRunning++;
    }
    assert.ok(answeredWhileRunning >= 1, 'small requests were answered while the 5 MB analysis ran');
    const ds = await diagnostics;
    assert.ok(ds.length > 0 && ds.length <= 1001, `${ds.length} diagnostics, capped`);
    const symbols = await c.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
    assert.ok(Array.isArray(symbols) && symbols.length > 0);

    let bytes = '';
    for (let k = 0; k < 1_000_000; k++) bytes += String.fromCharCode(Math.floor(r() * 256));
    const v = await c.change(uri, bytes);
    await c.diagnosticsOfVersion(uri, v, 50_000);
    await c.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 3 } });
    t.diagnostic(`${answeredWhileRunning} small requests answered while the 5 MB document was analysed`);
    assert.equal(c.process.exitCode, null);
    assert.deepEqual(c.logs.filter((l) => /failed/.test(l)), []);
  });
});

function pick<T>(xs: readonly T[], r: () => number): T {
  return xs[Math.floor(r() * xs.length)];
}
