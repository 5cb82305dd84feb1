// A graph request between a document's two passes waits for the full pass and reads its kept analysis: counted tasks, no third analysis.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CancellationToken, Connection } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_GEN_OPTIONS, generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { AnalysisRequest } from '../server/src/protocol/messages.ts';
import type { AnalysisResult } from '../server/src/protocol/shapes.ts';
import { AnalysisRunner } from '../server/src/lsp/analysis-runner.ts';
import { check } from '../server/src/lsp/checker.ts';
import { ServerContext } from '../server/src/lsp/context.ts';
import { registerCustomRequests } from '../server/src/lsp/custom-requests.ts';
import type { DocumentTask } from '../server/src/lsp/worker-protocol.ts';

type Handler = (params: unknown, token: CancellationToken) => Promise<AnalysisResult | null>;

/** Just what the checker and the custom requests use of a connection: requests' handlers kept, messages dropped. */
function fakeConnection(handlers: Map<string, Handler>): Connection {
  const ignore = (): Promise<void> => Promise.resolve();
  return {
    onRequest: (type: { method: string }, handler: Handler) => handlers.set(type.method, handler),
    sendDiagnostics: ignore,
    sendNotification: ignore,
    sendRequest: ignore,
    console: { log: () => undefined, error: (m: string) => assert.fail(m) },
  } as unknown as Connection;
}

const token: CancellationToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };

test('a graph asked for while the full pass runs: two analyses in all, and the graph built from the full pass\'s kept one', async () => {
  // A small document checked in two passes (the strong levels asked for), SER violated.
  const text = toHistString(generateHistory({ ...DEFAULT_GEN_OPTIONS, sessions: 6, transactions: 90, keys: 12, store: 'snapshot', seed: 7 }));
  const uri = 'file:///tmp/graph-between-passes.hist';
  const handlers = new Map<string, Handler>();
  const ctx = new ServerContext(fakeConnection(handlers), null, () => undefined);
  const doc = TextDocument.create(uri, 'hist', 1, text);
  Object.defineProperty(ctx, 'documents', { value: { get: (u: string) => (u === uri ? doc : undefined) } });
  ctx.docs.open(uri, 'hist');
  registerCustomRequests(ctx);
  // No worker script: the lanes run their tasks on this thread, with the one cache of analyses they share.
  const runner = new AnalysisRunner({ workerScript: null, bigText: 1e9, timeoutMs: 60_000, log: () => undefined });
  const started: DocumentTask[] = [];
  let graph: Promise<AnalysisResult | null> | null = null;
  ctx.runner = new Proxy(runner, {
    get(target, key) {
      if (key !== 'start') return Reflect.get(target, key) as unknown;
      return (task: DocumentTask) => {
        started.push(task);
        // The webview asks as the quick pass is published (AnalysisChanged); the full pass has just started.
        if (task.kind === 'analyze' && task.options.deferStrong === false) {
          queueMicrotask(() => {
            graph = handlers.get(AnalysisRequest.method)!({ uri }, token);
          });
        }
        return target.start(task);
      };
    },
  });
  try {
    await check(ctx, uri);
    assert.ok(graph, 'the graph was asked for between the passes');
    const result = await (graph as Promise<AnalysisResult | null>);
    assert.ok(result && result.levels.some((v) => v.level === 'SER' && v.state === 'violated'), 'the graph of the full analysis (SER decided: violated)');
    const analyses = started.filter((t) => t.kind === 'analyze');
    assert.deepEqual(analyses.map((t) => t.options.deferStrong), [true, false], 'the quick pass, then the full one');
    const graphs = started.filter((t) => t.kind === 'analysisJson');
    // The old graph task named the quick pass's analysis, which no lane keeps: it analysed the document a third time.
    assert.deepEqual(graphs.map((t) => t.cacheKey), [analyses[1].cacheKey], 'one graph task, for the full pass\'s kept analysis');
    assert.ok(started.indexOf(graphs[0]) > started.indexOf(analyses[1]));
    assert.equal(ctx.docs.get(uri)?.model?.partial, false);
  } finally {
    runner.dispose();
  }
});
