// The list-append anomaly catalogue (after Adya and Elle) as one data table: codes, meanings, levels broken.

import { LEVELS, type Level } from '../levels/levels.ts';

/** The levels decided on list-append histories: every level of the table (SSER included). */
export type ListLevel = Level;
export const LIST_LEVELS: readonly ListLevel[] = LEVELS;

export type CycleClass = 'G0' | 'G1c' | 'G-single' | 'G-nonadjacent' | 'G2-item';

export type AnomalyCode =
  | CycleClass | `${CycleClass}-realtime` | 'lost-update'
  | 'G1a' | 'G1b' | 'garbage-read' | 'incompatible-order' | 'duplicate-element' | 'internal' | 'dirty-update' | 'future-read';

export interface AnomalyRow {
  code: AnomalyCode;
  /** One plain sentence for docs and hovers. */
  meaning: string;
  /** The levels every occurrence breaks (weaker levels may break too, by the commit-order axioms). */
  violates: readonly ListLevel[];
  /** Edge kinds a cycle of this class may use (cycle classes only). */
  edges?: readonly ('ww' | 'wr' | 'rw' | 'so' | 'rt')[];
}

const ALL = LIST_LEVELS;

/** Cycle classes in Elle's order: each is looked for with only the edges it allows, weakest first. */
export const CYCLE_CLASSES: readonly CycleClass[] = ['G0', 'G1c', 'G-single', 'G-nonadjacent', 'G2-item'];

export const ANOMALIES: readonly AnomalyRow[] = [
  { code: 'G0', meaning: 'a cycle of ww edges only (dirty write): appends of two transactions interleave', violates: ALL, edges: ['ww', 'so'] },
  { code: 'G1c', meaning: 'a cycle of ww and wr edges (circular information flow)', violates: ALL, edges: ['ww', 'wr', 'so'] },
  { code: 'G-single', meaning: 'a cycle with exactly one rw edge (read skew)', violates: ['PSI', 'SI', 'SER', 'SSER'], edges: ['ww', 'wr', 'so', 'rw'] },
  { code: 'G-nonadjacent', meaning: 'a cycle with rw edges, no two of them adjacent', violates: ['SI', 'SER', 'SSER'], edges: ['ww', 'wr', 'so', 'rw'] },
  { code: 'G2-item', meaning: 'a cycle with two or more rw edges (write skew)', violates: ['SER', 'SSER'], edges: ['ww', 'wr', 'so', 'rw'] },
  { code: 'G0-realtime', meaning: 'a G0 cycle that needs real-time (rt) edges', violates: ['SSER'], edges: ['ww', 'so', 'rt'] },
  { code: 'G1c-realtime', meaning: 'a G1c cycle that needs real-time (rt) edges', violates: ['SSER'], edges: ['ww', 'wr', 'so', 'rt'] },
  { code: 'G-single-realtime', meaning: 'a G-single cycle that needs real-time (rt) edges', violates: ['SSER'], edges: ['ww', 'wr', 'so', 'rw', 'rt'] },
  { code: 'G-nonadjacent-realtime', meaning: 'a G-nonadjacent cycle that needs real-time (rt) edges', violates: ['SSER'], edges: ['ww', 'wr', 'so', 'rw', 'rt'] },
  { code: 'G2-item-realtime', meaning: 'a G2-item cycle that needs real-time (rt) edges', violates: ['SSER'], edges: ['ww', 'wr', 'so', 'rw', 'rt'] },
  { code: 'lost-update', meaning: 'two committed transactions read the same version of a key and both append to it', violates: ['PSI', 'SI', 'SER', 'SSER'] },
  { code: 'G1a', meaning: 'aborted read: a read observed an element appended by an aborted transaction', violates: ALL },
  { code: 'G1b', meaning: 'intermediate read: a read observed a transaction\'s append that the same transaction followed with another append to the key', violates: ALL },
  { code: 'garbage-read', meaning: 'a read list holds an element that nobody appended', violates: ALL },
  { code: 'incompatible-order', meaning: 'two read lists of a key where neither is a prefix of the other', violates: ALL },
  { code: 'duplicate-element', meaning: 'an element appears twice in one list, or is appended twice', violates: ALL },
  // A read that misses its own appends breaks every level (RC too, by the axioms); one that differs from its own earlier read (another transaction's append came or went between them) breaks RA and above.
  { code: 'internal', meaning: 'a read disagrees with its own transaction\'s earlier appends to the key (it must end with exactly them) or with its earlier read of the key (it must return that list plus the appends since)', violates: ['RA', 'CC', 'PC', 'PSI', 'SI', 'SER', 'SSER'] },
  { code: 'dirty-update', meaning: 'a committed append is ordered after an aborted transaction\'s element', violates: ALL },
  { code: 'future-read', meaning: 'a read observed its own transaction\'s later append', violates: ALL },
];

const BY_CODE = new Map<string, AnomalyRow>(ANOMALIES.map((r) => [r.code.toLowerCase(), r]));
/** The diagnostic codes of the read-consistency findings that are also anomaly codes. */
const ALIASES = new Map<string, AnomalyCode>([['aborted-read', 'G1a'], ['intermediate-read', 'G1b']]);

/** The anomaly a name denotes (case-insensitive; `aborted-read` = G1a, `intermediate-read` = G1b), or null. */
export function parseAnomaly(name: string): AnomalyCode | null {
  const lower = name.toLowerCase();
  return BY_CODE.get(lower)?.code ?? ALIASES.get(lower) ?? null;
}

export function anomalyRow(code: AnomalyCode): AnomalyRow {
  return BY_CODE.get(code.toLowerCase()) as AnomalyRow;
}
