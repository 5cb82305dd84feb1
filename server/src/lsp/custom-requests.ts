// IsoCheck's own requests (the graph's analysis JSON, witness export): run in the analysis workers, cancellable.

import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/node';
import { AnalysisRequest, WitnessExportRequest } from '../protocol/messages.ts';
import type { AnalysisParams, AnalysisResult, WitnessExportAnswer, WitnessExportParams } from '../protocol/shapes.ts';
import type { ServerContext } from './context.ts';
import type { Task, TaskValue } from './worker-protocol.ts';

/** Runs a task in a worker; a cancelled request is answered at once (RequestCancelled) and its task stopped. */
function inWorker(ctx: ServerContext, task: Task, token: CancellationToken): Promise<TaskValue> {
  const runner = ctx.runner;
  if (!runner) return Promise.reject(new ResponseError(ErrorCodes.ServerNotInitialized, 'the server is not initialised'));
  if (token.isCancellationRequested) return Promise.reject(new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled'));
  const job = runner.start(task);
  return new Promise<TaskValue>((resolve, reject) => {
    const cancelled = (): void => reject(new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled'));
    const sub = token.onCancellationRequested(() => {
      runner.cancel(job.id);
      cancelled();
    });
    void job.result.then((r) => {
      sub.dispose();
      if (r.kind === 'done') resolve(r.value);
      else if (r.kind === 'cancelled') cancelled();
      else reject(new ResponseError(ErrorCodes.InternalError, r.message.split('\n')[0]));
    });
  });
}

/** The graph's JSON of the document's latest analysis (null before the first), built where that analysis is kept. */
async function analysisJson(ctx: ServerContext, p: AnalysisParams, token: CancellationToken): Promise<AnalysisResult | null> {
  const m = ctx.docs.get(p.uri)?.model;
  if (!m || m.text === null || !m.options) return null;
  const memoKey = `analysis:${p.limit ?? ''}`;
  const memo = m.peek<AnalysisResult>(memoKey);
  if (memo) return memo;
  const value = await inWorker(ctx, {
    kind: 'analysisJson', text: m.text, options: m.options, cacheKey: m.cacheKey, version: m.version, limit: p.limit, maxTransactions: ctx.options.maxGraphTransactions,
  }, token);
  if (value.kind !== 'analysisJson') return null;
  m.setCached(memoKey, value.result);
  return value.result;
}

async function exportWitness(ctx: ServerContext, p: WitnessExportParams, token: CancellationToken): Promise<WitnessExportAnswer> {
  const doc = ctx.documents.get(p.uri);
  const st = ctx.docs.get(p.uri);
  if (!doc || !st) return { ok: false, message: `${p.uri} is not open` };
  if (st.format === null) return { ok: false, message: `${p.uri} is not a history IsoCheck reads` };
  const settings = await ctx.settingsFor(p.uri);
  const file = decodeURIComponent(p.uri.split('/').pop() ?? p.uri);
  const value = await inWorker(ctx, {
    kind: 'export', text: doc.getText(), file, params: { level: p.level, format: p.format },
    options: { uri: p.uri, levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 0, format: st.format, plumeInit: settings.plumeInit },
  }, token);
  return value.kind === 'export' ? value.answer : { ok: false, message: 'the export failed' };
}

export function registerCustomRequests(ctx: ServerContext): void {
  ctx.connection.onRequest(AnalysisRequest.type, ctx.request('isocheck/analysis', Promise.resolve(null), (p, token) =>
    analysisJson(ctx, p, token).catch((e: unknown) => {
      if (e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled) throw e;
      ctx.logError('isocheck/analysis', e);
      return null;
    })));
  ctx.connection.onRequest(WitnessExportRequest.type, ctx.request('isocheck/exportWitness', Promise.resolve<WitnessExportAnswer>({ ok: false, message: 'the export failed (see the IsoCheck output channel)' }), (p, token) =>
    exportWitness(ctx, p, token).catch((e: unknown): WitnessExportAnswer => {
      if (e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled) throw e;
      ctx.logError('isocheck/exportWitness', e);
      return { ok: false, message: `the export failed: ${e instanceof Error ? e.message : String(e)}` };
    })));
}
