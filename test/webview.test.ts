// The graph webview bundle in headless Chromium (stub acquireVsCodeApi): boxes, edges, the witness, clicks, escaping, screenshots.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { generateHistory } from '../server/src/engine/gen/generate.ts';
import { toHistString } from '../server/src/engine/gen/history-writers.ts';
import { coEdgesFor, layoutGraph, verdictOf, witnessSentences, type ViewLevel } from '../server/src/engine/export/layout.ts';
import { LIGHT_PALETTE, renderSvg } from '../server/src/engine/export/svg-writer.ts';
import type { AnalysisResult } from '../server/src/protocol/shapes.ts';
import { analysisOf, analysisOfExample, CROSSINGS, LIVE_CROSSINGS, openGraph, type GraphPage, type Theme } from './helpers/graph-page.ts';
import { launchChromium } from './vscode/browser.ts';
import { CHROMIUM } from './vscode/paths.ts';
import { MIN_STORY_SCALE } from '../webview/src/fit-view.ts';

const ROOT = join(import.meta.dirname, '..');
const SHOTS = join(ROOT, 'test-results', 'webview');
const DOC_IMAGES = join(ROOT, 'docs', 'images');
const skip = !existsSync(CHROMIUM) && process.env.CI !== 'true' ? `needs Chromium at ${CHROMIUM} (test/vscode/install-tools.sh)` : false;

async function show(b: Browser, a: AnalysisResult, theme: Theme = 'light', state?: unknown): Promise<GraphPage> {
  const g = await openGraph(b, theme, undefined, state);
  await g.send({ type: 'analysis', analysis: a });
  await g.page.locator('g.box').first().waitFor();
  return g;
}

async function count(g: GraphPage, selector: string): Promise<number> {
  // Inside the drawing (the legend has sample edges too).
  return g.page.locator(`svg.graph ${selector}`).count();
}

/** Measures the drawn SVG in the page (a string: the bundler's helpers do not exist there). */
const MEASURE = `(() => {
  ${CROSSINGS}
  const box = (e) => { const b = e.getBBox(); return { x: b.x, y: b.y, w: b.width, h: b.height, t: e.textContent || '' }; };
  const labels = [...document.querySelectorAll('text.label')].map(box);
  const boxes = [...document.querySelectorAll('g.box')].map((g) => ({ rect: box(g.querySelector('rect')), texts: [...g.querySelectorAll('text')].map(box) }));
  const hit = (p, q) => p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
  const inside = (p, q) => p.x >= q.x - 0.5 && p.y >= q.y - 0.5 && p.x + p.w <= q.x + q.w + 0.5 && p.y + p.h <= q.y + q.h + 0.5;
  const problems = [];
  labels.forEach((p, i) => {
    labels.slice(i + 1).forEach((q) => { if (hit(p, q)) problems.push('labels "' + p.t + '" and "' + q.t + '" overlap'); });
    for (const b of boxes) if (hit(p, b.rect)) problems.push('label "' + p.t + '" overlaps a box');
  });
  for (const b of boxes) for (const x of b.texts) if (!inside(x, b.rect)) problems.push('"' + x.t + '" sticks out of its box');
  // The witness's lines are 3 px wide (the others 1.3): none may run through a witness label.
  const witness = [...document.querySelectorAll('g.edge')].filter((g) => g.querySelector('path').getAttribute('stroke-width') === '3');
  problems.push(...crossings(witness.map((g) => [g.querySelector('text.label'), g.querySelector('path')])));
  return { problems, labels: labels.length };
})()`;

/** MEASURE for the live webview, whose boxes are translated groups: screen rectangles of labels and boxes. */
const LIVE_MEASURE = `(() => {
  const r = (e) => { const b = e.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width, h: b.height, t: e.textContent || '' }; };
  const labels = [...document.querySelectorAll('svg.graph text.label')].filter((e) => e.textContent).map(r);
  const boxes = [...document.querySelectorAll('svg.graph g.box rect')].map(r);
  const hit = (p, q) => p.x < q.x + q.w && q.x < p.x + p.w && p.y < q.y + q.h && q.y < p.y + p.h;
  const problems = [];
  labels.forEach((p, i) => {
    labels.slice(i + 1).forEach((q) => { if (hit(p, q)) problems.push('labels "' + p.t + '" and "' + q.t + '" overlap'); });
    for (const b of boxes) if (hit(p, b)) problems.push('label "' + p.t + '" overlaps a box');
  });
  return { problems, labels: labels.length };
})()`;

