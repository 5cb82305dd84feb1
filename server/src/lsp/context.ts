// What every stage of the server shares: the connection, the open documents' states, tunables, workers and guards.

import { ErrorCodes, ResponseError, TextDocuments, type Connection } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CONFIGURATION_SECTION } from '../protocol/commands.ts';
import type { IsoCheckSettings } from '../protocol/shapes.ts';
import type { AnalysisRunner } from './analysis-runner.ts';
import { DocStates } from './doc-state.ts';
import { DebounceScheduler } from './scheduler.ts';
import { DEFAULT_SETTINGS, parseSettings } from './settings.ts';
import { SyncedDocument } from './synced-document.ts';
import { HOLD_QUICK_MS } from './passes.ts';
import type { ParamCheck } from './param-checks.ts';

/** Tunables a client may pass as initializationOptions (tests and benchmarks do). */
export interface ServerOptions {
  debounceMs: number;
  maxDiagnostics: number;
  analysisTimeoutMs: number;
  /** Documents at least this many characters long are analysed in their own, cancellable worker. */
  bigDocumentChars: number;
  /** Histories with more transactions get only a neighbourhood in the graph's JSON. */
  maxGraphTransactions: number;
  /** How long a document's check and export wait for the client's answer to workspace/configuration before using the defaults. */
  configurationWaitMs: number;
  /** How long a small document's quick pass waits for its full pass before it is published alone (passes.ts holdQuickPass). */
  holdQuickMs: number;
}

export const DEFAULT_OPTIONS: ServerOptions = {
  debounceMs: 150, maxDiagnostics: 1000, analysisTimeoutMs: 120_000, bigDocumentChars: 256 * 1024, maxGraphTransactions: 5000, configurationWaitMs: 5000,
  holdQuickMs: HOLD_QUICK_MS,
};

/** The longest delay setTimeout takes: a longer one fires after 1 ms (with a warning on stderr). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function tunables(raw: unknown): ServerOptions {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const num = (k: keyof ServerOptions): number => {
    const v = o[k];
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_OPTIONS[k];
  };
  // Timer lengths are capped, not passed on: an analysisTimeoutMs of 3e9 ("never") failed every analysis after 1 ms.
  const ms = (k: keyof ServerOptions): number => Math.min(num(k), MAX_TIMER_MS);
  return {
    debounceMs: ms('debounceMs'), maxDiagnostics: Math.max(1, num('maxDiagnostics')), analysisTimeoutMs: ms('analysisTimeoutMs'),
    bigDocumentChars: num('bigDocumentChars'), maxGraphTransactions: Math.max(1, num('maxGraphTransactions')), configurationWaitMs: ms('configurationWaitMs'),
    holdQuickMs: ms('holdQuickMs'),
  };
}

export class ServerContext {
  readonly documents = new TextDocuments<TextDocument>(SyncedDocument);
  readonly docs = new DocStates();
  options = DEFAULT_OPTIONS;
  runner: AnalysisRunner | null = null;
  scheduler: DebounceScheduler;
  /** Set by `shutdown`: every later request fails with InvalidRequest, as LSP requires. */
  shutDown = false;
  pushedSettings: IsoCheckSettings = { ...DEFAULT_SETTINGS };
  pullConfiguration = false;
  dynamicConfiguration = false;
  lensRefresh = false;

  constructor(readonly connection: Connection, readonly docsBase: string | null, run: (uri: string) => void) {
    this.scheduler = new DebounceScheduler(DEFAULT_OPTIONS.debounceMs, run);
  }

  log(m: string): void {
    this.connection.console.log(m);
  }

  logError(what: string, e: unknown): void {
    this.connection.console.error(`isocheck: ${what} failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  }

  /**
   * A request handler: refused after shutdown; params that `check` refuses are answered
   * InvalidParams (-32602); an exception is logged and answered with the fallback, never fatal.
   */
  request<P extends unknown[], R>(what: string, fallback: R, fn: (...args: P) => R, check?: ParamCheck): (...args: P) => R {
    return (...args: P): R => {
      if (this.shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, `${what}: the server is shutting down (no requests after shutdown)`);
      const invalid = check?.(args[0]) ?? null;
      if (invalid !== null) throw new ResponseError(ErrorCodes.InvalidParams, `${what}: ${invalid}`);
      try {
        return fn(...args);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        this.logError(what, e);
        return fallback;
      }
    };
  }

  /** A notification handler: ignored after shutdown; an exception is logged. */
  notification<P extends unknown[]>(what: string, fn: (...args: P) => void): (...args: P) => void {
    return (...args: P): void => {
      if (this.shutDown) return;
      try {
        fn(...args);
      } catch (e) {
        this.logError(what, e);
      }
    };
  }

  settingsFor(uri: string): Promise<IsoCheckSettings> {
    if (!this.pullConfiguration) return Promise.resolve(this.pushedSettings);
    const st = this.docs.get(uri);
    if (st?.settings) return st.settings;
    const asked = this.connection.workspace.getConfiguration({ scopeUri: uri, section: CONFIGURATION_SECTION }).then(
      (raw) => parseSettings(raw),
      (e: unknown) => {
        this.logError('reading the isocheck settings', e);
        return { ...DEFAULT_SETTINGS };
      });
    // Every check and export of the document waits for these settings: a client that never
    // answers would leave it unchecked and its exports unanswered for good. After a while the
    // defaults stand in; a late answer then replaces them and the document is checked again.
    let late = false;
    const s = new Promise<IsoCheckSettings>((resolve) => {
      const wait = this.options.configurationWaitMs;
      const timer = setTimeout(() => {
        late = true;
        this.log(`isocheck: the client has not answered workspace/configuration for ${uri} within ${wait} ms; using the default settings until it does`);
        resolve({ ...DEFAULT_SETTINGS });
      }, wait);
      timer.unref();
      void asked.then((v) => {
        clearTimeout(timer);
        resolve(v);
      });
    });
    if (st) {
      st.settings = s;
      void asked.then(() => {
        if (!late || st.settings !== s || this.docs.get(uri) !== st) return;
        st.settings = asked;
        this.scheduler.now(uri);
      });
    }
    return s;
  }

  cancelRunning(uri: string): void {
    const st = this.docs.get(uri);
    const r = st?.running;
    if (!st || !r) return;
    st.running = null;
    this.runner?.cancel(r.id);
  }
}
