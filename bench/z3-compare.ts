// Benchmark: deciding SER on generated histories with IsoCheck's own search and with z3 (integer difference logic), side by side.
//
// Usage: npm run bench:z3 -- [--sizes 100,300,1000,2000] [--seeds 3] [--z3-timeout 60]
//        [--encoding pruned|plain|both] [--stores serial,snapshot,stale] [--logic QF_IDL|QF_LIA|auto]
// z3-solver is not a dependency of the project: install it for a run with `npm install --no-save z3-solver`.
// Histories: 8 sessions, 4 ops per transaction, 60% reads, uniform keys (50 keys at 100 transactions, 100 at 300,
// 200 beyond), stores `serial` (SER holds), `snapshot` (SER often violated) and `stale` (serial with one read
// turned stale: SER usually violated, though a stale read can still be serializable), seeds 1..N. IsoCheck's
// time is parse + reads-from + checkStrong('SER', 10 s budget); z3's is encoding + solving on the same parsed
// history and the same recovered reads-from, so the end-to-end ratio adds the shared parse and reads-from time
// to z3's side. Encodings (see encodeSer):
// `plain` is the textbook one, `pruned` drops the clauses that so ∪ wr already satisfies. A z3 timeout is
// never a verdict; once z3 times out at one size, larger sizes are not given to it (for that encoding).
// Every z3 model and every order IsoCheck finds is replayed (each read must see the latest write of its key),
// so a disagreement says which side is wrong.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { generateHistory, type GenOptions, type GeneratedHistory, type StoreKind } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import type { History } from '../server/src/engine/model/history.ts';
import { computeReadsFrom, type ReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { checkStrong, DEFAULT_STRONG_BUDGET } from '../server/src/engine/strong/strong-check.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { CheckContext } from '../server/src/engine/weak/level-check.ts';

// ---- The slice of z3-solver's API used here, typed locally: the package is optional, so the
// ---- project's typecheck must not depend on its declarations being installed.

type CheckSat = 'sat' | 'unsat' | 'unknown';
interface Z3Bool { readonly __z3: 'Bool' }
interface Z3Int { lt(other: Z3Int): Z3Bool }
interface Z3IntValue { value(): bigint }
interface Z3Model { eval(e: Z3Int, completion: boolean): Z3IntValue }
interface Z3Solver {
  add(...constraints: Z3Bool[]): void;
  set(key: string, value: number | string | boolean): void;
  check(): Promise<CheckSat>;
  model(): Z3Model;
  reasonUnknown(): string;
  release(): void;
}
interface Z3Context {
  Solver: new (logic?: string) => Z3Solver;
  Int: { const(name: string): Z3Int };
  Or(...args: Z3Bool[]): Z3Bool;
}
interface Z3Api {
  Context: new (name: string) => Z3Context;
  Z3: { get_full_version(): string };
  em: unknown;
}
interface Z3Module {
  init(): Promise<Z3Api>;
  killThreads(em: unknown): Promise<void>;
}

/** z3-solver, or null when it is not installed (a non-literal specifier: tsc must not resolve it). */
async function loadZ3(): Promise<Z3Module | null> {
  const specifier: string = 'z3-solver';
  try {
    return (await import(specifier)) as Z3Module;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || (e as { code?: string }).code === 'MODULE_NOT_FOUND') return null;
    throw e;
  }
}

