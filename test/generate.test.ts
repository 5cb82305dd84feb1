// Tests of the random history generator and its writers: determinism, shape, and each store's guarantee, by brute force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  generateHistory,
  optionsForEvents,
  validateGenOptions,
  READ_COMMITTED_LAG_PER_SESSION,
  STORE_KINDS,
  type GenOptions,
  type GeneratedHistory,
  type StoreKind,
} from '../server/src/engine/gen/generate.ts';
import { toHistString, toPlumeString, writePlume } from '../server/src/engine/gen/history-writers.ts';

function small(store: StoreKind, seed: number, extra: Partial<GenOptions> = {}): GeneratedHistory {
  return generateHistory(optionsForEvents(600, { sessions: 6, keys: 12, store, seed, ...extra }));
}

function txnOps(g: GeneratedHistory, t: number): number[] {
  const ops: number[] = [];
  for (let i = g.txnOpStart[t]; i < g.txnOpStart[t + 1]; i++) ops.push(i);
  return ops;
}

/** Who wrote each value: the transaction, and whether it was that transaction's last write of the key. */
interface Writer {
  txn: number;
  key: number;
  last: boolean;
}

function writersOf(g: GeneratedHistory): Map<number, Writer> {
  const writers = new Map<number, Writer>();
  for (let t = 0; t < g.txnCount; t++) {
    const lastOfKey = new Map<number, number>();
    for (const i of txnOps(g, t)) if (g.opIsWrite[i] === 1) lastOfKey.set(g.opKey[i], i);
    for (const i of txnOps(g, t)) {
      if (g.opIsWrite[i] === 0) continue;
      assert.ok(g.opValue[i] > 0, 'written values are positive');
      assert.ok(!writers.has(g.opValue[i]), `value ${g.opValue[i]} written twice`);
      writers.set(g.opValue[i], { txn: t, key: g.opKey[i], last: lastOfKey.get(g.opKey[i]) === i });
    }
  }
  return writers;
}

/**
 * Structural checks every store must pass: sizes, ranges, unique values, own writes read back,
 * and every other read returns 0 or the last write of the key by an earlier-emitted transaction
 * (committed, unless `abortedReadsAllowed`).
 */
function assertWellFormed(g: GeneratedHistory, abortedReadsAllowed = false): void {
  assert.equal(g.txnSession.length, g.txnCount);
  assert.equal(g.txnAborted.length, g.txnCount);
  assert.equal(g.txnOpStart.length, g.txnCount + 1);
  assert.equal(g.txnOpStart[0], 0);
  assert.equal(g.txnOpStart[g.txnCount], g.opCount);
  assert.equal(g.opKey.length, g.opCount);
  assert.equal(g.opValue.length, g.opCount);
  assert.equal(g.opIsWrite.length, g.opCount);
  const writers = writersOf(g);
  for (let t = 0; t < g.txnCount; t++) {
    assert.ok(g.txnOpStart[t + 1] > g.txnOpStart[t], 'no empty transactions');
    assert.ok(g.txnSession[t] >= 0 && g.txnSession[t] < g.sessionCount);
    const own = new Map<number, number>();
    for (const i of txnOps(g, t)) {
      const key = g.opKey[i];
      const value = g.opValue[i];
      assert.ok(key >= 0 && key < g.keyCount);
      if (g.opIsWrite[i] === 1) {
        own.set(key, value);
        continue;
      }
      const ownValue = own.get(key);
      if (ownValue !== undefined) {
        assert.equal(value, ownValue, `T${t} reads its own last write of k${key}`);
        continue;
      }
      if (value === 0) continue;
      const w = writers.get(value);
      assert.ok(w !== undefined, `T${t} reads ${value}, which nobody wrote`);
      assert.equal(w.key, key, 'read of a value written to another key');
      assert.ok(w.txn < t, `T${t} reads from T${w.txn}, which is emitted later`);
      assert.ok(w.last, 'no intermediate reads');
      if (!abortedReadsAllowed) assert.equal(g.txnAborted[w.txn], 0, `T${t} reads an aborted write`);
    }
  }
}

