// Where the in-editor tests keep their tools, builds, workspaces and artifacts (all outside git-tracked paths).

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
/** Everything generated lives here (gitignored): tools, bundles, profiles, workspaces. */
export const WORK = join(ROOT, '.vscode-test');
export const TOOLS = join(WORK, 'tools');
export const CODE_SERVER_ENTRY = join(TOOLS, 'node_modules/code-server/out/node/entry.js');
export const BUILD = join(WORK, 'build');
/** Screenshots and logs a person can look at after a run (gitignored, kept by CI as artifacts). */
export const RESULTS = join(ROOT, 'test-results', 'vscode');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const VSIX = join(ROOT, 'isocheck-0.1.0.vsix');

/** What is missing for the in-editor tests, as sentences (empty when everything is there). */
export function missingTools(): string[] {
  const missing: string[] = [];
  if (!existsSync(CHROMIUM)) missing.push(`Chromium (${CHROMIUM})`);
  if (!existsSync(CODE_SERVER_ENTRY)) missing.push(`code-server (${CODE_SERVER_ENTRY})`);
  return missing;
}
