// The README's VS Code screenshots: the packaged extension in code-server, each anomaly's file beside its graph (the default 50/50 split) in three themes.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './browser.ts';
import { startCodeServer, writeUserSettings, type Profile } from './code-server.ts';
import { RESULTS, ROOT, WORK } from './paths.ts';
import { installVsix } from './ui.ts';
import { clickLens, openFile, runCommand, smallestWitnessText, waitForGraph } from './workbench-page.ts';
import { prepareWorkspace } from './workspace.ts';

export const THEMES = {
  light: { name: 'Default Light Modern', body: 'vs' },
  dark: { name: 'Default Dark Modern', body: 'vs-dark' },
  'high-contrast': { name: 'Default High Contrast', body: 'hc-black' },
} as const;
export type ThemeId = keyof typeof THEMES;

/** The big history: `isocheck gen` with a read-committed store, whose fractured reads violate RA. */
export const BIG_FILE = 'generated-5000.hist';
const BIG_GEN = ['--txns', '5000', '--sessions', '16', '--ops', '4', '--store', 'read-committed', '--seed', '7'];

export interface Shot {
  /** File stem in docs/images: `vscode-<id>-<theme>.png`. */
  id: string;
  file: string;
  /** The anomaly's name as the diagnostic states it. */
  anomaly: RegExp;
}

export const SHOTS: Shot[] = [
  { id: 'write-skew', file: 'write-skew.hist', anomaly: /\bWrite skew \(/ },
  { id: 'fractured-read', file: 'fractured-read.hist', anomaly: /\bFractured read \(/ },
  { id: 'long-fork', file: 'long-fork.hist', anomaly: /\bLong fork \(/ },
  { id: 'generated-5000', file: BIG_FILE, anomaly: /\bFractured read \(/ },
];

export interface ShotResult {
  id: string;
  theme: ThemeId;
  path: string;
  level: string;
  /** The editor's inline problem shown in the shot (it names the anomaly). */
  problem: string;
  /** The graph panel's witness line. */
  message: string;
  witness: string[];
  boxes: number;
  /** Smallest on-screen height of the witness boxes' text, px, and how many texts were measured. */
  textPx: number;
  texts: number;
  /** The graph panel's share of the editor area's width. */
  graphShare: number;
}

const DOC_IMAGES = join(ROOT, 'docs', 'images');
const SHOT_SETTINGS = { 'editor.minimap.enabled': false, 'workbench.activityBar.location': 'hidden', 'breadcrumbs.enabled': false };

/** Takes every shot in every theme; writes test-results/vscode/readme/ always and docs/images/ with ISOCHECK_UPDATE_DOC_IMAGES=1. */
export async function takeDocShots(): Promise<ShotResult[]> {
  const profile: Profile = { dir: join(WORK, 'profiles', 'shots') };
  installVsix(profile);
  const folder = prepareWorkspace('shots');
  const gen = spawnSync(process.execPath, [join(ROOT, 'out/cli.js'), 'gen', ...BIG_GEN, '-o', join(folder, BIG_FILE)], { encoding: 'utf8' });
  if (gen.status !== 0) throw new Error(`isocheck gen failed: ${gen.stderr}`);
  const out = join(RESULTS, 'readme');
  mkdirSync(out, { recursive: true });
  const update = process.env.ISOCHECK_UPDATE_DOC_IMAGES === '1';
  const results: ShotResult[] = [];
  // One code-server per theme, set in the settings it starts with (the theme picker's keyboard flow is not dependable headless).
  for (const theme of Object.keys(THEMES) as ThemeId[]) {
    writeUserSettings(profile, { ...SHOT_SETTINGS, 'workbench.colorTheme': THEMES[theme].name });
    const server = await startCodeServer(profile);
    const browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
      await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 60_000 });
      await page.locator(`.monaco-workbench.${THEMES[theme].body}`).waitFor({ timeout: 30_000 });
      // More room for the editor and the graph: no explorer.
      await page.locator('.monaco-workbench').click({ position: { x: 600, y: 300 } });
      await runCommand(page, 'View: Close Primary Side Bar');
      for (const shot of SHOTS) {
        const path = join(out, `vscode-${shot.id}-${theme}.png`);
        results.push({ ...(await takeShot(page, shot, theme, path)), path });
        if (update) copyFileSync(path, join(DOC_IMAGES, `vscode-${shot.id}-${theme}.png`));
      }
    } catch (e) {
      await page.screenshot({ path: join(out, `failure-${theme}.png`) }).catch(() => undefined);
      throw e;
    } finally {
      await browser.close();
      await server.stop();
    }
  }
  writeFileSync(join(out, 'shots.json'), JSON.stringify(results, null, 2));
  return results;
}

/** One file at the default split: the editor on its first violation, the graph opened from the "Show graph" lens. */
async function takeShot(page: Page, shot: Shot, theme: ThemeId, path: string): Promise<Omit<ShotResult, 'path'>> {
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tab').first().waitFor({ state: 'detached', timeout: 20_000 });
  await openFile(page, shot.file);
  await clickLens(page, 'Show graph');
  const view = await waitForGraph(page, () => true, 90_000);
  // The editor's problem that names the anomaly, opened inline (F8 steps through the file's problems).
  // Keyboard only: a click could land on a lens, and Playwright scrolls the editor to click.
  await page.keyboard.press('Control+1');
  await page.keyboard.press('Control+Home');
  const problem = await stepToProblem(page, shot.anomaly);
  await page.mouse.move(1, 1);
  await page.waitForTimeout(800);
  const settled = await waitForGraph(page);
  const text = await smallestWitnessText(settled.frame);
  const share = await page.evaluate(() => {
    const groups = Array.from(document.querySelectorAll('.editor-group-container')).map((g) => g.getBoundingClientRect().width);
    const total = groups.reduce((a, b) => a + b, 0);
    return groups.length === 2 && total > 0 ? groups[1] / total : 0;
  });
  await page.screenshot({ path });
  return { id: shot.id, theme, level: view.level, problem, message: settled.message, witness: settled.witness, boxes: settled.boxes, textPx: text.px, texts: text.texts, graphShare: share };
}

/** Presses F8 until the inline problem widget shows a message matching `anomaly`; returns that message. */
async function stepToProblem(page: Page, anomaly: RegExp): Promise<string> {
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('F8');
    const widget = page.locator('.marker-widget').first();
    await widget.waitFor({ timeout: 20_000 });
    await page.waitForTimeout(150);
    const text = await widget.innerText();
    if (anomaly.test(text)) return text;
    seen.push(text.split('\n')[0]);
  }
  throw new Error(`no problem matching ${anomaly} among: ${seen.join(' | ')}`);
}
