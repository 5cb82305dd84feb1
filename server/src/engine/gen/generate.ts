// Random transactional histories from a simulated multi-version store, for tests, `isocheck gen` and benchmarks.
//
// Pure TypeScript (ES2022, no platform imports): the same generator runs in the CLI, the
// language server and the browser. Histories of millions of operations are built in
// columnar typed arrays with integer ids, so there is no per-operation object anywhere.

/**
 * The simulated store. Sessions are interleaved at random; a transaction reads back its own last
 * write of a key; written values are unique. "Commit order" is the sequence of committed
 * transactions, and a snapshot is a prefix of it.
 * - serial: transactions run one at a time and read the latest values (serializable).
 * - snapshot: up to 8 transactions overlap; each reads the snapshot taken at its start;
 *   first-committer-wins, and a loser is dropped from the history (SI).
 * - causal: each transaction reads one random snapshot, no older than its session's last commit
 *   or last snapshot (CC, in fact prefix consistency; not SI: lost updates happen).
 * - read-committed: each read takes its own random snapshot, monotone within the transaction,
 *   starting from a recent one (see READ_COMMITTED_LAG_PER_SESSION); RC holds, RA and CC usually not.
 * - permissive: each read returns a random committed version of its key or the initial value,
 *   and, with aborts, sometimes an aborted write; never a value nobody wrote.
 */
export type StoreKind = 'serial' | 'snapshot' | 'causal' | 'read-committed' | 'permissive';

export const STORE_KINDS: readonly StoreKind[] = ['serial', 'snapshot', 'causal', 'read-committed', 'permissive'];

export interface GenOptions {
  /** Number of sessions (clients). */
  sessions: number;
  /** Total transactions across all sessions (the snapshot store may emit fewer, see below). */
  transactions: number;
  /** Mean operations per transaction; sizes are uniform in 1..round(2*mean-1). */
  opsPerTxn: number;
  keys: number;
  distribution: 'uniform' | 'zipf';
  /** Zipf exponent (key 0 is the hottest); ignored for uniform keys. */
  zipfS: number;
  /** Probability that an operation is a read, 0..1. */
  readRatio: number;
  store: StoreKind;
  seed: number;
  /** Probability that a transaction aborts on its own, 0..1 (default 0). */
  abortRatio?: number;
}

/** A history in columns. Transaction t's operations are [txnOpStart[t], txnOpStart[t+1]). */
export interface GeneratedHistory {
  sessionCount: number;
  txnCount: number;
  opCount: number;
  keyCount: number;
  /** Session of each transaction; each session's transactions appear in session order. */
  txnSession: Int32Array;
  txnOpStart: Int32Array;
  txnAborted: Uint8Array;
  /** 1 write, 0 read. */
  opIsWrite: Uint8Array;
  opKey: Int32Array;
  /** Value written or read; 0 is the initial value; written values are globally unique and positive. */
  opValue: Int32Array;
}

/** The shape of the AWDIT benchmark histories (performance-anchors.md), causal store. */
export const DEFAULT_GEN_OPTIONS: Readonly<GenOptions> = {
  sessions: 64,
  transactions: 1250,
  opsPerTxn: 8,
  keys: 500,
  distribution: 'uniform',
  zipfS: 0.8,
  readRatio: 0.6,
  store: 'causal',
  seed: 1,
  abortRatio: 0,
};

/**
 * Read committed: a transaction's first read sees a prefix no older than this many commits per
 * session. There is deliberately no floor at the session's own last commit: with one, uniform
 * histories of 100k+ operations almost never violate RA or CC (measured), and the point of this
 * store is histories where RC holds and RA and CC usually do not.
 */
