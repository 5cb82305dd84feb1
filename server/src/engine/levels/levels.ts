// Isolation levels as data: one table declares each level once; every list, test and shortcut derives from it.

/** The weak saturation rules (weak/): each level implies the forced edges of exactly one of them. */
export type Rule = 'RC' | 'RA' | 'CC';

/**
 * How a level is decided. 'saturation': its own weak rule decides it (polynomial, weak/).
 * 'orientation': orient write-conflicting pairs (strong/orientation-search.ts).
 * 'pc' | 'si' | 'ser': the commit-order search with that snapshot mode (strong/commit-search.ts).
 */
export type SearchMode = 'saturation' | 'orientation' | 'pc' | 'si' | 'ser';

/** MixIso's visibility rules of a level, beyond Session and Ext (docs/anomalies.md). */
export interface Visibility {
  /** TransVis: what a visible transaction sees is visible. */
  transitive: boolean;
  /** Prefix: commit-order predecessors of a visible transaction are visible. */
  prefix: boolean;
  /** NoConflict: conflicting commit-order predecessors are visible. */
  noConflict: boolean;
  /** TotalVis: every commit-order predecessor is visible. */
  total: boolean;
}

export interface LevelRow<N extends string = LevelName> {
  /** Stable id stored in typed arrays (History.txnLevel): never a position, never reused. */
  id: number;
  /** Lower-case names and aliases accepted in files, settings and on the command line. */
  aliases: readonly string[];
  strength: 'weak' | 'strong';
  /** The weak rule whose forced edges every history satisfying the level has (its own for weak levels). */
  rule: Rule;
  search: SearchMode;
  visibility: Visibility;
  /** The levels directly below (every history satisfying this level satisfies them). */
  below: readonly N[];
  /** Levels whose verdicts are computed first because they often decide this one (lattice shortcuts). */
  decideFirst: readonly N[];
  /** Levels whose verdicts, when already computed, decide this one (a stronger one holding, a weaker one violated). */
  useKnown: readonly N[];
  /**
   * Weaker levels against which a violation of this level, once both searches found one, is
   * shrunk (then explained at this level): their violations shrink further and faster (SI's lost
   * update is PSI's: five transactions, where shrinking against SI itself may end at twenty).
   */
  witnessFrom: readonly N[];
  /** The classic anomaly a violation of this level (and not of the ones below) shows, for editors. */
  anomaly: string | null;
  /** One line for people (hovers, completion). */
  description: string;
  /** Real time: the commit order must extend rt into transactions at this level (T1 ended before T2 started). */
  realTime: boolean;
  /** Evaluated when nobody names the levels (the default set); others only when asked for or implied by the input. */
  byDefault: boolean;
}

const V = (transitive: boolean, prefix: boolean, noConflict: boolean, total: boolean): Visibility => ({ transitive, prefix, noConflict, total });

/**
 * The levels, weakest first (the order of every user-facing list). Adding a level is one row here
 * (with a fresh id) plus its rule where `search` needs a new mode.
 */
export const LEVEL_TABLE = {
  RC: { id: 0, aliases: ['rc', 'read-committed'], strength: 'weak', rule: 'RC', search: 'saturation', visibility: V(false, false, false, false), below: [], decideFirst: [], useKnown: [], witnessFrom: [], anomaly: 'non-monotonic read', description: 'Read Committed: a transaction reads only committed values, never older than what it read before', realTime: false, byDefault: true },
  RA: { id: 1, aliases: ['ra', 'read-atomic'], strength: 'weak', rule: 'RA', search: 'saturation', visibility: V(false, false, false, false), below: ['RC'], decideFirst: [], useKnown: [], witnessFrom: [], anomaly: 'fractured read', description: 'Read Atomic: a transaction sees all of another\'s writes or none', realTime: false, byDefault: true },
  CC: { id: 2, aliases: ['cc', 'causal', 'tcc'], strength: 'weak', rule: 'CC', search: 'saturation', visibility: V(true, false, false, false), below: ['RA'], decideFirst: [], useKnown: [], witnessFrom: [], anomaly: 'causality violation', description: 'Causal Consistency: a transaction sees everything that happened before what it sees', realTime: false, byDefault: true },
  PC: { id: 3, aliases: ['pc', 'prefix'], strength: 'strong', rule: 'CC', search: 'pc', visibility: V(false, true, false, false), below: ['CC'], decideFirst: ['SER'], useKnown: ['SI'], witnessFrom: [], anomaly: 'long fork', description: 'Prefix Consistency: a transaction sees a prefix of one commit order', realTime: false, byDefault: true },
  PSI: { id: 4, aliases: ['psi', 'parallel-snapshot'], strength: 'strong', rule: 'CC', search: 'orientation', visibility: V(true, false, true, false), below: ['CC'], decideFirst: ['SER', 'SI'], useKnown: [], witnessFrom: [], anomaly: 'lost update', description: 'Parallel Snapshot Isolation: causal snapshots, and no two concurrent writers of a key', realTime: false, byDefault: true },
  SI: { id: 5, aliases: ['si', 'snapshot'], strength: 'strong', rule: 'CC', search: 'si', visibility: V(false, true, true, false), below: ['PC', 'PSI'], decideFirst: ['SER', 'PC'], useKnown: ['PSI'], witnessFrom: ['PSI'], anomaly: 'lost update', description: 'Snapshot Isolation: a prefix snapshot, and no two concurrent writers of a key', realTime: false, byDefault: true },
  SER: { id: 6, aliases: ['ser', 'serializable'], strength: 'strong', rule: 'CC', search: 'ser', visibility: V(false, false, false, true), below: ['SI'], decideFirst: [], useKnown: ['SSER'], witnessFrom: [], anomaly: 'write skew', description: 'Serializability: the transactions ran one at a time, in some order', realTime: false, byDefault: true },
  SSER: { id: 7, aliases: ['sser', 'strict-serializable', 'strict-serializability'], strength: 'strong', rule: 'CC', search: 'ser', visibility: V(false, false, false, true), below: ['SER'], decideFirst: ['SER'], useKnown: [], witnessFrom: [], anomaly: 'stale read', description: 'Strict Serializability: serializable in an order that also respects real time (a transaction that ended before another started commits first)', realTime: true, byDefault: false },
} as const satisfies Record<string, LevelRow<string>>;

