// Benchmark of the strong levels (PC, PSI, SI, SER): litmus histories, generated 2,000-transaction
// histories with and without an injected anomaly, and 64-session histories up to 100,000 transactions.
// Usage: npm run bench:strong [-- --sizes 10000,30000,100000] [--millis 10000] [--large-only]

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { generateHistory, type GenOptions, type GeneratedHistory, type StoreKind } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { CheckContext } from '../server/src/engine/weak/level-check.ts';
import type { Level } from '../server/src/engine/levels/levels.ts';
import { injectConcurrentLostUpdate } from '../test/helpers/inject.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { checkStrong, DEFAULT_STRONG_BUDGET } from '../server/src/engine/strong/strong-check.ts';

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
  const v = analyzeHistText(text, { levels: [level], strongMillis: 2000 }).levels[0];
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

const STRONG_LEVELS: Level[] = ['SER', 'SI', 'PSI', 'PC'];

/** Each level's own search (default budget, the CLI's), then the verdicts as the checker reports them (lattice shortcuts). */
function large(sizes: number[], millis: number): void {
  console.log('\nlarge histories, 64 sessions (isocheck gen defaults: 8 ops/txn, 500 keys, 60% reads); strong budget');
  console.log(`${millis / 1000} s per level${millis === DEFAULT_STRONG_BUDGET.millis ? ' (the CLI default)' : ''}, 4M states; wall and CPU time per level (on a shared machine CPU time is the steadier figure):`);
  for (const transactions of sizes) {
    for (const [store, inject] of [['serial', null], ['snapshot', null], ['serial', 'lost update'], ['snapshot', 'stale read']] as [StoreKind, string | null][]) {
      let g = generateHistory({ sessions: 64, transactions, opsPerTxn: 8, keys: 500, distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store, seed: 1 });
      let what = '';
      if (inject === 'lost update') {
        const lost = injectConcurrentLostUpdate(g);
        what = lost ? 'lost update' : 'no lost update found';
        g = lost ?? g;
      }
      if (inject === 'stale read') {
        injectStaleRead(g, 1);
        what = 'stale read';
      }
      const text = toHistString(g);
      let t0 = performance.now();
      const p = parseHist(text);
      const rf = computeReadsFrom(p.history);
      const ctx = new CheckContext(p.history, rf);
      const cc = rf.violations > 0 ? 'read consistency violated' : !ctx.causal ? 'causality violated' : null;
      const setup = performance.now() - t0;
      console.log(`  ${store} store${inject ? ` + ${what}` : ''}, ${transactions} transactions (${p.history.txnCount - 1} in the file): parse and reads-from ${(setup / 1000).toFixed(2)} s${cc ? `, ${cc}` : ''}`);
      if (cc) continue;
      for (const level of STRONG_LEVELS) {
        const phases: string[] = [];
        t0 = performance.now();
        const c0 = process.cpuUsage();
        // Each phase line with the wall and CPU time since the level started (the engine reads no clock for its logs).
        const stamp = (l: string): void => {
          phases.push(`${l}  [${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(process.cpuUsage(c0).user / 1e6).toFixed(2)} s CPU]`);
        };
        const r = checkStrong(ctx, () => level, { ...DEFAULT_STRONG_BUDGET, millis, log: stamp });
        const cpu = process.cpuUsage(c0).user / 1e6;
        console.log(`    ${level.padEnd(3)} ${r.kind === 'unknown' ? `UNDECIDED (${r.reason})` : r.kind} — ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU`);
        for (const ph of phases) console.log(`        ${ph}`);
      }
      // As `isocheck check --level SER,SI,PSI,PC` reports them: the engine's own lattice (a level
      // implied by another's verdict, or decided on the part that violates a stronger one).
      t0 = performance.now();
      const c0 = process.cpuUsage();
      const reported = analyzeHistText(text, { levels: STRONG_LEVELS, strongMillis: millis }).levels;
      const shown = STRONG_LEVELS.map((l) => {
        const v = reported.find((x) => x.level === l)!;
        const verdict = v.consistent === true ? 'consistent' : v.consistent === false ? 'violated' : 'UNDECIDED';
        return `${l} ${verdict}${v.basis.kind === 'implied' ? ` (${v.basis.from} ${v.consistent ? 'holds' : 'is violated'})` : ''}`;
      });
      console.log(`    as reported (the whole analysis, witnesses included): ${shown.join(' | ')} — ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${(process.cpuUsage(c0).user / 1e6).toFixed(2)} s CPU`);
    }
  }
}

const arg = (name: string): string | undefined => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const sizes = (arg('--sizes') ?? '10000,30000,100000').split(',').map(Number);
const millis = Number(arg('--millis') ?? DEFAULT_STRONG_BUDGET.millis);
if (!process.argv.includes('--large-only')) {
  litmus();
  generated();
}
large(sizes, millis);
