// List-append editor features: hover on a list read and an append, go to definition from a list element to its append.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DocModel } from '../server/src/lsp/doc-model.ts';
import { hoverAt } from '../server/src/lsp/features/hover.ts';
import { definitionAt } from '../server/src/lsp/features/navigation.ts';
import { buildSnapshot } from '../server/src/lsp/snapshot.ts';

const TEXT = `session s1
  T1: a(x, 1)
  T2: a(x, 2)
session s2
  T3 @ 100..130: r(x, [1]) a(y, 5)
session s3
  T4 @ 140..150: r(x, [1, 2]) r(y, [])
`;

function model(text: string): DocModel {
  const { snapshot } = buildSnapshot(text, { uri: 'file:///t.hist', levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 });
  return new DocModel('file:///t.hist', 1, 'k', snapshot, false, text);
}

function at(m: DocModel, text: string, needle: string, delta = 0): { line: number; character: number } {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, needle);
  return m.lines.position(i + delta);
}

function hoverText(m: DocModel, needle: string, delta = 1): string {
  const h = hoverAt(m, at(m, TEXT, needle, delta));
  assert.ok(h, `no hover on ${needle}`);
  return (h.contents as { value: string }).value;
}

test('hover on a list read: the version order it implies and the wr/rw/ww edges it shows', () => {
  const m = model(TEXT);
  const short = hoverText(m, 'r(x, [1])');
  assert.match(short, /read 1 of the 2 observed versions of `x`/);
  assert.match(short, /\*\*Version order of x\*\* \(from the longest read and its prefixes\): \\\[1, 2\\\]/);
  assert.match(short, /T1 → T3 \\\[wr\\\] T3 observed T1's append of 1/);
  assert.match(short, /T3 → T2 \\\[rw\\\] T3 read x = \\\[1\\\], missing T2's append of 2 \(the next element\)/);
  const long = hoverText(m, 'r(x, [1, 2])');
  assert.match(long, /T1 → T2 \\\[ww\\\] T2 appended 2 to x right after T1's 1: T4 read x = \\\[1, 2\\\]/);
  assert.match(hoverText(m, 'r(y, [])'), /T4 → T3 \\\[rw\\\] T4 read y = \\\[\\\], missing T3's append of 5 \(an element nobody read/);
});

test('hover on an append: its position in the version order', () => {
  const m = model(TEXT);
  assert.match(hoverText(m, 'a(x, 2)'), /position 2 of 2 in the version order of `x` \(`T4` read the whole order\)/);
  assert.match(hoverText(m, 'a(y, 5)'), /no read observed this element/);
});

test('go to definition from a list element to its append', () => {
  const m = model(TEXT);
  const lineOf = (needle: string): number => at(m, TEXT, needle).line;
  const def = (needle: string, delta: number): number | undefined => definitionAt(m, at(m, TEXT, needle, delta))?.range.start.line;
  assert.equal(def('r(x, [1, 2])', 'r(x, [1, '.length), lineOf('a(x, 2)'), 'the element 2');
  assert.equal(def('r(x, [1, 2])', 'r(x, ['.length), lineOf('a(x, 1)'), 'the element 1');
  assert.equal(def('r(x, [1])', 1), lineOf('a(x, 1)'), 'on the read, not an element: its last element');
  assert.equal(definitionAt(m, at(m, TEXT, 'r(y, [])', 1)), null, 'an empty list has no definition');
});