export type LevelName = keyof typeof LEVEL_TABLE;
/** A level's name (the table's key). */
export type Level = LevelName;

/** The table, typed: `below` and `decideFirst` may name only levels of the table (checked here). */
const ROWS: Record<Level, LevelRow> = LEVEL_TABLE;

/** Every level, weakest first (table order). */
export const LEVELS: readonly Level[] = Object.keys(LEVEL_TABLE) as Level[];

/** The levels evaluated when nobody names them (spec: "all seven levels are evaluated unless the user narrows them"). */
export const DEFAULT_LEVELS: readonly Level[] = LEVELS.filter((l) => ROWS[l].byDefault);

/** Whether `levels` is exactly the default set (a settings list left at its default narrows nothing). */
export function isDefaultLevelSet(levels: readonly Level[]): boolean {
  return levels.length === DEFAULT_LEVELS.length && DEFAULT_LEVELS.every((l) => levels.includes(l));
}

/** Levels decided exactly by saturation (polynomial). */
export const WEAK_LEVELS: readonly Level[] = LEVELS.filter((l) => ROWS[l].strength === 'weak');

/** The weak rules, in table order (each weak level's own). */
export const RULES: readonly Rule[] = [...new Set(WEAK_LEVELS.map((l) => ROWS[l].rule))];

export function levelRow(level: Level): LevelRow {
  return ROWS[level];
}

const BY_ID: (Level | undefined)[] = [];
for (const l of LEVELS) {
  if (BY_ID[ROWS[l].id] !== undefined) throw new Error(`level id ${ROWS[l].id} is used twice`);
  BY_ID[ROWS[l].id] = l;
}

const ALIASES = new Map<string, Level>();
for (const l of LEVELS) for (const a of [l.toLowerCase(), ...ROWS[l].aliases]) ALIASES.set(a, l);

/** The level a name or alias denotes (case-insensitive), or null. */
export function parseLevel(name: string): Level | null {
  return ALIASES.get(name.toLowerCase()) ?? null;
}

/** The level's stable id (what History.txnLevel stores). */
export function levelId(level: Level): number {
  return ROWS[level].id;
}

/** The level with this id (History.txnLevel); ids come from the table only. */
export function levelById(id: number): Level {
  const l = BY_ID[id];
  if (l === undefined) throw new Error(`no level has id ${id}`);
  return l;
}

export function isWeakLevel(level: Level): boolean {
  return ROWS[level].strength === 'weak';
}

/** Whether the level reads from snapshots of the commit order (decided by the commit-order search). */
export function isSnapshotLevel(level: Level): boolean {
  const s = ROWS[level].search;
  return s === 'pc' || s === 'si' || s === 'ser';
}

/** The weak rule a transaction's own reads obey as a weak reader (RC, RA), or null for CC and up. */
export function weakReaderRule(level: Level): 'RC' | 'RA' | null {
  const r = ROWS[level];
  return r.strength === 'weak' && r.rule !== 'CC' ? r.rule : null;
}

/** Strictly weaker levels of each level: the transitive closure of `below`. */
const WEAKER: Record<Level, ReadonlySet<Level>> = (() => {
  const out = {} as Record<Level, Set<Level>>;
  const closure = (l: Level): Set<Level> => {
    if (out[l]) return out[l];
    const s = new Set<Level>();
    for (const b of ROWS[l].below) {
      s.add(b);
      for (const x of closure(b)) s.add(x);
    }
    out[l] = s;
    return s;
  };
  for (const l of LEVELS) closure(l);
  return out;
})();

/** a ⊑ b: every history that satisfies b satisfies a (RC ⊑ RA ⊑ CC ⊑ PC ⊑ SI ⊑ SER ⊑ SSER, CC ⊑ PSI ⊑ SI). */
export function weakerOrEqual(a: Level, b: Level): boolean {
  return a === b || WEAKER[b].has(a);
}

/**
 * The strongest of `holding` (levels that hold): those with no strictly stronger level among them,
 * in table order. Several when they are incomparable (PC and PSI both hold, SI does not).
 */
export function strongestHolding(holding: Iterable<Level>): Level[] {
  const set = new Set(holding);
  return LEVELS.filter((l) => set.has(l) && !LEVELS.some((u) => u !== l && set.has(u) && weakerOrEqual(l, u)));
}

/** "RC, RA, CC, PC, PSI, SI or SER": the levels as a sentence, for messages. */
export function levelList(conjunction = 'or'): string {
  return `${LEVELS.slice(0, -1).join(', ')} ${conjunction} ${LEVELS[LEVELS.length - 1]}`;
}

/** A few aliases for messages ("causal, snapshot, serializable"). */
export function someAliases(): string[] {
  return LEVELS.map((l) => ROWS[l].aliases.find((a) => a !== l.toLowerCase() && a.length > 3 && !a.includes('-'))).filter((a): a is string => a !== undefined);
}
