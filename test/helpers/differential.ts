// Differential runs: random permissive histories checked by the optimised engine and the naive axioms.

import { analyzeHistText, analyzePlumeBytes, type Analysis } from '../../server/src/engine/analyze.ts';
import { generateHistory, Rng, type GenOptions, type StoreKind } from '../../server/src/engine/gen/generate.ts';
import { toHistString, toPlumeString } from '../../server/src/engine/gen/history-writers.ts';
import { levelById, LEVELS, type Level } from '../../server/src/engine/levels/levels.ts';
import { bruteForceHomogeneous, bruteForceMixed } from './brute-force.ts';
import { naiveConsistent, type NaiveRule } from './naive-checkers.ts';

export interface Mismatch {
  seed: number;
  what: string;
  text: string;
}

export interface DifferentialStats {
  histories: number;
  violated: Record<string, number>;
  mismatches: Mismatch[];
}

const RULES: NaiveRule[] = ['RC', 'RA', 'CC'];

/** Random small-history options: varied sessions, sizes and keys, mostly the permissive store. */
export function randomOptions(seed: number): GenOptions {
  const rng = new Rng(seed);
  const stores: StoreKind[] = ['permissive', 'permissive', 'permissive', 'permissive', 'permissive', 'read-committed', 'causal', 'snapshot', 'serial'];
  return {
    sessions: 1 + rng.below(5),
    transactions: 2 + rng.below(12),
    opsPerTxn: 1.5 + rng.below(5),
    keys: 1 + rng.below(5),
    distribution: rng.below(3) === 0 ? 'zipf' : 'uniform',
    zipfS: 0.8,
    readRatio: 0.3 + rng.below(6) / 10,
    store: stores[rng.below(stores.length)],
    seed,
    abortRatio: rng.below(4) === 0 ? 0.1 : 0,
  };
}

/** Compares homogeneous RC/RA/CC verdicts and a random mixed assignment on `count` histories. */
export function runDifferential(count: number, firstSeed: number): DifferentialStats {
  const stats: DifferentialStats = { histories: 0, violated: { RC: 0, RA: 0, CC: 0, mixed: 0 }, mismatches: [] };
  for (let i = 0; i < count; i++) {
    const seed = firstSeed + i;
    const g = generateHistory(randomOptions(seed));
    const rng = new Rng(seed ^ 0x5bd1e995);
    // Every other history goes through the plume reader, the rest through the .hist parser.
    const viaPlume = i % 2 === 1;
    let text: string;
    let a: Analysis;
    if (viaPlume) {
      text = toPlumeString(g);
      a = analyzePlumeBytes(new TextEncoder().encode(text));
    } else {
      // Random per-transaction tags among RC/RA/CC make a mixed verdict to compare too.
      text = tagTransactions(toHistString(g), rng);
      a = analyzeHistText(text);
    }
    stats.histories++;
    const clean = a.readsFrom.violations === 0;
    for (const rule of RULES) {
      const got = a.levels.find((v) => v.level === rule)?.consistent;
      const want = clean && naiveConsistent(a.history, a.readsFrom, () => rule);
      if (!want) stats.violated[rule]++;
      if (got !== want) stats.mismatches.push({ seed, what: `${rule}: engine ${String(got)}, naive ${want}`, text });
    }
    if (a.mixed) {
      const h = a.history;
      const want = clean && naiveConsistent(h, a.readsFrom, (t) => (['RC', 'RA', 'CC'] as const)[Math.min(2, h.txnLevel[t] < 0 ? 1 : h.txnLevel[t])]);
      if (!want) stats.violated.mixed++;
      if (a.mixed.consistent !== want) stats.mismatches.push({ seed, what: `mixed: engine ${String(a.mixed.consistent)}, naive ${want}`, text });
    }
  }
  return stats;
}

/** Adds `level RA` and a random RC/RA/CC tag to about half of the transaction headers. */
function tagTransactions(hist: string, rng: Rng): string {
  const tagged = hist.replace(/^(\s*)(T\d+)( aborted)?:/gm, (_m, indent: string, id: string, aborted: string | undefined) => {
    const tag = rng.below(2) === 0 ? '' : ` [${LEVELS[rng.below(3)]}]`;
    return `${indent}${id}${tag}${aborted ?? ''}:`;
  });
  return `level RA\n${tagged}`;
}

const STRONG = ['PC', 'PSI', 'SI', 'SER'] as const;

/**
 * Strong and mixed levels against brute force (every commit order, the axioms literally; for
 * mixed, MixIso's least visibility fixpoint) on histories of up to 8 transactions.
 */
