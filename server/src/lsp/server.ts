// The IsoCheck language server: documents in, analyses in a worker, diagnostics and editor features out.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createConnection, createServerPipeTransport, createServerSocketTransport, DidChangeConfigurationNotification, ErrorCodes,
  IPCMessageReader, IPCMessageWriter, ProposedFeatures, ResponseError, TextDocumentSyncKind,
  type Connection, type InitializeParams, type InitializeResult, type MessageReader, type MessageWriter,
} from 'vscode-languageserver/node';
import { CONFIGURATION_SECTION } from '../protocol/commands.ts';
import { AnalysisRunner } from './analysis-runner.ts';
import { check } from './checker.ts';
import { ServerContext, tunables } from './context.ts';
import { registerCustomRequests } from './custom-requests.ts';
import { registerDocumentSync } from './document-sync.ts';
import { registerEditorFeatures } from './editor-features.ts';
import { guardedReader } from './message-guard.ts';
import { DebounceScheduler } from './scheduler.ts';
import { parseSettings } from './settings.ts';
import { stdioTransport } from './transport.ts';

const TRANSPORT_FLAGS = ['--stdio', '--node-ipc', '--socket', '--pipe'];

/** Starts the server on the transport named in argv (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=P`); stdio by default. */
export function startServer(argv: readonly string[]): void {
  // The context is made after the transport: the stdio transport asks it whether `shutdown` came
  // (the exit status when the input ends), every reader logs through it what it drops.
  let ctx: ServerContext | null = null;
  const named = namedTransport(argv);
  // stdio is ours (strict framing); the others are vscode-languageserver's, made as it makes them from argv.
  const { reader, writer } = named ?? stdioTransport({ shutDown: () => ctx?.shutDown === true });
  ctx = serve(createConnection(ProposedFeatures.all, guardedReader(reader, (why) => ctx?.log(`isocheck: ${why}`), (reply) => void writer.write(reply)), writer));
}

/** The transport of `--node-ipc`, `--socket=N` / `--socket N` or `--pipe=P` / `--pipe P`; null for stdio. */
function namedTransport(argv: readonly string[]): { reader: MessageReader; writer: MessageWriter } | null {
  for (const [i, a] of argv.entries()) {
    // Split at the first '=' only: a pipe's path may hold one (split('=', 2) would cut it there).
    const eq = a.indexOf('=');
    const flag = eq < 0 ? a : a.slice(0, eq);
    const value = eq < 0 ? argv[i + 1] : a.slice(eq + 1);
    if (!TRANSPORT_FLAGS.includes(flag) || flag === '--stdio') continue;
    if (flag === '--node-ipc') return { reader: new IPCMessageReader(process), writer: new IPCMessageWriter(process) };
    const [reader, writer] = flag === '--socket' ? createServerSocketTransport(Number(value)) : createServerPipeTransport(value ?? '');
    return { reader, writer };
  }
  return null;
}

/** The anomalies page next to the bundle (out/ → docs/) or the sources (server/src/lsp → docs/). */
function findDocs(): string | null {
  for (const p of [join(__dirname, '..', 'docs', 'anomalies.md'), join(__dirname, '..', '..', '..', 'docs', 'anomalies.md')]) {
    if (existsSync(p)) return pathToFileURL(p).href;
  }
  return null;
}

/** The server as stages: shared state, lifecycle, documents, editor features, IsoCheck's own requests. */
export function serve(connection: Connection): ServerContext {
  const ctx: ServerContext = new ServerContext(connection, findDocs(), (uri) => void check(ctx, uri));
  registerLifecycle(ctx);
  registerDocumentSync(ctx);
  registerEditorFeatures(ctx);
  registerCustomRequests(ctx);
  ctx.documents.listen(connection);
  connection.listen();
  ctx.log(`isocheck language server started${ctx.docsBase ? '' : ' (docs/anomalies.md not found: diagnostics carry no links)'}`);
  return ctx;
}

/** initialize (capabilities, tunables, workers), configuration changes, shutdown. */
function registerLifecycle(ctx: ServerContext): void {
  const { connection } = ctx;
  let initialized = false;
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    // LSP sends initialize once. A second one made a second set of workers and orphaned the first
    // (two more threads per request once it analysed), and its tunables would apply to documents mid-check.
    if (initialized || ctx.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'initialize: the server is already initialised (initialize is sent once)');
    initialized = true;
    ctx.options = tunables(params.initializationOptions);
    ctx.scheduler = new DebounceScheduler(ctx.options.debounceMs, (uri) => void check(ctx, uri));
    ctx.runner = new AnalysisRunner({
      workerScript: join(__dirname, 'analysis-worker.js'), bigText: ctx.options.bigDocumentChars, timeoutMs: ctx.options.analysisTimeoutMs, log: (m) => ctx.log(m),
    });
    const caps = params.capabilities;
    ctx.pullConfiguration = caps.workspace?.configuration === true;
    ctx.dynamicConfiguration = caps.workspace?.didChangeConfiguration?.dynamicRegistration === true;
    ctx.lensRefresh = caps.workspace?.codeLens?.refreshSupport === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        completionProvider: { triggerCharacters: ['(', '[', ' ', '-'] },
        foldingRangeProvider: true,
      },
      serverInfo: { name: 'isocheck' },
    };
  });

  connection.onInitialized(ctx.notification('initialized', () => {
    if (ctx.dynamicConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: CONFIGURATION_SECTION }).catch((e: unknown) => ctx.logError('registering for configuration changes', e));
    }
  }));

  connection.onDidChangeConfiguration(ctx.notification('configuration change', (change) => {
    ctx.docs.forgetSettings();
    const pushed = (change.settings as Record<string, unknown> | null | undefined)?.[CONFIGURATION_SECTION];
    if (pushed !== undefined) ctx.pushedSettings = parseSettings(pushed);
    for (const doc of ctx.documents.all()) ctx.scheduler.now(doc.uri);
  }));

  connection.onShutdown(() => {
    if (ctx.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'shutdown: the server is already shutting down');
    ctx.shutDown = true;
    ctx.runner?.dispose();
    ctx.runner = null;
  });
}
