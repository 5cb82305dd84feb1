// The analysis workers' caches: a closed document's analysis is forgotten, in every lane that keeps analyses.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AnalysisRunner } from '../server/src/lsp/analysis-runner.ts';
import { AnalysisCache, runTask } from '../server/src/lsp/worker-tasks.ts';
import type { SnapshotOptions } from '../server/src/lsp/snapshot.ts';
import type { RunResult } from '../server/src/lsp/worker-protocol.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { ensureBuilt, ROOT } from './helpers/lsp-client.ts';

// A fractured read (RA violated) and a history that holds every level.
const FRACTURED = 'session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, init) r(x, 1)\n';
const SERIAL = 'session s1\n  T1: w(x, 1) w(y, 1)\nsession s2\n  T2: r(y, 1) r(x, 1)\n';
const URI = 'file:///tmp/closed.hist';
const KEY = '1|all|full';

const options: SnapshotOptions = { uri: URI, levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 };

function verdictOfRA(r: RunResult): string {
  assert.equal(r.kind, 'done', JSON.stringify(r).slice(0, 300));
  if (r.kind !== 'done' || r.value.kind !== 'report') throw new Error('not a report');
  return r.value.report.levels.RA.consistent === false ? 'violated' : 'holds';
}

/**
 * The report task answers from the worker's kept analysis when one of that document and key is
 * there, whatever text it is sent: sending another text under the same key tells whether the
 * worker still keeps the first one.
 */
async function keptText(runner: AnalysisRunner, o: SnapshotOptions): Promise<string> {
  const r = await runner.start({ kind: 'report', text: SERIAL, options: o, cacheKey: KEY, file: 'closed.hist' }).result;
  return verdictOfRA(r) === 'violated' ? 'the closed document\'s analysis' : 'none';
}

describe('worker caches forget closed documents', () => {
  ensureBuilt();
  const workerScript = join(ROOT, 'out', 'analysis-worker.js');

  // bigText 0: every document goes to the big lane (cancelled by terminating its worker, keeps one analysis); a
  // small document's full analysis runs in the strong lane when it asks for a strong level, else in the small lane.
  const weakOnly: SnapshotOptions = { ...options, levels: ['RC', 'RA', 'CC'] };
  for (const [lane, bigText, o] of [['small', 1e9, weakOnly], ['big', 0, options], ['strong', 1e9, options]] as const) {
    test(`${lane} lane: the analysis is kept while the document is open and dropped once it is forgotten`, async () => {
      const runner = new AnalysisRunner({ workerScript, bigText, timeoutMs: 60_000, log: () => undefined });
      try {
        const analysed = await runner.start({ kind: 'analyze', text: FRACTURED, options: o, cacheKey: KEY }).result;
        assert.equal(analysed.kind, 'done');
        assert.equal(await keptText(runner, o), 'the closed document\'s analysis', 'the worker keeps the latest analysis (the graph reuses it)');
        runner.forget(URI);
        assert.equal(await keptText(runner, o), 'none', 'after the close, the worker keeps nothing of the document');
      } finally {
        runner.dispose();
      }
    });
  }

  test('the forget task empties the cache entry of its document only', () => {
    const cache = new AnalysisCache(8);
    const a = analyzeHistText(SERIAL);
    cache.set(URI, KEY, a);
    cache.set('file:///tmp/open.hist', KEY, a);
    assert.equal(cache.size, 2);
    const r = runTask({ kind: 'forget', uri: URI }, () => false, cache);
    assert.deepEqual(r.value, { kind: 'forget' });
    assert.equal(cache.size, 1);
    assert.equal(cache.get(URI, KEY), null);
    assert.equal(cache.get('file:///tmp/open.hist', KEY), a);
  });
});
