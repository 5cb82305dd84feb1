// Hermitage's item-level anomaly tests (github.com/ept/hermitage) as data: scripted steps of two or three sessions.

import type { Level } from '../engine/levels/levels.ts';

/** Keys as Hermitage's test table has them: row 1 (`x`, initially 10) and row 2 (`y`, initially 20). */
export const X = 1;
export const Y = 2;
export const INITIAL = [10, 20];
export const KEY_NAMES = ['', 'x', 'y'];

export type Step =
  | { s: number; op: 'r'; key: number }
  | { s: number; op: 'w'; key: number; value: number }
  | { s: number; op: 'commit' }
  | { s: number; op: 'abort' };

export interface Scenario {
  /** Hermitage's column. */
  id: string;
  title: string;
  /** Sessions 0..n-1; each runs one transaction. */
  sessions: number;
  steps: Step[];
  /**
   * The anomaly happened exactly when the recorded history violates this level: read-consistency
   * anomalies (G1a, G1b, G1c, OTV) break RC; a mixed final state of G0 breaks RA (the final
   * reader sees parts of both writers); a lost update and read skew break SI; write skew breaks
   * only SER.
   */
  level: Level;
}

const r = (s: number, key: number): Step => ({ s, op: 'r', key });
const w = (s: number, key: number, value: number): Step => ({ s, op: 'w', key, value });
const commit = (s: number): Step => ({ s, op: 'commit' });
const abort = (s: number): Step => ({ s, op: 'abort' });

/**
 * The scripts follow Hermitage's postgres.md and mysql.md step by step (where they differ, the
 * reads of both: OTV), with two changes that the checker needs: every written value is unique per
 * key (P4's second writer writes 12, not 11 again), and "select * from test" becomes reads of x
 * and y. PMP needs predicate reads: not expressible in item histories, so it has no script.
 */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'G0', title: 'write cycles (dirty writes)', sessions: 3, level: 'RA',
    steps: [w(0, X, 11), w(1, X, 12), w(0, Y, 21), commit(0), w(1, Y, 22), commit(1), r(2, X), r(2, Y), commit(2)],
  },
  {
    id: 'G1a', title: 'aborted reads', sessions: 2, level: 'RC',
    steps: [w(0, X, 101), r(1, X), abort(0), r(1, X), commit(1)],
  },
  {
    id: 'G1b', title: 'intermediate reads', sessions: 2, level: 'RC',
    steps: [w(0, X, 101), r(1, X), w(0, X, 11), commit(0), r(1, X), commit(1)],
  },
  {
    id: 'G1c', title: 'circular information flow', sessions: 2, level: 'RC',
    steps: [w(0, X, 11), w(1, Y, 22), r(0, Y), r(1, X), commit(0), commit(1)],
  },
  {
    // The observer reads x and y together at each point, as mysql.md's `select * from test`: read
    // uncommitted shows T2's x beside T1's y (12, 19), then T2's y (18): T2 observed, then vanished.
    // postgres.md's single-row reads (x before T2 writes y, y after) would see only T2's writes there.
    id: 'OTV', title: 'observed transaction vanishes', sessions: 3, level: 'RC',
    steps: [w(0, X, 11), w(0, Y, 19), w(1, X, 12), commit(0), r(2, X), r(2, Y), w(1, Y, 18), r(2, X), r(2, Y), commit(1), r(2, X), r(2, Y), commit(2)],
  },
  {
    id: 'P4', title: 'lost update', sessions: 2, level: 'SI',
    steps: [r(0, X), r(1, X), w(0, X, 11), w(1, X, 12), commit(0), commit(1)],
  },
  {
    id: 'G-single', title: 'read skew', sessions: 2, level: 'SI',
    steps: [r(0, X), r(1, X), r(1, Y), w(1, X, 12), w(1, Y, 18), commit(1), r(0, Y), commit(0)],
  },
  {
    id: 'G2-item', title: 'write skew', sessions: 2, level: 'SER',
    steps: [r(0, X), r(0, Y), r(1, X), r(1, Y), w(0, X, 11), w(1, Y, 21), commit(0), commit(1)],
  },
];

/** Hermitage's columns in its order; PMP stays in the table, marked as not expressible. */
export const COLUMNS = ['G0', 'G1a', 'G1b', 'G1c', 'OTV', 'PMP', 'P4', 'G-single', 'G2-item'];
