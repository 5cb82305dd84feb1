// MySQL and MariaDB through `mysql2`: one connection per session, InnoDB errors sorted into aborted and lost.

import mysql from 'mysql2/promise';
import { DbError, parseList, type Driver, type Session } from './driver.ts';
import { sqlLevel } from './isolation.ts';

/** ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT, ER_CHECKREAD (MariaDB's snapshot-isolation "record has changed"). */
const ABORT_ERRNOS = new Set([1213, 1205, 1020]);

function classify(e: unknown): DbError {
  const err = e as { errno?: number; code?: string; message?: string; fatal?: boolean };
  const message = err.message ?? String(e);
  if (err.errno !== undefined && ABORT_ERRNOS.has(err.errno) && err.fatal !== true) return new DbError(message, 'aborted', String(err.errno));
  return new DbError(message, 'lost', err.code ?? 'connection');
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
  async write(key: number, value: number): Promise<void> {
    await this.q('UPDATE isocheck_reg SET v = ? WHERE k = ?', [value, key]);
  }
  async readList(key: number): Promise<number[]> {
    const rows = await this.q<{ v: string }[]>('SELECT v FROM isocheck_list WHERE k = ?', [key]);
    return rows.length === 0 ? [] : parseList(rows[0].v);
  }
  async append(key: number, value: number): Promise<void> {
    const v = String(value);
    await this.q("UPDATE isocheck_list SET v = IF(v = '', ?, CONCAT(v, ',', ?)) WHERE k = ?", [v, v, key]);
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
  constructor(private readonly url: string) {}

  private async connect(): Promise<mysql.Connection> {
    try {
      const conn = await mysql.createConnection(this.url);
      // Without a listener an unexpected disconnect is an uncaught 'error' event.
      conn.on('error', () => undefined);
      // A lock wait longer than this is a stuck run, not a result: the statement fails and the transaction aborts.
      await conn.query('SET SESSION innodb_lock_wait_timeout = 10');
      return conn;
    } catch (e) {
      throw classify(e);
    }
  }

  async reset(keys: number, initial: readonly number[] = []): Promise<void> {
    const c = await this.connect();
    try {
      await c.query('DROP TABLE IF EXISTS isocheck_reg, isocheck_list');
      await c.query('CREATE TABLE isocheck_reg (k INT PRIMARY KEY, v BIGINT NOT NULL) ENGINE=InnoDB');
      await c.query('CREATE TABLE isocheck_list (k INT PRIMARY KEY, v TEXT NOT NULL) ENGINE=InnoDB');
      const ks = Array.from({ length: keys }, (_, i) => i + 1);
      await c.query(`INSERT INTO isocheck_reg (k, v) VALUES ${ks.map(() => '(?, ?)').join(', ')}`, ks.flatMap((k) => [k, initial[k - 1] ?? 0]));
      await c.query(`INSERT INTO isocheck_list (k, v) VALUES ${ks.map(() => "(?, '')").join(', ')}`, ks);
    } catch (e) {
      throw classify(e);
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  async open(isolation: string): Promise<Session> {
    const conn = await this.connect();
    try {
      await conn.query(`SET SESSION TRANSACTION ISOLATION LEVEL ${sqlLevel(isolation)}`);
    } catch (e) {
      throw classify(e);
    }
    return new MysqlSession(conn);
  }

  async close(): Promise<void> {}
}
