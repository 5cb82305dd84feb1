// Runs a bench script on the code as it ships: bundled by esbuild, as the CLI and the language server are.
// Under tsx each module is CommonJS and an imported binding is a getter call: a CC saturation of
// 100,000 transactions spent 0.44 s in them (CPU profile), time the shipped bundle never spends.
// Usage: node --import tsx bench/bundled.ts bench/NAME.ts [ARGS…]: the bundle goes to out/bench-NAME.mjs
// and runs in a plain Node.js process.

import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { buildSync } from 'esbuild';

const [script, ...args] = process.argv.slice(2);
if (!script?.endsWith('.ts')) {
  console.error('usage: node --import tsx bench/bundled.ts bench/NAME.ts [ARGS…]');
  process.exit(2);
}
const root = join(import.meta.dirname, '..');
// One level below the root, as the script itself: its import.meta.dirname/.. is still the root.
const outfile = join(root, 'out', `bench-${basename(script, '.ts')}.mjs`);
buildSync({
  entryPoints: [script], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile,
  packages: 'external', logLevel: 'warning',
});
const run = spawnSync(process.execPath, [outfile, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