/**
 * The commit order is the emission order of committed transactions. For each external read, the
 * snapshots (prefix lengths p of the commit order: positions < p visible) that explain its value.
 */
class CommitOrder {
  /** Commit position of each committed transaction; for an aborted one, the commits before it. */
  readonly position: Int32Array;
  private readonly writerPositions = new Map<number, number[]>();
  private readonly valueWriterPos = new Map<number, number>();

  constructor(private readonly g: GeneratedHistory) {
    this.position = new Int32Array(g.txnCount);
    let next = 0;
    for (let t = 0; t < g.txnCount; t++) {
      this.position[t] = next;
      if (g.txnAborted[t] === 1) continue;
      const last = new Map<number, number>();
      for (const i of txnOps(g, t)) if (g.opIsWrite[i] === 1) last.set(g.opKey[i], g.opValue[i]);
      for (const [key, value] of last) {
        const list = this.writerPositions.get(key) ?? [];
        list.push(next);
        this.writerPositions.set(key, list);
        this.valueWriterPos.set(value, next);
      }
      next++;
    }
  }

  /** [lo, hi] of prefix lengths p whose latest write of the key is `value`. */
  readRange(key: number, value: number): [number, number] {
    const positions = this.writerPositions.get(key) ?? [];
    if (value === 0) return [0, positions.length > 0 ? positions[0] : Infinity];
    const q = this.valueWriterPos.get(value);
    assert.ok(q !== undefined, 'reads a committed write');
    const next = positions.find((p) => p > q);
    return [q + 1, next ?? Infinity];
  }

  /** External reads of transaction t as [op index, lo, hi]. */
  externalReads(t: number): Array<[number, number, number]> {
    const g = this.g;
    const written = new Set<number>();
    const out: Array<[number, number, number]> = [];
    for (const i of txnOps(g, t)) {
      if (g.opIsWrite[i] === 1) written.add(g.opKey[i]);
      else if (!written.has(g.opKey[i])) out.push([i, ...this.readRange(g.opKey[i], g.opValue[i])]);
    }
    return out;
  }

  writtenKeys(t: number): Set<number> {
    const keys = new Set<number>();
    for (const i of txnOps(this.g, t)) if (this.g.opIsWrite[i] === 1) keys.add(this.g.opKey[i]);
    return keys;
  }
}

/** Replays transactions in emission order; a serial history reads the latest committed value. */
function serialViolation(g: GeneratedHistory): string | null {
  const state = new Map<number, number>();
  for (let t = 0; t < g.txnCount; t++) {
    const local = new Map(state);
    for (const i of txnOps(g, t)) {
      if (g.opIsWrite[i] === 1) local.set(g.opKey[i], g.opValue[i]);
      else if ((local.get(g.opKey[i]) ?? 0) !== g.opValue[i]) return `T${t} op ${i}`;
    }
    if (g.txnAborted[t] === 0) for (const [k, v] of local) state.set(k, v);
  }
  return null;
}

/** Snapshot isolation: one snapshot per transaction, no older than its session's last commit, and first-committer-wins. */
function snapshotViolation(g: GeneratedHistory): string | null {
  const co = new CommitOrder(g);
  const sessionFloor = new Map<number, number>();
  for (let t = 0; t < g.txnCount; t++) {
    const own = co.position[t];
    let lo = sessionFloor.get(g.txnSession[t]) ?? 0;
    let hi = own;
    for (const [, rlo, rhi] of co.externalReads(t)) {
      lo = Math.max(lo, rlo);
      hi = Math.min(hi, rhi);
    }
    if (lo > hi) return `T${t} reads no single snapshot`;
    if (g.txnAborted[t] === 1) continue;
    // The latest possible snapshot leaves the fewest concurrent writers.
    const keys = co.writtenKeys(t);
    for (let u = 0; u < t; u++) {
      if (g.txnAborted[u] === 1 || co.position[u] < hi) continue;
      for (const k of co.writtenKeys(u)) if (keys.has(k)) return `T${t} and T${u} both write k${k} concurrently`;
    }
    sessionFloor.set(g.txnSession[t], own + 1);
  }
  return null;
}

