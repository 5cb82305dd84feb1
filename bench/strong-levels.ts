// Benchmark of the strong levels (PC, PSI, SI, SER): litmus histories, generated 2,000-transaction
// histories with and without an injected anomaly, and where the search budget runs out.
// Usage: npm run bench:strong

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory, type GenOptions, type GeneratedHistory, type StoreKind } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { CheckContext } from '../server/src/engine/weak/level-check.ts';
import type { Level } from '../server/src/engine/levels/levels.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { checkStrong } from '../server/src/engine/strong/strong-check.ts';

const examples = join(import.meta.dirname, '..', 'examples');

function litmus(): void {
  const decide: [string, number][] = [];
  const full: [string, number][] = [];
  for (const f of readdirSync(examples).filter((x) => x.endsWith('.hist')).sort()) {
    const text = readFileSync(join(examples, f), 'utf8');
    analyzeHistText(text); // warm up
    let t0 = performance.now();
    for (let i = 0; i < 20; i++) for (const l of ['PC', 'PSI', 'SI', 'SER'] as Level[]) decideText(text, l);
    decide.push([f, (performance.now() - t0) / 20]);
    t0 = performance.now();
    for (let i = 0; i < 20; i++) analyzeHistText(text);
    full.push([f, (performance.now() - t0) / 20]);
  }
  const show = (rows: [string, number][]): string => {
    rows.sort((a, b) => b[1] - a[1]);
    return `slowest ${rows.slice(0, 3).map(([f, t]) => `${f} ${t.toFixed(2)} ms`).join(', ')}; all under 10 ms: ${rows.every(([, t]) => t < 10)}`;
  };
  console.log(`litmus examples (${decide.length}): deciding PC, PSI, SI and SER (parse included): ${show(decide)}`);
  console.log(`  the whole analysis (seven levels, mixed, minimal witnesses and their explanations): ${show(full)}`);
}

function decideText(text: string, level: Level): string {
  return decide(text, level).verdict;
}

/** A stale read: one read returns the previous version of its key (by value order), if any. */
function injectStaleRead(g: GeneratedHistory, seed: number): void {
  const versions = new Map<number, number[]>();
  for (let o = 0; o < g.opCount; o++) if (g.opIsWrite[o] === 1) (versions.get(g.opKey[o]) ?? versions.set(g.opKey[o], []).get(g.opKey[o])!).push(g.opValue[o]);
  for (const v of versions.values()) v.sort((a, b) => a - b);
  for (let i = 0; i < g.opCount; i++) {
    const o = (seed * 7919 + i * 104729) % g.opCount;
    if (g.opIsWrite[o] === 1 || g.opValue[o] === 0) continue;
    const v = versions.get(g.opKey[o])!;
    const at = v.indexOf(g.opValue[o]);
    if (at <= 0) continue;
    g.opValue[o] = v[at - 1];
    return;
  }
}

function decide(text: string, level: Level, states = 2_000_000): { ms: number; verdict: string } {
  const t0 = performance.now();
  const p = parseHist(text);
  const rf = computeReadsFrom(p.history);
  const ctx = new CheckContext(p.history, rf);
  let verdict: string;
  if (rf.violations > 0) verdict = 'violated (read consistency)';
  else if (!ctx.causal) verdict = 'violated (causality)';
  else verdict = checkStrong(ctx, () => level, { states, millis: 2000, enumerateUpTo: 8 }).kind;
  return { ms: performance.now() - t0, verdict };
}

/** As the CLI decides a level: the lattice shortcuts included (SER holds ⇒ SI holds, …), witnesses left out. */
function decideAsChecker(text: string, level: Level): { ms: number; verdict: string } {
  const t0 = performance.now();
  const v = analyzeHistText(text, { levels: [level], strongMillis: 2000, witnessMillis: 1 }).levels[0];
  const verdict = v.consistent === true ? 'consistent' : v.consistent === false ? 'violated' : 'unknown';
  return { ms: performance.now() - t0, verdict: v.note?.startsWith('implied') ? `${verdict} (${v.note.slice(9)})` : verdict };
}

function generated(): void {
  console.log('\ngenerated histories, 8 sessions, 2,000 transactions, 200 keys; time to decide one level as the checker does');
  console.log('(parse, RC/RA/CC, necessary conditions, search and lattice shortcuts; 2 s search budget; witnesses left out):');
  for (const store of ['serial', 'snapshot'] as StoreKind[]) {
    for (const inject of [false, true]) {
      for (let seed = 1; seed <= 3; seed++) {
        const o: GenOptions = { sessions: 8, transactions: 2000, opsPerTxn: 4, keys: 200, distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store, seed };
        const g = generateHistory(o);
        if (inject) injectStaleRead(g, seed);
        const text = toHistString(g);
        const row = (['SER', 'SI', 'PC', 'PSI'] as Level[]).map((l) => {
          const r = decideAsChecker(text, l);
          return `${l} ${r.verdict} ${(r.ms / 1000).toFixed(2)} s`;
        });
        console.log(`  ${store}${inject ? ' + stale read' : ''} seed ${seed}: ${row.join(' | ')}`);
      }
    }
  }
}

function scaling(): void {
  console.log('\nwhere the budget (2M states) runs out: SI on the snapshot store, 4 ops/txn, keys = txns/10:');
  for (const sessions of [2, 4, 8, 16, 32]) {
    const cells: string[] = [];
    for (const transactions of [500, 1000, 2000, 4000]) {
      const g = generateHistory({ sessions, transactions, opsPerTxn: 4, keys: transactions / 10, distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store: 'snapshot', seed: 1 });
      const r = decide(toHistString(g), 'SI');
      cells.push(`${transactions}: ${r.verdict === 'unknown' ? 'UNKNOWN' : r.verdict} ${(r.ms / 1000).toFixed(2)} s`);
    }
    console.log(`  ${String(sessions).padStart(2)} sessions  ${cells.join(' | ')}`);
  }
}

litmus();
generated();
scaling();
