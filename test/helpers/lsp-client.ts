// A minimal LSP client for tests and benchmarks: spawns the bundled server over stdio and waits for what it publishes.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ConfigurationRequest, createProtocolConnection, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification,
  ExitNotification, InitializedNotification, InitializeRequest, LogMessageNotification, PublishDiagnosticsNotification,
  RegistrationRequest, ShutdownRequest, StreamMessageReader, StreamMessageWriter,
  type ClientCapabilities, type Diagnostic, type ProtocolConnection, type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { StatusNotification } from '../../server/src/protocol/messages.ts';
import type { StatusParams } from '../../server/src/protocol/shapes.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const SERVER = join(ROOT, 'out', 'server.js');
export const CLI = join(ROOT, 'out', 'cli.js');

/** Builds the bundles unless they are newer than every source file (npm test has just built them). */
export function ensureBuilt(): void {
  const bundles = [SERVER, CLI, join(ROOT, 'out', 'analysis-worker.js')];
  if (bundles.every(existsSync)) {
    const built = Math.min(...bundles.map((b) => statSync(b).mtimeMs));
    if (newestSource(join(ROOT, 'server', 'src')) <= built) return;
  }
  execSync('npm run build', { cwd: ROOT, stdio: 'pipe' });
}

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function fileUri(name: string): string {
  return pathToFileURL(join(ROOT, name)).href;
}

interface Waiter {
  uri: string;
  test: (p: PublishDiagnosticsParams) => boolean;
  resolve: (p: PublishDiagnosticsParams) => void;
}

export interface StartOptions {
  /** The command line after `node`; default the server bundle with --stdio. */
  args?: string[];
  initializationOptions?: Record<string, unknown>;
  /** Answers to workspace/configuration (the `isocheck` section); null: the client cannot be asked. */
  settings?: Record<string, unknown> | null;
  capabilities?: ClientCapabilities;
}

export class LspClient {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  /** Every publication, in order: uri and version. */
  readonly publications: { uri: string; version: number | undefined }[] = [];
  readonly statuses: StatusParams[] = [];
  readonly logs: string[] = [];
  /** Every workspace/configuration request the server made. */
  configurationRequests = 0;
  settings: Record<string, unknown>;
  private waiters: Waiter[] = [];
  private versions = new Map<string, number>();
  exited: Promise<number | null>;

  private constructor(readonly process: ChildProcess, readonly connection: ProtocolConnection, settings: Record<string, unknown>) {
    this.settings = settings;
    this.exited = new Promise((resolve) => process.on('exit', (code) => resolve(code)));
  }

