// IsoCheck's own requests (the graph's analysis JSON, witness export): run in the analysis workers, cancellable.

import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken } from 'vscode-languageserver/node';
import { AnalysisRequest, ReportRequest, WitnessExportRequest } from '../protocol/messages.ts';
import type { FileReport } from '../engine/report.ts';
import type { AnalysisParams, AnalysisResult, ReportParams, WitnessExportAnswer, WitnessExportParams } from '../protocol/shapes.ts';
import type { ServerContext } from './context.ts';
import { cacheKeyOf } from './doc-model.ts';
import type { DocumentTask, TaskValue } from './worker-protocol.ts';
import { WITNESS_FORMATS, type WitnessFormat } from '../engine/export/witness-export.ts';
import { LEVELS, parseLevel, type Level } from '../engine/levels/levels.ts';
import { uriFileName } from '../protocol/webview.ts';
import { DEFAULT_LIMIT } from '../engine/export/analysis-data.ts';
import { analysisParams, exportParamsShape, reportParams } from './param-checks.ts';

/** How often (ms) a graph-JSON task looks whether a newer analysis of its document started. */
const SUPERSEDED_POLL_MS = 25;
/** A graph request gives way to newer analyses at most this many times, then answers with what it has. */
const MAX_GIVE_WAY = 40;

const SUPERSEDED = Symbol('superseded');

/**
 * Runs a task in a worker; a cancelled request is answered at once (RequestCancelled) and its task
 * stopped. With `superseded`, the task is also stopped (and SUPERSEDED returned) once that turns true.
 */
function inWorker(ctx: ServerContext, task: DocumentTask, token: CancellationToken, superseded?: () => boolean): Promise<TaskValue | typeof SUPERSEDED> {
  const runner = ctx.runner;
  if (!runner) return Promise.reject(new ResponseError(ErrorCodes.ServerNotInitialized, 'the server is not initialised'));
  if (token.isCancellationRequested) return Promise.reject(new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled'));
  const job = runner.start(task);
  return new Promise<TaskValue | typeof SUPERSEDED>((resolve, reject) => {
    const cancelled = (): void => reject(new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled'));
    const sub = token.onCancellationRequested(() => {
      runner.cancel(job.id);
      cancelled();
    });
    const poll = superseded ? setInterval(() => {
      if (!superseded()) return;
      clearInterval(poll);
      sub.dispose();
      runner.cancel(job.id);
      resolve(SUPERSEDED);
    }, SUPERSEDED_POLL_MS) : undefined;
    void job.result.then((r) => {
      if (poll) clearInterval(poll);
      sub.dispose();
      if (r.kind === 'done') resolve(r.value);
      else if (r.kind === 'cancelled') cancelled();
      else reject(new ResponseError(ErrorCodes.InternalError, r.message.split('\n')[0]));
    });
  });
}

/** Resolves once no analysis of a newer version than `version` runs for the document (or the request is cancelled). */
function newerAnalysisDone(ctx: ServerContext, uri: string, version: number, token: CancellationToken): Promise<void> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const running = ctx.docs.get(uri)?.running;
      if (token.isCancellationRequested || !running || running.version <= version) {
        clearInterval(poll);
        resolve();
      }
    }, SUPERSEDED_POLL_MS);
  });
}

const GRAPH_MEMO = 'analysis';

/** An analysis request's edge limit: a count (0 or more), else the default; a `limit` of "x" (NaN) left every edge list uncut. */
export function edgeLimit(limit: unknown): number {
  return typeof limit === 'number' && Number.isFinite(limit) && limit >= 0 ? Math.floor(limit) : DEFAULT_LIMIT;
}

/**
 * The graph's JSON of the document's latest analysis (null before the first), built where that
 * analysis is kept. It gives way to typing: while an analysis of a newer version runs, it waits for
 * it (and then answers with the newer graph) instead of competing with it for the cores, so that
 * keystroke-to-diagnostics stays the same with the graph open (npm run bench:lsp). Between a
 * document's two passes it waits for the full one too: the quick pass's analysis is not kept, and
 * asking for its graph analysed the document a third time (in the small lane, beside the full pass).
 */
async function analysisJson(ctx: ServerContext, p: AnalysisParams, token: CancellationToken): Promise<AnalysisResult | null> {
  const newer = (version: number): boolean => (ctx.docs.get(p.uri)?.running?.version ?? -1) > version;
  const limit = edgeLimit(p.limit);
  for (let round = 0; ; round++) {
    const st = ctx.docs.get(p.uri);
    const m = st?.model;
    if (!st || !m || m.text === null || !m.options) return null;
    // One graph kept per analysed version, the last limit's: one kept per limit asked for grew without bound
    // (60 limits on a 300,000-operation document: 256 MB -> 1.2 GB until the next edit).
    const memo = m.peek<{ limit: number; result: AnalysisResult }>(GRAPH_MEMO);
    if (memo?.limit === limit) return memo.result;
    const giveWay = round < MAX_GIVE_WAY;
    if (giveWay && newer(m.version)) {
      await newerAnalysisDone(ctx, p.uri, m.version, token);
      continue;
    }
    // A quick pass: its full pass runs (or starts once the quick one is published). A full pass that
    // never comes (it failed) leaves the quick one, whose graph is built after MAX_GIVE_WAY rounds.
    if (giveWay && m.partial) {
      if (st.running) await newerAnalysisDone(ctx, p.uri, m.version - 1, token);
      else await new Promise((resolve) => setTimeout(resolve, SUPERSEDED_POLL_MS));
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      continue;
    }
    const value = await inWorker(ctx, {
      kind: 'analysisJson', text: m.text, options: m.options, cacheKey: m.cacheKey, version: m.version, limit, maxTransactions: ctx.options.maxGraphTransactions,
    }, token, giveWay ? () => newer(m.version) : undefined);
    if (value === SUPERSEDED) continue;
    if (value.kind !== 'analysisJson') return null;
    m.setCached(GRAPH_MEMO, { limit, result: value.result });
    return value.result;
  }
}

