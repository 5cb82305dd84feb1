// The minimised `.hist` witness stays read-consistent (docs/hist-language.md): it keeps every
// transaction whose append a kept list read returns (and whose write a kept register read
// returns), so re-checking the file finds no read-consistency error the history did not have,
// and the level is still violated with the same anomaly.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { analyzeHistText, type Analysis } from '../server/src/engine/analyze.ts';
import { exportWitness } from '../server/src/engine/export/witness-export.ts';
import { exportWitnessOfText } from '../server/src/engine/export/witness-of-text.ts';
import type { ViewLevel } from '../server/src/engine/export/layout.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { computeReadsFrom } from '../server/src/engine/model/reads-from.ts';
import { restrictHistory } from '../server/src/engine/model/restrict.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { smallListHistory } from './helpers/listappend-random.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
/** Codes of findings that name a level's violation rather than a kind of anomaly. */
const LEVEL_CODES = new Set<string>([...LEVELS, 'mixed']);

function violatedLevels(a: Analysis): ViewLevel[] {
  const out: ViewLevel[] = a.levels.filter((v) => v.consistent === false).map((v) => v.level);
  if (a.mixed?.consistent === false) out.push('mixed');
  return out;
}

function anomalyAt(a: Analysis, level: ViewLevel): string | undefined {
  const v = level === 'mixed' ? a.mixed : a.levels.find((x) => x.level === level);
  return v?.consistent === false ? v.witness?.anomaly : undefined;
}

/** The text without its `expect` lines: a regression file's findings are all information otherwise. */
function withoutExpects(text: string): string {
  return text.split('\n').filter((l) => !/^\s*expect\b/i.test(l)).join('\n');
}

function errorCodes(text: string): Set<string> {
  return new Set(analyzeHistText(withoutExpects(text)).findings.filter((f) => f.severity === 'error' && !LEVEL_CODES.has(f.code)).map((f) => f.code));
}

/**
 * Exports `level`'s witness of `text` as .hist and checks it: it parses, re-checking it finds no
 * error the history did not have (a garbage read where the history had none, say), its own
 * `expect` holds, and the level is violated with the anomaly the history's witness names.
 */
function checkExport(name: string, text: string, a: Analysis, level: ViewLevel): string {
  const claimed = parseHist(text).directives.level?.level ?? null;
  const r = exportWitness(a, { file: name, level, format: 'hist', claimed });
  assert.ok(r.ok, `${name} ${level}: ${r.ok ? '' : r.message}`);
  const written = parseHist(r.text);
  assert.deepEqual(written.findings.map((f) => f.code), [], `${name} ${level}: parses cleanly\n${r.text}`);
  const want = anomalyAt(a, level);
  const allowed = errorCodes(text);
  const extra = [...errorCodes(r.text)].filter((c) => c !== want && !allowed.has(c));
  assert.deepEqual(extra, [], `${name} ${level}: no read-consistency error the history did not have\n${r.text}`);
  const b = analyzeHistText(r.text, { levels: level === 'mixed' ? [] : [level] });
  assert.equal(anomalyAt(b, level), want, `${name} ${level}: still violated, with the same anomaly\n${r.text}`);
  assert.ok(!b.findings.some((f) => f.code === 'expectation-failed'), `${name} ${level}: its expectation holds\n${r.text}`);
  return r.text;
}