// ---- Options.

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const SIZES = (option('--sizes') ?? '100,300,1000,2000').split(',').map(Number);
const SEEDS = Number(option('--seeds') ?? '3');
const Z3_TIMEOUT_MS = 1000 * Number(option('--z3-timeout') ?? '60');
const ENCODING = option('--encoding') ?? 'pruned';
/** z3's logic: QF_IDL picks its difference-logic solver; 'auto' lets z3 choose from the formula. */
const LOGIC = option('--logic') ?? 'QF_IDL';
if (!['pruned', 'plain', 'both'].includes(ENCODING)) throw new Error(`--encoding: pruned, plain or both, not ${ENCODING}`);
const ENCODINGS: Encoding[] = ENCODING === 'both' ? ['pruned', 'plain'] : [ENCODING as Encoding];
type Variant = 'serial' | 'snapshot' | 'stale';
const VARIANTS = (option('--stores') ?? 'serial,snapshot,stale').split(',') as Variant[];
for (const v of VARIANTS) if (!['serial', 'snapshot', 'stale'].includes(v)) throw new Error(`--stores: serial, snapshot or stale, not ${v}`);
/** The issue's budget for the comparison: IsoCheck's default states, 10 s. */
const ISOCHECK_BUDGET = { ...DEFAULT_STRONG_BUDGET, millis: 10_000 };

// ---- Histories.

function keysFor(transactions: number): number {
  return transactions <= 100 ? 50 : transactions <= 300 ? 100 : 200;
}

function historyText(transactions: number, variant: Variant, seed: number): string {
  const store: StoreKind = variant === 'snapshot' ? 'snapshot' : 'serial';
  const o: GenOptions = { sessions: 8, transactions, opsPerTxn: 4, keys: keysFor(transactions), distribution: 'uniform', zipfS: 0.8, readRatio: 0.6, store, seed };
  const g = generateHistory(o);
  if (variant === 'stale') injectStaleRead(g, seed);
  return toHistString(g);
}

/** A stale read (as bench/strong-levels.ts): one read returns the previous version of its key (by value order), if any. */
function injectStaleRead(g: GeneratedHistory, seed: number): void {
  const versions = new Map<number, number[]>();
  for (let o = 0; o < g.opCount; o++) {
    if (g.opIsWrite[o] !== 1) continue;
    let v = versions.get(g.opKey[o]);
    if (!v) versions.set(g.opKey[o], (v = []));
    v.push(g.opValue[o]);
  }
  for (const v of versions.values()) v.sort((a, b) => a - b);
  // A deterministic walk over the ops from a seed-dependent start, so each seed picks another read.
  for (let i = 0; i < g.opCount; i++) {
    const o = (seed * 7919 + i * 104729) % g.opCount;
    if (g.opIsWrite[o] === 1 || g.opValue[o] === 0) continue;
    const v = versions.get(g.opKey[o]);
    const at = v ? v.indexOf(g.opValue[o]) : -1;
    if (!v || at <= 0) continue;
    g.opValue[o] = v[at - 1];
    return;
  }
}

// ---- IsoCheck.

type Verdict = 'consistent' | 'violated' | 'undecided';
interface Prepared { h: History; rf: ReadsFrom; ctx: CheckContext; prepMs: number }

function prepare(text: string): Prepared {
  const t0 = performance.now();
  const p = parseHist(text);
  const rf = computeReadsFrom(p.history);
  const ctx = new CheckContext(p.history, rf);
  return { h: p.history, rf, ctx, prepMs: performance.now() - t0 };
}

interface OwnRun { verdict: Verdict; note: string; ms: number; cpuMs: number; prepMs: number; order: Int32Array | null; prep: Prepared }

/** CPU milliseconds of the whole process (every thread: z3's workers, the GC) since `from`. */
function cpuSince(from: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
}

function runIsoCheck(text: string): OwnRun {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const prep = prepare(text);
  const { rf, ctx } = prep;
  let verdict: Verdict;
  let note = '';
  let order: Int32Array | null = null;
  if (rf.violations > 0) {
    verdict = 'violated';
    note = 'read consistency';
  } else if (!ctx.causal) {
    verdict = 'violated';
    note = 'causality';
  } else {
    const r = checkStrong(ctx, () => 'SER', ISOCHECK_BUDGET);
    verdict = r.kind === 'unknown' ? 'undecided' : r.kind;
    if (r.kind === 'consistent') order = r.order;
    if (r.kind === 'unknown') note = r.reason;
  }
  return { verdict, note, ms: performance.now() - t0, cpuMs: cpuSince(c0), prepMs: prep.prepMs, order, prep };
}

