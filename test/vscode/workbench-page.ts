// Driving code-server's workbench through Playwright: Quick Open, the Command Palette, code lenses and the graph webview's frame.

import type { Frame, Page } from 'playwright-core';

/** Opens a workspace file through Quick Open and waits for its tab. */
export async function openFile(page: Page, name: string): Promise<void> {
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

/** Runs a command by its Command Palette title (e.g. `IsoCheck: Show History Graph`). */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('Control+Shift+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 20_000 });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title.replace(/^[^:]*: /, '') }).first().waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
}

/** Clicks the code lens item titled `title` (e.g. `Show graph`, `SER ✗`) in the visible editor. */
export async function clickLens(page: Page, title: string): Promise<void> {
  const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: title }).first();
  await lens.waitFor({ timeout: 60_000 });
  await lens.click();
}

/** What the graph webview shows: its witness edges (`kind:from->to`, sorted), witness boxes, its level and its message. */
export interface GraphView {
  frame: Frame;
  witness: string[];
  /** Highlighted boxes: a cycle's transactions, or those a strong level's explanation names when there is no cycle. */
  boxes: number;
  level: string;
  message: string;
}

/**
 * Waits until the graph webview (two iframes deep) draws a witness (edges, or boxes for a violation without a cycle) and `accept` likes what it shows;
 * frames come and go while VS Code sets the webview up, so every frame is asked again on each poll.
 */
export async function waitForGraph(page: Page, accept: (v: GraphView) => boolean = () => true, timeoutMs = 60_000): Promise<GraphView> {
  const deadline = Date.now() + timeoutMs;
  let last: GraphView | undefined;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        const v = await frame.evaluate(() => {
          const svg = document.querySelector('svg.graph');
          if (!svg) return null;
          const witness = Array.from(svg.querySelectorAll('g.edge.witness')).map((e) => `${e.getAttribute('data-kind')}:${e.getAttribute('data-from')}->${e.getAttribute('data-to')}`).sort();
          const select = document.querySelector<HTMLSelectElement>('select.level-select');
          return { witness, boxes: svg.querySelectorAll('g.box.witness').length, level: select?.value ?? '', message: document.querySelector('.message')?.textContent ?? '' };
        });
        if (v) {
          last = { frame, ...v };
          if ((v.witness.length > 0 || v.boxes > 0) && accept(last)) return last;
        }
      } catch {
        // a frame that went away while we looked
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the graph panel did not draw the expected witness; last seen: ${JSON.stringify(last && { ...last, frame: undefined })}`);
}

/** The smallest on-screen height (px) of the text in the witness's boxes that lies inside the drawing's visible area. */
export async function smallestWitnessText(frame: Frame): Promise<{ px: number; texts: number }> {
  return frame.evaluate(() => {
    const svg = document.querySelector('svg.graph');
    if (!svg) return { px: 0, texts: 0 };
    const view = svg.getBoundingClientRect();
    let px = Infinity;
    let texts = 0;
    for (const t of Array.from(svg.querySelectorAll('g.box.witness text'))) {
      const r = t.getBoundingClientRect();
      const inside = r.width > 0 && r.left >= view.left && r.right <= view.right && r.top >= view.top && r.bottom <= view.bottom;
      if (!inside) continue;
      texts++;
      px = Math.min(px, r.height);
    }
    return { px: texts > 0 ? px : 0, texts };
  });
}
