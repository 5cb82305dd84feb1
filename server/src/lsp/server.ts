// The IsoCheck language server: documents in, analyses in a worker, diagnostics and editor features out.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeLensRefreshRequest, createConnection, DiagnosticSeverity, DidChangeConfigurationNotification, ProposedFeatures, TextDocuments, TextDocumentSyncKind,
  type Connection, type InitializeParams, type InitializeResult, type Position,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIGURATION_SECTION } from '../protocol/commands.ts';
import { AnalysisChangedNotification, AnalysisRequest, StatusNotification, WitnessExportRequest } from '../protocol/messages.ts';
import { exportWitnessOfText } from '../engine/export/witness-of-text.ts';
import type { IsoCheckSettings, StatusParams } from '../protocol/shapes.ts';
import { AnalysisRunner } from './analysis-runner.ts';
import { DocModel } from './doc-model.ts';
import type { RunResult } from './worker-protocol.ts';
import { analysisJson } from './features/analysis-json.ts';
import { codeLenses } from './features/code-lens.ts';
import { completions } from './features/completion.ts';
import { hoverAt } from './features/hover.ts';
import { definitionAt, referencesAt } from './features/navigation.ts';
import { documentSymbols, foldingRanges } from './features/symbols.ts';
import { doneStatus } from './features/summary.ts';
import { DebounceScheduler } from './scheduler.ts';
import { analysisKey, DEFAULT_SETTINGS, parseSettings } from './settings.ts';
import { DIAGNOSTIC_SOURCE } from './convert.ts';
import { isDefaultLevelSet, isWeakLevel } from '../engine/levels/levels.ts';

/** Tunables a client may pass as initializationOptions (tests and benchmarks do). */
export interface ServerOptions {
  debounceMs: number;
  maxDiagnostics: number;
  analysisTimeoutMs: number;
  /** Documents at least this many characters long are analysed in their own, cancellable worker. */
  bigDocumentChars: number;
}

const DEFAULTS: ServerOptions = { debounceMs: 150, maxDiagnostics: 1000, analysisTimeoutMs: 120_000, bigDocumentChars: 256 * 1024 };

const TRANSPORT_FLAGS = ['--stdio', '--node-ipc', '--socket', '--pipe'];

/** Starts the server on the transport named in argv (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=P`); stdio by default. */
/** Documents from this size on get a quick RC/RA/CC pass before the strong-level searches. */
const TWO_PASS_CHARS = 4096;
/** Budgets of a witness export, which runs on the message loop. */
const EXPORT_STRONG_MILLIS = 500;
const EXPORT_MINIMIZE_MILLIS = 1000;

export function startServer(argv: readonly string[]): void {
  // vscode-languageserver reads the transport from process.argv; `isocheck lsp` with none means stdio.
  if (!argv.some((a) => TRANSPORT_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)))) process.argv.push('--stdio');
  serve(createConnection(ProposedFeatures.all));
}

function tunables(raw: unknown): ServerOptions {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const num = (k: keyof ServerOptions): number => {
    const v = o[k];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULTS[k];
  };
  return { debounceMs: num('debounceMs'), maxDiagnostics: Math.max(1, num('maxDiagnostics')), analysisTimeoutMs: num('analysisTimeoutMs'), bigDocumentChars: num('bigDocumentChars') };
}

/** The anomalies page next to the bundle (out/ → docs/) or the sources (server/src/lsp → docs/). */
function findDocs(): string | null {
  for (const p of [join(__dirname, '..', 'docs', 'anomalies.md'), join(__dirname, '..', '..', '..', 'docs', 'anomalies.md')]) {
    if (existsSync(p)) return pathToFileURL(p).href;
  }
  return null;
}

interface Running {
  id: number;
  version: number;
  key: string;
}