// ---- The SER encoding.

type Encoding = 'plain' | 'pruned';

/** A strict order constraint pos[a] < pos[b], or a clause of two of them. */
interface Constraints { units: Int32Array; unitCount: number; pairs: Int32Array; pairCount: number }

/**
 * SER as difference logic over one integer position per committed transaction (⊥ = txn 0 sits below
 * all, so it needs no variable: a read of ⊥'s value just has to precede every committed writer of the key):
 *   so and wr edges: pos[a] < pos[b];
 *   read in r of x from w, other committed writer w' of x (w' ∉ {w, r}): pos[w'] < pos[w] ∨ pos[r] < pos[w'].
 * `pruned` also computes so ∪ wr reachability (vector clocks: 8 sessions make them cheap) and drops a
 * clause when a disjunct already holds there (w' reaches w, or r reaches w'), and keeps only the other
 * disjunct when one is already impossible — the constraints Cobra/PolySI prune before their solver.
 */
function encodeSer(h: History, rf: ReadsFrom, soPrev: Int32Array, encoding: Encoding): Constraints {
  const n = h.txnCount;
  const committed = (t: number): boolean => t > 0 && h.txnAborted[t] === 0;
  // Committed writers of each key.
  const writersStart = new Int32Array(h.keyCount + 1);
  for (let t = 1; t < n; t++) if (committed(t)) for (let i = rf.writeKeyStart[t]; i < rf.writeKeyStart[t + 1]; i++) writersStart[rf.writeKeys[i] + 1]++;
  for (let x = 0; x < h.keyCount; x++) writersStart[x + 1] += writersStart[x];
  const writers = new Int32Array(writersStart[h.keyCount]);
  const fill = writersStart.slice(0, h.keyCount);
  for (let t = 1; t < n; t++) if (committed(t)) for (let i = rf.writeKeyStart[t]; i < rf.writeKeyStart[t + 1]; i++) writers[fill[rf.writeKeys[i]]++] = t;

  const reach = encoding === 'pruned' ? reachability(h, rf, soPrev) : null;
  const before = (a: number, b: number): boolean => reach !== null && reach(a, b);

  let units: Int32Array = new Int32Array(1024);
  let unitCount = 0;
  let pairs: Int32Array = new Int32Array(4096);
  let pairCount = 0;
  const unit = (a: number, b: number): void => {
    if (2 * unitCount + 2 > units.length) units = grow(units);
    units[2 * unitCount] = a;
    units[2 * unitCount + 1] = b;
    unitCount++;
  };
  const pair = (a: number, b: number, c: number, d: number): void => {
    if (4 * pairCount + 4 > pairs.length) pairs = grow(pairs);
    pairs.set([a, b, c, d], 4 * pairCount);
    pairCount++;
  };
  for (let t = 1; t < n; t++) if (committed(t) && soPrev[t] > 0) unit(soPrev[t], t);

  // One (reader, key, writer) triple once: a transaction reading a key twice from one writer adds nothing.
  const seen = new Set<number>();
  for (let r = 1; r < n; r++) {
    if (!committed(r)) continue;
    seen.clear();
    for (let o = h.txnOpStart[r]; o < h.txnOpStart[r + 1]; o++) {
      const w = rf.wrSource[o];
      if (w < 0) continue; // not a usable external read (internal, ambiguous or inconsistent)
      const x = h.opKey[o];
      const id = x * n + w;
      if (seen.has(id)) continue;
      seen.add(id);
      if (w > 0) unit(w, r); // always: the reachability that prunes below is built from these edges
      for (let i = writersStart[x]; i < writersStart[x + 1]; i++) {
        const w2 = writers[i];
        if (w2 === w || w2 === r) continue;
        if (w === 0) {
          if (!before(r, w2)) unit(r, w2);
          continue;
        }
        if (before(w2, w) || before(r, w2)) continue; // already satisfied by so ∪ wr
        const firstImpossible = before(w, w2);
        const secondImpossible = before(w2, r);
        if (firstImpossible && secondImpossible) {
          unit(w, w2); // both impossible: a contradiction, kept as a cycle for the solver to find
          unit(w2, w);
        } else if (firstImpossible) unit(r, w2);
        else if (secondImpossible) unit(w2, w);
        else pair(w2, w, r, w2);
      }
    }
  }
  return { units, unitCount, pairs, pairCount };
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}

