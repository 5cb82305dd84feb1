// The UI check: the packaged .vsix installed into code-server, driven through Chromium, with screenshots as artifacts.

import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { installExtension, startCodeServer, type Profile } from './code-server.ts';
import { RESULTS, VSIX, WORK } from './paths.ts';
import { fracturedRead } from './suite/locate.ts';
import { prepareWorkspace } from './workspace.ts';

export interface UiCheck {
  installedAs: string;
  /** Where VS Code shows the RA read in the Problems panel, e.g. `Ln 23, Col 7` (1-based). */
  expectedLocation: string;
  statusBar: string;
  hover: string;
  problems: string[];
  /** The graph panel's witness edges (kind:from->to) as drawn in its webview. */
  graphWitness: string[];
  screenshots: { squiggle: string; hover: string; problems: string; graph: string };
}

/** Installs the .vsix into a fresh extensions folder; returns the installed extension's folder name. */
export function installVsix(profile: Profile): string {
  rmSync(profile.dir, { recursive: true, force: true });
  installExtension(profile, VSIX);
  const installed = readdirSync(join(profile.dir, 'extensions')).find((d) => d.startsWith('isocheck.isocheck-'));
  if (!installed || !existsSync(join(profile.dir, 'extensions', installed, 'out/server.js'))) {
    throw new Error(`the .vsix did not install with its server: ${readdirSync(join(profile.dir, 'extensions')).join(', ')}`);
  }
  return installed;
}

export async function runUiCheck(): Promise<UiCheck> {
  const profile: Profile = { dir: join(WORK, 'profiles', 'ui') };
  const installedAs = installVsix(profile);
  const folder = prepareWorkspace('ui');
  mkdirSync(RESULTS, { recursive: true });
  const server = await startCodeServer(profile);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
  try {
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
    await openFile(page, 'fractured-read-claimed.hist');

    const squiggle = page.locator('.monaco-editor .squiggly-error').first();
    await squiggle.waitFor({ timeout: 60_000 });
    const status = page.locator('.statusbar-item', { hasText: 'RC ✓' }).first();
    await status.waitFor({ timeout: 30_000 });
    const shots = { squiggle: join(RESULTS, 'squiggle.png'), hover: join(RESULTS, 'hover.png'), problems: join(RESULTS, 'problems.png'), graph: join(RESULTS, 'graph.png') };
    await page.screenshot({ path: shots.squiggle });

    const hover = await showHover(page);
    await page.screenshot({ path: shots.hover });

    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Shift+M');
    const rows = page.locator('.markers-panel .monaco-list-row');
    await rows.first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    const problems = await rows.allInnerTexts();
    await page.screenshot({ path: shots.problems });
    const read = fracturedRead(readFileSync(join(folder, 'fractured-read-claimed.hist'), 'utf8')).readYInit;
    const expectedLocation = `Ln ${read.line + 1}, Col ${read.start + 1}`;
    const statusBar = await status.innerText();
    const graphWitness = await showGraphPanel(page);
    await page.screenshot({ path: shots.graph });
    return { installedAs, expectedLocation, statusBar, hover, problems, graphWitness, screenshots: shots };
  } catch (e) {
    await page.screenshot({ path: join(RESULTS, 'ui-failure.png') }).catch(() => undefined);
    throw e;
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function openFile(page: Page, name: string): Promise<void> {
  // Quick Open needs the workbench to have focus first.
  await page.locator('.monaco-workbench').click({ position: { x: 600, y: 300 } });
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 20_000 });
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  await page.locator(`.tab[aria-label^="${name}"]`).first().waitFor({ timeout: 20_000 });
}

/** Rests the mouse on the error squiggle until VS Code shows its hover; returns the hover's text. */
async function showHover(page: Page): Promise<string> {
  const squiggle = page.locator('.monaco-editor .squiggly-error').first();
  const box = await squiggle.boundingBox();
  if (!box) throw new Error('the squiggle has no box');
  const hover = page.locator('.monaco-hover:not(.hidden)').first();
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 2 + attempt);
    try {
      await hover.waitFor({ state: 'visible', timeout: 4000 });
      await page.waitForTimeout(300);
      return await hover.innerText();
    } catch {
      await page.mouse.move(10, 10);
    }
  }
  throw new Error('no hover appeared over the squiggle');
}

/** Runs "IsoCheck: Show History Graph" from the Command Palette; returns the witness edges drawn in the webview. */
async function showGraphPanel(page: Page): Promise<string[]> {
  await page.keyboard.press('Escape');
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 20_000 });
  await input.fill('>IsoCheck: Show History Graph');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show History Graph' }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  // The webview is two iframes deep; find the frame that holds the drawing.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        const edges = await frame.locator('svg.graph g.edge.witness').evaluateAll((es) => es.map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-from')}->${e.getAttribute('data-to')}`));
        if (edges.length > 0) {
          await page.waitForTimeout(500);
          return edges.sort();
        }
      } catch {
        // a frame that went away while we looked
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error('the graph panel did not draw a witness');
}
