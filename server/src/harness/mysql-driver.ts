// MySQL and MariaDB through `mysql2`: one connection per session, InnoDB errors sorted into aborted and lost.

import mysql from 'mysql2/promise';
import { bounded, CONNECT_TIMEOUT_MESSAGE, CONNECT_TIMEOUT_MS, DbError, IN_USE_MESSAGE, LOCK_WAIT_MS, noRow, parseList, type Driver, type Session } from './driver.ts';
import { sqlLevel } from './isolation.ts';

/** ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT, ER_CHECKREAD (MariaDB's snapshot-isolation "record has changed"). */
const ABORT_ERRNOS = new Set([1213, 1205, 1020]);

/** ER_SERVER_SHUTDOWN, MariaDB's ER_CONNECTION_KILLED, and the client's "server has gone away" / "lost connection". */
const LOST_ERRNOS = new Set([1053, 1927, 2006, 2013]);

export function classify(e: unknown): DbError {
  if (e instanceof DbError) return e;
  const err = e as { errno?: number; code?: string; message?: string; fatal?: boolean };
  const message = err.message ?? String(e);
  if (err.errno !== undefined && ABORT_ERRNOS.has(err.errno) && err.fatal !== true) return new DbError(message, 'aborted', String(err.errno));
  // Socket errors (no errno, or a system one) and mysql2's fatal errors end the connection.
  if (err.errno === undefined || err.errno < 1000 || err.fatal === true || LOST_ERRNOS.has(err.errno)) return new DbError(message, 'lost', err.code ?? 'connection');
  // Anything else the server said (1146 no such table, 1142 denied, 1290 read-only, 1114 table full…).
  return new DbError(message, 'error', String(err.errno));
}

/** Runs set-up statements within the statement bound; on failure the connection is dropped (a hung server never answers end()). */
async function setUp(conn: mysql.Connection, statements: () => Promise<void>): Promise<void> {
  try {
    await bounded(statements());
  } catch (e) {
    conn.destroy();
    throw classify(e);
  }
}

class MysqlSession implements Session {
  constructor(private readonly conn: mysql.Connection) {}

  private async q<T>(sql: string, params: unknown[] = []): Promise<T> {
    try {
      const [rows] = await this.conn.query(sql, params);
      return rows as T;
    } catch (e) {
      throw classify(e);
    }
  }
  async begin(): Promise<void> {
    await this.q('START TRANSACTION');
  }
  async read(key: number): Promise<number | null> {
    const rows = await this.q<{ v: string | number }[]>('SELECT v FROM isocheck_reg WHERE k = ?', [key]);
    return rows.length === 0 ? null : Number(rows[0].v);
  }
  // affectedRows counts matched rows: mysql2 connects with the FOUND_ROWS flag.
  async write(key: number, value: number): Promise<void> {
    if ((await this.q<mysql.ResultSetHeader>('UPDATE isocheck_reg SET v = ? WHERE k = ?', [value, key])).affectedRows !== 1) throw noRow('isocheck_reg', key);
  }
  async readList(key: number): Promise<number[]> {
    const rows = await this.q<{ v: string }[]>('SELECT v FROM isocheck_list WHERE k = ?', [key]);
    return rows.length === 0 ? [] : parseList(rows[0].v);
  }
  async append(key: number, value: number): Promise<void> {
    const v = String(value);
    const r = await this.q<mysql.ResultSetHeader>("UPDATE isocheck_list SET v = IF(v = '', ?, CONCAT(v, ',', ?)) WHERE k = ?", [v, v, key]);
    if (r.affectedRows !== 1) throw noRow('isocheck_list', key);
  }
  async commit(): Promise<void> {
    await this.q('COMMIT');
  }
  async rollback(): Promise<void> {
    try {
      await this.conn.query('ROLLBACK');
    } catch {
      // A dead connection has nothing to roll back.
    }
  }
  destroy(): void {
    this.conn.destroy();
  }
  async close(): Promise<void> {
    try {
      await this.conn.end();
    } catch {
      this.conn.destroy();
    }
  }
}