/**
 * reach(a, b): a ≠ b and a precedes b in (so ∪ wr)+, from vector clocks over a topological order;
 * null-like (never) when so ∪ wr has a cycle — the solver finds that one itself.
 */
function reachability(h: History, rf: ReadsFrom, soPrev: Int32Array): ((a: number, b: number) => boolean) | null {
  const n = h.txnCount;
  const S = Math.max(1, h.sessionCount);
  // Predecessors in so ∪ wr (committed, ⊥ left out: it precedes everything anyway).
  const out: number[][] = Array.from({ length: n }, () => []);
  const indeg = new Int32Array(n);
  const edge = (a: number, b: number): void => {
    out[a].push(b);
    indeg[b]++;
  };
  for (let t = 1; t < n; t++) {
    if (h.txnAborted[t] === 1) continue;
    if (soPrev[t] > 0) edge(soPrev[t], t);
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) if (rf.wrSource[o] > 0 && rf.wrSource[o] !== t) edge(rf.wrSource[o], t);
  }
  const clock = new Int32Array(n * S);
  const queue: number[] = [];
  let live = 0;
  for (let t = 1; t < n; t++) {
    if (h.txnAborted[t] === 1) continue;
    live++;
    if (indeg[t] === 0) queue.push(t);
  }
  let done = 0;
  while (queue.length > 0) {
    const t = queue.pop()!;
    done++;
    const s = h.txnSession[t];
    clock[t * S + s] = Math.max(clock[t * S + s], h.txnIndexInSession[t] + 1);
    for (const u of out[t]) {
      for (let k = 0; k < S; k++) if (clock[t * S + k] > clock[u * S + k]) clock[u * S + k] = clock[t * S + k];
      if (--indeg[u] === 0) queue.push(u);
    }
  }
  if (done < live) return () => false;
  return (a, b) => a !== b && h.txnIndexInSession[a] + 1 <= clock[b * S + h.txnSession[a]];
}

// ---- z3.

interface Z3Run { verdict: Verdict | 'timeout'; reason: string; encodeMs: number; solveMs: number; cpuMs: number; constraints: number; order: Int32Array | null }

/**
 * Collects garbage and lets the finalizers run, outside the timed parts. z3-solver frees each AST
 * from a FinalizationRegistry callback (Z3_dec_ref on its context) on the main thread, while
 * `check()` runs on a worker thread: a callback for a context that is being solved corrupts it (we
 * saw spurious 'unknown's, then a 2 GB WebAssembly heap abort). Hence a fresh Context per solve (a
 * late callback then touches only an old one) and this, so the old ones do not pile up in the heap.
 */
