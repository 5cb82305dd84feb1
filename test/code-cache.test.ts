// The CLI's launcher runs the bundle from V8's code cache only when the cache was made from that very bundle.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './helpers/lsp-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'isocheck-code-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(): { state: string; out: string; status: number | null } {
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), 'check', join(ROOT, 'examples', 'fractured-read.hist')], {
    encoding: 'utf8', env: { ...process.env, ISOCHECK_CODE_CACHE: 'report' },
  });
  return { state: /code cache: (\w+)/.exec(r.stderr)?.[1] ?? `none: ${r.stderr}`, out: r.stdout, status: r.status };
}

test('the build\'s cache is used; a rebuilt bundle of the same length is not run from the old cache; without a cache the CLI works the same', () => {
  ensureBuilt();
  for (const f of ['cli.js', 'cli-main.js', 'cli-main.jsc']) copyFileSync(join(ROOT, 'out', f), join(dir, f));
  const used = run();
  assert.equal(used.state, 'used');
  assert.equal(used.status, 0);
  assert.match(used.out, /RA, mixed violated/);
  // One character changed, the length kept: V8 alone would take the old cache (it checks only the length).
  const main = readFileSync(join(dir, 'cli-main.js'), 'utf8');
  const at = main.indexOf('usage: isocheck check');
  assert.ok(at > 0);
  writeFileSync(join(dir, 'cli-main.js'), `${main.slice(0, at)}U${main.slice(at + 1)}`);
  assert.equal(readFileSync(join(dir, 'cli-main.js')).length, Buffer.byteLength(main));
  const stale = run();
  assert.equal(stale.state, 'stale');
  assert.equal(stale.out, used.out);
  rmSync(join(dir, 'cli-main.jsc'));
  const absent = run();
  assert.equal(absent.state, 'absent');
  assert.equal(absent.out, used.out);
});