export function runStrongDifferential(count: number, firstSeed: number): DifferentialStats {
  const stats: DifferentialStats = { histories: 0, violated: { PC: 0, PSI: 0, SI: 0, SER: 0, mixed: 0 }, mismatches: [] };
  for (let i = 0; i < count; i++) {
    const seed = firstSeed + i;
    const rng = new Rng(seed ^ 0x2545f491);
    const g = generateHistory({ ...randomOptions(seed), transactions: 2 + rng.below(7) });
    // Random tags among all seven levels; untagged transactions run at the `level` directive's.
    const fallback = LEVELS[rng.below(7)];
    const text = `level ${fallback}\n` + toHistString(g).replace(/^(\s*)(T\d+)( aborted)?:/gm, (_m, indent: string, id: string, aborted: string | undefined) =>
      `${indent}${id}${rng.below(3) === 0 ? '' : ` [${LEVELS[rng.below(7)]}]`}${aborted ?? ''}:`);
    const a = analyzeHistText(text);
    stats.histories++;
    const h = a.history;
    const clean = a.readsFrom.violations === 0;
    for (const level of STRONG) {
      const got = a.levels.find((v) => v.level === level)?.consistent;
      const want = clean && bruteForceHomogeneous(h, a.readsFrom, level);
      if (!want) stats.violated[level]++;
      if (got !== want) stats.mismatches.push({ seed, what: `${level}: engine ${String(got)}, brute force ${want}`, text });
    }
    const levelOf = (t: number): Level => (h.txnLevel[t] >= 0 ? LEVELS[h.txnLevel[t]] : fallback);
    const want = clean && bruteForceMixed(h, a.readsFrom, levelOf);
    if (!want) stats.violated.mixed++;
    if (a.mixed?.consistent !== want) stats.mismatches.push({ seed, what: `mixed: engine ${String(a.mixed?.consistent)}, brute force ${want}`, text });
  }
  return stats;
}

/**
 * SSER against brute force (every commit order; rt ⊆ co literally, every pair of timed
 * transactions) on histories of up to 7 transactions with random `@ START..END` intervals (some
 * transactions without times), homogeneous SSER and SER, and a mixed verdict with random tags
 * among all the table's levels (SSER included), so rt constrains only transactions at SSER.
 */
export function runRealTimeDifferential(count: number, firstSeed: number): DifferentialStats {
  const stats: DifferentialStats = { histories: 0, violated: { SER: 0, SSER: 0, mixed: 0 }, mismatches: [] };
  const strong: Level[] = ['PC', 'SI', 'SER', 'SSER', 'SSER'];
  for (let i = 0; i < count; i++) {
    const seed = firstSeed + i;
    const rng = new Rng(seed ^ 0x68e31da4);
    const g = generateHistory({ ...randomOptions(seed), transactions: 2 + rng.below(6) });
    const fallback = strong[rng.below(strong.length)];
    const text = `level ${fallback}\n` + toHistString(g).replace(/^(\s*)(T\d+)( aborted)?:/gm, (_m, indent: string, id: string, aborted: string | undefined) => {
      const tag = rng.below(3) === 0 ? '' : ` [${LEVELS[rng.below(LEVELS.length)]}]`;
      const start = rng.below(20);
      const time = rng.below(5) === 0 ? '' : ` @ ${start}..${start + rng.below(6)}`;
      return `${indent}${id}${tag}${aborted ?? ''}${time}:`;
    });
    const a = analyzeHistText(text, { levels: ['SER', 'SSER'] });
    stats.histories++;
    const h = a.history;
    const clean = a.readsFrom.violations === 0;
    for (const level of ['SER', 'SSER'] as const) {
      const got = a.levels.find((v) => v.level === level)?.consistent;
      const want = clean && bruteForceHomogeneous(h, a.readsFrom, level);
      if (!want) stats.violated[level]++;
      if (got !== want) stats.mismatches.push({ seed, what: `${level}: engine ${String(got)}, brute force ${want}`, text });
    }
    const levelOf = (t: number): Level => (h.txnLevel[t] >= 0 ? levelById(h.txnLevel[t]) : fallback);
    const want = clean && bruteForceMixed(h, a.readsFrom, levelOf);
    if (!want) stats.violated.mixed++;
    if (a.mixed?.consistent !== want) stats.mismatches.push({ seed, what: `mixed: engine ${String(a.mixed?.consistent)}, brute force ${want}`, text });
  }
  return stats;
}
