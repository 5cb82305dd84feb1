// Other checkers' own test histories (PolySI's unit tests) as fixtures: IsoCheck's verdicts equal theirs.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
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
