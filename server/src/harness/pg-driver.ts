// PostgreSQL through `pg`: one client per session, SQLSTATE codes sorted into aborted and lost.

import pg from 'pg';
import { bounded, CONNECT_TIMEOUT_MESSAGE, CONNECT_TIMEOUT_MS, DbError, IN_USE_MESSAGE, LOCK_WAIT_MS, noRow, parseList, type Driver, type Session } from './driver.ts';
import { sqlLevel } from './isolation.ts';

/** serialization_failure, deadlock_detected, lock_not_available, query_canceled (lock_timeout/statement_timeout). */
const ABORT_CODES = new Set(['40001', '40P01', '55P03', '57014']);

/** The advisory lock (per database) that a driver holds from its first reset to close: 'isoc'. */
const LOCK_KEY = 0x69736f63;

export function classify(e: unknown): DbError {
  if (e instanceof DbError) return e;
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  const message = err.message ?? String(e);
  if (ABORT_CODES.has(code)) return new DbError(message, 'aborted', code);
  // Any other error class 40 (transaction rollback) ends the transaction too.
  if (/^40/.test(code)) return new DbError(message, 'aborted', code);
  // Socket errors and pg's own "Connection terminated" (no SQLSTATE), connection exceptions
  // (08xxx), the server shutting down or the database dropped (57P01-57P04).
  if (code === '' || /^08/.test(code) || /^57P0[1-4]$/.test(code)) return new DbError(message, 'lost', code || 'connection');
  // Anything else the server said (42P01 undefined table, 42501 no privilege, 25006 read-only, 53100 disk full…).
  return new DbError(message, 'error', code);
}

/** pg has no public destroy: end() waits for the server's goodbye, which a hung server never sends. */
function drop(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** Runs set-up statements within the statement bound; on failure the client is dropped (a hung server never answers end()). */
async function setUp(client: pg.Client, statements: () => Promise<void>): Promise<void> {
  try {
    await bounded(statements());
  } catch (e) {
    drop(client);
    throw classify(e);
  }
}

class PgSession implements Session {
  constructor(private readonly client: pg.Client, private readonly level: string) {}

  private async q(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
    try {
      return await this.client.query(sql, params);
    } catch (e) {
      throw classify(e);
    }
  }
  async begin(): Promise<void> {
    await this.q(`BEGIN ISOLATION LEVEL ${sqlLevel(this.level)}`);
  }
  async read(key: number): Promise<number | null> {
    const r = await this.q('SELECT v FROM isocheck_reg WHERE k = $1', [key]);
    return r.rows.length === 0 ? null : Number((r.rows[0] as { v: string }).v);
  }
  async write(key: number, value: number): Promise<void> {
    if ((await this.q('UPDATE isocheck_reg SET v = $2 WHERE k = $1', [key, value])).rowCount !== 1) throw noRow('isocheck_reg', key);
  }
  async readList(key: number): Promise<number[]> {
    const r = await this.q('SELECT v FROM isocheck_list WHERE k = $1', [key]);
    return r.rows.length === 0 ? [] : parseList((r.rows[0] as { v: string }).v);
  }
  async append(key: number, value: number): Promise<void> {
    const r = await this.q("UPDATE isocheck_list SET v = CASE WHEN v = '' THEN $2 ELSE v || ',' || $2 END WHERE k = $1", [key, String(value)]);
    if (r.rowCount !== 1) throw noRow('isocheck_list', key);
  }
  async commit(): Promise<void> {
    await this.q('COMMIT');
  }
  async rollback(): Promise<void> {
    try {
      await this.client.query('ROLLBACK');
    } catch {
      // A dead connection has nothing to roll back: the server ends its transaction itself.
    }
  }
  destroy(): void {
    drop(this.client);
  }
  async close(): Promise<void> {
    try {
      await this.client.end();
    } catch {
      // already closed
    }
  }
}

export class PgDriver implements Driver {
  readonly kind = 'postgres' as const;
  /** The connection holding LOCK_KEY: only one run or hermitage at a time may own the tables. */
  private holder: pg.Client | null = null;
  constructor(private readonly url: string) {}

  /** Takes the database's isocheck lock (once), before the first reset drops anything. */
  private async lock(): Promise<void> {
    if (this.holder) return;
    const c = await this.connect();
    let got = false;
    // Waits a little: a run that just ended may still be leaving (its backend releases the lock as it exits).
    await setUp(c, async () => {
      await c.query(`SET lock_timeout = '${LOCK_WAIT_MS}ms'`);
      try {
        await c.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
        got = true;
      } catch (e) {
        if ((e as { code?: string }).code !== '55P03') throw e;
      }
    });
    if (!got) {
      await bounded(c.end()).catch(() => drop(c));
      throw new DbError(IN_USE_MESSAGE, 'error', 'in-use');
    }
    this.holder = c;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    // Without a listener an unexpected disconnect is an uncaught 'error' event that ends the process.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (e) {
      // pg's own words for its connect timeout.
      if ((e as Error).message === 'timeout expired') throw new DbError(CONNECT_TIMEOUT_MESSAGE, 'lost', 'timeout');
      throw classify(e);
    }
    // A lock wait longer than this is a stuck run, not a result: the transaction aborts instead.
    await setUp(client, async () => {
      await client.query("SET lock_timeout = '10s'");
    });
    return client;
  }

  async reset(keys: number, initial: readonly number[] = []): Promise<void> {
    await this.lock();
    const c = await this.connect();
    await setUp(c, async () => {
      await c.query('DROP TABLE IF EXISTS isocheck_reg, isocheck_list');
      await c.query('CREATE TABLE isocheck_reg (k integer PRIMARY KEY, v bigint NOT NULL)');
      await c.query('CREATE TABLE isocheck_list (k integer PRIMARY KEY, v text NOT NULL)');
      await c.query('INSERT INTO isocheck_reg (k, v) SELECT g, coalesce(($2::bigint[])[g], 0) FROM generate_series(1, $1::int) g', [keys, initial]);
      await c.query("INSERT INTO isocheck_list (k, v) SELECT g, '' FROM generate_series(1, $1::int) g", [keys]);
    });
    // Bounded too: a server that stops answering after the set-up must not hang the command.
    await bounded(c.end()).catch(() => drop(c));
  }

  async addLists(from: number, to: number): Promise<void> {
    const c = await this.connect();
    await setUp(c, async () => {
      await c.query("INSERT INTO isocheck_list (k, v) SELECT g, '' FROM generate_series($1::int, $2::int) g", [from, to]);
    });
    await bounded(c.end()).catch(() => drop(c));
  }

  async open(isolation: string): Promise<Session> {
    return new PgSession(await this.connect(), isolation);
  }

  /** Ends the lock's connection (which releases the lock), within the statement bound. */
  async close(): Promise<void> {
    const c = this.holder;
    this.holder = null;
    if (c) await bounded(c.end(), LOCK_WAIT_MS).catch(() => drop(c));
  }
}