export function serve(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const models = new Map<string, DocModel>();
  const running = new Map<string, Running>();
  const openVersion = new Map<string, number>();
  const settingsCache = new Map<string, Promise<IsoCheckSettings>>();
  let pushedSettings: IsoCheckSettings = { ...DEFAULT_SETTINGS };
  let pullConfiguration = false;
  let dynamicConfiguration = false;
  let lensRefresh = false;
  let options = DEFAULTS;
  let runner: AnalysisRunner | null = null;
  let scheduler = new DebounceScheduler(DEFAULTS.debounceMs, (uri) => void check(uri));
  const docsBase = findDocs();

  const log = (m: string): void => connection.console.log(m);
  const logError = (what: string, e: unknown): void => connection.console.error(`isocheck: ${what} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);

  /** Every handler runs through this: an exception is logged and answered with the fallback, never fatal. */
  function guard<P extends unknown[], R>(what: string, fallback: R, fn: (...args: P) => R): (...args: P) => R {
    return (...args: P): R => {
      try {
        return fn(...args);
      } catch (e) {
        logError(what, e);
        return fallback;
      }
    };
  }

  function settingsFor(uri: string): Promise<IsoCheckSettings> {
    if (!pullConfiguration) return Promise.resolve(pushedSettings);
    let s = settingsCache.get(uri);
    if (!s) {
      s = connection.workspace.getConfiguration({ scopeUri: uri, section: CONFIGURATION_SECTION }).then(
        (raw) => parseSettings(raw),
        (e: unknown) => {
          logError('reading the isocheck settings', e);
          return { ...DEFAULT_SETTINGS };
        });
      settingsCache.set(uri, s);
    }
    return s;
  }

  function sendStatus(p: StatusParams): void {
    void connection.sendNotification(StatusNotification.type, p);
  }

  function cancelRunning(uri: string): void {
    const r = running.get(uri);
    if (!r) return;
    running.delete(uri);
    runner?.cancel(r.id);
  }

  /**
   * Analyses the document's current version unless it already is (per version and settings).
   * Large documents that ask for strong levels get two passes: RC, RA and CC (fast, exact) are
   * published first, then the full analysis with the strong-level searches replaces them.
   */
  async function check(uri: string): Promise<void> {
    try {
      const settings = await settingsFor(uri);
      const doc = documents.get(uri);
      if (!doc || !runner) return;
      const key = analysisKey(settings);
      const version = doc.version;
      const cached = models.get(uri);
      if (cached && !cached.partial && cached.version === version && cached.settingsKey === key) return;
      const inflight = running.get(uri);
      if (inflight && inflight.version === version && inflight.key === key) return;
      cancelRunning(uri);
      const text = doc.getText();
      // The setting at its default (the seven) is no narrowing: files with real times still get SSER.
      const levels = settings.levels.length > 0 && !isDefaultLevelSet(settings.levels) ? settings.levels : undefined;
      const strongAsked = levels === undefined || levels.some((l) => !isWeakLevel(l));
      const passes = text.length >= TWO_PASS_CHARS && strongAsked ? [true, false] : [false];
      sendStatus({ uri, version, state: 'checking', levels: [], mixed: null, strongest: null, text: 'checking…', errors: 0, warnings: 0, millis: 0 });
      for (const deferStrong of passes) {
        const job = runner.start(text, {
          uri, levels, maxWitnesses: settings.maxWitnessesPerLevel, docsBase, maxDiagnostics: options.maxDiagnostics, deferStrong,
        });
        running.set(uri, { id: job.id, version, key });
        const result = await job.result;
        if (running.get(uri)?.id !== job.id) return; // superseded by a newer edit or closed
        running.delete(uri);
        if (!(await publish(uri, version, key, text, result, deferStrong))) return;
        // Between passes: a newer check, an edit or a close makes the next pass pointless.
        if (running.has(uri) || documents.get(uri)?.version !== version) return;
      }
    } catch (e) {
      logError(`checking ${uri}`, e);
    }
  }

  /** Publishes one pass's result; false when there is nothing more to do (cancelled or failed). */
  async function publish(uri: string, version: number, key: string, text: string, result: RunResult, partial: boolean): Promise<boolean> {
    switch (result.kind) {
      case 'done': {
        const m = new DocModel(uri, version, key, result.snapshot, partial, text);
        models.set(uri, m);
        await connection.sendDiagnostics({ uri, version, diagnostics: result.snapshot.diagnostics });
        if (!partial) sendStatus(doneStatus(m));
        void connection.sendNotification(AnalysisChangedNotification.type, { uri, version });
        if (lensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
        return true;
      }
      case 'cancelled':
        return false;
      case 'failed': {
        log(`isocheck: analysis of ${uri} (version ${version}) failed: ${result.message}`);
        const message = result.message.split('\n')[0];
        await connection.sendDiagnostics({ uri, version, diagnostics: [{
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE,
          message: `IsoCheck could not analyse this document: ${message} (details in the IsoCheck output)`,
        }] });
        sendStatus({ uri, version, state: 'failed', levels: [], mixed: null, strongest: null, text: 'analysis failed', errors: 0, warnings: 0, millis: 0, message });
        return false;
      }
    }
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    options = tunables(params.initializationOptions);
    scheduler = new DebounceScheduler(options.debounceMs, (uri) => void check(uri));
    runner = new AnalysisRunner({
      workerScript: join(__dirname, 'analysis-worker.js'), bigText: options.bigDocumentChars, timeoutMs: options.analysisTimeoutMs, log,
    });
    const caps = params.capabilities;
    pullConfiguration = caps.workspace?.configuration === true;
    dynamicConfiguration = caps.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    lensRefresh = caps.workspace?.codeLens?.refreshSupport === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        codeLensProvider: { resolveProvider: false },
        completionProvider: { triggerCharacters: ['(', '[', ' ', '-'] },
        foldingRangeProvider: true,
      },
      serverInfo: { name: 'isocheck' },
    };
  });

  connection.onInitialized(guard('initialized', undefined, () => {
    if (dynamicConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: CONFIGURATION_SECTION }).catch((e: unknown) => logError('registering for configuration changes', e));
    }
  }));

  connection.onDidChangeConfiguration(guard('configuration change', undefined, (change) => {
    settingsCache.clear();
    const pushed = (change.settings as Record<string, unknown> | null | undefined)?.[CONFIGURATION_SECTION];
    if (pushed !== undefined) pushedSettings = parseSettings(pushed);
    for (const doc of documents.all()) scheduler.now(doc.uri);
  }));

  documents.onDidOpen(guard('open', undefined, (e) => {
    openVersion.set(e.document.uri, e.document.version);
    scheduler.now(e.document.uri);
  }));

  documents.onDidChangeContent(guard('change', undefined, (e) => {
    const { uri, version } = e.document;
    if (openVersion.get(uri) === version) return; // the open itself, handled above
    void settingsFor(uri).then((s) => {
      if (s.checkOn !== 'change') return;
      // A newer edit makes a running analysis stale: stop it now rather than when the next one starts.
      if ((running.get(uri)?.version ?? version) < version) cancelRunning(uri);
      scheduler.edited(uri);
    });
  }));

  documents.onDidSave(guard('save', undefined, (e) => scheduler.now(e.document.uri)));

  documents.onDidClose(guard('close', undefined, (e) => {
    const uri = e.document.uri;
    scheduler.forget(uri);
    cancelRunning(uri);
    models.delete(uri);
    openVersion.delete(uri);
    settingsCache.delete(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  }));

  const model = (uri: string): DocModel | null => models.get(uri) ?? null;
  /** For position-based features: the analysis of exactly the text the client shows, else nothing. */
  /**
   * For position-based features: the analysis of the text the client shows. While a newer version
   * is being analysed, the older analysis still answers for positions before the first change.
   */
  const currentModel = (uri: string, position?: Position): DocModel | null => {
    const m = models.get(uri);
    const doc = documents.get(uri);
    if (!m || !doc) return null;
    if (m.version === doc.version) return m;
    if (!position) return null;
    return doc.offsetAt(position) < m.unchangedPrefix(doc.version, doc.getText()) ? m : null;
  };

  connection.onHover(guard('hover', null, (p) => {
    const m = currentModel(p.textDocument.uri, p.position);
    return m ? hoverAt(m, p.position) : null;
  }));
  connection.onDefinition(guard('definition', null, (p) => {
    const m = currentModel(p.textDocument.uri, p.position);
    return m ? definitionAt(m, p.position) : null;
  }));
  connection.onReferences(guard('references', [], (p) => {
    const m = currentModel(p.textDocument.uri);
    return m ? referencesAt(m, p.position, p.context.includeDeclaration) : [];
  }));
  connection.onDocumentSymbol(guard('document symbols', [], (p) => {
    const m = model(p.textDocument.uri);
    return m ? documentSymbols(m) : [];
  }));
  connection.onFoldingRanges(guard('folding ranges', [], (p) => {
    const m = model(p.textDocument.uri);
    return m ? foldingRanges(m) : [];
  }));
  connection.onCodeLens(guard('code lens', [], (p) => {
    const m = model(p.textDocument.uri);
    return m ? codeLenses(m) : [];
  }));
  connection.onCompletion(guard('completion', null, (p) => {
    const doc = documents.get(p.textDocument.uri);
    const prefix = doc ? doc.getText({ start: { line: p.position.line, character: 0 }, end: p.position }) : '';
    return completions(model(p.textDocument.uri), prefix);
  }));
  connection.onRequest(AnalysisRequest.type, guard('isocheck/analysis', null, (p) => {
    const m = model(p.uri);
    return m ? m.cached(`analysis:${p.limit ?? ''}`, () => analysisJson(m, p.limit)) : null;
  }));

  connection.onRequest(WitnessExportRequest.type, guard('isocheck/exportWitness', { ok: false, message: 'the export failed (see the IsoCheck output channel)' }, (p) => {
    const doc = documents.get(p.uri);
    if (!doc) return { ok: false, message: `${p.uri} is not open` };
    const file = decodeURIComponent(p.uri.split('/').pop() ?? p.uri);
    // On the message loop: the editor's short budgets keep it to about a second.
    const r = exportWitnessOfText(doc.getText(), { file, level: p.level, format: p.format, minimizeMillis: EXPORT_MINIMIZE_MILLIS }, EXPORT_STRONG_MILLIS);
    return r.ok ? { ok: true, text: r.text, extension: r.extension } : { ok: false, message: r.message };
  }));

  connection.onShutdown(() => {
    runner?.dispose();
    runner = null;
  });

  documents.listen(connection);
  connection.listen();
  log(`isocheck language server started${docsBase ? '' : ' (docs/anomalies.md not found: diagnostics carry no links)'}`);
}
