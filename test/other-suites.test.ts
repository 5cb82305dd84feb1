// Other checkers' own test histories (PolySI's and IsoVista's verifier tests, Elle's test suite, dbcop's tests, Plume's anomalous patterns, Cobra's histories) as fixtures: IsoCheck's verdicts against theirs.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeHistText, analyzeSource } from '../server/src/engine/analyze.ts';
import { readHistory } from '../server/src/engine/readers/registry.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { ROOT } from './helpers/lsp-client.ts';

/** Each file's `expect` lines (the other tool's verdicts) hold, decided, and it reads without errors. */
function checkExpects(dir: string, minimum: number): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.hist')).sort();
  test(`${minimum} or more histories`, () => assert.ok(files.length >= minimum, `${files.length}`));
  for (const file of files) {
    test(file, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const expects = parseHist(text).directives.expects;
      assert.ok(expects.length > 0, 'carries the other tool\'s verdict');
      const a = analyzeHistText(text, { levels: LEVELS });
      assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.message), []);
      for (const e of expects) {
        const v = a.levels.find((x) => x.level === e.level);
        assert.equal(v?.consistent, e.ok, `${e.level} ${e.ok ? 'holds' : 'violated'}`);
      }
    });
  }
}

describe("PolySI's verifier tests (test/fixtures/polysi)", () => {
  checkExpects(join(ROOT, 'test', 'fixtures', 'polysi'), 8);
});

/**
 * Elle's test histories (test/fixtures/elle, SOURCES.md there): the anomalies Elle's tests expect,
 * in IsoCheck's names, must be reported, and the verdicts (RC RA CC PC PSI SI SER, then SSER when
 * the history has real time) are pinned: where they differ from Elle's, SOURCES.md says why.
 */
