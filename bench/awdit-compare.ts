// Benchmark: `isocheck check` end to end (parse included) against AWDIT on the same plume files, side by side.
//
// Usage: npm run bench:awdit [-- --sizes 1m,4m] [--stores causal,read-committed,permissive]
//        [--levels RC,RA,CC] [--awdit PATH] [--awdit-stack MB] [--runs N] [--isocheck CLI.js]
// Histories are generated into bench/data/ (64 sessions, ops/20 keys, mean transaction size 8, 60% reads);
// a store named zipf-STORE (e.g. zipf-causal) is that store with Zipf-distributed keys (exponent 0.8).
// AWDIT is taken from --awdit or $AWDIT_BIN (build it from its repository beside the project). The two
// tools' runs alternate (ours, theirs, ours, …) so machine noise hits both alike; the table shows the
// median and the minimum of each, and the ratio of the medians. When AWDIT is missing or crashes the
// table says so and prints no ratio: figures measured on another machine are not a baseline.
// AWDIT's cycle search recurses: on large violated histories its default 32 MiB stack overflows
// (a crash, reported as such); --awdit-stack passes a larger one (its -s option).
// Besides wall time, the CPU time (user + system, all threads) of each run is shown: on a shared
// machine it is the steadier figure, and its ratio counts our GC and compiler threads against us.
// Each file also gets a floor: starting Node and scanning its lines with a bare loop (FLOOR_PROGRAM),
// and its ratio to AWDIT's time per level, the part of any ratio no Node.js program can go below.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

type LevelName = 'RC' | 'RA' | 'CC';
const AWDIT_LEVEL: Record<LevelName, string> = { RC: 'read-committed', RA: 'read-atomic', CC: 'causal' };

type Verdict = 'consistent' | 'violated' | 'undecided' | 'no report' | 'crashed';
interface Run {
  seconds: number;
  rssMB: number | null;
  /** User + system seconds of all the process's threads (GNU time), or null without it. */
  cpu: number | null;
  verdict: Verdict;
}

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sizes = (option('--sizes') ?? '1m').split(',');
const runs = Math.max(1, Number(option('--runs') ?? '3'));
const levels = (option('--levels') ?? 'RC,RA,CC').split(',') as LevelName[];
const stores = (option('--stores') ?? 'causal,read-committed').split(',');
const awdit = [option('--awdit'), process.env.AWDIT_BIN].find((p) => p && existsSync(p));
const awditStack = option('--awdit-stack');
/** Another build of our CLI (e.g. an older commit's out/cli.js) for before/after figures. */
const cli = option('--isocheck') ?? 'out/cli.js';
const hasTime = existsSync('/usr/bin/time');
const dataDir = join(import.meta.dirname, 'data');
mkdirSync(dataDir, { recursive: true });

function events(size: string): number {
  const m = /^(\d+)([km]?)$/.exec(size);
  if (!m) throw new Error(`bad size ${size}`);
  return Number(m[1]) * (m[2] === 'm' ? 1_000_000 : m[2] === 'k' ? 1_000 : 1);
}

/** A store name, or `zipf-STORE` for that store with Zipf-distributed keys (exponent 0.8: a few hot keys). */
function genArgs(store: string): string[] {
  const zipf = /^zipf-(.+)$/.exec(store);
  return zipf ? ['--store', zipf[1], '--dist', 'zipf', '--zipf', '0.8'] : ['--store', store];
}

function ensureHistory(store: string, size: string): string {
  const file = join(dataDir, `${store}-${size}.txt`);
  if (!existsSync(file)) {
    const r = spawnSync('node', ['out/cli.js', 'gen', '--events', String(events(size)), '--sessions', '64', '--ops', '8', '--reads', '0.6', ...genArgs(store), '--seed', '42', '--format', 'plume', '-o', file], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`generating ${file} failed`);
  }
  return file;
}