/** The smallest drawn box text (px on screen), whether the witness's boxes are in view, the other boxes' opacity. */
const FIT_FACTS = `(() => {
  const view = document.querySelector('svg.graph').getBoundingClientRect();
  const texts = [...document.querySelectorAll('svg.graph g.box text')].map((e) => parseFloat(getComputedStyle(e).fontSize) * (e.getScreenCTM() ? e.getScreenCTM().a : 0));
  const witness = [...document.querySelectorAll('svg.graph g.box.witness rect')].map((e) => e.getBoundingClientRect());
  const cited = [...document.querySelectorAll('svg.graph g.box.cited rect')].map((e) => e.getBoundingClientRect());
  const shown = (r) => r.left >= view.left - 1 && r.top >= view.top - 1 && r.left < view.right && r.top < view.bottom;
  const whole = (r) => shown(r) && r.right <= view.right + 1 && r.bottom <= view.bottom + 1;
  const faded = [...document.querySelectorAll('svg.graph g.box:not(.witness):not(.cited)')].map((e) => getComputedStyle(e).opacity);
  const unfaded = [...document.querySelectorAll('svg.graph g.box.cited')].map((e) => getComputedStyle(e).opacity);
  return { min: Math.min(...texts), inView: witness.every(shown), someInView: witness.some(shown), witness: witness.length, faded,
    cited: cited.length, citedWhole: cited.every(whole), unfaded };
})()`;

/** Boxes the drawing area's left or top edge cuts through (part in view, part not), whether ⊥ is whole in view, the scale. */
const EDGE_CUTS = `(() => {
  const view = document.querySelector('svg.graph').getBoundingClientRect();
  const cut = [];
  let bottom = false;
  for (const g of document.querySelectorAll('svg.graph g.box')) {
    const r = g.querySelector('rect').getBoundingClientRect();
    if ((r.left < view.left - 0.5 && r.right > view.left + 0.5) || (r.top < view.top - 0.5 && r.bottom > view.top + 0.5)) cut.push(g.getAttribute('data-name'));
    if (g.classList.contains('bottom')) bottom = r.left >= view.left - 0.5 && r.top >= view.top - 0.5 && r.right <= view.right + 0.5 && r.bottom <= view.bottom + 0.5;
  }
  // The story (the witness's boxes and the readers its edges cite), in drawing units: Fit goes below scale 1 only when it is wider or taller than the view.
  const story = [...document.querySelectorAll('svg.graph g.box.witness rect, svg.graph g.box.cited rect')].map((e) => e.getBoundingClientRect());
  const k = document.querySelector('g.viewport').getScreenCTM().a;
  const storyW = story.length ? (Math.max(...story.map((r) => r.right)) - Math.min(...story.map((r) => r.left))) / k : 0;
  const storyH = story.length ? (Math.max(...story.map((r) => r.bottom)) - Math.min(...story.map((r) => r.top))) / k : 0;
  return { cut, bottom, scale: k, storyWider: storyW > view.width + 0.5 || storyH > view.height + 0.5 };
})()`;

