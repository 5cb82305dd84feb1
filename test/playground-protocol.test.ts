// The playground's page ↔ worker messages are checked on arrival: what the worker really sends passes, anything else is dropped.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSource } from '../server/src/engine/analyze.ts';
import { analysisData, sourceOfAnalysis } from '../server/src/engine/export/analysis-data.ts';
import { readerNamed } from '../server/src/engine/readers/registry.ts';
import { isFromWorker, isToWorker } from '../playground/src/protocol.ts';

const EXAMPLE = readFileSync(join(import.meta.dirname, '..', 'examples', 'write-skew.hist'), 'utf8');

test('page → worker: the three requests pass; a wrong type, id, budget, level or format is dropped', () => {
  const good = [
    { type: 'text', id: 1, text: EXAMPLE, budget: 'quick' },
    { type: 'file', id: 2, name: 'a.edn', bytes: new ArrayBuffer(4) },
    { type: 'export', id: 3, source: 'file', text: '', level: 'SER', format: 'svg' },
  ];
  for (const m of good) assert.ok(isToWorker(m), JSON.stringify(m));
  const bad: unknown[] = [
    null, 'text', [], { type: 'text', text: 'x', budget: 'quick' }, { type: 'text', id: -1, text: 'x', budget: 'quick' },
    { type: 'text', id: 1.5, text: 'x', budget: 'quick' }, { type: 'text', id: 1, text: 7, budget: 'quick' }, { type: 'text', id: 1, text: 'x', budget: 'forever' },
    { type: 'file', id: 2, name: 'a', bytes: 'AAAA' }, { type: 'file', id: 2, name: 'a', bytes: new Uint8Array(4) },
    { type: 'export', id: 3, source: 'disk', text: '', level: 'SER', format: 'svg' }, { type: 'export', id: 3, source: 'text', text: '', level: 'SERIAL', format: 'svg' },
    { type: 'export', id: 3, source: 'text', text: '', level: 'SER', format: 'pdf' }, { type: 'eval', id: 4, code: 'alert(1)' },
  ];
  for (const m of bad) assert.equal(isToWorker(m), false, JSON.stringify(m));
});

test('worker → page: a real file result passes (the analysis as the graph view checks it); a malformed one is dropped', () => {
  const analysis = analyzeSource(readerNamed('hist')!.read({ text: EXAMPLE }));
  const data = analysisData(sourceOfAnalysis(analysis, 'playground:/write-skew.hist', 1));
  const file = {
    type: 'file', id: 5, name: 'write-skew.hist', analysis: data, transactions: 2, notRun: 0, operations: 6, millis: 3.5, problems: [], problemCount: 0,
    levels: [{ level: 'SER', state: 'violated', anomaly: 'SER', message: 'no commit order…' }, { level: 'RC', state: 'ok', anomaly: null, message: null }],
  };
  assert.ok(isFromWorker(file));
  for (const m of [
    { type: 'progress', id: 5, stage: 'Reading', done: 1, total: 3 }, { type: 'export', id: 6, ok: true, text: 'digraph {}', extension: 'dot' },
    { type: 'export', id: 6, ok: false, message: 'RC holds' }, { type: 'error', id: 7, message: 'boom' }, { type: 'text', id: 8, snapshot: {} },
  ]) assert.ok(isFromWorker(m), JSON.stringify(m));
  const bad: unknown[] = [
    { ...file, analysis: { ...data, transactions: 'all' } }, { ...file, levels: [{ level: 'SER', state: 'fine', anomaly: null, message: null }] },
    { ...file, problems: [1] }, { ...file, id: undefined }, { ...file, notRun: -1 }, { type: 'export', id: 6, ok: true, text: 7, extension: 'dot' },
    { type: 'export', id: 6, ok: 'yes', message: 'x' }, { type: 'text', id: 8, snapshot: null }, { type: 'progress', id: 5, stage: 'x', done: -1, total: 3 },
    { type: 'html', id: 9, html: '<img src=x onerror=alert(1)>' },
  ];
  for (const m of bad) assert.equal(isFromWorker(m), false, JSON.stringify(m).slice(0, 200));
});