/** Runs a command, timing it (and its peak RSS with GNU time when present). */
function timed(cmd: string[], verdictOf: (stdout: string, status: number | null) => Verdict): Run {
  const argv = hasTime ? ['/usr/bin/time', '-f', '@@%e %M %U %S', ...cmd] : cmd;
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 30 });
  let seconds = Number(process.hrtime.bigint() - start) / 1e9;
  let rssMB: number | null = null;
  let cpu: number | null = null;
  const m = /@@([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  if (m) {
    seconds = Number(m[1]) || seconds;
    rssMB = Number(m[2]) / 1024;
    cpu = Number(m[3]) + Number(m[4]);
  }
  return { seconds, rssMB, cpu, verdict: verdictOf(r.stdout ?? '', r.status) };
}

function ours(file: string, level: LevelName): Run {
  return timed(['node', cli, 'check', file, '--level', level, '--json'], (out) => {
    try {
      const report = JSON.parse(out) as { levels: Record<string, { consistent: boolean | null }> }[];
      const c = report[0].levels[level].consistent;
      return c === true ? 'consistent' : c === false ? 'violated' : 'undecided';
    } catch {
      return 'no report';
    }
  });
}

function theirs(file: string, level: LevelName): Run {
  return timed([awdit!, 'check', '-i', AWDIT_LEVEL[level], '-r', 'first', ...(awditStack ? ['-s', awditStack] : []), file],
    (out) => (out.includes('Inconsistent.') ? 'violated' : out.includes('Consistent.') ? 'consistent' : 'crashed'));
}

/**
 * The floor of any Node.js program on this file: starting Node and scanning the file's lines
 * `r(k,v,s,t)` into five int32 columns through a 1 MB buffer (no ids, no checks, no transactions,
 * no output). Compared with AWDIT's time it bounds the ratio a Node.js checker can reach: on the
 * 1M files it alone is about a third of AWDIT's RA time on the permissive store.
 */
const FLOOR_PROGRAM = `
const fs = require('fs');
const fd = fs.openSync(process.argv[1], 'r');
const buf = new Uint8Array(1 << 20);
const size = fs.fstatSync(fd).size;
const cols = [0, 1, 2, 3, 4].map(() => new Int32Array((size / 15) | 0));
let lines = 0, carry = 0;
for (;;) {
  const n = fs.readSync(fd, buf, carry, buf.length - carry) + carry;
  if (n === 0) break;
  let last = n;
  while (last > 0 && buf[last - 1] !== 10) last--;
  if (n < buf.length) last = n;
  let i = 0;
  while (i < last) {
    cols[0][lines] = buf[i] === 119 ? 1 : 0;
    i += 2;
    for (let f = 1; f <= 4; f++) {
      let v = 0, c = buf[i];
      if (c === 45) c = buf[++i];
      while (c >= 48 && c <= 57) { v = v * 10 + (c - 48); c = buf[++i]; }
      cols[f][lines] = v;
      i++;
    }
    while (i < last && buf[i] !== 10) i++;
    i++;
    lines++;
  }
  buf.copyWithin(0, last, n);
  carry = n - last;
  if (n < buf.length) break;
}
if (lines === 0) process.exit(1);
`;

function floor(file: string): Run {
  return timed(['node', '-e', FLOOR_PROGRAM, file], (_out, status) => (status === 0 ? 'consistent' : 'no report'));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** Median and minimum seconds, median CPU seconds, peak RSS, and the verdict when every run agreed. */
function summary(rs: Run[]): { med: number; min: number; cpu: number | null; rss: number | null; verdict: string } {
  const verdicts = new Set(rs.map((r) => r.verdict));
  const rss = rs.some((r) => r.rssMB !== null) ? Math.max(...rs.map((r) => r.rssMB ?? 0)) : null;
  const cpu = rs.every((r) => r.cpu !== null) ? median(rs.map((r) => r.cpu as number)) : null;
  return { med: median(rs.map((r) => r.seconds)), min: Math.min(...rs.map((r) => r.seconds)), cpu, rss, verdict: [...verdicts].join('/') };
}
const fmt = (s: ReturnType<typeof summary>): string =>
  `${s.med.toFixed(2)} s (min ${s.min.toFixed(2)}${s.cpu !== null ? `, cpu ${s.cpu.toFixed(2)}` : ''})${s.rss !== null ? ` ${s.rss.toFixed(0)} MB` : ''} ${s.verdict}`;

console.log(awdit ? `isocheck vs AWDIT (${awdit}${awditStack ? `, -s ${awditStack}` : ''}), alternating runs, ${runs} each` : 'AWDIT not found (--awdit PATH or $AWDIT_BIN): isocheck alone, no ratios');
console.log(`${'history'.padEnd(24)}${'level'.padEnd(7)}${'isocheck'.padEnd(52)}${'AWDIT'.padEnd(52)}ratio of medians (wall, cpu); floor`);
for (const size of sizes) {
  for (const store of stores) {
    const file = ensureHistory(store, size);
    const f: Run[] = [];
    for (const level of levels) {
      const a: Run[] = [];
      const b: Run[] = [];
      for (let i = 0; i < runs; i++) {
        a.push(ours(file, level));
        if (awdit) b.push(theirs(file, level));
        if (f.length < runs) f.push(floor(file));
      }
      const sa = summary(a);
      const sb = awdit ? summary(b) : null;
      const awditOk = sb !== null && !b.some((r) => r.verdict === 'crashed');
      const agree = sb === null || !awditOk || sa.verdict === sb.verdict ? '' : '  VERDICTS DIFFER';
      const cpuRatio = awditOk && sa.cpu !== null && sb.cpu ? `, ${(sa.cpu / sb.cpu).toFixed(2)}` : '';
      const ratio = awditOk ? `${(sa.med / sb.med).toFixed(2)}${cpuRatio}` : sb ? 'n/a (AWDIT crashed)' : 'n/a';
      // The floor's share of AWDIT's time: what is left below 0.5 for parsing into a history and checking it.
      const floorRatio = awditOk ? `; ${(median(f.map((r) => r.seconds)) / sb.med).toFixed(2)}` : '';
      console.log(`${`${store}-${size}`.padEnd(24)}${level.padEnd(7)}${fmt(sa).padEnd(52)}${(sb ? fmt(sb) : '—').padEnd(52)}${ratio}${floorRatio}${agree}`);
    }
    const fs = summary(f);
    console.log(`${`${store}-${size}`.padEnd(24)}${'floor'.padEnd(7)}${`${fs.med.toFixed(2)} s (min ${fs.min.toFixed(2)}) ${fs.rss?.toFixed(0) ?? '?'} MB: node start + a bare scan of the lines`}`);
  }
}