export const READ_COMMITTED_LAG_PER_SESSION = 2;
/** Most transactions a snapshot-store run keeps open at once (first-committer-wins needs overlap). */
const SNAPSHOT_WINDOW = 8;
/** In the permissive store with aborts, the chance a read returns its key's latest aborted write. */
const ABORTED_READ_CHANCE = 0.02;
/** Most sessions or keys a history may have (per-session and per-key tables are preallocated). */
const MAX_TABLE = 1 << 24;
/**
 * Most operations (worst case: transactions × (2 × opsPerTxn − 1)). The columns take ~10 bytes an
 * operation and the text ~25: at 2^31 (the old bound, the Int32Array index limit) `--ops 30000000
 * --txns 1` ran out of heap and `--ops 1e9` ran for hours. 10^8 is ~1 GB of columns and at most
 * ~2.5 GB of text, a mean of 5 × 10^7 operations (plume's 2 GB reading limit holds about 9 × 10^7).
 */
const MAX_OPS = 100_000_000;

// ---------------------------------------------------------------------------------------------
// Options

/** Options for a history of about `events` operations: fills in defaults, then picks `transactions`. */
export function optionsForEvents(events: number, partial: Partial<GenOptions>): GenOptions {
  const base: GenOptions = { ...DEFAULT_GEN_OPTIONS, ...partial };
  const target = Math.max(1, Math.round(events));
  const transactions = Math.max(1, Math.round(target / meanTxnSize(base.opsPerTxn)));
  // One key per 20 operations, as in the AWDIT benchmarks, unless the caller chose.
  const keys = partial.keys ?? Math.max(1, Math.round(target / 20));
  return { ...base, transactions, keys };
}

/** Problems with `o`, one message each; empty when generateHistory accepts it. */
export function validateGenOptions(o: GenOptions): string[] {
  const problems: string[] = [];
  const intAtLeast = (name: string, v: number, min: number): void => {
    if (!Number.isInteger(v) || v < min) problems.push(`${name} must be an integer >= ${min} (got ${v})`);
  };
  const ratio = (name: string, v: number): void => {
    if (!(v >= 0 && v <= 1)) problems.push(`${name} must be between 0 and 1 (got ${v})`);
  };
  intAtLeast('sessions', o.sessions, 1);
  intAtLeast('transactions', o.transactions, 0);
  intAtLeast('keys', o.keys, 1);
  // Per-session and per-key tables are allocated up front: keep them to a sane size.
  if (o.sessions > MAX_TABLE) problems.push(`sessions must be at most ${MAX_TABLE} (got ${o.sessions})`);
  if (o.keys > MAX_TABLE) problems.push(`keys must be at most ${MAX_TABLE} (got ${o.keys})`);
  if (!(Number.isFinite(o.opsPerTxn) && o.opsPerTxn >= 1)) problems.push(`opsPerTxn must be a number >= 1 (got ${o.opsPerTxn})`);
  ratio('readRatio', o.readRatio);
  ratio('abortRatio', o.abortRatio ?? 0);
  if (o.distribution !== 'uniform' && o.distribution !== 'zipf') problems.push(`distribution must be uniform or zipf (got ${String(o.distribution)})`);
  if (o.distribution === 'zipf' && !(Number.isFinite(o.zipfS) && o.zipfS >= 0)) problems.push(`zipfS must be a number >= 0 (got ${o.zipfS})`);
  if (!STORE_KINDS.includes(o.store)) problems.push(`store must be one of ${STORE_KINDS.join(', ')} (got ${String(o.store)})`);
  if (!Number.isFinite(o.seed)) problems.push(`seed must be a finite number (got ${o.seed})`);
  if (problems.length === 0 && o.transactions * maxTxnSize(o.opsPerTxn) > MAX_OPS) {
    problems.push(`transactions × (2 × ops − 1), the most operations it may make, is at most ${MAX_OPS.toLocaleString('en-US')} (got ${(o.transactions * maxTxnSize(o.opsPerTxn)).toLocaleString('en-US')})`);
  }
  return problems;
}

function maxTxnSize(opsPerTxn: number): number {
  return Math.max(1, Math.round(2 * opsPerTxn - 1));
}