/** Causal store: one snapshot per transaction, monotone per session and after the session's last commit. */
function causalViolation(g: GeneratedHistory): string | null {
  const co = new CommitOrder(g);
  const sessionFloor = new Map<number, number>();
  for (let t = 0; t < g.txnCount; t++) {
    let lo = sessionFloor.get(g.txnSession[t]) ?? 0;
    let hi = co.position[t];
    for (const [, rlo, rhi] of co.externalReads(t)) {
      lo = Math.max(lo, rlo);
      hi = Math.min(hi, rhi);
    }
    if (lo > hi) return `T${t} reads no single snapshot`;
    // The earliest feasible snapshot constrains the session's later transactions least.
    sessionFloor.set(g.txnSession[t], g.txnAborted[t] === 1 ? lo : co.position[t] + 1);
  }
  return null;
}

/** Read committed store: a snapshot per read, monotone within the transaction, the first one recent. */
function readCommittedViolation(g: GeneratedHistory): string | null {
  const co = new CommitOrder(g);
  for (let t = 0; t < g.txnCount; t++) {
    let floor = Math.max(0, co.position[t] - READ_COMMITTED_LAG_PER_SESSION * g.sessionCount);
    for (const [i, rlo, rhi] of co.externalReads(t)) {
      const lo = Math.max(floor, rlo);
      if (lo > Math.min(rhi, co.position[t])) return `T${t} op ${i} reads no snapshot`;
      floor = lo;
    }
  }
  return null;
}

/** Does some read (external) return something other than the latest committed value at its turn? */
function hasStaleRead(g: GeneratedHistory): boolean {
  const latest = new Map<number, number>();
  for (let t = 0; t < g.txnCount; t++) {
    const written = new Set<number>();
    for (const i of txnOps(g, t)) {
      if (g.opIsWrite[i] === 1) written.add(g.opKey[i]);
      else if (!written.has(g.opKey[i]) && (latest.get(g.opKey[i]) ?? 0) !== g.opValue[i]) return true;
    }
    if (g.txnAborted[t] === 0) for (const i of txnOps(g, t)) if (g.opIsWrite[i] === 1) latest.set(g.opKey[i], g.opValue[i]);
  }
  return false;
}

void test('the same seed gives the same history, another seed another', () => {
  for (const store of STORE_KINDS) {
    const a = small(store, 42, { abortRatio: 0.1 });
    const b = small(store, 42, { abortRatio: 0.1 });
    assert.deepEqual(a, b, store);
    const c = small(store, 43, { abortRatio: 0.1 });
    assert.notDeepEqual(a.opValue, c.opValue, store);
  }
});

void test('sizes are roughly as asked', () => {
  const o = optionsForEvents(20_000, { opsPerTxn: 5, sessions: 16, distribution: 'zipf' });
  assert.equal(o.keys, 1000, 'one key per 20 events by default');
  const g = generateHistory(o);
  assert.equal(g.txnCount, o.transactions);
  assert.equal(g.sessionCount, 16);
  assert.ok(Math.abs(g.opCount - 20_000) < 1000, `opCount ${g.opCount}`);
  let writes = 0;
  for (let t = 0; t < g.txnCount; t++) {
    const size = g.txnOpStart[t + 1] - g.txnOpStart[t];
    assert.ok(size >= 1 && size <= 9, `size ${size}`);
  }
  for (let i = 0; i < g.opCount; i++) writes += g.opIsWrite[i];
  assert.ok(Math.abs(writes / g.opCount - 0.4) < 0.03, `write share ${writes / g.opCount}`);
  const perSession = new Int32Array(16);
  for (let t = 0; t < g.txnCount; t++) perSession[g.txnSession[t]]++;
  for (const n of perSession) assert.ok(Math.abs(n - o.transactions / 16) <= 1, 'sessions share the transactions');
});

