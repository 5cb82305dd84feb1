// Runs analyses, graph JSON and witness exports in worker threads: queueing, cancellation, timeouts, crash recovery.

import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { twoPasses } from './passes.ts';
import { AnalysisCache, runTask } from './worker-tasks.ts';
import type { DocumentTask, FromWorker, RunResult, Task, ToWorker } from './worker-protocol.ts';

/**
 * How long a cancelled job in a lane that terminates may take to stop by itself. The readers, the
 * RC/RA/CC saturations and the searches poll the cancel flag every few milliseconds (every 1,024
 * items, util/stop.ts); what does not poll (one huge event, a dbcop JSON file's parse, the
 * list-append analysis, reading consistency) may keep the worker past this, and it is terminated.
 */
export const CANCEL_GRACE_MS = 250;

export interface RunnerOptions {
  /** The bundled worker script; null or missing: analyse on the message loop (slower to cancel, still correct). */
  workerScript: string | null;
  /** Documents at least this long go to their own lane and are cancelled by terminating the worker. */
  bigText: number;
  /** A job running longer than this fails (and its worker is replaced). */
  timeoutMs: number;
  log: (message: string) => void;
  /** CANCEL_GRACE_MS unless given (0: terminate at once, as every cancellation of a big analysis once did). */
  cancelGraceMs?: number;
}

interface Job {
  id: number;
  task: Task;
  resolve: (r: RunResult) => void;
  cancelled: boolean;
  /** Shared with the worker: set to 1 to stop the job's long searches (cooperative cancellation). */
  cancel: Int32Array;
}

/** One worker and its FIFO queue. */
class Lane {
  private worker: Worker | null = null;
  /** A started, idle worker: a cancelled job's worker is replaced without waiting for a new one to boot. */
  private spare: Worker | null = null;
  private disposed = false;
  private readonly queue: Job[] = [];
  private running: Job | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Armed when the running job is cancelled: terminates its worker unless it stops by itself first. */
  private grace: NodeJS.Timeout | null = null;
  /** Workers terminated while busy (cancelled past the grace, timed out): each costs a new worker's start. */
  restarts = 0;

  /** cacheEntries: how many documents' latest analyses the lane's worker keeps (big ones cost memory). */
  constructor(private readonly name: string, private readonly o: RunnerOptions, private readonly terminateOnCancel: boolean, private readonly cacheEntries: number) {}

  submit(job: Job): void {
    this.queue.push(job);
    this.pump();
  }

  cancel(id: number): boolean {
    const q = this.queue.findIndex((j) => j.id === id);
    if (q >= 0) {
      this.queue.splice(q, 1)[0].resolve({ kind: 'cancelled' });
      return true;
    }
    const r = this.running;
    if (!r || r.id !== id) return false;
    r.cancelled = true;
    // The worker's readers and searches poll this flag and give up, and the worker, warm and with
    // its cache, takes the next job. Terminating it at once (as big lanes did) made every edit
    // during an analysis cost a new worker: 19 of 20 edits typed 250 ms apart into a 7.9 MB document.
    Atomics.store(r.cancel, 0, 1);
    if (!this.terminateOnCancel || !this.worker || this.grace) return true;
    // A stage that does not poll the flag (one huge event, the list-append analysis): past the grace, the worker goes.
    const graceMs = this.o.cancelGraceMs ?? CANCEL_GRACE_MS;
    if (graceMs <= 0) {
      this.finish({ kind: 'cancelled' }, true);
      return true;
    }
    this.grace = setTimeout(() => {
      this.grace = null;
      if (this.running !== r) return;
      this.o.log(`isocheck: a cancelled job did not stop within ${graceMs} ms (${this.name} lane); restarting the worker`);
      this.finish({ kind: 'cancelled' }, true);
    }, graceMs);
    return true;
  }

  /**
   * Drops a closed document's kept analysis from this lane's worker, in turn with the jobs already
   * queued (one of them may keep it again). A lane without a worker keeps nothing: its cache went
   * with the worker, so none is started for this.
   */
  forget(uri: string, id: number): void {
    if (this.cacheEntries === 0 || (!this.worker && !this.running)) return;
    this.submit({ id, task: { kind: 'forget', uri }, cancelled: false, cancel: new Int32Array(new SharedArrayBuffer(4)), resolve: () => undefined });
  }

  dispose(): void {
    this.disposed = true;
    for (const j of this.queue.splice(0)) j.resolve({ kind: 'cancelled' });
    if (this.running) this.finish({ kind: 'cancelled' }, true);
    void this.worker?.terminate();
    void this.spare?.terminate();
    this.worker = null;
    this.spare = null;
  }

  private pump(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    const worker = this.ensureWorker();
    if (!worker) {
      // No worker script: analyse here, after pending I/O so that this turn's messages are handled first.
      setImmediate(() => this.finish(inProcess(job)));
      return;
    }
    this.timer = setTimeout(() => {
      this.o.log(`isocheck: analysis timed out after ${this.o.timeoutMs} ms (${this.name} lane); restarting the worker`);
      this.finish({ kind: 'failed', message: `the analysis took longer than ${this.o.timeoutMs} ms` }, true);
    }, this.o.timeoutMs);
    const message: ToWorker = { id: job.id, task: job.task, cancel: job.cancel.buffer as SharedArrayBuffer };
    worker.postMessage(message);
  }

