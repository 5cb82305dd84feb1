// What every database driver offers the workloads and Hermitage scripts: sessions running item-level SQL.

import type { DbKind } from './targets.ts';

/** How a failed statement ends its transaction. */
export type Failure =
  /** The database refused the transaction (serialization failure, deadlock, busy, lock timeout): it did not commit. */
  | 'aborted'
  /** The connection is gone: before COMMIT the transaction did not commit; during COMMIT nobody knows. */
  | 'lost'
  /**
   * The database refused the statement for a reason that is not about concurrency (a missing
   * table, no permission, a read-only or full database): no later transaction would fare better,
   * so the run stops and says why, rather than recording one refusal after another as aborts.
   */
  | 'error';

export class DbError extends Error {
  constructor(message: string, readonly failure: Failure, readonly code: string) {
    super(message);
  }
}

/** How long opening a connection may take, handshake included: a server that accepts and never answers is unreachable. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** What a driver says when its connect timeout fires (the libraries' own words, "timeout expired", say too little). */
export const CONNECT_TIMEOUT_MESSAGE = `no answer from the database within ${CONNECT_TIMEOUT_MS / 1000} s of connecting`;

/** How long one statement, or the table set-up, may take before the connection counts as lost. */
export const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * `p`, or a 'lost' DbError after `ms`: a hung server must not hang the harness. The caller drops
 * the connection (or the process ends soon after, see the commands), since `p` may never settle.
 */
export async function bounded<T>(p: Promise<T>, ms: number = STATEMENT_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DbError(`no answer from the database in ${ms / 1000} s`, 'lost', 'timeout')), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One connection. Every method throws DbError when the database says no or goes away. */
export interface Session {
  begin(): Promise<void>;
  /** The register's value (null: no row). */
  read(key: number): Promise<number | null>;
  write(key: number, value: number): Promise<void>;
  /** The list's elements, in append order. */
  readList(key: number): Promise<number[]>;
  append(key: number, value: number): Promise<void>;
  commit(): Promise<void>;
  /** Never throws: a rollback on a dead connection is a no-op. */
  rollback(): Promise<void>;
  close(): Promise<void>;
  /** Drops the connection without a goodbye (a lost or hung server must not keep the process alive). */
  destroy(): void;
}

export interface Driver {
  readonly kind: DbKind;
  /** Creates the tables afresh: `keys` registers (value `initial[k - 1]`, default 0) and `keys` lists (empty), keys 1..keys. */
  reset(keys: number, initial?: readonly number[]): Promise<void>;
  /** Creates empty lists for keys from..to (fresh keys of a list-append run), on a connection of its own. */
  addLists(from: number, to: number): Promise<void>;
  /** A new connection whose transactions run at `isolation` (a name from isolation.ts). */
  open(isolation: string): Promise<Session>;
  /** Ends the driver's own administrative connection. */
  close(): Promise<void>;
}

/**
 * Said when another isocheck run or hermitage holds the database's isocheck lock. Both drop and
 * recreate the same tables: two at once on one database read each other's values and lost each
 * other's writes, and a PostgreSQL serializable run ended with SER violated and exit 1.
 */
export const IN_USE_MESSAGE = 'another isocheck run or hermitage is using this database (each drops and recreates the tables isocheck_reg and isocheck_list): wait for it to end, or use another database';

/** How long a driver waits for that lock (a run that just ended is still letting go), and for its goodbye at close. */
export const LOCK_WAIT_MS = 3000;

/**
 * An UPDATE of one key that matched no row: the write or append did not happen, and recording it
 * would put a value in the history that no read can ever return (the table was replaced under the run).
 */
export function noRow(table: string, key: number): DbError {
  return new DbError(`UPDATE ${table} matched no row k = ${key}: the table changed under the run (dropped or recreated by another run on this database?)`, 'error', 'no-row');
}

/** Lists are stored as text: decimal elements joined by commas (see docs/harness.md for why this hides nothing). */
export function parseList(text: string | null): number[] {
  if (text === null || text.length === 0) return [];
  return text.split(',').map(Number);
}
