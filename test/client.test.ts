// The client's pure parts: the status bar text and the witness export in the CLI's report shape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportableLevels, statusText, summarySentence } from '../client/src/summary.ts';
import { witnessCount } from '../client/src/witness-export.ts';
import type { StatusParams } from '../server/src/protocol/shapes.ts';

const range = (line: number, a: number, b: number) => ({ start: { line, character: a }, end: { line, character: b } });

const status: StatusParams = {
  uri: 'file:///h.hist', version: 3, state: 'done', mixed: null, strongest: 'RC', text: '', errors: 1, warnings: 0, millis: 2.4,
  levels: [{ level: 'RC', state: 'ok' }, { level: 'RA', state: 'violated' }, { level: 'PC', state: 'unknown' }],
};

test('the status bar shows each level with ✓ ✗ ? and the strongest that holds', () => {
  assert.equal(statusText(status), 'RC ✓ RA ✗ PC ? · strongest: RC');
  assert.equal(statusText({ ...status, mixed: 'violated', strongest: null }), 'RC ✓ RA ✗ PC ? · mixed ✗ · no level holds');
  assert.equal(statusText({ ...status, state: 'checking' }), '$(sync~spin) RC ✓ RA ✗ PC ? · strongest: RC');
  assert.equal(statusText({ ...status, levels: [], state: 'checking' }), '$(sync~spin) IsoCheck: checking…');
  assert.equal(summarySentence(status), 'RC ✓ RA ✗ PC ? (strongest: RC); 1 error, 0 warnings; checked in 2 ms.');
});

test('issue 8 defect 4: the status bar marks partial verdicts, and shows no verdict when nothing parsed', () => {
  assert.equal(statusText({ ...status, partial: true }), 'RC ✓ RA ✗ PC ? · strongest: RC · PARTIAL (syntax errors)');
  const nothing = { ...status, partial: true, strongest: null, levels: status.levels.map((l) => ({ ...l, state: 'unknown' as const })) };
  assert.equal(statusText(nothing), 'RC ? RA ? PC ? · no verdict: nothing could be read');
  assert.match(summarySentence({ ...status, partial: true }), /only for what parsed/);
});

test('Export a Witness offers the violated levels, and mixed only when the per-transaction levels are violated', () => {
  assert.deepEqual(exportableLevels(status), ['RA']);
  assert.deepEqual(exportableLevels({ ...status, mixed: 'ok' }), ['RA'], 'no mixed witness when the mixed verdict holds');
  assert.deepEqual(exportableLevels({ ...status, mixed: 'violated' }), ['RA', 'mixed']);
  assert.deepEqual(exportableLevels({ ...status, levels: [{ level: 'RC', state: 'ok' }] }), [], 'nothing violated: nothing to offer');
  assert.deepEqual(exportableLevels(undefined), [], 'not analysed yet');
});

test('witnessCount counts the levels and the mixed verdict that carry a witness', () => {
  const w = { anomaly: 'RA', message: 'm', range: range(0, 0, 1), cycle: [] };
  assert.equal(witnessCount({ file: 'h.hist', title: null, levels: { RC: { consistent: true }, RA: { consistent: false, witness: w } }, mixed: { consistent: false, witness: w }, diagnostics: [] }), 2);
});
