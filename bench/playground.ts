// Playground bench: a 1,000,000-event plume file checked in the browser (worker) against `isocheck check` on the same file.
//
// Needs Chromium (test/vscode/install-tools.sh) and `npm run build` (the CLI); builds the playground itself.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { generateHistory, optionsForEvents } from '../server/src/engine/gen/generate.ts';
import { toPlumeString } from '../server/src/engine/gen/history-writers.ts';
import { buildPlayground, OUT, servePlayground } from '../playground/build.ts';
import { launchChromium } from '../test/vscode/browser.ts';
import { WORK } from '../test/vscode/paths.ts';

const ROOT = join(import.meta.dirname, '..');
const events = Number(process.argv[2] ?? 1_000_000);

async function main(): Promise<void> {
  const file = join(WORK, 'tmp', `bench-${events}.plume`);
  mkdirSync(join(WORK, 'tmp'), { recursive: true });
  if (!existsSync(file)) writeFileSync(file, toPlumeString(generateHistory(optionsForEvents(events, { seed: 3, sessions: 16 }))));
  console.log(`${events.toLocaleString('en')} events, ${(statSync(file).size / 1e6).toFixed(1)} MB`);

  let t0 = performance.now();
  const cli = spawnSync(process.execPath, [join(ROOT, 'out/cli.js'), 'check', file], { encoding: 'utf8' });
  const cliMs = performance.now() - t0;
  console.log(`  isocheck check: ${(cliMs / 1000).toFixed(1)} s (exit ${cli.status})`);

  await buildPlayground();
  console.log(`  first load JavaScript: ${['main.js'].map((f) => `${f} ${(gzipSync(readFileSync(join(OUT, f))).length / 1024).toFixed(0)} KiB`).join(', ')} (gzip)`);
  const { server, url } = await servePlayground();
  const browser = await launchChromium();
  const page = await browser.newPage();
  t0 = performance.now();
  await page.goto(url);
  await page.locator('svg.graph g.box').first().waitFor();
  console.log(`  playground interactive (first graph drawn): ${(performance.now() - t0).toFixed(0)} ms`);
  t0 = performance.now();
  await page.locator('#open').setInputFiles(file);
  await page.locator('#file-summary li[data-level="SER"]').waitFor({ timeout: 600_000 });
  const browserMs = performance.now() - t0;
  console.log(`  playground: ${(browserMs / 1000).toFixed(1)} s to the verdicts (${(browserMs / cliMs).toFixed(2)}× the CLI)`);
  await browser.close();
  server.close();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
