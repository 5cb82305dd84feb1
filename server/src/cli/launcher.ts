// Entry of out/cli.js: runs the command line (out/cli-main.js) from V8's code cache when a cache made from that very bundle lies beside it.

import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire, wrap } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Compiling the 700 KB bundle and then each function a check calls cost every run ~17 ms of its
 * ~90 ms on a small file (`node -e 0` takes ~63 ms here): measured 91 → 74 ms with the cache
 * (medians of 15 alternating runs), and the same ~17 ms off a million-operation check. Node 22
 * has a module compile cache of its own; Node 20, which IsoCheck supports, does not.
 *
 * The cache file is the SHA-256 of the bundle's text, then V8's data. V8 checks only the source's
 * length, so a stale cache of a rebuilt bundle of the same length would run the old code: the
 * hash rules that out. A cache V8 refuses (another Node version or V8 flags) costs nothing but
 * the compile it would have saved. `npm run build` makes the cache by a training run
 * (code-cache-train.ts), with ISOCHECK_CODE_CACHE=write: the cache is written when that run ends;
 * ISOCHECK_CODE_CACHE=report says on standard error whether the cache was used.
 */
const MAIN = join(__dirname, 'cli-main.js');
const CACHE = join(__dirname, 'cli-main.jsc');
const HASH_BYTES = 32;

function run(): void {
  // Built without a #! line (the launcher has it): the text is a function body as it is.
  const source = readFileSync(MAIN, 'utf8');
  const hash = createHash('sha256').update(source).digest();
  let cachedData: Buffer | undefined;
  let state = 'absent';
  try {
    const file = readFileSync(CACHE);
    state = 'stale';
    if (file.length > HASH_BYTES && file.subarray(0, HASH_BYTES).equals(hash)) cachedData = file.subarray(HASH_BYTES);
  } catch {
    // No cache (a build without the training run): compiled as usual.
  }
  const script = new Script(wrap(source), { filename: MAIN, cachedData });
  if (cachedData) state = script.cachedDataRejected === true ? 'rejected' : 'used';
  // For the tests: which of the four cases this run was.
  if (process.env.ISOCHECK_CODE_CACHE === 'report') process.stderr.write(`code cache: ${state}\n`);
  if (process.env.ISOCHECK_CODE_CACHE === 'write') {
    // Written when the training run ends, so that the cache holds every function it compiled.
    process.once('exit', () => {
      const temporary = `${CACHE}.${process.pid}.tmp`;
      writeFileSync(temporary, Buffer.concat([hash, script.createCachedData()]));
      renameSync(temporary, CACHE);
    });
  }
  const module = { exports: {}, id: MAIN, filename: MAIN, loaded: false, children: [], paths: [] };
  const main = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  main.call(module.exports, module.exports, createRequire(MAIN), module, MAIN, __dirname);
}

run();