void test('zipf keys are skewed toward key 0, uniform keys are not', () => {
  const count = (distribution: 'uniform' | 'zipf'): Int32Array => {
    const g = generateHistory(optionsForEvents(50_000, { keys: 100, distribution, zipfS: 1, store: 'serial' }));
    const hits = new Int32Array(100);
    for (let i = 0; i < g.opCount; i++) hits[g.opKey[i]]++;
    return hits;
  };
  const zipf = count('zipf');
  assert.ok(zipf[0] > 5 * zipf[50], `zipf ${zipf[0]} vs ${zipf[50]}`);
  assert.ok(zipf[0] > zipf[1] && zipf[1] > zipf[9]);
  const uniform = count('uniform');
  assert.ok(uniform[0] < 2 * uniform[50], `uniform ${uniform[0]} vs ${uniform[50]}`);
});

void test('every read returns 0, its own write, or an earlier committed last write', () => {
  for (const store of STORE_KINDS) {
    for (let seed = 1; seed <= 20; seed++) {
      assertWellFormed(small(store, seed));
      assertWellFormed(small(store, seed, { abortRatio: 0.2 }), store === 'permissive');
      assertWellFormed(small(store, seed, { distribution: 'zipf', keys: 50, opsPerTxn: 3 }));
    }
  }
});

void test('serial store: replaying transactions in generation order reads the latest values', () => {
  for (let seed = 1; seed <= 30; seed++) {
    for (const extra of [{}, { abortRatio: 0.2 }, { sessions: 1 }, { keys: 3, readRatio: 0.3 }]) {
      const g = small('serial', seed, extra);
      assert.equal(serialViolation(g), null, `seed ${seed} ${JSON.stringify(extra)}`);
    }
  }
});

void test('snapshot store: one snapshot per transaction and first-committer-wins', () => {
  let dropped = 0;
  for (let seed = 1; seed <= 30; seed++) {
    for (const extra of [{}, { abortRatio: 0.2 }, { keys: 4 }, { distribution: 'zipf' as const, keys: 30 }]) {
      const o = optionsForEvents(600, { sessions: 6, keys: 12, store: 'snapshot', seed, ...extra });
      const g = generateHistory(o);
      assert.equal(snapshotViolation(g), null, `seed ${seed} ${JSON.stringify(extra)}`);
      dropped += o.transactions - g.txnCount;
      if (extra.abortRatio === undefined) assert.equal(g.txnAborted.indexOf(1), -1, 'conflicts are dropped, not aborted');
    }
  }
  assert.ok(dropped > 0, 'write conflicts happen and are dropped');
});

void test('causal store: one session-monotone snapshot per transaction, but not snapshot isolation', () => {
  let notSi = 0;
  for (let seed = 1; seed <= 30; seed++) {
    for (const extra of [{}, { abortRatio: 0.2 }, { keys: 4 }]) {
      const g = small('causal', seed, extra);
      assert.equal(causalViolation(g), null, `seed ${seed} ${JSON.stringify(extra)}`);
      if (snapshotViolation(g) !== null) notSi++;
    }
  }
  assert.ok(notSi > 0, 'lost updates make some causal histories violate SI');
});

void test('read-committed store: recent monotone snapshot per read, and usually not one per transaction', () => {
  let notCausal = 0;
  for (let seed = 1; seed <= 30; seed++) {
    for (const extra of [{}, { abortRatio: 0.2 }, { keys: 4 }]) {
      const g = small('read-committed', seed, extra);
      assert.equal(readCommittedViolation(g), null, `seed ${seed} ${JSON.stringify(extra)}`);
      if (causalViolation(g) !== null) notCausal++;
    }
  }
  assert.ok(notCausal > 45, `fractured reads are common (${notCausal} of 90)`);
});

