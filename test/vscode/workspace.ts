// A fresh copy of the examples for each run (tests edit files), plus a copy of fractured-read whose violations are errors.

import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, WORK } from './paths.ts';

export function prepareWorkspace(name: string): string {
  // Named `examples` so the explorer in the screenshots reads as the repository's folder.
  const dir = join(WORK, 'workspaces', name, 'examples');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, 'examples'), dir, { recursive: true, filter: (src) => !src.endsWith('.md') });
  // Commenting the `expect` lines out keeps every position while the claimed level `RA` decides the errors.
  const fractured = readFileSync(join(ROOT, 'examples/fractured-read.hist'), 'utf8');
  writeFileSync(join(dir, 'fractured-read-claimed.hist'), fractured.replace(/^expect /gm, '# xpect '));
  return dir;
}