// A hang guard for the whole suite, not a speed check: its 30-odd tests take 80–90 s on an idle
// 2-core machine, and past 120 s on a loaded one (the first-load sweep opens a page per example).
describe('graph webview in Chromium', { skip, timeout: 300_000 }, () => {
  let browser: Browser;
  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('fractured read: one box per lane, wr and co edges, the RA cycle highlighted and listed', async () => {
    const a = analysisOfExample('fractured-read.hist');
    const g = await show(browser, a);
    const { page } = g;
    assert.equal(await page.locator('select.level-select').inputValue(), 'RA', 'the violated level is shown first');
    assert.equal(await count(g, 'g.box[data-lane="0"]'), 1);
    assert.equal(await count(g, 'g.box[data-lane="1"]'), 1);
    assert.equal(await count(g, 'g.box.bottom'), 1);
    assert.equal(await count(g, 'g.edge.wr'), a.wr.length);
    assert.equal(a.wr.length, 2, 'T2 reads x from T1 and y from ⊥');
    // The RA co edges, plus the witness's ⊥ → T1 so edge drawn for the cycle.
    assert.equal(await count(g, 'g.edge.co'), coEdgesFor(a, 'RA').length);
    const witness = await page.locator('svg.graph g.edge.witness').evaluateAll((es) => es.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-from')}->${e.getAttribute('data-to')}`).sort());
    assert.deepEqual(witness, ['co:1->0', 'so:0->1']);
    assert.equal(await count(g, 'g.box.witness'), 2, 'T1 and ⊥ are on the cycle');
    const items = await page.locator('ol.witness-list li').allInnerTexts();
    assert.equal(items.length, 2);
    assert.match(items[0], /^T1 → init \[co y\] T1 must commit before the initial state/);
    assert.match(await page.locator('p.message').innerText(), /^Fractured read \(RA\)/, 'the anomaly is named first');
    await page.screenshot({ path: join(SHOTS, 'fractured-read-light.png') });
    await page.close();
  });

  test('an analysis sent with a level (a lens click) shows that level; the next one keeps it', async () => {
    const a = analysisOfExample('write-skew.hist');
    const g = await show(browser, a);
    assert.equal(await g.page.locator('select.level-select').inputValue(), 'SER', 'the weakest violated level first');
    await g.send({ type: 'analysis', analysis: a, level: 'RC' });
    await g.page.locator('p.message', { hasText: 'RC holds' }).waitFor();
    assert.equal(await g.page.locator('select.level-select').inputValue(), 'RC');
    await g.send({ type: 'analysis', analysis: a });
    await g.page.locator('p.message', { hasText: 'RC holds' }).waitFor();
    assert.equal(await g.page.locator('select.level-select').inputValue(), 'RC', 'the choice is kept');
    await g.page.close();
  });

  test('list-append: ww and rw edges drawn with kind labels at the levels that use them, the cycle highlighted, kinds toggle', async () => {
    // Lost update: T1 and T2 both read x = [] and append; T3 read x = [1, 2]. ww T1 → T2 (version order), rw T2 → T1.
    const a = analysisOfExample('la-lost-update.hist');
    assert.deepEqual(a.order?.map((e) => `${e.kind}:${e.from}->${e.to}:${e.key}`).sort(), ['rw:2->1:x', 'ww:1->2:x']);
    const g = await show(browser, a);
    const { page } = g;
    const edges = async (): Promise<string[]> => page.locator('svg.graph g.edge').evaluateAll((es) => es.map((e) =>
      `${e.getAttribute('data-kind')}:${e.getAttribute('data-from')}->${e.getAttribute('data-to')}${e.classList.contains('witness') ? '*' : ''} ${e.querySelector('text')?.textContent ?? ''}`).sort());
    await page.locator('select.level-select').selectOption('CC');
    // CC: ww (a G0 / G1c cycle breaks it), no rw (only G-single and up use it).
    assert.deepEqual(await edges(), ['wr:2->3 x', 'ww:1->2 ww x']);
    await page.locator('select.level-select').selectOption('SER');
    assert.equal(await page.locator('.toolbar .verdict').innerText(), 'SER violated');
    assert.deepEqual(await edges(), ['rw:2->1* 2 · rw x', 'wr:2->3 x', 'ww:1->2* 1 · ww x']);
    assert.equal(await count(g, 'g.box.witness'), 2, 'T1 and T2 are on the cycle');
    const items = await page.locator('ol.witness-list li').allInnerTexts();
    assert.equal(items.length, 2);
    assert.match(items[0], /^T1 → T2 \[ww x\] T1 must commit before T2: T2 appended 2 to x right after T1's 1: T3 read x = \[1, 2\]/);
    assert.match(items[1], /^T2 → T1 \[rw x\] T2 must commit before T1: T2 read x = \[\], missing T1's append of 1/);
    // Witness edges are drawn in the witness colour; the others in their kind's colour, with their own arrowheads.
    const stroke = (sel: string): Promise<string> => page.locator(`svg.graph ${sel} path.line`).first().evaluate((e) => getComputedStyle(e).stroke);
    assert.equal(await stroke('g.edge.rw.witness'), await stroke('g.edge.ww.witness'));
    // The ww / rw toggles show (this history has such edges); rt does not (no intervals). A toggle hides non-witness edges of its kind.
    assert.equal(await page.locator('.toggle-ww').isVisible(), true);
    assert.equal(await page.locator('.toggle-rw').isVisible(), true);
    assert.equal(await page.locator('.toggle-rt').isVisible(), false);
    await page.locator('select.level-select').selectOption('CC');
    await page.locator('.toggle-ww input').uncheck();
    assert.equal(await count(g, 'g.edge.ww'), 0);
    assert.equal((await g.page.evaluate(() => (window as unknown as { __state: { kinds: { ww: boolean } } }).__state)).kinds.ww, false);
    await page.locator('.toggle-ww input').check();
    assert.equal(await count(g, 'g.edge.ww'), 1);
    // A click on a ww edge reveals the read that shows the version order.
    await page.locator('svg.graph g.edge.ww').dispatchEvent('click');
    const reveal = (await g.posted()).filter((m) => m.type === 'reveal').pop();
    assert.deepEqual(reveal, { type: 'reveal', uri: a.uri, range: a.order.find((e) => e.kind === 'ww')!.range });
    // The live drawing (not only the SVG export): no label overlaps another label or a box.
    await page.locator('select.level-select').selectOption('SER');
    const live = await page.evaluate<{ problems: string[]; labels: number }>(LIVE_MEASURE);
    assert.deepEqual(live, { problems: [], labels: 3 });
    await page.screenshot({ path: join(SHOTS, 'la-lost-update.png') });
    await page.close();
  });

  test('list-append with intervals: rt edges at SSER (the reduction of real time), the realtime cycle highlighted, rt toggles', async () => {
    const a = analysisOfExample('la-stale-read-realtime.hist');
    const g = await show(browser, a);
    const { page } = g;
    await page.locator('select.level-select').selectOption('SSER');
    const kinds = await page.locator('svg.graph g.edge').evaluateAll((es) => es.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-from')}->${e.getAttribute('data-to')}${e.classList.contains('witness') ? '*' : ''}`).sort());
    assert.deepEqual(kinds, ['rt:1->2*', 'rt:2->3', 'rw:2->1*', 'wr:1->3']);
    assert.deepEqual(await page.locator('svg.graph g.edge.witness text').allTextContents().then((t) => t.sort()), ['1 · rt', '2 · rw x']);
    assert.match((await page.locator('ol.witness-list li').allInnerTexts())[0], /^T1 → T2 \[rt\] T1 must commit before T2: T1 ended \(at 10\) before T2 started \(at 20\)/);
    assert.equal(await page.locator('.toggle-rt').isVisible(), true);
    await page.locator('.toggle-rt input').uncheck();
    assert.equal(await count(g, 'g.edge.rt'), 1, 'only the witness rt edge stays');
    // SER does not use real time: no rt edges there.
    await page.locator('select.level-select').selectOption('SER');
    assert.equal(await count(g, 'g.edge.rt'), 0);
    await page.locator('select.level-select').selectOption('SSER');
    await page.locator('.toggle-rt input').check();
    assert.deepEqual((await page.evaluate<{ problems: string[]; labels: number }>(LIVE_MEASURE)).problems, []);
    await page.screenshot({ path: join(SHOTS, 'la-stale-read-realtime.png') });
    await page.close();
  });

  test('a click on a box or an edge posts a reveal of its source range', async () => {
    const a = analysisOfExample('fractured-read.hist');
    const g = await show(browser, a);
    const t2 = a.transactions.find((t) => t.name === 'T2')!;
    await g.page.locator('g.box[data-name="T2"] rect').click();
    const ra = verdictOf(a, 'RA')!.witness!;
    await g.page.locator('svg.graph g.edge.witness[data-kind="co"]').dispatchEvent('click');
    const posted = (await g.posted()).filter((m) => m.type === 'reveal');
    assert.deepEqual(posted[0], { type: 'reveal', uri: a.uri, range: t2.extent });
    assert.deepEqual(posted[1], { type: 'reveal', uri: a.uri, range: ra.cycle[0].range });
    assert.equal(await count(g, 'g.box.selected'), 0, 'the edge click moved the selection');
    assert.equal(await count(g, 'g.edge.selected'), 1);
    // The editor's cursor inside T2 highlights it.
    await g.send({ type: 'cursor', uri: a.uri, position: t2.extent!.start });
    await g.page.locator('g.box.cursor[data-name="T2"]').waitFor();
    // Keyboard: a focused box reveals on Enter.
    await g.page.locator('g.box[data-name="T2"]').focus();
    await g.page.keyboard.press('Enter');
    const last = (await g.posted()).filter((m) => m.type === 'reveal').pop();
    assert.deepEqual(last, { type: 'reveal', uri: a.uri, range: t2.extent });
    // Malformed messages are ignored.
    await g.send({ type: 'analysis', analysis: { uri: 1 } });
    await g.send({ type: 'reveal' });
    assert.equal(await count(g, 'g.box'), 3);
    await g.page.close();
  });

  test('level selector and edge toggles; state (zoom, selection, level) survives a reload', async () => {
    const a = analysisOfExample('write-skew.hist');
    const g = await show(browser, a);
    await g.page.locator('select.level-select').selectOption('SER');
    assert.equal(await count(g, 'ol.witness-list li') > 0 || (await g.page.locator('p.message').innerText()).length > 0, true);
    await g.page.locator('.toggle-wr input').uncheck();
    assert.equal(await count(g, 'g.edge.wr:not(.witness)'), 0);
    await g.page.locator('g.box[data-name="T1"] rect').click();
    await g.page.mouse.move(600, 400);
    await g.page.mouse.wheel(0, -300);
    await g.page.waitForTimeout(200);
    const saved = await g.page.evaluate(() => (window as unknown as { __state: { level: string; kinds: { wr: boolean }; selected: unknown; transform: { k: number } } }).__state);
    assert.equal(saved.level, 'SER');
    assert.equal(saved.kinds.wr, false);
    assert.deepEqual(saved.selected, { kind: 'txn', name: 'T1' });
    await g.page.close();
    // A restarted panel gets its state back (the serializer hands it to the new webview).
    const again = await show(browser, a, 'light', saved);
    assert.equal(await again.page.locator('select.level-select').inputValue(), 'SER');
    assert.equal(await again.page.locator('.toggle-wr input').isChecked(), false);
    assert.equal(await count(again, 'g.box.selected[data-name="T1"]'), 1);
    const transform = await again.page.locator('g.viewport').getAttribute('transform');
    assert.match(transform ?? '', new RegExp(`scale\\(${saved.transform.k.toFixed(3).slice(0, 4)}`));
    await again.page.close();
  });

  test('a hostile quoted value and key render as text, never as markup', async () => {
    const text = `history "<script>alert(2)</script>"
session s1
  T1: w("<i>k</i>", "<img src=x onerror=alert(1)>") w(y, 1)
session s2
  T2: r(y, init) r("<i>k</i>", "<img src=x onerror=alert(1)>")
`;
    const a = analysisOf(text);
    const g = await show(browser, a);
    const { page } = g;
    assert.equal(await page.locator('img, b, i, script:not([nonce])').count(), 0, 'no element was injected');
    const ops = await page.locator('g.box[data-name="T1"] text.op').allTextContents();
    assert.ok(ops.some((o) => o.includes('"<img src=x')), ops.join(' | '));
    assert.ok((await page.locator('g.edge.wr text').allTextContents()).some((t) => t.includes('<i>k</i>')));
    assert.equal(await page.locator('.toolbar .title').innerText(), '<script>alert(2)</script>');
    await page.waitForTimeout(100);
    assert.deepEqual(g.dialogs, []);
    await page.screenshot({ path: join(SHOTS, 'hostile-values.png') });
    await page.close();
  });

  test('only the host draws: an analysis from another origin or a synthetic event is ignored, the host\'s is drawn', async () => {
    const a = analysisOfExample('write-skew.hist');
    const forged = JSON.stringify({ type: 'analysis', analysis: { ...a, title: 'FORGED' } });
    const g = await openGraph(browser);
    // Dispatched synchronously: had the view taken them, they would be drawn when evaluate returns.
    await g.page.evaluate((json) => {
      window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(json) as unknown }));
      window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(json) as unknown, origin: 'https://attacker.example', source: window }));
    }, forged);
    assert.equal(await count(g, 'g.box'), 0);
    assert.notEqual(await g.page.locator('.toolbar .title').innerText(), 'FORGED');
    await g.send({ type: 'analysis', analysis: a });
    await g.page.locator('.toolbar .title', { hasText: 'write skew' }).waitFor();
    assert.ok(await count(g, 'g.box') > 0);
    await g.page.close();
  });

  test('the exported SVG of the current drawing is well-formed XML', async () => {
    const a = analysisOf(`session s1\n  T1: w(x, "a<&>\\"b") w(y, 1)\nsession s2\n  T2: r(y, init) r(x, "a<&>\\"b")\n`);
    const g = await show(browser, a, 'dark');
    await g.page.locator('select.export-format').selectOption('svg');
    await g.page.locator('button.export').click();
    const exported = (await g.posted()).find((m) => m.type === 'export');
    assert.ok(exported && exported.type === 'export' && exported.svg);
    const errors = await g.page.evaluate((s) => {
      const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
      return doc.getElementsByTagName('parsererror').length + (doc.documentElement.nodeName === 'svg' ? 0 : 100);
    }, exported.svg);
    assert.equal(errors, 0);
    assert.match(exported.svg, /a&lt;&amp;&gt;\\&quot;b/);
    await g.page.close();
  });

  test('light and dark screenshots', async () => {
    // Long fork at SER: a four-edge cycle through two anti-dependencies.
    const a = analysisOfExample('long-fork.hist');
    const state = { uri: a.uri, level: 'SER', kinds: { so: true, wr: true, co: true }, transform: null, selected: null, depth: 1 };
    for (const theme of ['light', 'dark'] as const) {
      const g = await show(browser, a, theme, state);
      assert.equal(await count(g, 'g.edge.witness'), 4);
      await g.page.waitForTimeout(150);
      await g.page.screenshot({ path: join(SHOTS, `long-fork-${theme}.png`) });
      if (process.env.ISOCHECK_UPDATE_DOC_IMAGES === '1') {
        mkdirSync(DOC_IMAGES, { recursive: true });
        await g.page.screenshot({ path: join(DOC_IMAGES, `graph-${theme}.png`) });
      }
      await g.page.close();
    }
  });

  test('2,000 transactions draw interactively; beyond, the witness neighbourhood with "showing N of M" and Widen', async (t) => {
    const text = (n: number): string => toHistString(generateHistory({
      sessions: 16, transactions: n, opsPerTxn: 3, keys: 200, distribution: 'uniform', zipfS: 0.8, readRatio: 0.5, store: 'permissive', seed: 7, abortRatio: 0.02,
    }));
    const big = analysisOf(text(2000));
    let start = Date.now();
    const g = await show(browser, big);
    const ms = Date.now() - start;
    assert.equal(await count(g, 'g.box'), 2001);
    assert.equal(await g.page.locator('button.widen').isHidden(), true);
    start = Date.now();
    await g.page.locator('.toggle-co input').uncheck();
    const toggleMs = Date.now() - start;
    t.diagnostic(`2,000 transactions: first drawing ${ms} ms, a toggle ${toggleMs} ms`);
    await g.page.close();

    const huge = analysisOf(text(3000));
    const h = await show(browser, huge);
    const scale = await h.page.locator('.scale').innerText();
    assert.match(scale, /^showing \d+ of 3000 transactions/);
    const shown = await count(h, 'g.box');
    assert.ok(shown < 3001 && shown > 1);
    await h.page.locator('button.widen').click();
    await h.page.waitForTimeout(100);
    assert.ok(await count(h, 'g.box') > shown, 'widening shows more');
    // Every witness edge is drawn in the witness colour, whatever its kind.
    const strokes = await h.page.locator('svg.graph g.edge.witness:not(.selected) path.line').evaluateAll((es) => [...new Set(es.map((e) => getComputedStyle(e).stroke))]);
    assert.equal(strokes.length, 1, strokes.join(' '));
    const after = await h.page.evaluate<{ min: number; someInView: boolean; witness: number }>(FIT_FACTS);
    assert.ok(after.witness > 0 && after.someInView, `the witness stays highlighted and in view: ${JSON.stringify(after)}`);
    assert.ok(after.min >= 11 - 1e-6, `text at ${after.min} px`);
    await h.page.screenshot({ path: join(SHOTS, 'neighbourhood.png') });
    await h.page.close();
  });

  test('the drawn SVG of every example at every level: no two labels overlap, no label overlaps a box, box text inside its box (measured bounding boxes)', async (t) => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const files = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.hist')).sort();
    let drawings = 0;
    let labels = 0;
    for (const f of files) {
      const a = analysisOf(readFileSync(join(ROOT, 'examples', f), 'utf8'), `file:///examples/${f}`);
      for (const level of ['RC', 'RA', 'CC', 'PC', 'PSI', 'SI', 'SER', 'SSER', 'mixed'] as ViewLevel[]) {
        const l = layoutGraph(a, { level, kinds: { so: true, wr: true, co: true }, visible: null });
        const svg = renderSvg(l, LIGHT_PALETTE, l.witness ? witnessSentences(a, l.witness) : []);
        await page.setContent(`<!DOCTYPE html><html><body style="margin:0">${svg}</body></html>`);
        const r = await page.evaluate<{ problems: string[]; labels: number }>(MEASURE);
        assert.deepEqual(r.problems, [], `${f} at ${level}`);
        drawings++;
        labels += r.labels;
      }
    }
    t.diagnostic(`${drawings} drawings, ${labels} labels measured`);
    await page.close();
  });

  test('Fit at the default 50/50 split keeps box text at 11 px or more, the witness in view and the rest faded', async () => {
    for (const f of ['write-skew.hist', 'fractured-read.hist', 'long-fork.hist', 'causality-violation.hist']) {
      const a = analysisOfExample(f);
      const g = await openGraph(browser, 'light', { width: 640, height: 760 });
      await g.send({ type: 'analysis', analysis: a });
      await g.page.locator('g.box').first().waitFor();
      const m = await g.page.evaluate<{ min: number; inView: boolean; witness: number; faded: string[]; cited: number; citedWhole: boolean; unfaded: string[] }>(FIT_FACTS);
      assert.ok(m.min >= 11 - 1e-6, `${f}: box text at ${m.min} px`);
      assert.ok(m.witness > 0 && m.inView, `${f}: the witness is in view`);
      assert.ok(m.faded.every((o) => Number(o) < 0.5), `${f}: the others are faded`);
      // The readers whose reads forced the cycle's edges: whole in view and not faded (long fork's T3 and T4 were cut and left out).
      assert.ok(m.citedWhole && m.unfaded.every((o) => Number(o) === 1), `${f}: the cited readers are whole in view, unfaded`);
      if (f === 'long-fork.hist') assert.equal(m.cited, 2, 'long fork: T3 and T4 are cited');
      assert.deepEqual((await g.page.evaluate<{ problems: string[] }>(LIVE_MEASURE)).problems, [], `${f}: labels in the live drawing`);
      await g.page.screenshot({ path: join(SHOTS, `fit-${f.replace('.hist', '')}.png`) });
      await g.page.close();
    }
  });

  test('Export is disabled where the level holds; witness steps are numbered like the list', async () => {
    const a = analysisOfExample('write-skew.hist');
    const g = await show(browser, a);
    await g.page.locator('select.level-select').selectOption('SI');
    assert.equal(await g.page.locator('button.export').isDisabled(), true, 'SI holds for write skew');
    await g.page.locator('select.level-select').selectOption('SER');
    assert.equal(await g.page.locator('button.export').isDisabled(), false);
    const labels = await g.page.locator('svg.graph g.edge.witness text').allTextContents();
    const items = await g.page.locator('ol.witness-list li').count();
    assert.deepEqual(labels.map((l) => Number(l.split(' ')[0])).sort(), Array.from({ length: items }, (_, i) => i + 1));
    const selectColour = await g.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--ic-select').trim());
    const edgeColours = await g.page.evaluate(() => ['--ic-so', '--ic-wr', '--ic-rc', '--ic-ra', '--ic-cc', '--ic-ww', '--ic-rw', '--ic-witness'].map((v) => getComputedStyle(document.documentElement).getPropertyValue(v).trim()));
    assert.ok(!edgeColours.includes(selectColour), `${selectColour} vs ${edgeColours.join(' ')}`);
    // The pin: the host keeps this document instead of following the active editor.
    await g.page.locator('button.pin').click();
    assert.deepEqual((await g.posted()).filter((m) => m.type === 'pin'), [{ type: 'pin', pinned: true }]);
    assert.equal(await g.page.locator('button.pin').getAttribute('aria-pressed'), 'true');
    await g.page.close();
  });
  test('a cleared view (its document closed) keeps no verdict, level, count or enabled Export of the analysis that is gone', async () => {
    const g = await show(browser, analysisOfExample('long-fork.hist'));
    const { page } = g;
    assert.equal(await page.locator('.verdict').innerText(), 'PC violated');
    await g.send({ type: 'cleared', uri: 'file:///histories/examples/long-fork.hist', reason: 'The document was closed; open it again to see its graph.' });
    await page.locator('p.message', { hasText: 'The document was closed' }).waitFor();
    // Before the fix the toolbar still said "PC violated", "4 transactions", and Export was enabled (a click did nothing).
    assert.equal(await page.locator('.verdict').innerText(), '');
    assert.equal(await page.locator('.scale').innerText(), '');
    assert.equal(await page.locator('button.export').isDisabled(), true);
    assert.equal(await page.locator('select.level-select').isDisabled(), true);
    assert.equal(await page.locator('select.level-select option').count(), 0);
    // A new analysis brings them back.
    await g.send({ type: 'analysis', analysis: analysisOfExample('long-fork.hist') });
    await page.locator('.verdict', { hasText: 'PC violated' }).waitFor();
    assert.equal(await page.locator('select.level-select').isDisabled(), false);
    assert.equal(await page.locator('button.export').isDisabled(), false);
    await page.close();
  });

  test('before any analysis arrives, Export is disabled', async () => {
    const g = await openGraph(browser);
    assert.equal(await g.page.locator('button.export').isDisabled(), true);
    await g.page.close();
  });

  test('the legend shows a visible sample line for every entry, the witness cycle included', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const g = await show(browser, analysisOfExample('long-fork.hist'), theme);
      const strokes = await g.page.evaluate<[string, string][]>(`[...document.querySelectorAll('.legend g.edge path.line')].map((p) => [p.parentNode.getAttribute('class'), getComputedStyle(p).stroke])`);
      // The witness sample had stroke "none": its colour rule only applied under `.edges`.
      for (const [cls, stroke] of strokes) assert.ok(stroke !== 'none' && stroke !== '' && !/rgba\(0, 0, 0, 0\)/.test(stroke), `${theme}: legend "${cls}" has stroke ${stroke}`);
      assert.ok(strokes.some(([cls]) => cls.includes('witness')));
      await g.page.close();
    }
  });

  test('no witness line runs through a witness label in the live view (write skew\'s "2 · rw y" sat on the rw x edge)', async () => {
    for (const [f, level] of [['write-skew.hist', 'SER'], ['long-fork.hist', 'SER'], ['stale-read-realtime.hist', 'SSER'], ['read-skew.hist', 'RA'], ['dirty-write.hist', 'RC']] as const) {
      const g = await show(browser, analysisOfExample(f));
      await g.page.locator('select.level-select').selectOption(level);
      assert.ok(await count(g, 'g.edge.witness') >= 2, `${f} at ${level}: a witness is drawn`);
      assert.deepEqual(await g.page.evaluate<string[]>(LIVE_CROSSINGS), [], `${f} at ${level}`);
      assert.deepEqual((await g.page.evaluate<{ problems: string[] }>(LIVE_MEASURE)).problems, [], `${f} at ${level}: labels apart from labels and boxes`);
      if (f === 'write-skew.hist') await g.page.screenshot({ path: join(SHOTS, 'write-skew-witness-labels.png') });
      await g.page.close();
    }
  });

  test('first load at the 50/50 split (scale 1 unless the story is wider): no box cut at the view\'s left or top edge, ⊥ whole beside the witness', async (t) => {
    // Fit centred the witness: in a drawing wider than the panel the view began inside ⊥'s box (stale read: 22 px of it cut off).
    // la-g0-dirty-write and long fork were here: ⊥ now gives way to the readers whose reads forced their cycles' edges
    // (long fork's T3 and T4, which its explanation is about), drawn beside the cycle (graph-fit.test.ts).
    const mustShow = ['stale-read-realtime.hist', 'la-g2-item-write-skew.hist', 'la-stale-read-realtime.hist', 'write-skew.hist'];
    const files = readdirSync(join(ROOT, 'examples')).filter((f) => f.endsWith('.hist')).sort();
    let shown = 0;
    for (const f of files) {
      const g = await openGraph(browser, 'light', { width: 640, height: 760 });
      await g.send({ type: 'analysis', analysis: analysisOfExample(f) });
      await g.page.locator('g.box').first().waitFor();
      const m = await g.page.evaluate<{ cut: string[]; bottom: boolean; scale: number; storyWider: boolean }>(EDGE_CUTS);
      assert.deepEqual(m.cut, [], `${f}: boxes cut at the view's edge`);
      assert.ok(m.scale >= 1 || (m.storyWider && m.scale >= MIN_STORY_SCALE - 1e-6), `${f}: scale ${m.scale}`);
      assert.ok((await g.page.evaluate<{ inView: boolean; witness: number }>(FIT_FACTS)).inView, `${f}: the witness in view`);
      if (mustShow.includes(f)) assert.ok(m.bottom, `${f}: ⊥ whole in view`);
      if (m.bottom) shown++;
      if (f === 'stale-read-realtime.hist') await g.page.screenshot({ path: join(SHOTS, 'first-load-bottom.png') });
      await g.page.close();
    }
    t.diagnostic(`⊥ whole in view on first load for ${shown} of ${files.length} examples`);
  });

  test('switching levels brings the new level\'s witness into view (long fork at a 50/50 split: PC, then SER)', async () => {
    const g = await openGraph(browser, 'light', { width: 640, height: 760 });
    await g.send({ type: 'analysis', analysis: analysisOfExample('long-fork.hist') });
    await g.page.locator('g.box').first().waitFor();
    assert.equal(await g.page.locator('select.level-select').inputValue(), 'PC');
    assert.ok((await g.page.evaluate<{ inView: boolean }>(FIT_FACTS)).inView, 'PC\'s witness is in view after Fit');
    await g.page.locator('select.level-select').selectOption('SER');
    await g.page.waitForTimeout(400);
    const m = await g.page.evaluate<{ inView: boolean; witness: number }>(FIT_FACTS);
    // Before the fix the view stayed on PC's witness (T1, T2): SER's readers T3 and T4 were off the right edge.
    assert.ok(m.witness === 4 && m.inView, `SER's ${m.witness} witness boxes are in view`);
    await g.page.close();
  });
});