function meanTxnSize(opsPerTxn: number): number {
  return (1 + maxTxnSize(opsPerTxn)) / 2;
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** xoshiro128** in 32-bit integer arithmetic: fast, and the same seed gives the same stream everywhere. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // splitmix32 spreads any seed (including 0, negatives, fractions, > 2^32) over the 128-bit state.
    let s = (Math.floor(seed) >>> 0) ^ Math.imul(Math.floor(seed / 4294967296) >>> 0, 0x9e3779b1);
    const next = (): number => {
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) | 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1; // the all-zero state is a fixed point
  }

  /** A uniform 32-bit unsigned integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [0, n), n <= 2^32. */
  below(n: number): number {
    return Math.floor(this.float() * n);
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * Draws keys: uniform, or Zipf by binary search in a precomputed CDF. A guide table (for each of
 * `keyCount` equal slices of [0, 1), the first key whose CDF passes the slice's start) narrows
 * each search to a few keys, which halves the cost of skewed workloads.
 */
class KeySampler {
  private readonly cdf: Float64Array;
  private readonly guide: Int32Array;

  constructor(
    private readonly keyCount: number,
    distribution: GenOptions['distribution'],
    s: number,
  ) {
    const zipf = distribution === 'zipf';
    this.cdf = zipf ? zipfCdf(keyCount, s) : new Float64Array(0);
    this.guide = zipf ? guideTable(this.cdf) : new Int32Array(0);
  }

  next(rng: Rng): number {
    const cdf = this.cdf;
    if (cdf.length === 0) return rng.below(this.keyCount);
    const u = rng.float();
    const slice = Math.floor(u * this.keyCount);
    // The answer (the first key with cdf > u) lies between the guides of this slice and the next.
    let lo = this.guide[slice];
    let hi = this.guide[slice + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

function zipfCdf(n: number, s: number): Float64Array {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += Math.pow(i + 1, -s);
    cdf[i] = sum;
  }
  for (let i = 0; i < n; i++) cdf[i] /= sum;
  cdf[n - 1] = 1; // rounding must not leave a gap above the last key
  return cdf;
}

/** guide[b] = the first key with cdf > b / n, for b in 0..n (guide[n] = n - 1). */
function guideTable(cdf: Float64Array): Int32Array {
  const n = cdf.length;
  const guide = new Int32Array(n + 1);
  let key = 0;
  for (let b = 0; b <= n; b++) {
    while (key < n - 1 && cdf[key] <= b / n) key++;
    guide[b] = key;
  }
  return guide;
}

/** A set of small integers with O(1) add, remove and uniform pick (the sessions that may run). */
class IntSet {
  private readonly items: Int32Array;
  private readonly where: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.items = new Int32Array(capacity);
    this.where = new Int32Array(capacity).fill(-1);
  }

  add(x: number): void {
    if (this.where[x] >= 0) return;
    this.where[x] = this.size;
    this.items[this.size++] = x;
  }

  remove(x: number): void {
    const i = this.where[x];
    if (i < 0) return;
    const last = this.items[--this.size];
    this.items[i] = last;
    this.where[last] = i;
    this.where[x] = -1;
  }

  pick(rng: Rng): number {
    return this.items[rng.below(this.size)];
  }
}

// ---------------------------------------------------------------------------------------------
// The multi-version store

/**
 * Committed versions per key. Each key's versions sit in commit order in one chunk of a shared
 * pool of (value, commit position) pairs, and chunks double when full, so "the latest version
 * before commit position p" is a binary search. Fields that
 * are read together sit side by side, because at millions of reads cache misses dominate.
 */
class VersionStore {
  /** Per key, HEAD_STRIDE ints: newest value (0 = initial), its commit position (-1), chunk start, length. */
  private readonly head: Int32Array;
  /** (value, position) pairs; chunk offsets count pairs. */
  private pool: Int32Array;
  private top = 0;
  /** Per size class (log2 of the capacity), the first free chunk; a free chunk's first int links the next. */
  private readonly freeHead = new Int32Array(32).fill(-1);

  constructor(
    keyCount: number,
    private readonly keepHistory: boolean,
  ) {
    this.head = new Int32Array(keyCount * HEAD_STRIDE);
    for (let k = 0; k < keyCount; k++) this.head[k * HEAD_STRIDE + 1] = -1;
    this.pool = new Int32Array(keepHistory ? 2 * MIN_POOL_PAIRS : 0);
  }

  install(key: number, value: number, position: number): void {
    const h = key * HEAD_STRIDE;
    this.head[h] = value;
    this.head[h + 1] = position;
    if (!this.keepHistory) return;
    const len = this.head[h + 3];
    if (len === 0 || isChunkFull(len)) this.growChunk(key, len);
    const at = 2 * (this.head[h + 2] + len);
    this.pool[at] = value;
    this.pool[at + 1] = position;
    this.head[h + 3] = len + 1;
  }

  latest(key: number): number {
    return this.head[key * HEAD_STRIDE];
  }

  /** Commit position of the newest version of `key`, or -1 when it was never written. */
  lastPosition(key: number): number {
    return this.head[key * HEAD_STRIDE + 1];
  }

  count(key: number): number {
    return this.head[key * HEAD_STRIDE + 3];
  }

  /** The i-th committed value of `key`, oldest first. */
  at(key: number, i: number): number {
    return this.pool[2 * (this.head[key * HEAD_STRIDE + 2] + i)];
  }

  /** The value of `key` in the snapshot made of commit positions [0, p). */
  latestBefore(key: number, p: number): number {
    const h = key * HEAD_STRIDE;
    if (this.head[h + 1] < p) return this.head[h]; // the usual case: no newer write
    const base = this.head[h + 2];
    const pool = this.pool;
    // Snapshots are usually recent: try a few more versions before bisecting.
    let i = this.head[h + 3] - 2;
    for (let probes = 0; probes < 3 && i >= 0; probes++, i--) {
      if (pool[2 * (base + i) + 1] < p) return pool[2 * (base + i)];
    }
    let lo = 0;
    let hi = i;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (pool[2 * (base + mid) + 1] < p) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found < 0 ? 0 : pool[2 * (base + found)];
  }

  /** Moves a full chunk (or none) to one twice as large; the old chunk is kept for reuse. */
  private growChunk(key: number, len: number): void {
    const h = key * HEAD_STRIDE;
    const at = this.allocate(len === 0 ? 2 : 2 * len);
    if (len > 0) {
      const from = this.head[h + 2];
      const pool = this.pool;
      // A plain loop: most chunks are a few pairs, too small for copyWithin's call overhead.
      for (let j = 0; j < 2 * len; j++) pool[2 * at + j] = pool[2 * from + j];
      this.release(from, len);
    }
    this.head[h + 2] = at;
  }

  /**
   * A chunk of `cap` pairs (a power of two). Chunks left behind by growth go to a free list per
   * size and are handed to the next key that grows to that size, so the pool never needs a
   * compaction pass (which at millions of versions cost more than all the reads).
   */
  private allocate(cap: number): number {
    const size = sizeClass(cap);
    const free = this.freeHead[size];
    if (free >= 0) {
      this.freeHead[size] = this.pool[2 * free];
      return free;
    }
    if (2 * (this.top + cap) > this.pool.length) {
      const bigger = new Int32Array(Math.max(2 * this.pool.length, 2 * (this.top + cap)));
      bigger.set(this.pool);
      this.pool = bigger;
    }
    const at = this.top;
    this.top += cap;
    return at;
  }

  private release(at: number, cap: number): void {
    const size = sizeClass(cap);
    this.pool[2 * at] = this.freeHead[size];
    this.freeHead[size] = at;
  }
}

const HEAD_STRIDE = 4;
const MIN_POOL_PAIRS = 1 << 13;

/** Chunks hold 2, 4, 8, … versions, so a chunk is full exactly when its length is such a power. */
function isChunkFull(len: number): boolean {
  return len >= 2 && (len & (len - 1)) === 0;
}

/** log2 of a power of two. */
function sizeClass(cap: number): number {
  return 31 - Math.clz32(cap);
}

// ---------------------------------------------------------------------------------------------
// The generator

/** Per-transaction parameters fixed when it starts. */
interface TxnPlan {
  session: number;
  size: number;
  aborted: boolean;
  /** The snapshot (a commit-order prefix length) its reads see; per-read stores ignore it. */
  snapshot: number;
}

/**
 * Generates a random history. Same options, same history. Throws a RangeError when
 * validateGenOptions reports a problem.
 *
 * The snapshot store drops transactions that lose first-committer-wins (they are not emitted
 * at all), so it may return fewer than `transactions`; aborted transactions in the result are
 * only those chosen by `abortRatio`.
 */
export function generateHistory(o: GenOptions): GeneratedHistory {
  const problems = validateGenOptions(o);
  if (problems.length > 0) throw new RangeError(`invalid generator options: ${problems.join('; ')}`);
  return new Generator(o).run();
}

class Generator {
  private readonly rng: Rng;
  private readonly keys: KeySampler;
  private readonly versions: VersionStore;
  private readonly store: StoreKind;
  private readonly readRatio: number;
  private readonly abortRatio: number;

  /** Size of each transaction, by start order, drawn up front so the op arrays are allocated exactly. */
  private readonly sizes: Int32Array;
  private nextSlot = 0;
  /** Transactions each session still has to run. */
  private readonly remaining: Int32Array;
  /** Causal store: the oldest snapshot a session may read next (after its last commit and its last snapshot). */
  private readonly sessionFloor: Int32Array;

  // Output columns, trimmed at the end when the snapshot store dropped transactions.
  private readonly txnSession: Int32Array;
  private readonly txnOpStart: Int32Array;
  private readonly txnAborted: Uint8Array;
  private readonly opIsWrite: Uint8Array;
  private readonly opKey: Int32Array;
  private readonly opValue: Int32Array;
  private txnCount = 0;
  private opCount = 0;
  private nextValue = 1;
  /** Committed transactions so far: the next commit position. */
  private commitCount = 0;

  /**
   * The running transaction's last write of each key as (stamp, value) pairs, valid where the
   * stamp is the transaction's: nothing is cleared between transactions.
   */
  private readonly own: Int32Array;
  private stamp = 0;
  /** Read committed: the running transaction's latest read snapshot. */
  private readSnapshot = 0;
  /** Permissive store with aborts: the latest aborted write of each key (0 = none). */
  private readonly lastAborted: Int32Array;

  constructor(private readonly o: GenOptions) {
    this.rng = new Rng(o.seed);
    this.store = o.store;
    this.readRatio = o.readRatio;
    this.abortRatio = o.abortRatio ?? 0;
    this.keys = new KeySampler(o.keys, o.distribution, o.zipfS);
    this.sizes = drawSizes(this.rng, o.transactions, maxTxnSize(o.opsPerTxn));
    let totalOps = 0;
    for (let i = 0; i < this.sizes.length; i++) totalOps += this.sizes[i];
    this.versions = new VersionStore(o.keys, o.store !== 'serial');
    this.remaining = splitEvenly(o.transactions, o.sessions);
    this.sessionFloor = new Int32Array(o.sessions);
    this.txnSession = new Int32Array(o.transactions);
    this.txnOpStart = new Int32Array(o.transactions + 1);
    this.txnAborted = new Uint8Array(o.transactions);
    this.opIsWrite = new Uint8Array(totalOps);
    this.opKey = new Int32Array(totalOps);
    this.opValue = new Int32Array(totalOps);
    this.own = new Int32Array(2 * o.keys);
    const abortedReads = o.store === 'permissive' && this.abortRatio > 0;
    this.lastAborted = new Int32Array(abortedReads ? o.keys : 0);
  }

  run(): GeneratedHistory {
    if (this.store === 'snapshot') this.runOverlapping();
    else this.runOneAtATime();
    return this.result();
  }

  /** Every store but snapshot: a random ready session runs its next transaction to the end. */
  private runOneAtATime(): void {
    const ready = this.readySessions();
    while (ready.size > 0) {
      const session = ready.pick(this.rng);
      this.execute(this.plan(session));
      if (--this.remaining[session] === 0) ready.remove(session);
    }
  }

  /**
   * Snapshot isolation: up to SNAPSHOT_WINDOW transactions are open at once. Each step either
   * starts a transaction (its snapshot is the commit order so far) or commits a random open one.
   * A transaction's operations depend only on its snapshot, so they are drawn at commit time.
   */
  private runOverlapping(): void {
    const ready = this.readySessions();
    const window = Math.min(SNAPSHOT_WINDOW, this.o.sessions);
    const open: TxnPlan[] = [];
    while (ready.size > 0 || open.length > 0) {
      const canStart = ready.size > 0 && open.length < window;
      if (canStart && (open.length === 0 || this.rng.float() < 0.5)) {
        const session = ready.pick(this.rng);
        ready.remove(session); // one open transaction per session keeps session order
        this.remaining[session]--;
        open.push(this.plan(session));
      } else {
        const i = this.rng.below(open.length);
        const txn = open[i];
        open[i] = open[open.length - 1];
        open.pop();
        this.execute(txn);
        if (this.remaining[txn.session] > 0) ready.add(txn.session);
      }
    }
  }

  private readySessions(): IntSet {
    const ready = new IntSet(this.o.sessions);
    for (let s = 0; s < this.o.sessions; s++) if (this.remaining[s] > 0) ready.add(s);
    return ready;
  }

  private plan(session: number): TxnPlan {
    const size = this.sizes[this.nextSlot++];
    const aborted = this.abortRatio > 0 && this.rng.float() < this.abortRatio;
    return { session, size, aborted, snapshot: this.chooseSnapshot(session) };
  }

  private chooseSnapshot(session: number): number {
    if (this.store !== 'causal') return this.commitCount;
    // A random prefix no older than the session's last commit or snapshot (monotonic reads).
    const floor = this.sessionFloor[session];
    const snapshot = floor + this.rng.below(this.commitCount - floor + 1);
    this.sessionFloor[session] = snapshot;
    return snapshot;
  }

  /** Emits one transaction, then commits, aborts or (snapshot store, on conflict) drops it. */
  private execute(txn: TxnPlan): void {
    const t = this.txnCount;
    const firstValue = this.nextValue;
    this.txnSession[t] = txn.session;
    this.txnOpStart[t] = this.opCount;
    this.stamp++;
    this.readSnapshot = Math.max(0, this.commitCount - READ_COMMITTED_LAG_PER_SESSION * this.o.sessions);
    for (let i = 0; i < txn.size; i++) this.operation(txn);
    if (txn.aborted) {
      this.abort(t);
    } else if (this.store === 'snapshot' && this.losesFirstCommitterWins(t, txn.snapshot)) {
      this.opCount = this.txnOpStart[t];
      this.nextValue = firstValue;
      return;
    } else {
      this.commit(t, txn.session);
    }
    this.txnCount = t + 1;
    this.txnOpStart[t + 1] = this.opCount;
  }

  private operation(txn: TxnPlan): void {
    const key = this.keys.next(this.rng);
    const i = this.opCount++;
    this.opKey[i] = key;
    if (this.rng.float() >= this.readRatio) {
      const value = this.nextValue++;
      this.opIsWrite[i] = 1;
      this.opValue[i] = value;
      this.own[2 * key] = this.stamp;
      this.own[2 * key + 1] = value;
    } else {
      this.opIsWrite[i] = 0;
      // A transaction reads back its own last write of a key, whatever the store.
      this.opValue[i] = this.own[2 * key] === this.stamp ? this.own[2 * key + 1] : this.externalRead(key, txn);
    }
  }

  private externalRead(key: number, txn: TxnPlan): number {
    switch (this.store) {
      case 'serial':
        return this.versions.latest(key);
      case 'snapshot':
      case 'causal':
        return this.versions.latestBefore(key, txn.snapshot);
      case 'read-committed':
        return this.versions.latestBefore(key, this.nextReadSnapshot());
      case 'permissive':
        return this.permissiveRead(key);
    }
  }

  /** Read committed: each read its own random prefix, monotone within the transaction, from a recent start. */
  private nextReadSnapshot(): number {
    const floor = this.readSnapshot;
    this.readSnapshot = floor + this.rng.below(this.commitCount - floor + 1);
    return this.readSnapshot;
  }

  /** Any committed version of the key or the initial value; rarely an aborted write. */
  private permissiveRead(key: number): number {
    if (this.lastAborted.length > 0 && this.lastAborted[key] !== 0 && this.rng.float() < ABORTED_READ_CHANCE) {
      return this.lastAborted[key];
    }
    const n = this.versions.count(key);
    const i = this.rng.below(n + 1);
    return i === 0 ? 0 : this.versions.at(key, i - 1);
  }

  /** First-committer-wins: did a transaction committed since `snapshot` write a key this one wrote? */
  private losesFirstCommitterWins(t: number, snapshot: number): boolean {
    for (let i = this.txnOpStart[t]; i < this.opCount; i++) {
      if (this.opIsWrite[i] === 1 && this.versions.lastPosition(this.opKey[i]) >= snapshot) return true;
    }
    return false;
  }

  /** Installs each key's last write of transaction t at the next commit position. */
  private commit(t: number, session: number): void {
    const position = this.commitCount++;
    for (let i = this.txnOpStart[t]; i < this.opCount; i++) {
      if (this.opIsWrite[i] === 0) continue;
      const key = this.opKey[i];
      if (this.own[2 * key + 1] === this.opValue[i]) this.versions.install(key, this.opValue[i], position);
    }
    this.sessionFloor[session] = this.commitCount; // its next snapshot includes this commit
  }

  private abort(t: number): void {
    this.txnAborted[t] = 1;
    if (this.lastAborted.length === 0) return;
    for (let i = this.txnOpStart[t]; i < this.opCount; i++) {
      if (this.opIsWrite[i] === 1) this.lastAborted[this.opKey[i]] = this.opValue[i];
    }
  }

  private result(): GeneratedHistory {
    const full = this.txnCount === this.txnSession.length;
    return {
      sessionCount: this.o.sessions,
      txnCount: this.txnCount,
      opCount: this.opCount,
      keyCount: this.o.keys,
      txnSession: full ? this.txnSession : this.txnSession.slice(0, this.txnCount),
      txnOpStart: full ? this.txnOpStart : this.txnOpStart.slice(0, this.txnCount + 1),
      txnAborted: full ? this.txnAborted : this.txnAborted.slice(0, this.txnCount),
      opIsWrite: full ? this.opIsWrite : this.opIsWrite.slice(0, this.opCount),
      opKey: full ? this.opKey : this.opKey.slice(0, this.opCount),
      opValue: full ? this.opValue : this.opValue.slice(0, this.opCount),
    };
  }
}

function drawSizes(rng: Rng, transactions: number, maxSize: number): Int32Array {
  const sizes = new Int32Array(transactions);
  for (let i = 0; i < transactions; i++) sizes[i] = 1 + rng.below(maxSize);
  return sizes;
}

/** Transactions per session, as even as possible (the first sessions get the remainder). */
function splitEvenly(total: number, parts: number): Int32Array {
  const out = new Int32Array(parts);
  const base = Math.floor(total / parts);
  const extra = total % parts;
  for (let s = 0; s < parts; s++) out[s] = base + (s < extra ? 1 : 0);
  return out;
}
