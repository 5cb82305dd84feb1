// The client's pure parts: the status bar text and the witness export in the CLI's report shape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportableLevels, statusText, summarySentence } from '../client/src/summary.ts';
import { exportReport, witnessCount } from '../client/src/witness-export.ts';
import type { AnalysisResult, StatusParams } from '../server/src/protocol/shapes.ts';

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

test('the export names transactions as the CLI does (⊥ is init) and maps states to consistent', () => {
  const analysis: AnalysisResult = {
    uri: 'file:///h.hist', version: 1, title: 'fractured read', strongest: 'RC', sessions: [], wr: [], wrTotal: 0, forced: [], mixed: null,
    transactions: [
      { id: 0, name: '⊥', session: -1, position: -1, level: null, aborted: false, unknown: false, notRun: false, range: null, extent: null, operations: 0, ops: [] },
      { id: 1, name: 'T1', session: 0, position: 0, level: null, aborted: false, unknown: false, notRun: false, range: range(15, 2, 5), extent: range(15, 2, 21), operations: 2, ops: ["w(x, 1)", "w(y, 1)"] },
    ],
    levels: [
      { level: 'RC', state: 'ok', witness: null, note: null },
      { level: 'RA', state: 'violated', note: null, witness: { anomaly: 'RA', headline: 'Fractured read (RA)', message: 'm', range: range(18, 6, 16), cycle: [
        { from: 1, to: 0, kind: 'co', key: 'y', because: 'b1', range: range(18, 6, 16) },
        { from: 0, to: 1, kind: 'so', key: null, because: 'b2', range: range(15, 2, 5) },
      ] } },
      { level: 'SER', state: 'unknown', witness: null, note: 'not checked yet' },
    ],
  };
  const r = exportReport('h.hist', analysis, []);
  assert.deepEqual(Object.keys(r.levels), ['RC', 'RA', 'SER']);
  assert.deepEqual(r.levels.RC, { consistent: true });
  assert.deepEqual(r.levels.SER, { consistent: null, note: 'not checked yet' });
  assert.deepEqual(r.levels.RA.witness?.cycle.map((e) => [e.from, e.kind, e.to, e.key]), [['T1', 'co', 'init', 'y'], ['init', 'so', 'T1', null]]);
  assert.equal(r.mixed, null);
  assert.equal(witnessCount(r), 1);
});
