// The package's bin, out/cli.js, is executable as built: `npx isocheck` in a clone runs the file itself.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');

// esbuild writes 0644: npx's link to a rebuilt out/cli.js (a fresh clone where npx had run before,
// or `out/` removed and built again) then failed with "Permission denied".
test('out/cli.js is executable and runs by its #! line', () => {
  assert.ok((statSync(CLI).mode & 0o111) !== 0, 'out/cli.js has execute permission');
  const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  assert.equal(execFileSync(CLI, ['--version'], { encoding: 'utf8' }).trim(), version);
});
