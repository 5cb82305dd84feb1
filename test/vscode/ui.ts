// The UI check: the packaged .vsix installed into code-server, driven through Chromium, with screenshots as artifacts.

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { installExtension, startCodeServer, type Profile } from './code-server.ts';
import { RESULTS, ROOT, VSIX, WORK } from './paths.ts';
import { fracturedRead } from './suite/locate.ts';
import { openFile, runCommand, waitForGraph } from './workbench-page.ts';
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
  /** The same after a window reload, drawn without anyone clicking the panel's tab. */
  restoredWitness: string[];
  screenshots: { squiggle: string; hover: string; problems: string; graph: string; restored: string };
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
    const shots = {
      squiggle: join(RESULTS, 'squiggle.png'), hover: join(RESULTS, 'hover.png'), problems: join(RESULTS, 'problems.png'), graph: join(RESULTS, 'graph.png'),
      restored: join(RESULTS, 'graph-after-reload.png'),
    };
    await page.screenshot({ path: shots.squiggle });

    const hover = await showHover(page);
    await page.screenshot({ path: shots.hover });
    // The README's hover picture, re-made on request like the other documentation images.
    if (process.env.ISOCHECK_UPDATE_DOC_IMAGES === '1') copyFileSync(shots.hover, join(ROOT, 'docs', 'images', 'vscode-hover.png'));

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
    const restoredWitness = await reloadAndWaitForGraph(page);
    await page.screenshot({ path: shots.restored });
    return { installedAs, expectedLocation, statusBar, hover, problems, graphWitness, restoredWitness, screenshots: shots };
  } catch (e) {
    await page.screenshot({ path: join(RESULTS, 'ui-failure.png') }).catch(() => undefined);
    throw e;
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Rests the mouse on the error squiggle until VS Code shows its hover; returns the hover's text. */
async function showHover(page: Page): Promise<string> {
  const squiggle = page.locator('.monaco-editor .squiggly-error').first();
  const hover = page.locator('.monaco-hover:not(.hidden)').first();
  for (let attempt = 0; attempt < 6; attempt++) {
    // Measured again on every attempt: code lenses drawn late move the lines down (a fresh-clone
    // CI run once rested the mouse five times where the squiggle had been).
    const box = await squiggle.boundingBox();
    if (!box) throw new Error('the squiggle has no box');
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
  await runCommand(page, 'IsoCheck: Show History Graph');
  const view = await waitForGraph(page);
  await page.waitForTimeout(500);
  return view.witness;
}

/** Developer: Reload Window: the graph panel comes back with its drawing, no click on its tab. */
async function reloadAndWaitForGraph(page: Page): Promise<string[]> {
  const reloaded = page.waitForEvent('load', { timeout: 60_000 });
  await runCommand(page, 'Developer: Reload Window');
  await reloaded;
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
  await page.locator('.tab', { hasText: 'Graph: fractured-read-claimed.hist' }).first().waitFor({ timeout: 60_000 });
  const view = await waitForGraph(page, () => true, 90_000);
  await page.mouse.move(1, 1);
  await page.waitForTimeout(500);
  return view.witness;
}
