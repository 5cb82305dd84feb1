// The litmus histories in examples/: regression tests whose expectations must all hold.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { parseHist } from '../server/src/engine/syntax/hist-parser.ts';
import { LEVELS, parseLevel } from '../server/src/engine/levels/levels.ts';
import { fmtFinding } from './helpers/marked.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'examples');
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.hist')).sort();

/** The intended verdicts kept in a `# expected: PC violated, mixed ok, …` comment line. */
function expectedComment(text: string): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const line of text.split('\n')) {
    const m = /^#\s*expected:\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    for (const item of m[1].split(',')) {
      const [name, verdict] = item.trim().split(/\s+/);
      if (!name || (verdict !== 'ok' && verdict !== 'violated')) continue;
      out.set(name === 'mixed' ? 'mixed' : parseLevel(name) ?? name, verdict === 'ok');
    }
  }
  return out;
}

test('there are at least 15 examples', () => {
  assert.ok(files.length >= 15, `only ${files.length} examples`);
});

describe('examples/*.hist', () => {
  for (const file of files) {
    describe(file, () => {
      const text = readFileSync(join(EXAMPLES, file), 'utf8');

      test('has at least one expect line', () => {
        assert.ok(parseHist(text).directives.expects.length >= 1);
      });

      test('has expect lines for RC, RA and CC (examples/README.md)', () => {
        const levels = parseHist(text).directives.expects.map((e) => e.level);
        for (const l of ['RC', 'RA', 'CC']) assert.ok(levels.includes(l as (typeof levels)[number]), l);
      });

      test('has no error diagnostics: every expectation holds', () => {
        const a = analyzeHistText(text);
        const errs = a.findings.filter((f) => f.severity === 'error').map((f) => `${fmtFinding(text, f)} ${f.message}`);
        assert.deepEqual(errs, []);
      });

      test('parses without syntax or name errors', () => {
        const codes = new Set(['syntax', 'duplicate-name', 'undefined-transaction', 'unknown-level']);
        assert.deepEqual(parseHist(text).findings.filter((f) => codes.has(f.code)), []);
      });

      test('every decided verdict agrees with its expect lines and its "# expected:" comment', () => {
        const a = analyzeHistText(text, { levels: LEVELS });
        const wanted = expectedComment(text);
        for (const e of parseHist(text).directives.expects) wanted.set(e.level, e.ok);
        assert.ok(wanted.size > 0);
        for (const [name, ok] of wanted) {
          const v = name === 'mixed' ? a.mixed : a.levels.find((x) => x.level === name);
          assert.ok(v, `${name} is evaluated`);
          if (v.consistent === null) continue; // PC/PSI/SI/SER while CC holds: not decided yet
          assert.equal(v.consistent, ok, `${name} ${ok ? 'ok' : 'violated'}`);
        }
      });

      test('a violated level has a witness; a mixed verdict exists exactly with a level directive or tags', () => {
        const p = parseHist(text);
        const a = analyzeHistText(text);
        for (const v of a.levels) if (v.consistent === false) assert.ok(v.witness, `${v.level} witness`);
        assert.equal(a.mixed !== null, p.directives.level !== null || p.hasTags);
      });
    });
  }
});
