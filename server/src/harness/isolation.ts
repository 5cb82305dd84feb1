// Isolation levels by each database's own names, the SQL that selects them, and the IsoCheck level each name claims.

import type { Level } from '../engine/levels/levels.ts';
import type { DbKind } from './targets.ts';

export interface IsolationSetting {
  /** The database's own name, as `--isolation` takes it. */
  name: string;
  /** The IsoCheck level the name promises (null: no promise IsoCheck can check, e.g. read uncommitted). */
  claims: Level | null;
  /** Why that level: the database documentation's own words, shortened. */
  why: string;
}

/**
 * One table for every database. PostgreSQL documents its repeatable read as snapshot isolation;
 * MySQL/MariaDB document repeatable read as reads from one consistent snapshot, which is what SI
 * promises (Hermitage found InnoDB's falls short: lost updates happen, which a run shows).
 */
export const ISOLATION: Record<DbKind, readonly IsolationSetting[]> = {
  sqlite: [
    { name: 'serializable', claims: 'SER', why: 'SQLite transactions are serializable (one writer at a time)' },
  ],
  postgres: [
    { name: 'read-uncommitted', claims: null, why: 'behaves as read committed in PostgreSQL, but promises nothing more' },
    { name: 'read-committed', claims: 'RC', why: 'each statement sees data committed before it began' },
    { name: 'repeatable-read', claims: 'SI', why: 'PostgreSQL documents repeatable read as snapshot isolation' },
    { name: 'serializable', claims: 'SER', why: 'serializable snapshot isolation' },
  ],
  mysql: [
    { name: 'read-uncommitted', claims: null, why: 'dirty reads allowed' },
    { name: 'read-committed', claims: 'RC', why: 'each consistent read sees its own fresh snapshot' },
    { name: 'repeatable-read', claims: 'SI', why: 'consistent reads within a transaction read the snapshot of the first read' },
    { name: 'serializable', claims: 'SER', why: 'repeatable read with every plain read a locking read' },
  ],
};

/** The default level of each database when `--isolation` is not given (the database's own default). */
export const DEFAULT_ISOLATION: Record<DbKind, string> = { sqlite: 'serializable', postgres: 'read-committed', mysql: 'repeatable-read' };

export function findIsolation(kind: DbKind, name: string): IsolationSetting | null {
  const norm = name.toLowerCase().replace(/[\s_]+/g, '-');
  return ISOLATION[kind].find((s) => s.name === norm) ?? null;
}

/** The SQL words of a level name: 'repeatable-read' → 'REPEATABLE READ'. */
export function sqlLevel(name: string): string {
  return name.toUpperCase().replace(/-/g, ' ');
}
