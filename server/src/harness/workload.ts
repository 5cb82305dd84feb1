// Concurrent clients running random transactions (rw-register or list-append) and recording what they observed.

import { bounded, DbError, STATEMENT_TIMEOUT_MS, type Driver, type Session } from './driver.ts';
import type { RecordedOp, RecordedTxn, TxnStatus } from './recorder.ts';
import { Rng } from '../engine/gen/generate.ts';

export type WorkloadKind = 'list-append' | 'rw-register';

export interface WorkloadOptions {
  workload: WorkloadKind;
  isolation: string;
  clients: number;
  /** Total transactions across clients (undefined: until `seconds` pass or stop). */
  txns?: number;
  seconds?: number;
  keys: number;
  opsMin: number;
  opsMax: number;
  seed: number;
  /** A statement that takes longer is treated as a lost connection (a hung server must not hang the run). */
  statementMillis?: number;
}

export interface RunStats {
  committed: number;
  aborted: number;
  unknown: number;
  /** Microseconds spent waiting for the database (statement round trips). */
  dbMicros: number;
  /** Why the run ended early (the database went away), or null. */
  fatal: string | null;
}

/** The engine's seeded generator (the same seed gives the same stream everywhere), as a function. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.float();
}

/**
 * Client `index`'s seed: seed × 1000003 + index, computed exactly. In floating point the product
 * of a seed above ~9·10^9 (a millisecond timestamp, say) passed 2^53 and swallowed the index:
 * with --seed 10^16 clients 1 and 4 ran the same transactions, with 2^53 every client did.
 * Seeds whose product is exact keep the streams they always had.
 */
export function clientSeed(seed: number, index: number): number {
  const v = seed * 1000003 + index;
  if (Number.isSafeInteger(v)) return v;
  return Number(BigInt.asUintN(53, BigInt(seed) * 1000003n + BigInt(index)));
}

/** Microseconds since the run began, on the process's monotonic clock (one clock for every client). */
export function clock(): () => number {
  const t0 = process.hrtime.bigint();
  return () => Number((process.hrtime.bigint() - t0) / 1000n);
}

/**
 * A planned operation on one of the `--keys` slots (list-append resolves the slot to its current
 * key when the operation runs), or a final read of one key.
 */
type Planned = { kind: 'r' | 'w'; slot: number } | { kind: 'final'; key: number };

/**
 * A list-append key takes this many appends, then its slot moves on to a fresh key, as Jepsen's
 * append workload retires keys (max-writes-per-key). Each read returns a whole list: unbounded
 * lists made a history grow with the square of the run (a default 10 s SQLite run wrote 305 MB,
 * a 20 s one could not be assembled), bounded ones keep it linear.
 */
export const APPENDS_PER_KEY = 64;

/** Fresh list keys are created in blocks of this many, ahead of use, by the driver's own connection (one INSERT each). */
function listBlock(keys: number): number {
  return Math.max(256, Math.min(4 * keys, 4096));
}

/** Keys read per transaction of the final session (a run with many keys reads them in several). */
const FINAL_READ_KEYS = 256;

export class Workload {
  readonly stats: RunStats = { committed: 0, aborted: 0, unknown: 0, dbMicros: 0, fatal: null };
  /** The last lost-connection message, for the report when reconnecting then fails. */
  lastLoss: string | null = null;
  private stopped = false;
  private started = 0;
  private nextTxn = 1;
  /** Written values are unique across the run (per key would do; global is simpler and still small). */
  private nextValue = 1;
  private readonly now = clock();
  /** List-append: the key each slot appends to and reads now (slot s starts at key s). */
  private readonly slotKey: number[];
  /** List-append: appends issued per key (aborted ones too), until its slot moves on. */
  private readonly appendsTo = new Map<number, number>();
  /** List-append: keys 1..listRows have a list row; nextKey is the next fresh one. */
  private listRows: number;
  private nextKey: number;
  private refill: Promise<void> | null = null;
  /** When creating fresh lists last failed (ms): not retried at every append while the database says no. */
  private refillFailedAt = -Infinity;

  constructor(
    private readonly driver: Driver,
    private readonly o: WorkloadOptions,
    private readonly record: (client: number, t: RecordedTxn) => void,
  ) {
    this.slotKey = Array.from({ length: o.keys }, (_, i) => i + 1);
    this.listRows = o.keys;
    this.nextKey = o.keys + 1;
  }

  /** Before the run (after Driver.reset): the first block of fresh list keys, so that slots can move on at once. */
  async prepare(): Promise<void> {
    if (this.o.workload !== 'list-append') return;
    const to = this.o.keys + listBlock(this.o.keys);
    await this.driver.addLists(this.o.keys + 1, to);
    this.listRows = to;
  }

