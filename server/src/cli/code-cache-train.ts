// Build step: one check of a few small files through out/cli.js with the launcher told to save V8's code cache as it ends (launcher.ts).

import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CACHE = join(ROOT, 'out', 'cli-main.jsc');
// The common command (every level, the table) on one small file of each common reader: .hist, plume, Jepsen's EDN.
// Small on purpose: the cache holds what the run compiled, and a larger cache takes longer to load
// (trained on every example, 600 KB, it slowed a small file's check by as much as it saved on the examples).
const inputs = ['examples/fractured-read.hist', 'test/fixtures/isovista/yugabyte_tcc.txt', 'test/fixtures/elle/la-internal.edn'].filter((p) => existsSync(join(ROOT, p)));

rmSync(CACHE, { force: true });
const r = spawnSync(process.execPath, [join(ROOT, 'out', 'cli.js'), 'check', '--quiet', ...inputs], {
  cwd: ROOT, env: { ...process.env, ISOCHECK_CODE_CACHE: 'write' }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8',
});
// Exit 1 is the examples' findings; anything else means the CLI itself failed, which the build must not hide.
if (r.status !== 0 && r.status !== 1) {
  process.stderr.write(`code cache: the training run failed (status ${r.status}, ${r.signal ?? 'no signal'}):\n${r.stderr}`);
  process.exit(1);
}
if (!existsSync(CACHE)) {
  process.stderr.write('code cache: the training run wrote no cache\n');
  process.exit(1);
}