  /** Settles the running job; kill: the worker is busy with it and must go. */
  private finish(result: RunResult, kill = false): void {
    const job = this.running;
    if (!job) return;
    this.running = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.grace) clearTimeout(this.grace);
    this.grace = null;
    if (kill && this.worker) {
      const w = this.worker;
      this.worker = null;
      this.restarts++;
      w.removeAllListeners();
      w.on('error', () => undefined);
      void w.terminate();
    }
    job.resolve(job.cancelled ? { kind: 'cancelled' } : result);
    this.pump();
  }

  private ensureWorker(): Worker | null {
    if (this.worker) return this.worker;
    this.worker = this.spare ?? this.spawn();
    this.spare = null;
    // Boot the next spare once this turn's work is done, in lanes whose cancellations may terminate
    // their worker; elsewhere a worker is replaced only after a crash or a timeout, rare enough to
    // wait for a start instead of keeping an idle thread's memory.
    if (this.worker && this.terminateOnCancel) {
      setImmediate(() => {
        if (!this.disposed && !this.spare) this.spare = this.spawn();
      });
    }
    return this.worker;
  }

  private spawn(): Worker | null {
    const script = this.o.workerScript;
    if (!script || !existsSync(script)) return null;
    // Own stdout/stderr: a stray print in the worker must never reach a stdio LSP stream.
    const w = new Worker(script, { stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: 4096 }, workerData: { cacheEntries: this.cacheEntries } });
    w.stdout.on('data', (d: Buffer) => this.o.log(`worker: ${d.toString()}`));
    w.stderr.on('data', (d: Buffer) => this.o.log(`worker: ${d.toString()}`));
    w.on('message', (m: FromWorker) => {
      if (!this.running || m.id !== this.running.id) return;
      switch (m.kind) {
        case 'done':
          this.finish({ kind: 'done', value: m.value });
          break;
        case 'failed':
          this.finish({ kind: 'failed', message: m.message });
          break;
      }
    });
    w.on('error', (e) => {
      this.o.log(`isocheck: analysis worker failed: ${e.stack ?? e.message}`);
      if (this.spare === w) this.spare = null;
      if (this.worker !== w) return;
      this.worker = null;
      this.finish({ kind: 'failed', message: `the analysis worker failed: ${e.message}` });
    });
    w.on('exit', (code) => {
      if (this.spare === w) this.spare = null;
      if (this.worker !== w) return;
      this.worker = null;
      this.finish({ kind: 'failed', message: `the analysis worker exited (${code})` });
    });
    return w;
  }
}

/** Without a worker script: the same tasks on the message loop, with their own cache. */
const inProcessCache = new AnalysisCache(8);

function inProcess(job: Job): RunResult {
  try {
    return { kind: 'done', value: runTask(job.task, () => Atomics.load(job.cancel, 0) === 1, inProcessCache).value };
  } catch (e) {
    return { kind: 'failed', message: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) };
  }
}

/**
 * Small documents and big ones are analysed in separate workers, so a big analysis never delays a
 * small one; a small document checked in two passes (passes.ts: every one that asks for a strong
 * level) has its full analysis, the strong-level searches that may run to their budget, in a lane
 * of its own, so another small document's quick pass never waits behind them (it waited seconds: a
 * 600-transaction history's searches held the one small lane for 3.9 s, a 3.8 KB one's for 2.3 s).
 * The graph's JSON and the report run in the lane of the analysis they read (whose worker keeps
 * it); witness exports, which analyse again with their own budgets, run in a fourth worker.
 */
export class AnalysisRunner {
  private nextId = 1;
  private readonly small: Lane;
  private readonly strong: Lane;
  private readonly big: Lane;
  private readonly exports: Lane;
  private readonly laneOf = new Map<number, Lane>();

  constructor(private readonly o: RunnerOptions) {
    this.small = new Lane('small', o, false, 8);
    this.strong = new Lane('strong', o, false, 8);
    this.big = new Lane('big', o, true, 1);
    this.exports = new Lane('export', o, true, 0);
  }

  /** The lane of a task: exports, big documents, small documents' full analyses in two passes, the rest. */
  private laneFor(task: DocumentTask): Lane {
    if (task.kind === 'export') return this.exports;
    if (task.text.length >= this.o.bigText) return this.big;
    return task.options.deferStrong !== true && twoPasses(task.options.levels) ? this.strong : this.small;
  }

  /** Workers terminated while busy, in every lane (see Lane.restarts). */
  get restarts(): number {
    return this.small.restarts + this.strong.restarts + this.big.restarts + this.exports.restarts;
  }

  /** Starts a task; the id can cancel it. The promise never rejects. */
  start(task: DocumentTask): { id: number; result: Promise<RunResult> } {
    const id = this.nextId++;
    const lane = this.laneFor(task);
    this.laneOf.set(id, lane);
    const result = new Promise<RunResult>((resolve) => {
      lane.submit({ id, task, cancelled: false, cancel: new Int32Array(new SharedArrayBuffer(4)), resolve: (r) => {
        this.laneOf.delete(id);
        resolve(r);
      } });
    });
    return { id, result };
  }

  cancel(id: number): void {
    this.laneOf.get(id)?.cancel(id);
  }

  /**
   * A document closed: the workers forget its analysis. They kept it until other documents pushed
   * it out, so memory never came back after closing a big one (its analysis stayed in the big
   * lane's worker until the next big document was analysed).
   */
  forget(uri: string): void {
    inProcessCache.delete(uri);
    for (const lane of [this.small, this.strong, this.big]) lane.forget(uri, this.nextId++);
  }

  dispose(): void {
    this.small.dispose();
    this.strong.dispose();
    this.big.dispose();
    this.exports.dispose();
  }
}
