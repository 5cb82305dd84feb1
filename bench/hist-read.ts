// .hist reading bench: this build against a baseline build on generated files — peak memory, check and parse time, alternating runs.
//
// npm run bench:hist -- --base OTHER/out/cli.js [--base-src OTHER] [--sizes 1m] [--runs 5] [--keep DIR]
// OTHER is a checkout of the baseline with `npm run build` done (and node_modules, for --base-src).
// Each run is `isocheck check FILE --level RC` under /usr/bin/time (wall, CPU, peak RSS); with
// --base-src, also the reader alone (readHist over the file's bytes, in a fresh process per run,
// through tsx) in each tree. Runs alternate (new, base, new, …) so machine noise hits both alike;
// the table shows medians and the ratio new / base (below 1: the new build is leaner or faster).

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, fallback: string | null): string | null => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const base = opt('--base', null);
const baseSrc = opt('--base-src', null);
const runs = Number(opt('--runs', '5'));
const sizes = (opt('--sizes', '1m') as string).split(',');
const dir = resolve(opt('--keep', join(ROOT, 'bench/data/hist')) as string);
if (!base || !existsSync(base)) {
  console.error('usage: npm run bench:hist -- --base OTHER/out/cli.js [--base-src OTHER] [--sizes 1m,250k] [--runs 5] [--keep DIR]');
  process.exit(2);
}
if (!existsSync('/usr/bin/time')) {
  console.error('needs /usr/bin/time (GNU time) for the peak RSS');
  process.exit(2);
}

const events = (s: string): number => Number(s.replace(/m$/i, '000000').replace(/k$/i, '000'));
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Run { wall: number; cpu: number; rssMB: number }

function timed(cmd: string[]): Run {
  const r = spawnSync('/usr/bin/time', ['-f', '@@%e %M %U %S', ...cmd], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const m = /@@([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  if (!m || (r.status !== 0 && r.status !== 1)) throw new Error(`${cmd.join(' ')} failed (exit ${r.status}): ${r.stderr}`);
  return { wall: Number(m[1]), rssMB: Number(m[2]) / 1024, cpu: Number(m[3]) + Number(m[4]) };
}

/** Milliseconds of readHist alone in the tree at `src` (a fresh process: the JIT starts cold, as in a CLI run). */
function parseMillis(src: string, file: string): number {
  const code = `import { readFileSync } from 'node:fs';
const m = await import(${JSON.stringify(join(src, 'server/src/engine/readers/hist-reader.ts'))});
const readHist = m.readHist ?? m.default.readHist;
const bytes = readFileSync(${JSON.stringify(file)});
const t = performance.now();
const r = readHist({ bytes });
console.log('@@' + (performance.now() - t) + ' ' + r.history.opCount);`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: src, encoding: 'utf8' });
  const m = /@@([\d.]+)/.exec(r.stdout ?? '');
  if (!m) throw new Error(`parse run in ${src} failed: ${r.stderr}`);
  return Number(m[1]);
}

mkdirSync(dir, { recursive: true });
console.log(`this build (${join(ROOT, 'out/cli.js')}) / baseline (${base}), ${runs} alternating runs each, medians`);
for (const size of sizes) {
  const file = join(dir, `causal-${size}.hist`);
  if (!existsSync(file)) {
    const g = spawnSync(process.execPath, [join(ROOT, 'out/cli.js'), 'gen', '--events', String(events(size)), '--seed', '1', '--format', 'hist', '-o', file], { stdio: 'inherit' });
    if (g.status !== 0) process.exit(1);
  }
  const mb = statSync(file).size / 1e6;
  const ours: Run[] = [];
  const theirs: Run[] = [];
  const oursParse: number[] = [];
  const theirsParse: number[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(timed([process.execPath, join(ROOT, 'out/cli.js'), 'check', file, '--level', 'RC', '--quiet']));
    theirs.push(timed([process.execPath, base, 'check', file, '--level', 'RC', '--quiet']));
    if (baseSrc) {
      oursParse.push(parseMillis(ROOT, file));
      theirsParse.push(parseMillis(resolve(baseSrc), file));
    }
  }
  const row = (what: string, a: number, b: number, unit: string, digits: number): void => {
    console.log(`  ${what.padEnd(22)} ${a.toFixed(digits).padStart(8)} ${unit} vs ${b.toFixed(digits).padStart(8)} ${unit}   ratio ${(a / b).toFixed(2)}`);
  };
  console.log(`${size} events, ${mb.toFixed(1)} MB (${file})`);
  const rssA = median(ours.map((r) => r.rssMB));
  const rssB = median(theirs.map((r) => r.rssMB));
  row('peak RSS', rssA, rssB, 'MB', 0);
  console.log(`  ${'peak RSS / file size'.padEnd(22)} ${(rssA / mb).toFixed(1).padStart(8)} ×  vs ${(rssB / mb).toFixed(1).padStart(8)} ×`);
  row('check --level RC wall', median(ours.map((r) => r.wall)), median(theirs.map((r) => r.wall)), 's ', 2);
  row('check --level RC cpu', median(ours.map((r) => r.cpu)), median(theirs.map((r) => r.cpu)), 's ', 2);
  if (baseSrc) row('readHist alone', median(oursParse), median(theirsParse), 'ms', 0);
}