const collect = ((): (() => void) => {
  setFlagsFromString('--expose-gc');
  // Forced collections would otherwise age out the compiled code of both sides (bytecode flushing).
  setFlagsFromString('--no-flush-bytecode');
  return runInNewContext('gc') as () => void;
})();
async function settle(): Promise<void> {
  collect();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

let contexts = 0;

async function runZ3(api: Z3Api, prep: Prepared, encoding: Encoding, timeoutMs: number): Promise<Z3Run> {
  const { h, rf, ctx } = prep;
  await settle();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const z3 = new api.Context(`h${++contexts}`);
  const c = encodeSer(h, rf, ctx.soPrev, encoding);
  const solver = LOGIC === 'auto' ? new z3.Solver() : new z3.Solver(LOGIC);
  const pos: Z3Int[] = [];
  for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0) pos[t] = z3.Int.const(`p${t}`);
  // One Bool per distinct atom: each API call crosses into WebAssembly and allocates a wrapper.
  const atoms = new Map<number, Z3Bool>();
  const lt = (a: number, b: number): Z3Bool => {
    const id = a * h.txnCount + b;
    let e = atoms.get(id);
    if (!e) atoms.set(id, (e = pos[a].lt(pos[b])));
    return e;
  };
  const batch: Z3Bool[] = [];
  const flush = (): void => {
    solver.add(...batch);
    batch.length = 0;
  };
  for (let i = 0; i < c.unitCount; i++) {
    batch.push(lt(c.units[2 * i], c.units[2 * i + 1]));
    if (batch.length === 1000) flush();
  }
  for (let i = 0; i < c.pairCount; i++) {
    const p = c.pairs;
    batch.push(z3.Or(lt(p[4 * i], p[4 * i + 1]), lt(p[4 * i + 2], p[4 * i + 3])));
    if (batch.length === 1000) flush();
  }
  flush();
  const encodeMs = performance.now() - t0;
  const remaining = Math.max(1, Math.floor(timeoutMs - encodeMs));
  solver.set('timeout', remaining);
  const t1 = performance.now();
  const r = await solver.check();
  const reason = r === 'unknown' ? solver.reasonUnknown() : '';
  const solveMs = performance.now() - t1;
  const cpuMs = cpuSince(c0);
  let order: Int32Array | null = null;
  if (r === 'sat') {
    // The model's positions, sorted: a commit order to replay (outside the timed part).
    const m = solver.model();
    const at: [number, number][] = [];
    for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0) at.push([t, Number(m.eval(pos[t], true).value())]);
    at.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    order = Int32Array.from(at, ([t]) => t);
  }
  solver.release();
  const timedOut = reason === 'timeout' || reason === 'canceled' || encodeMs + solveMs >= timeoutMs - 50;
  const verdict = r === 'sat' ? 'consistent' : r === 'unsat' ? 'violated' : timedOut ? 'timeout' : 'undecided';
  return { verdict, reason, encodeMs, solveMs, cpuMs, constraints: c.unitCount + c.pairCount, order };
}

/**
 * An independent check of one commit order against SER: session order respected, and every usable
 * external read sees the latest write of its key before its transaction (⊥'s when none). Returns
 * null when the order works, else what fails.
 */
function replaySer(h: History, rf: ReadsFrom, soPrev: Int32Array, order: Int32Array): string | null {
  const pos = new Int32Array(h.txnCount).fill(-1);
  order.forEach((t, i) => (pos[t] = i));
  for (let t = 1; t < h.txnCount; t++) {
    if (h.txnAborted[t] === 1) continue;
    if (pos[t] < 0) return `T${t} missing from the order`;
    if (soPrev[t] > 0 && pos[soPrev[t]] > pos[t]) return `session order T${soPrev[t]} → T${t} broken`;
  }
  const last = new Int32Array(h.keyCount); // 0 = ⊥
  for (const t of order) {
    for (let o = h.txnOpStart[t]; o < h.txnOpStart[t + 1]; o++) {
      if (rf.wrSource[o] >= 0 && last[h.opKey[o]] !== rf.wrSource[o]) return `T${t}'s read of key ${h.opKey[o]} sees T${last[h.opKey[o]]}, not T${rf.wrSource[o]}`;
    }
    for (let i = rf.writeKeyStart[t]; i < rf.writeKeyStart[t + 1]; i++) last[rf.writeKeys[i]] = t;
  }
  return null;
}

// ---- The run.

interface Row {
  size: number; variant: Variant; seed: number; committed: number;
  own: OwnRun;
  z3: Map<Encoding, Z3Run | null>;
}

const fmt = (ms: number): string => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const pad = (s: string, n: number): string => s.padEnd(n);
const lpad = (s: string, n: number): string => s.padStart(n);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function agreement(own: Verdict, z3: Z3Run | null): string {
  if (!z3) return 'skipped';
  if (own === 'undecided' || z3.verdict === 'timeout' || z3.verdict === 'undecided') return '-';
  return own === z3.verdict ? 'yes' : 'NO';
}

