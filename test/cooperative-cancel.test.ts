// Cancelled analyses stop by themselves: the readers poll the stop flag, and a burst of edits to a big document restarts no worker.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DEFAULT_GEN_OPTIONS, generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString, toPlumeString } from '../server/src/engine/gen/history-writers.ts';
import { readPlume } from '../server/src/engine/readers/plume-reader.ts';
import { readerNamed } from '../server/src/engine/readers/registry.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { utf8Sequences } from '../server/src/engine/syntax/line-index.ts';
import { AnalysisRunner } from '../server/src/lsp/analysis-runner.ts';
import { buildSnapshot, type SnapshotOptions } from '../server/src/lsp/snapshot.ts';
import type { RunResult } from '../server/src/lsp/worker-protocol.ts';
import { ensureBuilt, ROOT } from './helpers/lsp-client.ts';

/** A stop that turns true at its n-th poll (and stays true): how many polls a reader makes, counted, not timed. */
function stopAt(n: number): { stop: () => boolean; polls: () => number } {
  let polls = 0;
  return { stop: () => ++polls >= n, polls: () => polls };
}

const big = (transactions: number): ReturnType<typeof generateHistory> =>
  generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 8, transactions, keys: 200, store: 'causal', seed: 5 });

describe('the readers poll stop', () => {
  const history = big(20_000);

  test('.hist: a parse stopped at its second poll has read the first couple of thousand items, not the file', () => {
    const text = toHistString(history);
    const whole = parseHist(text).history;
    const s = stopAt(2);
    const part = parseHist(text, s.stop).history;
    assert.equal(s.polls(), 2);
    assert.ok(part.txnCount > 1 && part.txnCount < 2100, `${part.txnCount} of ${whole.txnCount} transactions`);
    const never = parseHist(text, () => false).history;
    assert.deepEqual([never.txnCount, never.opCount, Array.from(never.opValue)], [whole.txnCount, whole.opCount, Array.from(whole.opValue)]);
  });

  test('plume: read in pieces of 256 KB between polls, the same history as read whole; stopped, the lines of the first piece', () => {
    const bytes = new TextEncoder().encode(toPlumeString(history));
    assert.ok(bytes.length > 4 * 256 * 1024);
    const whole = readPlume(bytes);
    const never = readPlume(bytes, { stop: () => false });
    const columns = (h: typeof whole.history): unknown => [h.txnCount, h.opCount, Array.from(h.opKey), Array.from(h.opValue), Array.from(h.ranges?.opStart ?? [])];
    assert.deepEqual(columns(never.history), columns(whole.history));
    assert.deepEqual(never.findings, whole.findings);
    const s = stopAt(1);
    const part = readPlume(bytes, { stop: s.stop });
    assert.equal(s.polls(), 1);
    const firstPiece = new TextDecoder().decode(bytes.subarray(0, 256 * 1024)).split('\n').length - 1;
    assert.equal(part.history.opCount, firstPiece);
  });

  test('a piece of 0 to 7 bytes at any offset (the last of a read in pieces) is scanned for UTF-8 as a copy of it at offset 0 is', () => {
    const bytes = new TextEncoder().encode('r(1,1,0,1)\né€\n');
    for (let at = 0; at <= bytes.length; at++) {
      for (let n = 0; n <= 7 && at + n <= bytes.length; n++) {
        const piece = bytes.subarray(at, at + n);
        assert.deepEqual(utf8Sequences(piece, false), utf8Sequences(piece.slice(), false), `${n} bytes at ${at}`);
      }
    }
  });

  test('through the registry: the editor\'s reader options carry stop', () => {
    const s = stopAt(1);
    const src = readerNamed('hist')!.read({ text: toHistString(history) }, { stop: s.stop });
    assert.ok(s.polls() >= 1 && src.history.txnCount < history.txnCount);
  });
});

describe('a burst of cancelled analyses of a big document', () => {
  ensureBuilt();
  const workerScript = join(ROOT, 'out', 'analysis-worker.js');
  // 2 MB: bigText 0 puts it in the big lane, whose cancellations terminated the worker outright.
  const text = toHistString(big(40_000));
  const options: SnapshotOptions = { uri: 'file:///tmp/burst.hist', levels: ['RC', 'RA'], maxWitnesses: 1, docsBase: null, maxDiagnostics: 100 };
  const analyze = (runner: AnalysisRunner, version: number): { id: number; result: Promise<RunResult> } =>
    runner.start({ kind: 'analyze', text, options, cacheKey: `${version}|k|full` });

  test('twenty analyses cancelled one after another: each stops by itself, no worker is restarted, and the last analysis is whole', async () => {
    // The grace is longer than any analysis here: the count of restarts cannot depend on the machine's speed.
    const runner = new AnalysisRunner({ workerScript, bigText: 0, timeoutMs: 120_000, cancelGraceMs: 120_000, log: () => undefined });
    try {
      for (let v = 1; v <= 20; v++) {
        const job = analyze(runner, v);
        // Let the worker get into the read (the edits of a burst come while it reads), then cancel.
        await new Promise((resolve) => setTimeout(resolve, 20));
        runner.cancel(job.id);
        assert.equal((await job.result).kind, 'cancelled');
      }
      const last = await analyze(runner, 21).result;
      assert.equal(last.kind, 'done');
      if (last.kind !== 'done' || last.value.kind !== 'analyze') throw new Error('no analysis');
      assert.deepEqual(last.value.snapshot.diagnostics, buildSnapshot(text, options).snapshot.diagnostics);
      // Each cancellation terminated the worker (and booted a spare): 20 restarts for 20 edits.
      assert.equal(runner.restarts, 0);
    } finally {
      runner.dispose();
    }
  });

  test('a cancelled job still busy when the grace ends (one JSON event of 300,000 micro-ops: the reader polls between lines) is terminated, and the next job runs on the spare', async () => {
    const ops = Array.from({ length: 300_000 }, (_, i) => `["append",${i % 50},${i + 1}]`).join(',');
    // 6.5 MB on one line: parsing and assembling it takes a tenth of a second or more, the grace 1 ms.
    const json = `{"type":"invoke","f":"txn","process":0,"value":[${ops}]}\n{"type":"ok","f":"txn","process":0,"value":[${ops}]}\n`;
    const logs: string[] = [];
    const runner = new AnalysisRunner({ workerScript, bigText: 0, timeoutMs: 120_000, cancelGraceMs: 1, log: (m) => logs.push(m) });
    const small = (version: number): Promise<RunResult> => runner.start({ kind: 'analyze', text: 'session s1\n  T1: w(x, 1)\n', options, cacheKey: `${version}|k|full` }).result;
    try {
      assert.equal((await small(1)).kind, 'done', 'the worker is up (and a spare boots)');
      const job = runner.start({ kind: 'analyze', text: json, options: { ...options, format: 'json' }, cacheKey: '2|k|full' });
      runner.cancel(job.id);
      assert.equal((await job.result).kind, 'cancelled');
      assert.equal(runner.restarts, 1);
      assert.match(logs.join('\n'), /did not stop within 1 ms \(big lane\); restarting the worker/);
      assert.equal((await small(3)).kind, 'done');
    } finally {
      runner.dispose();
    }
  });
});