  stop(): void {
    this.stopped = true;
  }

  async run(): Promise<RunStats> {
    const deadline = this.o.seconds === undefined ? Infinity : Date.now() + this.o.seconds * 1000;
    const timer = this.o.seconds === undefined ? null : setTimeout(() => this.stop(), this.o.seconds * 1000);
    try {
      await Promise.all(Array.from({ length: this.o.clients }, (_, i) => this.client(i, deadline)));
    } finally {
      if (timer) clearTimeout(timer);
      // A block of fresh lists still being made: its connection must not outlive the run (it settles within the driver's bounds).
      await this.refill;
    }
    // A database that went away has nothing more to say; anything else ends with the final reads.
    if (this.stats.fatal === null) await this.finalReads();
    return this.stats;
  }

  private more(deadline: number): boolean {
    if (this.stopped || Date.now() >= deadline) return false;
    return this.o.txns === undefined || this.started < this.o.txns;
  }

  private async timed<T>(p: Promise<T>): Promise<T> {
    const t0 = this.now();
    try {
      return await bounded(p, this.o.statementMillis ?? STATEMENT_TIMEOUT_MS);
    } finally {
      this.stats.dbMicros += this.now() - t0;
    }
  }

  private async client(index: number, deadline: number): Promise<void> {
    const random = rng(clientSeed(this.o.seed, index));
    let generation = 0;
    let session: Session | null = null;
    let sessionName = '';
    try {
      while (this.more(deadline)) {
        if (session === null) {
          try {
            session = await this.timed(this.driver.open(this.o.isolation));
          } catch (e) {
            if (!(e instanceof DbError)) throw e;
            this.stats.fatal ??= `cannot connect to the database: ${e.message}`;
            this.stop();
            return;
          }
          // A new connection is a new session: what the old one promised (its session order) ends with it.
          sessionName = generation === 0 ? `c${index + 1}` : `c${index + 1}.${generation}`;
          generation++;
          // While this client connected, the others may have started every remaining transaction
          // (--txns is a total) or the time may be up: without this check each slow connect added one.
          if (!this.more(deadline)) break;
        }
        this.started++;
        const { txn, lost, refused } = await this.transaction(session, sessionName, this.plan(random));
        this.stats[txn.status]++;
        this.record(index, txn);
        if (lost) session = null;
        if (refused !== null) {
          this.stats.fatal ??= `the database refused a statement: ${refused}`;
          this.stop();
        }
      }
    } finally {
      if (session) await this.closeSession(session);
    }
  }

  /**
   * ROLLBACK after a refusal, within the statement bound: a server that stops answering right
   * then hung the client for ever (pg and mysql2 wait for its reply), and the run with it. False
   * when it did not answer: the connection is dropped, as after any lost statement.
   */
  private async rolledBack(session: Session): Promise<boolean> {
    try {
      await bounded(session.rollback(), this.o.statementMillis ?? STATEMENT_TIMEOUT_MS);
      return true;
    } catch (e) {
      session.destroy();
      this.lastLoss = `ROLLBACK: ${e instanceof Error ? e.message : String(e)}`;
      return false;
    }
  }

  /** A polite close, within the statement bound (pg's end() waits for the server's goodbye); else dropped. */
  private async closeSession(session: Session): Promise<void> {
    try {
      await bounded(session.close(), this.o.statementMillis ?? STATEMENT_TIMEOUT_MS);
    } catch {
      session.destroy();
    }
  }

  /**
   * Runs one planned transaction on `session` and says what happened; `lost`: the connection is
   * gone (and dropped); `refused`: why the database refused a statement (not a conflict), or null.
   */
  private async transaction(session: Session, sessionName: string, plan: readonly Planned[]): Promise<{ txn: RecordedTxn; lost: boolean; refused: string | null }> {
    const name = `T${this.nextTxn++}`;
    const ops: RecordedOp[] = [];
    const start = this.now();
    let status: TxnStatus = 'committed';
    let phase: 'body' | 'commit' = 'body';
    let lost = false;
    let refused: string | null = null;
    try {
      await this.timed(session.begin());
      for (const p of plan) ops.push(await this.step(session, p));
      phase = 'commit';
      await this.timed(session.commit());
    } catch (e) {
      if (!(e instanceof DbError)) throw e;
      if (e.failure === 'aborted') {
        status = 'aborted';
        lost = !(await this.rolledBack(session));
      } else if (e.failure === 'error') {
        // Refused before COMMIT: rolled back here. A refused COMMIT should not have committed, but
        // unknown claims nothing either way.
        status = phase === 'commit' ? 'unknown' : 'aborted';
        refused = e.message;
        lost = !(await this.rolledBack(session));
      } else {
        // Lost before COMMIT was sent: the server rolls the transaction back. During COMMIT: nobody knows.
        status = phase === 'commit' ? 'unknown' : 'aborted';
        session.destroy();
        lost = true;
        this.lastLoss = e.message;
      }
    }
    return { txn: { name, session: sessionName, status, start, end: this.now(), ops }, lost, refused };
  }