/**
 * The document's report in the CLI's JSON shape, from the analysis the editor shows (its levels,
 * witnesses per level and budgets): what `isocheck check --json` prints for the file, by the same
 * engine function. It waits (a bounded number of times) while an analysis runs or only the quick
 * first pass is in, then reports the full analysis of the latest version it has (from the
 * worker's cache, or analysed again), never the quick pass's pending strong levels.
 */
async function report(ctx: ServerContext, p: ReportParams, token: CancellationToken): Promise<FileReport | null> {
  for (let round = 0; ; round++) {
    const st = ctx.docs.get(p.uri);
    // Not a history IsoCheck reads (a .txt of prose): nothing will come.
    if (!st || st.format === null) return null;
    const m = st.model;
    // Waits while an analysis runs, before the first one (its check may still be scheduled),
    // between the quick pass and the full one, and while an edit's check waits for its timer or
    // has not started yet (the report described the text before the edit: an audit's client saw
    // that after every edit). Checking on save, an edit is not checked: bounded, as every wait here.
    const edited = m !== null && m !== undefined && ctx.documents.get(p.uri)?.version !== m.version;
    if (round < MAX_GIVE_WAY && (st.running || !m || m.partial || ctx.scheduler.scheduled(p.uri) || edited)) {
      if (st.running) await newerAnalysisDone(ctx, p.uri, -1, token);
      else await new Promise((resolve) => setTimeout(resolve, SUPERSEDED_POLL_MS));
      if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      continue;
    }
    if (!m || m.text === null || !m.options) return null;
    const full = { ...m.options, deferStrong: false };
    const value = await inWorker(ctx, { kind: 'report', text: m.text, options: full, cacheKey: cacheKeyOf(m.version, m.settingsKey, false), file: p.file }, token);
    return value !== SUPERSEDED && value.kind === 'report' ? value.report : null;
  }
}

/**
 * The level and format of an export request, checked as the CLI checks `isocheck witness`: a level
 * by name or alias (ra, read-atomic) or mixed; a format of WITNESS_FORMATS, json when absent.
 */
function exportParams(p: Partial<WitnessExportParams>): { level: Level | 'mixed'; format: WitnessFormat } | { message: string } {
  const levelText: unknown = p.level;
  const level = typeof levelText !== 'string' ? null : levelText.toLowerCase() === 'mixed' ? 'mixed' : parseLevel(levelText);
  if (!level) return { message: `unknown level ${JSON.stringify(levelText ?? null)} (${LEVELS.join(', ')}, an alias of one, or mixed)` };
  const format: unknown = p.format ?? 'json';
  if (typeof format !== 'string' || !(WITNESS_FORMATS as readonly string[]).includes(format)) {
    return { message: `unknown format ${JSON.stringify(format)} (${WITNESS_FORMATS.join(', ')})` };
  }
  return { level, format: format as WitnessFormat };
}

async function exportWitness(ctx: ServerContext, p: WitnessExportParams, token: CancellationToken): Promise<WitnessExportAnswer> {
  const params = exportParams(p);
  if ('message' in params) return { ok: false, message: params.message };
  const doc = ctx.documents.get(p.uri);
  const st = ctx.docs.get(p.uri);
  if (!doc || !st) return { ok: false, message: `${p.uri} is not open` };
  if (st.format === null) return { ok: false, message: `${p.uri} is not a history IsoCheck reads` };
  const settings = await ctx.settingsFor(p.uri);
  const file = uriFileName(p.uri);
  const value = await inWorker(ctx, {
    kind: 'export', text: doc.getText(), file, params,
    options: { uri: p.uri, levels: undefined, maxWitnesses: 1, docsBase: null, maxDiagnostics: 0, format: st.format, plumeInit: settings.plumeInit },
  }, token);
  return value !== SUPERSEDED && value.kind === 'export' ? value.answer : { ok: false, message: 'the export failed' };
}

export function registerCustomRequests(ctx: ServerContext): void {
  ctx.connection.onRequest(AnalysisRequest.type, ctx.request('isocheck/analysis', Promise.resolve(null), (p, token) =>
    analysisJson(ctx, p, token).catch((e: unknown) => {
      if (e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled) throw e;
      ctx.logError('isocheck/analysis', e);
      return null;
    }), analysisParams));
  ctx.connection.onRequest(ReportRequest.type, ctx.request('isocheck/report', Promise.resolve(null), (p, token) =>
    report(ctx, p, token).catch((e: unknown) => {
      if (e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled) throw e;
      ctx.logError('isocheck/report', e);
      return null;
    }), reportParams));
  ctx.connection.onRequest(WitnessExportRequest.type, ctx.request('isocheck/exportWitness', Promise.resolve<WitnessExportAnswer>({ ok: false, message: 'the export failed (see the IsoCheck output channel)' }), (p, token) =>
    exportWitness(ctx, p, token).catch((e: unknown): WitnessExportAnswer => {
      if (e instanceof ResponseError && e.code === LSPErrorCodes.RequestCancelled) throw e;
      ctx.logError('isocheck/exportWitness', e);
      return { ok: false, message: `the export failed: ${e instanceof Error ? e.message : String(e)}` };
    }), exportParamsShape));
}