void test('permissive store: stale reads over 200 seeds; aborted reads only with aborts', () => {
  let stale = 0;
  let abortedReads = 0;
  for (let seed = 1; seed <= 200; seed++) {
    const g = small('permissive', seed);
    if (hasStaleRead(g)) stale++;
    const writers = writersOf(g);
    for (let i = 0; i < g.opCount; i++) {
      const w = writers.get(g.opValue[i]);
      if (g.opIsWrite[i] === 0 && w !== undefined) assert.equal(g.txnAborted[w.txn], 0);
    }
  }
  assert.ok(stale > 0, 'some read is not the latest value');
  for (let seed = 1; seed <= 50; seed++) {
    const g = small('permissive', seed, { abortRatio: 0.3 });
    const writers = writersOf(g);
    for (let i = 0; i < g.opCount; i++) {
      const w = writers.get(g.opValue[i]);
      if (g.opIsWrite[i] === 0 && w !== undefined && g.txnAborted[w.txn] === 1 && w.txn !== txnOf(g, i)) abortedReads++;
    }
  }
  assert.ok(abortedReads > 0, 'aborted writes are sometimes read when transactions abort');
});

function txnOf(g: GeneratedHistory, op: number): number {
  let t = 0;
  while (g.txnOpStart[t + 1] <= op) t++;
  return t;
}

void test('abortRatio aborts about that share of transactions', () => {
  const g = generateHistory(optionsForEvents(40_000, { abortRatio: 0.25, store: 'causal' }));
  let aborted = 0;
  for (let t = 0; t < g.txnCount; t++) aborted += g.txnAborted[t];
  assert.ok(Math.abs(aborted / g.txnCount - 0.25) < 0.03, `aborted share ${aborted / g.txnCount}`);
});

void test('edge cases: one session, one key, read-only and write-only workloads, zero transactions', () => {
  for (const store of STORE_KINDS) {
    assertWellFormed(small(store, 1, { sessions: 1 }));
    assertWellFormed(small(store, 1, { keys: 1 }));
    assertWellFormed(small(store, 1, { readRatio: 1 }));
    assertWellFormed(small(store, 1, { readRatio: 0 }));
    assertWellFormed(small(store, 1, { sessions: 500 }));
    const empty = generateHistory({ ...optionsForEvents(10, { store }), transactions: 0 });
    assert.equal(empty.txnCount, 0);
    assert.equal(empty.opCount, 0);
  }
  const reads = small('causal', 1, { readRatio: 1 });
  for (let i = 0; i < reads.opCount; i++) assert.equal(reads.opValue[i], 0);
});

void test('invalid options are reported, and generateHistory throws a RangeError', () => {
  const ok = optionsForEvents(100, {});
  assert.deepEqual(validateGenOptions(ok), []);
  const bad: GenOptions = { ...ok, sessions: 0, keys: 1.5, readRatio: 2, opsPerTxn: 0 };
  assert.equal(validateGenOptions(bad).length, 4);
  assert.throws(() => generateHistory(bad), RangeError);
  assert.throws(() => generateHistory({ ...ok, store: 'eventual' as StoreKind }), RangeError);
  assert.throws(() => generateHistory({ ...ok, transactions: 2e9 }), RangeError);
});

