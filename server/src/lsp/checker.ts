// The checking stage: analyse a document's current version in a worker (one or two passes) and publish the result.

import { CodeLensRefreshRequest, DiagnosticSeverity } from 'vscode-languageserver/node';
import { isDefaultLevelSet } from '../engine/levels/levels.ts';
import { AnalysisChangedNotification, StatusNotification } from '../protocol/messages.ts';
import type { StatusParams } from '../protocol/shapes.ts';
import type { ServerContext } from './context.ts';
import { DIAGNOSTIC_SOURCE } from './convert.ts';
import { cacheKeyOf, DocModel } from './doc-model.ts';
import { doneStatus } from './features/summary.ts';
import { holdQuickPass, twoPasses } from './passes.ts';
import { analysisKey } from './settings.ts';
import type { SnapshotOptions } from './snapshot.ts';
import type { RunResult } from './worker-protocol.ts';

function sendStatus(ctx: ServerContext, p: StatusParams): void {
  void ctx.connection.sendNotification(StatusNotification.type, p);
}

/**
 * Analyses the document's current version unless it already is (per version and settings).
 * Documents that ask for strong levels get two passes (passes.ts): RC, RA and CC (fast, exact)
 * are published first, then the full analysis with the strong-level searches replaces them; a
 * small document's quick pass is published only when its full pass is not done holdQuickMs later.
 */
export async function check(ctx: ServerContext, uri: string): Promise<void> {
  try {
    const settings = await ctx.settingsFor(uri);
    const doc = ctx.documents.get(uri);
    const st = ctx.docs.get(uri);
    const runner = ctx.runner;
    if (!doc || !st || !runner) return;
    if (st.format === null) return; // not a history (a .txt of prose): left alone
    const key = analysisKey(settings);
    const version = doc.version;
    const text = doc.getText();
    const cached = st.model;
    // The text too, not the version alone: a client that gives two texts one number (against LSP,
    // or going back) must still get the latest one checked. The same string compares in O(1).
    if (cached && !cached.partial && cached.version === version && cached.settingsKey === key && cached.text === text) {
      // Settings changed and changed back before the check for the other settings ended: that check
      // would publish last (status, diagnostics, lenses of settings no longer in force). Cancelled,
      // and what is published is this analysis again.
      if (st.running) {
        ctx.cancelRunning(uri);
        await announce(ctx, cached, false);
      }
      return;
    }
    if (st.running && st.running.version === version && st.running.key === key && st.running.text === text) return;
    ctx.cancelRunning(uri);
    // The setting at its default (the seven) is no narrowing: files with real times still get SSER.
    const levels = settings.levels.length > 0 && !isDefaultLevelSet(settings.levels) ? settings.levels : undefined;
    const passes = twoPasses(levels) ? [true, false] : [false];
    sendStatus(ctx, { uri, version, state: 'checking', levels: [], mixed: null, strongest: null, text: 'checking…', errors: 0, warnings: 0, millis: 0 });
    // A small document's quick pass, not published yet (passes.ts holdQuickPass).
    let held: { w: Analysed; result: RunResult } | null = null;
    for (const deferStrong of passes) {
      const options: SnapshotOptions = {
        uri, levels, maxWitnesses: settings.maxWitnessesPerLevel, docsBase: ctx.docsBase, maxDiagnostics: ctx.options.maxDiagnostics, deferStrong,
        format: st.format, plumeInit: settings.plumeInit,
      };
      const job = runner.start({ kind: 'analyze', text, options, cacheKey: cacheKeyOf(version, key, deferStrong) });
      st.running = { id: job.id, version, key, text };
      const superseded = (): boolean => st.running?.id !== job.id || ctx.docs.get(uri) !== st;
      if (held && !(await within(job.result, ctx.options.holdQuickMs))) {
        // The full pass runs long: the quick pass's findings now (unless this check was superseded).
        if (superseded()) return;
        const quick = held;
        held = null;
        if (!(await publish(ctx, quick.w, quick.result, true))) return;
      }
      const result = await job.result;
      if (superseded()) return; // by a newer edit, or the document was closed
      st.running = null;
      const w = { uri, version, key, text, options };
      if (deferStrong && result.kind === 'done' && holdQuickPass(text.length)) held = { w, result };
      else if (!(await publish(ctx, w, result, deferStrong))) return;
      // Between passes: a newer check, an edit or a close makes the next pass pointless.
      if (st.running || ctx.documents.get(uri)?.version !== version) return;
    }
  } catch (e) {
    ctx.logError(`checking ${uri}`, e);
  }
}

/** Whether `p` settles within `ms` (its timer cleared either way). */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

interface Analysed {
  uri: string;
  version: number;
  key: string;
  text: string;
  options: SnapshotOptions;
}

/** Sends a document's analysis to the client: its diagnostics, status (a full pass's), and the changed notice. */
async function announce(ctx: ServerContext, m: DocModel, partial: boolean): Promise<void> {
  const { uri, version } = m;
  await ctx.connection.sendDiagnostics({ uri, version, diagnostics: m.snapshot.diagnostics });
  if (!partial) sendStatus(ctx, doneStatus(m));
  void ctx.connection.sendNotification(AnalysisChangedNotification.type, { uri, version });
  if (ctx.lensRefresh) void ctx.connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
}

/** Publishes one pass's result; false when there is nothing more to do (cancelled or failed). */
async function publish(ctx: ServerContext, w: Analysed, result: RunResult, partial: boolean): Promise<boolean> {
  const { uri, version } = w;
  switch (result.kind) {
    case 'done': {
      if (result.value.kind !== 'analyze') return false;
      const m = new DocModel(uri, version, w.key, result.value.snapshot, partial, w.text, w.options);
      const st = ctx.docs.get(uri);
      if (st) st.model = m;
      await announce(ctx, m, partial);
      return true;
    }
    case 'cancelled':
      return false;
    case 'failed': {
      ctx.log(`isocheck: analysis of ${uri} (version ${version}) failed: ${result.message}`);
      const message = result.message.split('\n')[0];
      await ctx.connection.sendDiagnostics({ uri, version, diagnostics: [{
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE,
        message: `IsoCheck could not analyse this document: ${message} (details in the IsoCheck output)`,
      }] });
      sendStatus(ctx, { uri, version, state: 'failed', levels: [], mixed: null, strongest: null, text: 'analysis failed', errors: 0, warnings: 0, millis: 0, message });
      return false;
    }
  }
}
