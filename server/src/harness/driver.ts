// What every database driver offers the workloads and Hermitage scripts: sessions running item-level SQL.

import type { DbKind } from './targets.ts';

/** How a failed statement ends its transaction. */
export type Failure =
  /** The database refused the transaction (serialization failure, deadlock, busy, lock timeout): it did not commit. */
  | 'aborted'
  /** The connection is gone: before COMMIT the transaction did not commit; during COMMIT nobody knows. */
  | 'lost';

export class DbError extends Error {
  constructor(message: string, readonly failure: Failure, readonly code: string) {
    super(message);
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
  /** A new connection whose transactions run at `isolation` (a name from isolation.ts). */
  open(isolation: string): Promise<Session>;
  /** Ends the driver's own administrative connection. */
  close(): Promise<void>;
}

/** Lists are stored as text: decimal elements joined by commas (see docs/harness.md for why this hides nothing). */
export function parseList(text: string | null): number[] {
  if (text === null || text.length === 0) return [];
  return text.split(',').map(Number);
}