  static async start(o: StartOptions = {}): Promise<LspClient> {
    const p = spawn(process.execPath, o.args ?? [SERVER, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createProtocolConnection(new StreamMessageReader(p.stdout), new StreamMessageWriter(p.stdin));
    const client = new LspClient(p, connection, o.settings ?? {});
    p.stderr.on('data', (d: Buffer) => client.logs.push(`stderr: ${d.toString()}`));
    connection.onNotification(PublishDiagnosticsNotification.type, (d) => client.published(d));
    connection.onNotification(StatusNotification.type, (s) => client.statused(s));
    connection.onNotification(LogMessageNotification.type, (m) => client.logs.push(m.message));
    connection.onRequest(ConfigurationRequest.type, (params) => {
      client.configurationRequests++;
      return params.items.map(() => client.settings);
    });
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.listen();
    const pull = o.settings !== null;
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid, rootUri: pathToFileURL(ROOT).href, workspaceFolders: null,
      capabilities: o.capabilities ?? { workspace: { configuration: pull, didChangeConfiguration: { dynamicRegistration: true } } },
      initializationOptions: o.initializationOptions ?? {},
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  private statusWaiters: { test: (s: StatusParams) => boolean; resolve: (s: StatusParams) => void }[] = [];

  private statused(s: StatusParams): void {
    this.statuses.push(s);
    const ready = this.statusWaiters.filter((w) => w.test(s));
    this.statusWaiters = this.statusWaiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(s);
  }

  /** The first status (already received or still to come) that passes test. */
  statusFor(test: (s: StatusParams) => boolean, timeoutMs = 20_000): Promise<StatusParams> {
    const now = this.statuses.find(test);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such status within ${timeoutMs} ms`)), timeoutMs);
      this.statusWaiters.push({ test, resolve: (s) => {
        clearTimeout(timer);
        resolve(s);
      } });
    });
  }

  private published(d: PublishDiagnosticsParams): void {
    this.diagnostics.set(d.uri, d);
    this.publications.push({ uri: d.uri, version: d.version });
    const ready = this.waiters.filter((w) => w.uri === d.uri && w.test(d));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(d);
  }

  /** The next diagnostics published for uri that pass test (or the current ones, if they already do). */
  diagnosticsFor(uri: string, test: (p: PublishDiagnosticsParams) => boolean = () => true, timeoutMs = 20_000): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms\n${this.logs.join('\n')}`)), timeoutMs);
      this.waiters.push({ uri, test, resolve: (p) => {
        clearTimeout(timer);
        resolve(p);
      } });
    });
  }

  /**
   * The diagnostics once a version's check is over (its status done or failed): of the full pass,
   * where diagnosticsOfVersion gives the first published, the quick pass of a document checked in two.
   */
  async diagnosticsOfCheck(uri: string, version: number, timeoutMs?: number): Promise<Diagnostic[]> {
    await this.statusFor((s) => s.uri === uri && s.version === version && (s.state === 'done' || s.state === 'failed'), timeoutMs);
    const now = this.diagnostics.get(uri);
    assert.equal(now?.version, version, 'the check\'s diagnostics are published before its status');
    return now?.diagnostics ?? [];
  }

  /** Waits for the diagnostics of a given document version (the first published). */
  diagnosticsOfVersion(uri: string, version: number, timeoutMs?: number): Promise<Diagnostic[]> {
    const now = this.diagnostics.get(uri);
    if (now && now.version === version) return Promise.resolve(now.diagnostics);
    return this.diagnosticsFor(uri, (p) => p.version === version, timeoutMs).then((p) => p.diagnostics);
  }

  async open(uri: string, text: string, languageId = 'hist'): Promise<number> {
    this.versions.set(uri, 1);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    return 1;
  }

  /** Replaces the whole text; returns the new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    return version;
  }

  /** An incremental edit: replaces the given range. */
  async edit(uri: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ range, text }] });
    return version;
  }

  async stop(): Promise<number | null> {
    if (this.process.exitCode !== null) return this.process.exitCode;
    await this.connection.sendRequest(ShutdownRequest.type);
    await this.connection.sendNotification(ExitNotification.type);
    const code = await this.exited;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    this.connection.dispose();
    this.process.kill();
  }
}

/**
 * One server for the tests of a `describe` block (call it in the block): started before them, stopped
 * after them unless it already exited; with `noFailures`, its log must show no failed handler or
 * analysis by then. The value stands for the client once started (a proxy: the tests read it as
 * the client itself, though it exists only when their `before` has run).
 */
export function suiteClient(options: StartOptions, check: { noFailures?: boolean } = {}): LspClient {
  let client: LspClient | null = null;
  before(async () => {
    client = await LspClient.start(options);
  });
  after(async () => {
    if (!client) return;
    if (check.noFailures) assert.deepEqual(client.logs.filter((l) => /failed/.test(l)), [], 'no handler or analysis failed');
    // A server that hangs (the failure a test may be reporting) is killed rather than waited for.
    const stopped = client.stop();
    const gaveUp = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 5000).unref());
    if ((await Promise.race([stopped, gaveUp])) === 'late') client.kill();
  });
  return new Proxy({} as LspClient, {
    get(_, property) {
      if (!client) throw new Error('suiteClient: the server is used before its describe block started it');
      const value: unknown = Reflect.get(client, property, client);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(client) : value;
    },
  });
}