  /**
   * Once the clients have stopped, one more session (`final`) reads every key, FINAL_READ_KEYS
   * keys per transaction. Without it the last appends to a key are read by nobody, or only by
   * transactions that aborted, so their order is free and the checker may have to try too many
   * orders: SI came out undecided (exit 3) on about one PostgreSQL repeatable-read list-append run
   * in eight. A register's final value likewise names its last writer. These reads are recorded
   * like any transaction, after every other one ended, but are not counted in the run's stats.
   */
  private async finalReads(): Promise<void> {
    // List-append: every key a slot ever had (retired ones are read here only).
    const keys = Array.from({ length: this.o.workload === 'list-append' ? this.nextKey - 1 : this.o.keys }, (_, i) => i + 1);
    let session: Session;
    try {
      session = await this.timed(this.driver.open(this.o.isolation));
    } catch (e) {
      if (!(e instanceof DbError)) throw e;
      this.stats.fatal ??= `cannot connect to the database for the final read: ${e.message}`;
      return;
    }
    for (let i = 0; i < keys.length; i += FINAL_READ_KEYS) {
      const { txn, lost, refused } = await this.transaction(session, 'final', keys.slice(i, i + FINAL_READ_KEYS).map((key) => ({ kind: 'final', key })));
      this.record(this.o.clients, txn);
      if (refused !== null) this.stats.fatal ??= `the database refused the final read: ${refused}`;
      if (lost) return;
      if (refused !== null) break;
    }
    await this.closeSession(session);
  }

  private plan(random: () => number): Planned[] {
    const n = this.o.opsMin + Math.floor(random() * (this.o.opsMax - this.o.opsMin + 1));
    const plan: Planned[] = [];
    for (let i = 0; i < n; i++) plan.push({ kind: random() < 0.5 ? 'r' : 'w', slot: 1 + Math.floor(random() * this.o.keys) });
    return plan;
  }

  private async step(s: Session, p: Planned): Promise<RecordedOp> {
    if (p.kind === 'final') {
      if (this.o.workload === 'rw-register') return { kind: 'r', key: p.key, value: (await this.timed(s.read(p.key))) ?? 0 };
      return { kind: 'rl', key: p.key, list: await this.timed(s.readList(p.key)) };
    }
    if (this.o.workload === 'rw-register') {
      const key = p.slot;
      if (p.kind === 'r') return { kind: 'r', key, value: (await this.timed(s.read(key))) ?? 0 };
      const value = this.nextValue++;
      await this.timed(s.write(key, value));
      return { kind: 'w', key, value };
    }
    const key = this.slotKey[p.slot - 1];
    if (p.kind === 'r') return { kind: 'rl', key, list: await this.timed(s.readList(key)) };
    const value = this.nextValue++;
    this.appended(p.slot, key);
    await this.timed(s.append(key, value));
    return { kind: 'a', key, value };
  }

  /** Counts an append; a key that has had its share hands its slot to a fresh key (when one has its row yet). */
  private appended(slot: number, key: number): void {
    const n = (this.appendsTo.get(key) ?? 0) + 1;
    this.appendsTo.set(key, n);
    if (n >= APPENDS_PER_KEY && this.slotKey[slot - 1] === key && this.nextKey <= this.listRows) {
      this.slotKey[slot - 1] = this.nextKey++;
      this.appendsTo.delete(key);
    }
    const block = listBlock(this.o.keys);
    if (this.listRows - this.nextKey + 1 >= block / 2 || this.refill !== null || Date.now() - this.refillFailedAt < 1000) return;
    const from = this.listRows + 1;
    const to = this.listRows + block;
    // Made beside the clients, never inside their transactions; until it lands, full keys keep growing a little.
    this.refill = this.driver.addLists(from, to).then(
      () => {
        this.listRows = to;
      },
      () => {
        this.refillFailedAt = Date.now();
      },
    ).finally(() => {
      this.refill = null;
    });
  }
}
