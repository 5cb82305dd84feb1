// Builds the test bundles and runs the extension test suite in code-server through @vscode/test-electron's runTests.

import { runTests } from '@vscode/test-electron';
import { build } from 'esbuild';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD, RESULTS, ROOT, WORK } from './paths.ts';
import type { CaseResult } from './suite/harness.ts';
import { prepareWorkspace } from './workspace.ts';

export interface ExtensionTestRun {
  exitCode: number;
  results: CaseResult[];
  /** The launcher's logs (VS Code's console, code-server, the page), for failure reports. */
  logDir: string;
}

/** The suite runs in the extension host's Node: one CommonJS file, `vscode` provided by the host. */
async function bundleSuite(): Promise<string> {
  const outfile = join(BUILD, 'suite.js');
  await build({
    entryPoints: [join(ROOT, 'test/vscode/suite/index.ts')], outfile, bundle: true, platform: 'node', target: 'node20',
    format: 'cjs', external: ['vscode'], sourcemap: 'inline', logLevel: 'warning',
  });
  return outfile;
}

/** runTests wants an executable; this one runs the launcher (code-server + Chromium) under tsx. */
function writeLauncher(): string {
  const path = join(BUILD, 'code-server-test-launcher');
  const tsx = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
  writeFileSync(path, `#!/bin/sh\n# Written by test/vscode/run.ts.\nexec "${process.execPath}" --import "${tsx}" "${join(ROOT, 'test/vscode/launcher.ts')}" "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

export async function runExtensionTests(): Promise<ExtensionTestRun> {
  mkdirSync(BUILD, { recursive: true });
  if (!existsSync(join(ROOT, 'out/client.js'))) throw new Error('out/client.js is missing: run `npm run build` first');
  const suite = await bundleSuite();
  const launcher = writeLauncher();
  const folder = prepareWorkspace('extension-tests');
  const profile = join(WORK, 'profiles', 'extension-tests');
  rmSync(profile, { recursive: true, force: true });
  const resultsFile = join(BUILD, 'extension-test-results.json');
  rmSync(resultsFile, { force: true });
  const tmp = join(WORK, 'tmp');
  mkdirSync(tmp, { recursive: true });
  let exitCode = 0;
  try {
    await runTests({
      vscodeExecutablePath: launcher,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: suite,
      launchArgs: [folder, `--user-data-dir=${join(profile, 'user-data')}`, `--extensions-dir=${join(profile, 'extensions')}`],
      extensionTestsEnv: { ISOCHECK_TEST_RESULTS: resultsFile, ISOCHECK_TEST_TMP: tmp },
    });
  } catch (e) {
    exitCode = typeof (e as { code?: unknown }).code === 'number' ? (e as { code: number }).code : 1;
  }
  const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) as CaseResult[] : [];
  return { exitCode, results, logDir: RESULTS };
}