const ELLE: Record<string, { found: string[]; verdicts: string }> = {
  'la-dirty-update-direct.edn': { found: ['dirty-update'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-dirty-update-indirect.edn': { found: ['dirty-update'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-dirty-update-none.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'la-duplicate-append-attempts.edn': { found: ['duplicate-element'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-duplicate-elements-g1c.edn': { found: ['G1c', 'duplicate-element'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-future-read-external.edn': { found: ['future-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-future-read-internal.edn': { found: ['future-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-future-read.edn': { found: ['future-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-g-nonadjacent-adjacent-rw-valid-si.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✗' },
  'la-g-nonadjacent-process.edn': { found: ['G-nonadjacent'], verdicts: '✓✓✓✗✓✗✗✗' },
  'la-g-nonadjacent.edn': { found: ['G-nonadjacent'], verdicts: '✓✓✓✗✓✗✗✗' },
  'la-g-single.edn': { found: ['G-single'], verdicts: '✓✓✓✓✗✗✗✗' },
  'la-g0-completions-only.edn': { found: ['G0'], verdicts: '✗✗✗✗✗✗✗' },
  'la-g0.edn': { found: ['G0'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-g1a-cases.edn': { found: ['aborted-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-g1a.edn': { found: ['aborted-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-g1b-cases.edn': { found: ['intermediate-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-g1b-own-intermediate-read-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'la-g1b.edn': { found: ['intermediate-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-g1c.edn': { found: ['G1c'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-g2-item.edn': { found: ['G2-item'], verdicts: '✓✓✓✓✓✓✗✗' },
  'la-graph-adya-fig3-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'la-graph-g2-anti-dependency.edn': { found: ['G2-item'], verdicts: '✓✓✓✓✓✓✗✗' },
  'la-graph-info-reads-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'la-graph-unread-appends-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'la-huge-scc-excerpt-nemesis.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'la-incompatible-order-g1c.edn': { found: ['G1c', 'incompatible-order'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-internal-append-read.edn': { found: ['internal'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-internal-faunadb.edn': { found: ['internal'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-internal-good.edn': { found: [], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-internal-read-append-read.edn': { found: ['internal'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-internal-read-nil-then-something.edn': { found: [], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-internal.edn': { found: ['internal'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-lost-update-process0.edn': { found: ['lost-update', 'G2-item'], verdicts: '✓✗✗✗✗✗✗✗' },
  'la-lost-update.edn': { found: ['lost-update', 'G2-item'], verdicts: '✓✓✓✓✗✗✗✗' },
  'la-one-txn-double-append-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'la-readme-g1c-verbatim.edn': { found: ['G1c'], verdicts: '✗✗✗✗✗✗✗' },
  'la-readme-g1c.edn': { found: ['G1c'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-repeatable-read-g2-item.edn': { found: ['G2-item'], verdicts: '✓✓✓✓✓✓✗✗' },
  'la-rr-g-nonadjacent-item.edn': { found: ['G-nonadjacent'], verdicts: '✓✓✓✗✓✗✗✗' },
  'la-rr-g-single-item.edn': { found: ['G-single'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-si-without-g-single.edn': { found: ['G2-item'], verdicts: '✓✓✓✓✓✓✗✗' },
  'la-strong-session-si-process.edn': { found: ['G-single'], verdicts: '✓✗✗✗✗✗✗✗' },
  'la-strong-si-realtime.edn': { found: ['G-single-realtime'], verdicts: '✓✓✓✓✓✓✓✗' },
  'la-unobserved-write.edn': { found: ['G-single', 'G0'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-wr-process-nil.edn': { found: ['G1c'], verdicts: '✗✗✗✗✗✗✗✗' },
  'la-wr-process.edn': { found: ['G1c'], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-cyclic-versions-bug-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'rw-cyclic-versions-sequential-keys.edn': { found: [], verdicts: '✓✗✗✗✗✗✗✗' },
  'rw-g-single-initial-state.edn': { found: [], verdicts: '✓✗✗✗✗✗✗✗' },
  'rw-g-single-transaction-order-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'rw-g0-sequential-keys.edn': { found: [], verdicts: '✓✗✗✗✗✗✗✗' },
  'rw-g1a.edn': { found: ['aborted-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-g1b-cases-bad.edn': { found: ['intermediate-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-g1b-cases-good.edn': { found: [], verdicts: '✓✗✗✗✗✗✗✗' },
  'rw-g1b.edn': { found: ['intermediate-read'], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-g1c.edn': { found: ['causality-cycle'], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-g2-item-transaction-order-valid.edn': { found: [], verdicts: '✓✓✓✓✓✓✓✓' },
  'rw-internal.edn': { found: [], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-lost-update.edn': { found: [], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-read-unwritten-value.edn': { found: [], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-wfr-g-single.edn': { found: [], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-wr-chain-one-register.edn': { found: ['causality-cycle'], verdicts: '✗✗✗✗✗✗✗✗' },
  'rw-wr-chain-two-registers.edn': { found: ['causality-cycle'], verdicts: '✗✗✗✗✗✗✗✗' },
};

describe("Elle's test histories (test/fixtures/elle)", () => {
  const dir = join(ROOT, 'test', 'fixtures', 'elle');
  const files = readdirSync(dir).filter((f) => f.endsWith('.edn')).sort();
  test('every fixture has its expectation here, and every expectation its fixture', () => {
    assert.deepEqual(files, Object.keys(ELLE).sort());
  });
  for (const file of files) {
    test(file, () => {
      const a = analyzeSource(readHistory({ bytes: readFileSync(join(dir, file)) }, { fileName: file }));
      assert.deepEqual(a.findings.filter((f) => f.code === 'syntax').map((f) => f.message), [], 'read without a syntax error');
      const codes = new Set(a.findings.map((f) => f.code));
      for (const c of ELLE[file].found) assert.ok(codes.has(c as never), `${c} reported (${[...codes].join(', ')})`);
      assert.equal(a.levels.map((v) => (v.consistent === true ? '✓' : v.consistent === false ? '✗' : '?')).join(''), ELLE[file].verdicts);
    });
  }
});

/** IsoCheck's verdicts RC RA CC PC PSI SI SER as a string of ✓ (holds), ✗ (violated) and ? (undecided). */
function verdictString(a: { levels: readonly { consistent: boolean | null }[] }): string {
  return a.levels.map((v) => (v.consistent === true ? '✓' : v.consistent === false ? '✗' : '?')).join('');
}

/**
 * A directory of .hist transcriptions: each file's `expect` lines (the other tool's verdicts) hold,
 * and IsoCheck's verdicts at every level are the ones pinned here. The findings at the reads
 * (thin-air, aborted-read, …) are the anomalies the histories show, so errors are allowed.
 */
function checkHistTable(dir: string, table: Record<string, string>): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.hist')).sort();
  test('every fixture has its verdicts here, and every verdict its fixture', () => {
    assert.deepEqual(files, Object.keys(table).sort());
  });
  for (const file of files) {
    test(file, () => {
      const text = readFileSync(join(dir, file), 'utf8');
      const expects = parseHist(text).directives.expects;
      assert.ok(expects.length > 0, 'carries the other tool\'s verdict');
      const a = analyzeHistText(text);
      assert.deepEqual(a.findings.filter((f) => f.code === 'syntax' || f.code === 'expectation-failed').map((f) => f.message), []);
      for (const e of expects) {
        const v = a.levels.find((x) => x.level === e.level);
        assert.equal(v?.consistent, e.ok, `${e.level} ${e.ok ? 'holds' : 'violated'}`);
      }
      assert.equal(verdictString(a), table[file]);
    });
  }
}

/**
 * IsoVista's verifier tests (test/fixtures/isovista, SOURCES.md there): PolySI's eight, which
 * IsoVista also runs against its serializability checker, and eight of its own; each file
 * carries IsoVista's SI and SER verdicts as `expect` lines. IsoCheck's RC RA CC PC PSI SI SER:
 */
const ISOVISTA_TESTS: Record<string, string> = {
  'bp-d.hist': '✗✗✗✗✗✗✗',
  'causal.hist': '✓✓✗✗✗✗✗',
  'conflict.hist': '✓✓✓✓✗✗✗',
  'example-long-fork.hist': '✓✓✓✗✓✗✗',
  'example1.hist': '✓✓✓✓✓✓✗',
  'int-1.hist': '✗✗✗✗✗✗✗',
  'int-2.hist': '✗✗✗✗✗✗✗',
  'int-3.hist': '✗✗✗✗✗✗✗',
  'int-4.hist': '✗✗✗✗✗✗✗',
  'prefix.hist': '✓✓✓✗✓✗✗',
  'read-committed.hist': '✗✗✗✗✗✗✗',
  'read-my-writes.hist': '✓✗✗✗✗✗✗',
  'repeatable-read-2.hist': '✓✗✗✗✗✗✗',
  'repeatable-read.hist': '✓✗✗✗✗✗✗',
  'serializability.hist': '✓✓✓✓✓✓✗',
  'tidb1.hist': '✓✓✓✓✗✗✗',
};

/**
 * IsoVista's collected bug histories (plume text, IsoVista's history/bugs/), read with
 * `plumeInit: 'none'` because IsoVista writes every key's initial 0 as a real write. IsoVista
 * says: Dgraph breaks SI, PostgreSQL breaks SER, YugabyteDB breaks TCC (≈ CC).
 */
const ISOVISTA_BUGS: Record<string, { claim: string; verdicts: string }> = {
  'dgraph_si.txt': { claim: 'SI', verdicts: '✓✓✗✗✗✗✗' },
  'pg_ser_bug.txt': { claim: 'SER', verdicts: '✓✓✓✓✓✓✗' },
  'yugabyte_tcc.txt': { claim: 'CC', verdicts: '✓✗✗✗✗✗✗' },
};

describe("IsoVista's verifier tests and bug histories (test/fixtures/isovista)", () => {
  const dir = join(ROOT, 'test', 'fixtures', 'isovista');
  checkHistTable(dir, ISOVISTA_TESTS);
  test('every bug history has its verdicts here', () => {
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.txt')).sort(), Object.keys(ISOVISTA_BUGS).sort());
  });
  for (const [file, want] of Object.entries(ISOVISTA_BUGS)) {
    test(`${file}: ${want.claim} violated, as IsoVista says`, () => {
      const src = readHistory({ bytes: readFileSync(join(dir, file)) }, { fileName: file, options: { plumeInit: 'none' } });
      assert.deepEqual(src.findings, [], 'reads cleanly as plume text');
      const a = analyzeSource(src);
      assert.equal(a.levels.find((v) => v.level === want.claim)?.consistent, false);
      assert.equal(verdictString(a), want.verdicts);
    });
  }
});

/**
 * Plume's transactional anomalous patterns (test/fixtures/plume-taps, SOURCES.md there): one
 * small history per TAP, written for IsoCheck, with Plume's RC, RA and TCC (CC) verdicts as
 * `expect` lines. IsoCheck's RC RA CC PC PSI SI SER:
 */
const PLUME_TAPS: Record<string, string> = {
  'tap-a-thin-air-read.hist': '✗✗✗✗✗✗✗',
  'tap-b-aborted-read.hist': '✗✗✗✗✗✗✗',
  'tap-c-future-read.hist': '✗✗✗✗✗✗✗',
  'tap-d-not-my-own-write.hist': '✗✗✗✗✗✗✗',
  'tap-e-not-my-last-write.hist': '✗✗✗✗✗✗✗',
  'tap-f-intermediate-read.hist': '✗✗✗✗✗✗✗',
  'tap-g-cyclic-co.hist': '✗✗✗✗✗✗✗',
  'tap-h-non-mono-read-co.hist': '✗✗✗✗✗✗✗',
  'tap-j-non-repeatable-read.hist': '✓✗✗✗✗✗✗',
  'tap-k-fractured-read-co.hist': '✓✗✗✗✗✗✗',
  'tap-m-co-conflict.hist': '✓✓✗✗✗✗✗',
  'tap-o-so-after-overwrite.hist': '✓✗✗✗✗✗✗',
};

describe("Plume's anomalous patterns (test/fixtures/plume-taps)", () => {
  checkHistTable(join(ROOT, 'test', 'fixtures', 'plume-taps'), PLUME_TAPS);
});

type Verdicts = Partial<Record<'RC' | 'RA' | 'CC' | 'PC' | 'SI' | 'SER', boolean>>;

/**
 * dbcop's own test histories (test/fixtures/dbcop-tests, SOURCES.md there), in dbcop's text and
 * JSON forms, read by IsoCheck's dbcop reader. `dbcop` holds what dbcop's tests assert, in
 * IsoCheck's names (committed read = RC, atomic read = RA, causal = CC, prefix = PC, snapshot
 * isolation = SI, serializable = SER; a repeatable-read failure is pinned as RA failing, which
 * dbcop's hierarchy implies; a repeatable-read pass says nothing here). Every one must equal
 * IsoCheck's verdict; `verdicts` pins all of IsoCheck's (RC RA CC PC PSI SI SER).
 */
const DBCOP_TESTS: Record<string, { dbcop: Verdicts; verdicts: string }> = {
  'all-empty-sessions.json': { dbcop: { RC: true, RA: true, CC: true, PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'articulation-chain.dbcop': { dbcop: { PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'causal-chain-seven.dbcop': { dbcop: { RA: true, CC: false }, verdicts: '✓✓✗✗✗✗✗' },
  'causal-chain-six.dbcop': { dbcop: { CC: false }, verdicts: '✓✓✗✗✗✗✗' },
  'causal-chain-valid.dbcop': { dbcop: { CC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'chain-serializable.dbcop': { dbcop: { PC: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'cluster-lost-update.dbcop': { dbcop: { SI: false }, verdicts: '✓✓✓✓✗✗✗' },
  'cluster-write-skew.dbcop': { dbcop: { SER: false }, verdicts: '✓✓✓✓✓✓✗' },
  'committed-read-cycle.dbcop': { dbcop: { RC: false }, verdicts: '✗✗✗✗✗✗✗' },
  'dirty-read.dbcop': { dbcop: { RC: false }, verdicts: '✗✗✗✗✗✗✗' },
  'fractured-visibility.dbcop': { dbcop: { RC: true, RA: false }, verdicts: '✓✗✗✗✗✗✗' },
  'independent-sessions.dbcop': { dbcop: { CC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'interleaved-serializable.dbcop': { dbcop: { SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'long-chain-valid.dbcop': { dbcop: { CC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'long-fork.dbcop': { dbcop: { CC: true, PC: false }, verdicts: '✓✓✓✗✓✗✗' },
  'lost-update.dbcop': { dbcop: { CC: true, PC: true, SI: false, SER: false }, verdicts: '✓✓✓✓✗✗✗' },
  'missed-cause.dbcop': { dbcop: { PC: false }, verdicts: '✓✓✗✗✗✗✗' },
  'newer-then-older.dbcop': { dbcop: { RA: true }, verdicts: '✓✓✗✗✗✗✗' },
  'non-conflicting-writes.dbcop': { dbcop: { SI: true }, verdicts: '✓✓✓✓✓✓✓' },
  'non-repeatable-read.dbcop': { dbcop: { RC: true, RA: false }, verdicts: '✓✗✗✗✗✗✗' },
  'read-initial.dbcop': { dbcop: { RC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'repeated-read-across-txns.dbcop': { dbcop: {}, verdicts: '✓✓✓✓✓✓✓' },
  'serializable-overwrite.dbcop': { dbcop: { PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'session-order.dbcop': { dbcop: { RC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'simple-valid.dbcop': { dbcop: { RC: true, RA: true, CC: true, PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'single-cluster.dbcop': { dbcop: { SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'single-session-two-txns.dbcop': { dbcop: { PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'three-sessions-valid.dbcop': { dbcop: { RC: true, PC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'three-writers-one-reader.dbcop': { dbcop: { CC: true, PC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'two-clusters-singleton.dbcop': { dbcop: { PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'two-clusters.dbcop': { dbcop: { PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'version-none-single-session.dbcop': { dbcop: { RC: true, RA: true, CC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'version-zero-explicit-writer.dbcop': { dbcop: { CC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'version-zero-lost-update.dbcop': { dbcop: { CC: true, SI: false, SER: false }, verdicts: '✓✓✓✓✗✗✗' },
  'version-zero-single-session.dbcop': { dbcop: { RC: true, RA: true, CC: true, PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'wasm-empty.json': { dbcop: { RC: true, RA: true, CC: true, PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'wasm-lost-update.json': { dbcop: { CC: true, SI: false }, verdicts: '✓✓✓✓✗✗✗' },
  'wasm-serializable.json': { dbcop: { PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'wasm-write-read.json': { dbcop: { PC: true, SI: true, SER: true }, verdicts: '✓✓✓✓✓✓✓' },
  'write-read.dbcop': { dbcop: { RC: true, PC: true }, verdicts: '✓✓✓✓✓✓✓' },
  'write-skew.dbcop': { dbcop: { RC: true, CC: true, PC: true, SI: true, SER: false }, verdicts: '✓✓✓✓✓✓✗' },
};

/**
 * Empty dbcop JSON histories (`[]`, `[[], [], []]`) say nothing about their form, and a `.json`
 * file is Jepsen JSON unless it shows dbcop's `"events"`: these two are read with `--format dbcop`.
 */
const DBCOP_FORCED = new Set(['all-empty-sessions.json', 'wasm-empty.json']);

describe("dbcop's test histories (test/fixtures/dbcop-tests)", () => {
  const dir = join(ROOT, 'test', 'fixtures', 'dbcop-tests');
  const files = readdirSync(dir).filter((f) => f.endsWith('.dbcop') || f.endsWith('.json')).sort();
  test('every fixture has its verdicts here, and every verdict its fixture', () => {
    assert.deepEqual(files, Object.keys(DBCOP_TESTS).sort());
  });
  for (const file of files) {
    test(file, () => {
      const src = readHistory({ bytes: readFileSync(join(dir, file)) }, { fileName: file, format: DBCOP_FORCED.has(file) ? 'dbcop' : undefined });
      assert.deepEqual(src.findings.filter((f) => f.code === 'syntax').map((f) => f.message), [], 'reads without a syntax error');
      const a = analyzeSource(src);
      for (const [level, ok] of Object.entries(DBCOP_TESTS[file].dbcop)) {
        assert.equal(a.levels.find((v) => v.level === level)?.consistent, ok, `dbcop: ${level} ${ok ? 'holds' : 'violated'}`);
      }
      assert.equal(verdictString(a), DBCOP_TESTS[file].verdicts);
    });
  }
});

/**
 * Cobra's histories (test/fixtures/cobra, SOURCES.md there): CobraLogs' known serializability
 * violations (whole, or excerpts of the large ones) and two of its benchmark histories, converted
 * from Cobra's binary logs by cobra2hist.ts; each file carries Cobra's verdict as `expect SER …`.
 * IsoCheck's RC RA CC PC PSI SI SER:
 */
const COBRA: Record<string, string> = {
  'chengRW-100.hist': '✓✓✓✓✓✓✓',
  'chengRW-200.hist': '✓✓✓✓✓✓✓',
  'cock-G2.hist': '✓✓✓✓✓✓✗',
  'cock-blog.hist': '✗✗✗✗✗✗✗',
  'fauna-page-excerpt.hist': '✗✗✗✗✗✗✗',
  'yuga-G2-a-excerpt.hist': '✓✓✓✓✓✓✗',
  'yuga-G2-b-excerpt.hist': '✓✓✓✓✓✓✗',
  'yuga-G2-c-excerpt.hist': '✓✓✓✓✓✓✗',
};

describe("Cobra's histories (test/fixtures/cobra)", () => {
  checkHistTable(join(ROOT, 'test', 'fixtures', 'cobra'), COBRA);
});

/** One record of Cobra's binary client log: a tag, then 8-byte big-endian integers. */
function cobraRecord(tag: string, ...fields: bigint[]): Buffer {
  const b = Buffer.alloc(1 + 8 * fields.length);
  b.write(tag, 0, 'latin1');
  fields.forEach((f, i) => b.writeBigUInt64BE(f, 1 + 8 * i));
  return b;
}

test('cobra2hist.ts reads Cobra\'s log records, initial reads and reads of unlogged writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isocheck-cobra-'));
  try {
    const INIT = 0xbebeebeen;
    const NULL = 0xdeadbeefn;
    // T0: t1 writes x (wid 11) and y (wid 12); t2 reads x from t1. T1: t3 reads y initial (null),
    // x from t1, and z from t9, which no log holds; then writes y (wid 13).
    writeFileSync(join(dir, 'T0.log'), Buffer.concat([
      cobraRecord('S', 1n), cobraRecord('W', 11n, 0xa1n, 5n), cobraRecord('W', 12n, 0xa2n, 6n), cobraRecord('C', 1n),
      cobraRecord('S', 2n), cobraRecord('R', 1n, 11n, 0xa1n, 5n), cobraRecord('C', 2n),
    ]));
    writeFileSync(join(dir, 'T1.log'), Buffer.concat([
      cobraRecord('S', 3n), cobraRecord('R', NULL, NULL, 0xa2n, 0n), cobraRecord('R', 1n, 11n, 0xa1n, 5n),
      cobraRecord('R', 9n, 99n, 0xa3n, 7n), cobraRecord('W', 13n, 0xa2n, 8n), cobraRecord('R', INIT, INIT, 0xa4n, 0n), cobraRecord('C', 3n),
    ]));
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'fixtures', 'cobra', 'cobra2hist.ts'), dir, 'synthetic', 'violated'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const body = r.stdout.slice(r.stdout.indexOf('history "Cobra synthetic"'));
    assert.equal(body, [
      'history "Cobra synthetic"', 'expect SER violated', '',
      'session T0', '  t1: w(ka1, 11) w(ka2, 12)', '  t2: r(ka1, 11)', '',
      'session T1', '  t3: r(ka2, init) r(ka1, 11) r(ka3, 99) w(ka2, 13) r(ka4, init)', '',
    ].join('\n'));
    assert.match(r.stdout, /t3 reads ka3 from write 63 of t9, which no log holds/);
    const a = analyzeHistText(r.stdout);
    assert.deepEqual(a.findings.filter((f) => f.code === 'syntax' || f.code === 'expectation-failed').map((f) => f.message), []);
    assert.deepEqual(a.findings.map((f) => f.code).filter((c) => c === 'thin-air'), ['thin-air']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
