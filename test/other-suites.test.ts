// Other checkers' own test histories (PolySI's unit tests, Elle's test suite) as fixtures: IsoCheck's verdicts against theirs.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
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
