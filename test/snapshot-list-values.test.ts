// An editor snapshot names every value a list read returned, a garbage element too: hovers and the playground's graph show what was read.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSource } from '../server/src/engine/analyze.ts';
import { readerNamed } from '../server/src/engine/readers/registry.ts';
import { analysisJsonOfAnalysis, analysisJson } from '../server/src/lsp/features/analysis-json.ts';
import { hoverAt } from '../server/src/lsp/features/hover.ts';
import { DocModel } from '../server/src/lsp/doc-model.ts';
import { buildSnapshot } from '../server/src/lsp/snapshot.ts';

// T2 reads 7, which nobody appended: its value id is in no operation's value, only in the read's list.
const TEXT = readFileSync(join(import.meta.dirname, '..', 'examples', 'la-garbage-read.hist'), 'utf8');
const URI = 'file:///garbage.hist';

function model(): DocModel {
  const { snapshot } = buildSnapshot(TEXT, { uri: URI, levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 1000 });
  return new DocModel(URI, 1, '', snapshot);
}

test('the hover on a garbage read shows the list it returned, not an id in place of the garbage element', () => {
  const lines = TEXT.split('\n');
  const line = lines.findIndex((l) => l.includes('r(x, [1, 7])'));
  const h = hoverAt(model(), { line, character: lines[line].indexOf('r(x') + 1 });
  const value = h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  assert.match(value, /T2 read x = \\\[1, 7\\\]/);
  assert.doesNotMatch(value, /\[1, 1\\\]/);
});

test('the playground\'s graph of the editor text (from a snapshot) equals the language server\'s (from the analysis)', () => {
  const server = analysisJsonOfAnalysis(analyzeSource(readerNamed('hist')!.read({ text: TEXT })), URI, 1);
  assert.deepEqual(analysisJson(model()), server);
});
