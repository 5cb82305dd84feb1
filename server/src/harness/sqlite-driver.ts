// SQLite through better-sqlite3: its API is synchronous, so each session is a worker thread with its own connection.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DbError, IN_USE_MESSAGE, LOCK_WAIT_MS, noRow, parseList, type Driver, type Session } from './driver.ts';
import { lockFile, lockHolder, lockPath } from './file-lock.ts';

/**
 * The worker's whole program. It is evaluated from a string so that the same code runs from the
 * TypeScript sources (tests) and from the bundled CLI, which cannot bundle the native module:
 * the module's resolved path comes in workerData.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
// A file that cannot be opened (a directory, no permission) is every call's answer: thrown here
// it would end the worker with an error that loses its message in the crossing (SqliteError).
let db = null;
let openError = null;
try { db = new Database(workerData.file, { timeout: workerData.busyMillis }); }
catch (e) { openError = { code: String(e.code || 'SQLITE_CANTOPEN'), message: String(e.message) }; }
const cache = new Map();
function stmt(sql) { let s = cache.get(sql); if (!s) { s = db.prepare(sql); cache.set(sql, s); } return s; }
parentPort.on('message', (m) => {
  if (openError) {
    parentPort.postMessage({ id: m.id, error: openError });
    if (m.op === 'close') parentPort.close();
    return;
  }
  try {
    let value = null;
    if (m.op === 'exec') db.exec(m.sql);
    else if (m.op === 'get') { const row = stmt(m.sql).get(...m.params); value = row === undefined ? null : row.v; }
    else if (m.op === 'run') value = stmt(m.sql).run(...m.params).changes;
    else if (m.op === 'close') { db.close(); parentPort.postMessage({ id: m.id, value: null }); parentPort.close(); return; }
    parentPort.postMessage({ id: m.id, value });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: { code: String(e.code || ''), message: String(e.message) } });
  }
});
`;

type Reply = { id: number; value: string | number | null } | { id: number; error: { code: string; message: string } };

/**
 * SQLITE_BUSY / SQLITE_LOCKED and their extended codes: another connection holds the lock; the
 * transaction gives up. Any other SQLite error (no such table, read-only, full) is a refusal; an
 * error without a code, the worker's own failure, ends the connection.
 */
function classify(code: string, message: string): DbError {
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return new DbError(message, 'aborted', code);
  if (/^SQLITE_/.test(code)) return new DbError(message, 'error', code);
  return new DbError(message, 'lost', code || 'sqlite');
}

/** better-sqlite3 is native, so it is not bundled: an optional dependency, looked up only when SQLite is used. */
function moduleFile(): string {
  try {
    return createRequire(__filename).resolve('better-sqlite3');
  } catch {
    throw new DbError('the embedded SQLite target needs the optional package better-sqlite3@12.11.1 (npm install better-sqlite3@12.11.1), or use --db postgres://… / mysql://…', 'lost', 'sqlite');
  }
}

class SqliteSession implements Session {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: string | number | null) => void; reject: (e: DbError) => void }>();
  private dead: DbError | null = null;

  constructor(private readonly worker: Worker) {
    worker.on('message', (r: Reply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      if ('error' in r) p.reject(classify(r.error.code, r.error.message));
      else p.resolve(r.value);
    });
    const fail = (e: Error): void => {
      this.dead = new DbError(`the SQLite worker stopped: ${e.message}`, 'lost', 'worker');
      for (const p of this.pending.values()) p.reject(this.dead);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('exited')));
  }

  private call(op: string, sql = '', params: unknown[] = []): Promise<string | number | null> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, sql, params });
    });
  }
  /** Runs several statements outside any transaction (schema set-up). */
  async script(sql: string): Promise<void> {
    await this.call('exec', sql);
  }
  async begin(): Promise<void> {
    await this.call('exec', 'BEGIN');
  }
  async read(key: number): Promise<number | null> {
    const v = await this.call('get', 'SELECT v FROM isocheck_reg WHERE k = ?', [key]);
    return v === null ? null : Number(v);
  }
  async write(key: number, value: number): Promise<void> {
    if ((await this.call('run', 'UPDATE isocheck_reg SET v = ? WHERE k = ?', [value, key])) !== 1) throw noRow('isocheck_reg', key);
  }
  async readList(key: number): Promise<number[]> {
    const v = await this.call('get', 'SELECT v FROM isocheck_list WHERE k = ?', [key]);
    return parseList(v === null ? null : String(v));
  }
  async append(key: number, value: number): Promise<void> {
    const changed = await this.call('run', "UPDATE isocheck_list SET v = CASE WHEN v = '' THEN ? ELSE v || ',' || ? END WHERE k = ?", [String(value), String(value), key]);
    if (changed !== 1) throw noRow('isocheck_list', key);
  }
  async commit(): Promise<void> {
    await this.call('exec', 'COMMIT');
  }
  async rollback(): Promise<void> {
    try {
      await this.call('exec', 'ROLLBACK');
    } catch {
      // No transaction open (SQLite already rolled it back) or the worker is gone.
    }
  }
  destroy(): void {
    void this.worker.terminate();
  }
  async close(): Promise<void> {
    try {
      await this.call('close');
    } catch {
      // already gone
    }
    await this.worker.terminate();
  }
}