export class MysqlDriver implements Driver {
  readonly kind = 'mysql' as const;
  /** The connection holding the database's named lock: only one run or hermitage at a time may own the tables. */
  private holder: mysql.Connection | null = null;
  constructor(private readonly url: string) {}

  /**
   * Takes the lock (once), before the first reset drops anything. GET_LOCK names are server-wide,
   * so the name carries the database's (at most 64 characters).
   */
  private async lock(): Promise<void> {
    if (this.holder) return;
    const c = await this.connect();
    let got = false;
    await setUp(c, async () => {
      // Waits a little: a run that just ended may still be leaving (its connection releases the lock as it ends).
      // A URL with no database: DATABASE() is NULL, and GET_LOCK(NULL) would read as "in use"; the
      // reset's CREATE TABLE then says what is wrong (no database selected).
      const [rows] = await c.query("SELECT GET_LOCK(LEFT(CONCAT('isocheck.', COALESCE(DATABASE(), '')), 64), ?) AS got", [LOCK_WAIT_MS / 1000]);
      got = Number((rows as { got: number | null }[])[0]?.got) === 1;
    });
    if (!got) {
      await bounded(c.end()).catch(() => c.destroy());
      throw new DbError(IN_USE_MESSAGE, 'error', 'in-use');
    }
    this.holder = c;
  }

  private async connect(): Promise<mysql.Connection> {
    let conn: mysql.Connection;
    try {
      conn = await mysql.createConnection({ uri: this.url, connectTimeout: CONNECT_TIMEOUT_MS });
    } catch (e) {
      // mysql2's connect timeout (and the system's) say "connect ETIMEDOUT".
      if ((e as { code?: string }).code === 'ETIMEDOUT') throw new DbError(CONNECT_TIMEOUT_MESSAGE, 'lost', 'timeout');
      throw classify(e);
    }
    // Without a listener an unexpected disconnect is an uncaught 'error' event.
    conn.on('error', () => undefined);
    // A lock wait longer than this is a stuck run, not a result: the statement fails and the transaction aborts.
    await setUp(conn, async () => {
      await conn.query('SET SESSION innodb_lock_wait_timeout = 10');
    });
    return conn;
  }

  async reset(keys: number, initial: readonly number[] = []): Promise<void> {
    await this.lock();
    const c = await this.connect();
    await setUp(c, async () => {
      await c.query('DROP TABLE IF EXISTS isocheck_reg, isocheck_list');
      await c.query('CREATE TABLE isocheck_reg (k INT PRIMARY KEY, v BIGINT NOT NULL) ENGINE=InnoDB');
      await c.query('CREATE TABLE isocheck_list (k INT PRIMARY KEY, v TEXT NOT NULL) ENGINE=InnoDB');
      const ks = Array.from({ length: keys }, (_, i) => i + 1);
      await c.query(`INSERT INTO isocheck_reg (k, v) VALUES ${ks.map(() => '(?, ?)').join(', ')}`, ks.flatMap((k) => [k, initial[k - 1] ?? 0]));
      await c.query(`INSERT INTO isocheck_list (k, v) VALUES ${ks.map(() => "(?, '')").join(', ')}`, ks);
    });
    // Bounded too: a server that stops answering after the set-up must not hang the command.
    await bounded(c.end()).catch(() => c.destroy());
  }

  async addLists(from: number, to: number): Promise<void> {
    const c = await this.connect();
    const ks = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    await setUp(c, async () => {
      await c.query(`INSERT INTO isocheck_list (k, v) VALUES ${ks.map(() => "(?, '')").join(', ')}`, ks);
    });
    await bounded(c.end()).catch(() => c.destroy());
  }

  async open(isolation: string): Promise<Session> {
    const conn = await this.connect();
    await setUp(conn, async () => {
      await conn.query(`SET SESSION TRANSACTION ISOLATION LEVEL ${sqlLevel(isolation)}`);
    });
    return new MysqlSession(conn);
  }

  /** Ends the lock's connection (which releases the lock), within the statement bound. */
  async close(): Promise<void> {
    const c = this.holder;
    this.holder = null;
    if (c) await bounded(c.end(), LOCK_WAIT_MS).catch(() => c.destroy());
  }
}
