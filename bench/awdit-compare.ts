// Benchmark: `isocheck check` end to end (parse included) against AWDIT on the same plume files.
//
// Usage: npm run bench:awdit [-- --sizes 1m,4m] [--stores causal,read-committed,permissive]
//        [--levels RC,RA,CC] [--awdit PATH] [--runs N]
// Histories are generated into bench/data/ (64 sessions, ops/20 keys, mean txn size 8, 60% reads,
// as in ../shared/notes/performance-anchors.md). AWDIT is looked up in --awdit, $AWDIT_BIN or
// /work/awdit/bin/awdit; when absent the ratios are against the anchors' published figures.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

type LevelName = 'RC' | 'RA' | 'CC';
const AWDIT_LEVEL: Record<LevelName, string> = { RC: 'read-committed', RA: 'read-atomic', CC: 'causal' };
/** AWDIT's wall times in seconds from performance-anchors.md, for when it cannot run here. */
const ANCHORS: Record<string, Record<LevelName, number>> = {
  'causal-1m': { RC: 0.89, RA: 1.15, CC: 2.7 },
  'read-committed-1m': { RC: 0.93, RA: 1.23, CC: 2.81 },
  'causal-4m': { RC: 4.02, RA: 5.32, CC: 13.3 },
  'read-committed-4m': { RC: 4.43, RA: 6.53, CC: 15.9 },
};

interface Run {
  seconds: number;
  rssMB: number | null;
  verdict: string;
  status: number | null;
}

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const sizes = (option('--sizes') ?? '1m').split(',');
const runs = Number(option('--runs') ?? '1');
const levels = (option('--levels') ?? 'RC,RA,CC').split(',') as LevelName[];
const stores = (option('--stores') ?? 'causal,read-committed').split(',');
const awdit = [option('--awdit'), process.env.AWDIT_BIN, '/work/awdit/bin/awdit'].find((p) => p && existsSync(p));
const hasTime = existsSync('/usr/bin/time');
const dataDir = join(import.meta.dirname, 'data');
mkdirSync(dataDir, { recursive: true });

function events(size: string): number {
  const m = /^(\d+)([km]?)$/.exec(size);
  if (!m) throw new Error(`bad size ${size}`);
  return Number(m[1]) * (m[2] === 'm' ? 1_000_000 : m[2] === 'k' ? 1_000 : 1);
}

function ensureHistory(store: string, size: string): string {
  const file = join(dataDir, `${store}-${size}.txt`);
  if (!existsSync(file)) {
    const r = spawnSync('node', ['out/cli.js', 'gen', '--events', String(events(size)), '--sessions', '64', '--ops', '8', '--reads', '0.6', '--store', store, '--seed', '42', '--format', 'plume', '-o', file], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`generating ${file} failed`);
  }
  return file;
}

/** Runs a command, timing it (and its peak RSS with GNU time when present). */
function timed(cmd: string[], verdictOf: (stdout: string) => string): Run {
  const argv = hasTime ? ['/usr/bin/time', '-f', '@@%e %M', ...cmd] : cmd;
  const start = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', maxBuffer: 1 << 30 });
  let seconds = Number(process.hrtime.bigint() - start) / 1e9;
  let rssMB: number | null = null;
  const m = /@@([\d.]+) (\d+)/.exec(r.stderr ?? '');
  if (m) {
    seconds = Number(m[1]) || seconds;
    rssMB = Number(m[2]) / 1024;
  }
  return { seconds, rssMB, verdict: verdictOf(r.stdout ?? ''), status: r.status };
}

function best(make: () => Run): Run {
  let result = make();
  for (let i = 1; i < runs; i++) {
    const next = make();
    if (next.seconds < result.seconds) result = next;
  }
  return result;
}

function ours(file: string, level: LevelName): Run {
  return best(() => timed(['node', 'out/cli.js', 'check', file, '--level', level, '--json'], (out) => {
    try {
      const report = JSON.parse(out) as { levels: Record<string, { consistent: boolean | null }> }[];
      return report[0].levels[level].consistent ? 'consistent' : 'violated';
    } catch {
      return 'no report';
    }
  }));
}

function theirs(file: string, level: LevelName): Run | null {
  if (!awdit) return null;
  return best(() => timed([awdit, 'check', '-i', AWDIT_LEVEL[level], '-r', 'first', file],
    (out) => (out.includes('Inconsistent.') ? 'violated' : out.includes('Consistent.') ? 'consistent' : 'crashed')));
}

const fmt = (r: Run): string => `${r.seconds.toFixed(2)} s${r.rssMB !== null ? ` / ${r.rssMB.toFixed(0)} MB` : ''}`;
console.log(`isocheck vs ${awdit ? `AWDIT (${awdit}), side by side` : 'AWDIT anchors (AWDIT not found)'}; best of ${runs}`);
console.log(`${"history".padEnd(24)}${"level".padEnd(7)}${"isocheck".padEnd(32)}${"AWDIT".padEnd(32)}ratio (isocheck/AWDIT)`);
for (const size of sizes) {
  for (const store of stores) {
    const file = ensureHistory(store, size);
    for (const level of levels) {
      const a = ours(file, level);
      const b = theirs(file, level);
      const anchor = ANCHORS[`${store}-${size}`]?.[level];
      const base = b && b.verdict !== 'crashed' ? b.seconds : anchor;
      const ratio = base ? (a.seconds / base).toFixed(2) : 'n/a';
      const awditText = b ? `${fmt(b)} ${b.verdict}` : anchor ? `${anchor.toFixed(2)} s (anchor)` : '—';
      console.log(`${`${store}-${size}`.padEnd(24)}${level.padEnd(7)}${`${fmt(a)} ${a.verdict}`.padEnd(32)}${awditText.padEnd(32)}${ratio}`);
    }
  }
}