async function main(): Promise<void> {
  const mod = await loadZ3();
  if (!mod) {
    console.log('z3-solver is not installed: npm install --no-save z3-solver');
    return;
  }
  let t0 = performance.now();
  const api = await mod.init();
  const initMs = performance.now() - t0;
  console.log(`z3 ${api.Z3.get_full_version()} (WebAssembly), loaded in ${fmt(initMs)}; encoding${ENCODINGS.length > 1 ? 's' : ''} ${ENCODINGS.join(', ')}; logic ${LOGIC}; z3 timeout ${Z3_TIMEOUT_MS / 1000} s; IsoCheck budget ${ISOCHECK_BUDGET.millis / 1000} s, ${ISOCHECK_BUDGET.states} states`);
  // Warm-up of both sides (JIT, the solver's worker thread), not measured.
  t0 = performance.now();
  for (const v of VARIANTS) {
    const text = historyText(100, v, 99);
    const own = runIsoCheck(text);
    for (const e of ENCODINGS) await runZ3(api, own.prep, e, Z3_TIMEOUT_MS);
  }
  console.log(`warm-up ${fmt(performance.now() - t0)}\n`);

  const z3Cols = ENCODINGS.map((e) => `z3 ${e}: verdict, encode + solve = total (constraints), agree`).join(' | ');
  console.log(`size  store     seed  txns | IsoCheck: verdict, total (of which parse + reads-from) | ${z3Cols}`);
  const rows: Row[] = [];
  const problems: string[] = [];
  const z3Stopped = new Map<Encoding, number>(); // encoding → the size at which z3 timed out
  for (const size of SIZES) {
    for (const variant of VARIANTS) {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const text = historyText(size, variant, seed);
        await settle(); // the previous solves' garbage is not IsoCheck's to collect
        const own = runIsoCheck(text);
        const { h, rf, ctx } = own.prep;
        let committed = 0;
        for (let t = 1; t < h.txnCount; t++) if (h.txnAborted[t] === 0) committed++;
        const where = `size ${size}, store ${variant}, seed ${seed}`;
        if (own.order) {
          const bad = replaySer(h, rf, ctx.soPrev, own.order);
          if (bad) problems.push(`${where}: IsoCheck's order does not replay: ${bad}`);
        }
        const runs = new Map<Encoding, Z3Run | null>();
        for (const e of ENCODINGS) {
          const stoppedAt = z3Stopped.get(e);
          if (stoppedAt !== undefined && size > stoppedAt) {
            runs.set(e, null);
            continue;
          }
          const r = await runZ3(api, own.prep, e, Z3_TIMEOUT_MS);
          runs.set(e, r);
          if (r.verdict === 'timeout' && stoppedAt === undefined) z3Stopped.set(e, size);
          if (r.order) {
            const bad = replaySer(h, rf, ctx.soPrev, r.order);
            if (bad) problems.push(`${where}: z3's (${e}) model does not replay: ${bad}`);
          }
          if (agreement(own.verdict, r) === 'NO') problems.push(`${where}: IsoCheck says ${own.verdict}, z3 (${e}) says ${r.verdict}`);
        }
        rows.push({ size, variant, seed, committed, own, z3: runs });
        const ownCol = `${own.verdict}${own.note ? ` (${own.note})` : ''}, ${fmt(own.ms)} (${fmt(own.prepMs)})`;
        const z3Col = ENCODINGS.map((e) => {
          const r = runs.get(e);
          if (!r) return `skipped (timed out at ${z3Stopped.get(e)})`;
          return `${r.verdict}${r.verdict === 'undecided' ? ` (${r.reason})` : ''}, ${fmt(r.encodeMs)} + ${fmt(r.solveMs)} = ${fmt(r.encodeMs + r.solveMs)} (${r.constraints}), ${agreement(own.verdict, r)}`;
        }).join(' | ');
        console.log(`${lpad(String(size), 4)}  ${pad(variant, 8)}  ${lpad(String(seed), 4)}  ${lpad(String(committed), 4)} | ${ownCol} | ${z3Col}`);
      }
    }
  }

  // Medians: per size and store, then per size over all stores. z3 timeouts count as +∞ (a median
  // that lands on one is shown as "> timeout"); the ratio is end to end, the shared parse and
  // reads-from added to z3's side, and above 1 means z3 is slower.
  console.log('\nmedians (per size and store, then per size); ratio = median over histories of (parse + reads-from + z3 encode + solve) / IsoCheck');
  console.log('(>1: z3 slower; wall time, then CPU time of all threads: on a shared machine the steadier figure)');
  const head = ENCODINGS.map((e) => `z3 ${e}: encode + solve = total, ratio; CPU, ratio`).join(' | ');
  console.log(`size  store     | IsoCheck total (parse + rf), CPU | ${head}`);
  for (const size of SIZES) {
    for (const variant of [...VARIANTS, 'all' as const]) {
      const sel = rows.filter((r) => r.size === size && (variant === 'all' || r.variant === variant));
      if (sel.length === 0) continue;
      const ownMs = median(sel.map((r) => r.own.ms));
      const ownCpu = median(sel.map((r) => r.own.cpuMs));
      const prepMs = median(sel.map((r) => r.own.prepMs));
      const cols = ENCODINGS.map((e) => {
        const runs = sel.map((r) => ({ z: r.z3.get(e) ?? null, prep: r.own.prepMs, own: r.own }));
        if (runs.every((x) => x.z === null)) return 'skipped';
        const ran = runs.filter((x) => x.z !== null) as { z: Z3Run; prep: number; own: OwnRun }[];
        const timedOut = (z: Z3Run): boolean => z.verdict === 'timeout';
        const total = median(ran.map((x) => (timedOut(x.z) ? Infinity : x.z.encodeMs + x.z.solveMs)));
        const enc = median(ran.map((x) => x.z.encodeMs));
        const solve = median(ran.map((x) => (timedOut(x.z) ? Infinity : x.z.solveMs)));
        const ratio = median(ran.map((x) => (timedOut(x.z) ? Infinity : (x.prep + x.z.encodeMs + x.z.solveMs) / x.own.ms)));
        const cpu = median(ran.map((x) => (timedOut(x.z) ? Infinity : x.z.cpuMs)));
        const cpuRatio = median(ran.map((x) => (timedOut(x.z) ? Infinity : (x.prep + x.z.cpuMs) / x.own.cpuMs)));
        const times = (q: number): string => (Number.isFinite(q) ? q.toFixed(1) + '×' : '∞');
        const partial = ran.length < runs.length ? ` [${ran.length}/${runs.length} run]` : '';
        const show = (ms: number): string => (Number.isFinite(ms) ? fmt(ms) : `> ${Z3_TIMEOUT_MS / 1000} s`);
        return `${show(enc)} + ${show(solve)} = ${show(total)}, ${times(ratio)}; ${show(cpu)}, ${times(cpuRatio)}${partial}`;
      }).join(' | ');
      console.log(`${lpad(String(size), 4)}  ${pad(variant, 8)}  | ${fmt(ownMs)} (${fmt(prepMs)}), ${fmt(ownCpu)} | ${cols}`);
    }
  }
  const undecided = rows.filter((r) => r.own.verdict === 'undecided');
  if (undecided.length > 0) console.log(`\nIsoCheck undecided on ${undecided.length}: ${undecided.map((r) => `${r.size}/${r.variant}/${r.seed} (${r.own.note})`).join('; ')}`);
  console.log(problems.length === 0 ? '\nno disagreement; every order found (IsoCheck\'s and z3\'s models) replays' : `\nPROBLEMS:\n  ${problems.join('\n  ')}`);
  await mod.killThreads(api.em);
}

// Not a top-level await: tsx runs this project's .ts files as CommonJS.
main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