describe('minimised .hist witnesses of list-append histories stay read-consistent', () => {
  test('read skew: the appender of the element the kept read returns is kept (was: a garbage read)', () => {
    const text = 'session s1\n  T1: a(x, 1) a(y, 1)\nsession s2\n  T2: r(y, [1]) r(x, [])\n';
    const r = exportWitnessOfText(text, { file: 'gs.hist', level: 'SER', format: 'hist' });
    assert.ok(r.ok);
    assert.match(r.text, /^ {2}T1: a\(x, 1\) a\(y, 1\)$/m);
    assert.match(r.text, /^ {2}T2: r\(y, \[1\]\) r\(x, \[\]\)$/m);
    const b = analyzeHistText(r.text);
    assert.ok(!b.findings.some((f) => f.code === 'garbage-read'), r.text);
    assert.equal(anomalyAt(b, 'SER'), 'G-single');
    assert.ok(!b.findings.some((f) => f.code === 'expectation-failed'));
  });

  test('lost update: T0, whose element both readers return, is kept', () => {
    const text = 'session s0\n  T0: a(x, 1)\nsession s1\n  T1: r(x, [1]) a(x, 2)\nsession s2\n  T2: r(x, [1]) a(x, 3)\n';
    for (const level of ['PSI', 'SER'] as const) {
      const r = exportWitnessOfText(text, { file: 'lu.hist', level, format: 'hist' });
      assert.ok(r.ok);
      assert.match(r.text, /^ {2}T0: a\(x, 1\)$/m, r.text);
      assert.deepEqual([...errorCodes(r.text)].filter((c) => c !== 'lost-update'), [], r.text);
    }
  });

  test('a part where another anomaly breaks the level is not taken: lost update with a third reader keeps its G-single', () => {
    const text = readFileSync(join(EXAMPLES, 'la-lost-update.hist'), 'utf8');
    const a = analyzeHistText(text);
    assert.equal(anomalyAt(a, 'PSI'), 'G-single');
    const written = checkExport('la-lost-update.hist', text, a, 'PSI');
    assert.match(written, /T3: r\(x, \[1, 2\]\)/, 'the read that orders the two appends stays');
  });

  test('restricting a history drops a list read whose element lost its append (the op, not only its transaction)', () => {
    const h = parseHist('session s1\n  T1: a(x, 1) a(y, 1)\nsession s2\n  T2: r(y, [1]) r(x, [])\n').history;
    const rf = computeReadsFrom(h);
    const dropAppendOfY = new Uint8Array(h.opCount);
    dropAppendOfY[1] = 1; // T1's a(y, 1)
    const sub = restrictHistory(h, rf, new Uint8Array(h.txnCount).fill(1), dropAppendOfY);
    assert.equal(sub.opCount, 2, 'a(x, 1) and r(x, []) stay; r(y, [1]) goes with the append it read');
  });

  test('every violating la-*.hist example, at every level it violates', () => {
    let exported = 0;
    for (const f of readdirSync(EXAMPLES).filter((n) => n.startsWith('la-') && n.endsWith('.hist')).sort()) {
      const text = readFileSync(join(EXAMPLES, f), 'utf8');
      const a = analyzeHistText(text);
      for (const level of violatedLevels(a)) {
        checkExport(f, text, a, level);
        exported++;
      }
    }
    assert.ok(exported >= 90, `${exported} witnesses exported`);
  });

  test('300 random list-append histories (aborted and unknown outcomes, real times), at every level they violate', () => {
    let exported = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const text = smallListHistory(seed);
      const a = analyzeHistText(text);
      for (const level of violatedLevels(a)) {
        checkExport(`random ${seed}`, text, a, level);
        exported++;
      }
    }
    assert.ok(exported >= 500, `${exported} witnesses exported`);
  });

  test('the mixed verdict of 150 random tagged list-append histories', () => {
    let exported = 0;
    for (let seed = 1; seed <= 150; seed++) {
      let n = 0;
      // Every third transaction tagged; untagged ones run at the file's level.
      const tagged = smallListHistory(seed).replace(/^(\s+T\d+)(?=[ :@])/gm, (m) => (n++ % 3 === 0 ? `${m} [${LEVELS[(seed + n) % 7]}]` : m));
      const text = `level ${LEVELS[seed % 7]}\n${tagged}`;
      const a = analyzeHistText(text);
      if (a.mixed?.consistent !== false) continue;
      checkExport(`tagged ${seed}`, text, a, 'mixed');
      exported++;
    }
    assert.ok(exported >= 40, `${exported} witnesses exported`);
  });
});

describe('minimised .hist witnesses of register histories stay read-consistent', () => {
  test('every violating register example and 200 generated histories with aborts: no read-consistency error added', () => {
    let exported = 0;
    const histories: [string, string][] = readdirSync(EXAMPLES).filter((n) => !n.startsWith('la-') && n.endsWith('.hist')).sort()
      .map((f) => [f, readFileSync(join(EXAMPLES, f), 'utf8')]);
    for (let seed = 1; seed <= 200; seed++) {
      const g = generateHistory({
        sessions: 2 + (seed % 3), transactions: 6 + (seed % 7), opsPerTxn: 2 + (seed % 2), keys: 3 + (seed % 3), distribution: 'uniform', zipfS: 0.8,
        readRatio: 0.5, store: 'permissive', seed, abortRatio: seed % 2 === 0 ? 0.2 : 0,
      });
      histories.push([`seed ${seed}`, toHistString(g, `generated ${seed}`)]);
    }
    for (const [name, text] of histories) {
      const a = analyzeHistText(text, { levels: ['RC', 'RA', 'CC'] });
      const allowed = errorCodes(text);
      for (const level of violatedLevels(a)) {
        const claimed = parseHist(text).directives.level?.level ?? null;
        const r = exportWitness(a, { file: name, level, format: 'hist', claimed });
        assert.ok(r.ok, `${name} ${level}`);
        const want = anomalyAt(a, level);
        assert.deepEqual([...errorCodes(r.text)].filter((c) => c !== want && !allowed.has(c)), [], `${name} ${level}\n${r.text}`);
        exported++;
      }
    }
    assert.ok(exported >= 300, `${exported} witnesses exported`);
  });
});
