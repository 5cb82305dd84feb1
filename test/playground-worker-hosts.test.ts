// The playground worker's answer for a dropped file matches the language server's: the graph of the history as written.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSource } from '../server/src/engine/analyze.ts';
import { readerNamed } from '../server/src/engine/readers/registry.ts';
import { analysisJsonOfAnalysis } from '../server/src/lsp/features/analysis-json.ts';
import type { FromWorker, ToWorker } from '../playground/src/protocol.ts';

/** The worker module, run in this process behind a `self` that hands its replies back (no browser needed). */
async function startWorker(): Promise<(m: ToWorker) => Promise<FromWorker>> {
  let pending: ((m: FromWorker) => void) | null = null;
  const self = {
    onmessage: null as ((e: { data: unknown }) => void) | null,
    postMessage(m: FromWorker): void {
      if (m.type === 'progress' || !pending) return;
      const resolve = pending;
      pending = null;
      resolve(m);
    },
  };
  (globalThis as { self?: unknown }).self = self;
  await import('../playground/src/worker.ts');
  return (m) => new Promise((resolve) => {
    pending = resolve;
    self.onmessage!({ data: m });
  });
}

// T3 is `unknown` and nobody read from it: it counts as never having run, so the checked history lacks it,
// while an editor shows every transaction of the text (docs/editors.md) and marks it as not run.
const TEXT = `session s1
  T1: w(x, 1)
  T2: r(x, 1) w(y, 2)
session s2
  T3 unknown: w(z, 3)
  T4: r(y, init) r(x, 1)
`;

test('a dropped file with an unknown transaction nobody read: the graph the playground draws is the language server\'s', async () => {
  const send = await startWorker();
  const bytes = new TextEncoder().encode(TEXT);
  const r = await send({ type: 'file', id: 1, name: 'h.hist', bytes: bytes.buffer.slice(0) });
  assert.equal(r.type, 'file');
  if (r.type !== 'file') return;
  // What `isocheck/analysis` answers for the same text open in an editor (the server's worker builds it so).
  const server = analysisJsonOfAnalysis(analyzeSource(readerNamed('hist')!.read({ text: TEXT })), r.analysis.uri, r.analysis.version);
  assert.deepEqual(r.analysis.transactions.map((t) => t.name), server.transactions.map((t) => t.name));
  assert.ok(r.analysis.transactions.some((t) => t.name === 'T3'), 'T3 is drawn, as written');
  assert.deepEqual(r.analysis, server);
});