export class SqliteDriver implements Driver {
  readonly kind = 'sqlite' as const;
  /** Held from the first reset to close (file-lock.ts): only one run or hermitage at a time may own the tables. */
  private held: { release: () => void } | null = null;
  constructor(private readonly file: string, private readonly busyMillis = 5000, private readonly lockWaitMs = LOCK_WAIT_MS) {}

  /** Takes the database file's isocheck lock (once), before the first reset drops anything. */
  private async lock(): Promise<void> {
    if (this.held) return;
    let held: { release: () => void } | null;
    try {
      held = await lockFile(this.file, this.lockWaitMs);
    } catch (e) {
      throw new DbError(`cannot make the lock file beside ${this.file}: ${(e as Error).message}`, 'error', 'sqlite');
    }
    // The lock file's path and holder: a process id reused after a kill -9 looks alive, and only the user can tell.
    if (!held) throw new DbError(`${IN_USE_MESSAGE} (its lock file ${lockPath(this.file)} names process ${lockHolder(this.file) ?? 'unknown'}: if no run is going on, remove the file)`, 'error', 'in-use');
    this.held = held;
  }

  private worker(): Worker {
    return new Worker(WORKER_SOURCE, { eval: true, workerData: { module: moduleFile(), file: this.file, busyMillis: this.busyMillis } });
  }

  async reset(keys: number, initial: readonly number[] = []): Promise<void> {
    await this.lock();
    const s = new SqliteSession(this.worker());
    try {
      // WAL lets readers run beside the one writer, as a server database's clients would.
      const rows = Array.from({ length: keys }, (_, i) => i + 1);
      await s.script(`PRAGMA journal_mode = WAL;
        DROP TABLE IF EXISTS isocheck_reg; DROP TABLE IF EXISTS isocheck_list;
        CREATE TABLE isocheck_reg (k INTEGER PRIMARY KEY, v INTEGER NOT NULL);
        CREATE TABLE isocheck_list (k INTEGER PRIMARY KEY, v TEXT NOT NULL);
        INSERT INTO isocheck_reg (k, v) VALUES ${rows.map((k) => `(${k}, ${Math.trunc(initial[k - 1] ?? 0)})`).join(', ')};
        INSERT INTO isocheck_list (k, v) VALUES ${rows.map((k) => `(${k}, '')`).join(', ')};`);
    } finally {
      await s.close();
    }
  }

  async addLists(from: number, to: number): Promise<void> {
    const s = new SqliteSession(this.worker());
    try {
      const rows = Array.from({ length: to - from + 1 }, (_, i) => `(${from + i}, '')`);
      await s.script(`INSERT INTO isocheck_list (k, v) VALUES ${rows.join(', ')};`);
    } finally {
      await s.close();
    }
  }

  open(_isolation: string): Promise<Session> {
    // SQLite has one isolation level between connections (serializable); read uncommitted needs
    // shared cache, which better-sqlite3 is built without (SQLITE_OMIT_SHARED_CACHE).
    return Promise.resolve(new SqliteSession(this.worker()));
  }

  close(): Promise<void> {
    this.held?.release();
    this.held = null;
    return Promise.resolve();
  }
}
