// Isolation levels: names, aliases and the lattice between them.

export type Level = 'RC' | 'RA' | 'CC' | 'PC' | 'PSI' | 'SI' | 'SER';

/** Weakest first; the index is the level's id in typed arrays (txnLevel). */
export const LEVELS: readonly Level[] = ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER'];

/** Levels whose commit-order premise does not mention co: decided exactly in polynomial time. */
export const WEAK_LEVELS: readonly Level[] = ['RC', 'RA', 'CC'];

const ALIASES: Record<string, Level> = {
  rc: 'RC', 'read-committed': 'RC',
  ra: 'RA', 'read-atomic': 'RA',
  cc: 'CC', causal: 'CC', tcc: 'CC',
  pc: 'PC', prefix: 'PC',
  psi: 'PSI', 'parallel-snapshot': 'PSI',
  si: 'SI', snapshot: 'SI',
  ser: 'SER', serializable: 'SER',
};

/** The level a name or alias denotes (case-insensitive), or null. */
export function parseLevel(name: string): Level | null {
  return ALIASES[name.toLowerCase()] ?? null;
}

export function levelId(level: Level): number {
  return LEVELS.indexOf(level);
}

export function isWeakLevel(level: Level): boolean {
  return levelId(level) <= 2;
}

/** a ⊑ b: every history that satisfies b satisfies a (RC ⊑ RA ⊑ CC ⊑ PC ⊑ SI ⊑ SER, CC ⊑ PSI ⊑ SI). */
export function weakerOrEqual(a: Level, b: Level): boolean {
  if (a === b) return true;
  const order: Record<Level, Level[]> = {
    RC: [], RA: ['RC'], CC: ['RC', 'RA'], PC: ['RC', 'RA', 'CC'], PSI: ['RC', 'RA', 'CC'],
    SI: ['RC', 'RA', 'CC', 'PC', 'PSI'], SER: ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI'],
  };
  return order[b].includes(a);
}
