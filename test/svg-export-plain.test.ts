// Every drawing renderSvg writes passes the host's export check (isPlainSvg): the check lists renderSvg's vocabulary, so a new element or attribute there must be added to it.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { analysisData, sourceOfAnalysis } from '../server/src/engine/export/analysis-data.ts';
import { layoutGraph, witnessSentences, type ViewLevel } from '../server/src/engine/export/layout.ts';
import { isPlainSvg, LIGHT_PALETTE, renderSvg } from '../server/src/engine/export/svg-writer.ts';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { LEVELS } from '../server/src/engine/levels/levels.ts';
import { randomOptions } from './helpers/differential.ts';

const ALL_KINDS = { so: true, wr: true, co: true, ww: true, rw: true, rt: true };

/** The drawings of one history at every level (and mixed), with the witness sentences the view adds. */
function drawings(text: string): string[] {
  const data = analysisData(sourceOfAnalysis(analyzeHistText(text), 'file:///x.hist'));
  const out: string[] = [];
  for (const level of [...LEVELS, 'mixed'] as ViewLevel[]) {
    const layout = layoutGraph(data, { level, kinds: ALL_KINDS, visible: null });
    out.push(renderSvg(layout, LIGHT_PALETTE, layout.witness ? witnessSentences(data, layout.witness) : []));
  }
  return out;
}

test('the drawings of every example and of 300 random histories, at every level, pass the export check', () => {
  const dir = join(import.meta.dirname, '..', 'examples');
  const texts = readdirSync(dir).filter((f) => f.endsWith('.hist')).map((f) => readFileSync(join(dir, f), 'utf8'));
  for (let seed = 1; seed <= 300; seed++) texts.push(toHistString(generateHistory({ ...randomOptions(seed), abortRatio: 0.2 })));
  let checked = 0;
  for (const text of texts) {
    for (const svg of drawings(text)) {
      assert.ok(isPlainSvg(svg), `refused:\n${svg.slice(0, 2000)}\nof\n${text}`);
      checked++;
    }
  }
  assert.ok(checked > 2000, `${checked} drawings`);
});

test('a url() spelled with a CSS escape in a presentation attribute is refused (CSS reads u\\72l( as url( and fetches it)', () => {
  const svg = (fill: string): string => `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect x="0" y="0" width="10" height="10" fill="${fill}"/></svg>\n`;
  assert.ok(isPlainSvg(svg('#fff')));
  assert.equal(isPlainSvg(svg('url(https://example.com/t.svg#p)')), false);
  assert.equal(isPlainSvg(svg('u\\72l(https://example.com/t.svg#p)')), false);
  assert.equal(isPlainSvg(svg('\\75 rl(https://example.com/t.svg#p)')), false);
});