void test('plume output: one strict line per operation, aborted writes as txn -1, reads of aborted transactions omitted', () => {
  const g = small('causal', 5, { abortRatio: 0.2 });
  const text = toPlumeString(g);
  assert.ok(text.endsWith('\n'));
  const lines = text.slice(0, -1).split('\n');
  let expected = 0;
  for (let t = 0; t < g.txnCount; t++) {
    for (const i of txnOps(g, t)) if (g.txnAborted[t] === 0 || g.opIsWrite[i] === 1) expected++;
  }
  assert.equal(lines.length, expected);
  const sessionOfTxn = new Map<number, number>();
  let line = 0;
  for (let t = 0; t < g.txnCount; t++) {
    for (const i of txnOps(g, t)) {
      if (g.txnAborted[t] === 1 && g.opIsWrite[i] === 0) continue;
      const m = /^([rw])\((\d+),(\d+),(\d+),(-1|\d+)\)$/.exec(lines[line++]);
      assert.ok(m !== null, `line shape: ${lines[line - 1]}`);
      assert.equal(m[1], g.opIsWrite[i] === 1 ? 'w' : 'r');
      assert.equal(Number(m[2]), g.opKey[i]);
      assert.equal(Number(m[3]), g.opValue[i]);
      assert.equal(Number(m[4]), g.txnSession[t]);
      const id = Number(m[5]);
      assert.equal(id, g.txnAborted[t] === 1 ? -1 : t);
      if (id >= 0) {
        assert.equal(sessionOfTxn.get(id) ?? g.txnSession[t], g.txnSession[t], 'a transaction id is used by one session');
        sessionOfTxn.set(id, g.txnSession[t]);
      }
    }
  }
});

void test('plume output streams in chunks of about 64 KB that add up to the whole text', () => {
  const g = generateHistory(optionsForEvents(30_000, { seed: 9 }));
  const chunks: string[] = [];
  writePlume(g, (c) => chunks.push(c));
  assert.ok(chunks.length > 3, `${chunks.length} chunks`);
  for (const c of chunks.slice(0, -1)) assert.ok(c.length >= 64 * 1024 && c.length < 80 * 1024, `chunk of ${c.length}`);
  assert.equal(chunks.join(''), toPlumeString(g));
});

void test('.hist output: header, title, sessions in order, one line per transaction', () => {
  const g = small('snapshot', 3, { abortRatio: 0.2, sessions: 4 });
  const text = toHistString(g, 'a "quoted" \\ title');
  const lines = text.split('\n');
  assert.match(lines[0], /^# /);
  assert.equal(lines[1], 'history "a \\"quoted\\" \\\\ title"');
  let session = -1;
  let lastTxn = -1;
  const seen = new Set<number>();
  for (const l of lines.slice(2)) {
    if (l === '') continue;
    const s = /^session s(\d+)$/.exec(l);
    if (s !== null) {
      assert.ok(Number(s[1]) > session, 'sessions in order');
      session = Number(s[1]);
      lastTxn = -1;
      continue;
    }
    const m = /^ {2}T(\d+)( aborted)?:((?: [rw]\(k\d+, (?:\d+|init)\))+)$/.exec(l);
    assert.ok(m !== null, `transaction line shape: ${l}`);
    const t = Number(m[1]);
    assert.equal(g.txnSession[t], session);
    assert.ok(t > lastTxn, 'session order kept');
    lastTxn = t;
    seen.add(t);
    assert.equal(m[2] !== undefined, g.txnAborted[t] === 1);
    const ops = m[3].trim().split(/ (?=[rw]\()/);
    assert.deepEqual(
      ops,
      txnOps(g, t).map((i) => {
        const v = g.opIsWrite[i] === 0 && g.opValue[i] === 0 ? 'init' : String(g.opValue[i]);
        return `${g.opIsWrite[i] === 1 ? 'w' : 'r'}(k${g.opKey[i]}, ${v})`;
      }),
    );
  }
  assert.equal(seen.size, g.txnCount, 'every transaction once');
  assert.ok(text.includes(' r(k') && text.includes('init)') && text.includes(' aborted:'));
});

void test('generating a million operations completes', () => {
  const g = generateHistory(optionsForEvents(1_000_000, { store: 'causal', seed: 2 }));
  assert.ok(g.opCount > 900_000);
});
