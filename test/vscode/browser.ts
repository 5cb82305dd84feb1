// Debian's headless Chromium through playwright-core (Playwright's own browser download is unreachable here).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, WORK } from './paths.ts';

export async function launchChromium(): Promise<Browser> {
  // Playwright creates a fresh profile per launch under TMPDIR: keep those out of /tmp.
  const tmp = join(WORK, 'tmp');
  mkdirSync(tmp, { recursive: true });
  process.env.TMPDIR = tmp;
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the background-networking flags the closed network floods the log.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/**
 * VS Code ignores a test payload unless `developmentOptions.enableSmokeTestDriver` is set, and code-server
 * has no flag for it: patch the workbench configuration meta tag as the page parses it.
 * (A string, not a function: the runner's transpiler would inject helpers the page lacks.)
 */
export async function enableSmokeTestDriver(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    const patch = (meta) => {
      if (meta.dataset.isocheckPatched) return;
      const settings = JSON.parse(meta.getAttribute('data-settings'));
      settings.developmentOptions = Object.assign({}, settings.developmentOptions, { enableSmokeTestDriver: true });
      meta.setAttribute('data-settings', JSON.stringify(settings));
      meta.dataset.isocheckPatched = '1';
    };
    new MutationObserver(() => {
      const meta = document.getElementById('vscode-workbench-web-configuration');
      if (meta) patch(meta);
    }).observe(document, { childList: true, subtree: true });
  })();`);
}
