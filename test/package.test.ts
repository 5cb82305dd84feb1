// The installable CLI: `npm pack` holds only runtime files and no dependencies; installed into a temporary prefix, `isocheck` runs with nothing else around.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies?: object; files: string[]; bin: Record<string, string> };

let dir = '';
let tarball = '';
let prefix = '';

/** Runs the installed `isocheck` in a directory outside the repository, with only node and the prefix on PATH. */
function installed(args: string[], cwd = dir): { status: number | null; stdout: string; stderr: string } {
  const env = { PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}`, HOME: dir };
  const r = spawnSync('isocheck', args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(() => {
  execSync('npm run build', { cwd: ROOT, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'isocheck-package-'));
  // The build ran above; `npm pack` alone would run it again through `prepare`.
  execSync(`npm pack --ignore-scripts --pack-destination ${JSON.stringify(dir)}`, { cwd: ROOT, stdio: 'pipe' });
  tarball = join(dir, `isocheck-${PKG.version}.tgz`);
  prefix = join(dir, 'prefix');
  // Offline, with an empty cache: the package must need nothing from the registry.
  execSync(`npm install -g ${JSON.stringify(tarball)} --prefix ${JSON.stringify(prefix)} --offline --no-audit --no-fund --cache ${JSON.stringify(join(dir, 'cache'))}`, { cwd: dir, stdio: 'pipe' });
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm package', () => {
  test('the tarball holds the runtime files only: the bundles, the grammar, the anomalies page; no sources, tests, maps or dependencies', () => {
    assert.ok(existsSync(tarball));
    assert.equal(PKG.dependencies, undefined, 'everything the CLI needs is bundled into out/cli.js');
    const listing = execSync(`tar -tzf ${JSON.stringify(tarball)}`, { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^package\//, '')).sort();
    for (const f of ['package.json', 'README.md', 'out/cli.js', 'out/cli-lazy.js', 'out/analysis-worker.js', 'out/server.js', 'out/client.js', 'docs/anomalies.md']) assert.ok(listing.includes(f), `${f} is packed`);
    for (const f of listing) assert.doesNotMatch(f, /\.ts$|\.map$|^test\/|^server\/|^node_modules\/|^bench\/|^examples\//, `${f} is not a runtime file`);
  });

  test('installed into a temporary prefix: no node_modules of its own, `isocheck --version` prints the version', () => {
    const lib = join(prefix, 'lib', 'node_modules', 'isocheck');
    assert.ok(existsSync(join(lib, 'out', 'cli.js')));
    assert.ok(!existsSync(join(lib, 'node_modules')), 'no dependencies were installed');
    const r = installed(['--version']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), PKG.version);
  });

  test('the installed CLI loads its second bundle (out/cli-lazy.js) for run and hermitage', () => {
    for (const command of ['run', 'hermitage']) {
      const r = installed([command, '--no-such-option']);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`unknown option --no-such-option\\nusage: isocheck ${command}`));
    }
  });

  test('the installed CLI checks a history outside the repository: table, exit status, SARIF rules from its own docs', () => {
    const work = mkdtempSync(join(dir, 'work-'));
    copyFileSync(join(ROOT, 'examples', 'write-skew.hist'), join(work, 'write-skew.hist'));
    copyFileSync(join(ROOT, 'examples', 'fractured-read.hist'), join(work, 'fractured-read.hist'));
    const table = installed(['check', '.'], work);
    assert.equal(table.status, 0, table.stderr);
    assert.match(table.stdout, /write-skew\.hist\s+✓\s+✓\s+✓\s+✓\s+✓\s+✓\s+✗/);
    const sarif = installed(['check', 'write-skew.hist', '--output-format', 'sarif'], work);
    const log = JSON.parse(sarif.stdout) as { runs: { tool: { driver: { version: string; rules: { id: string; shortDescription: { text: string } }[] } } }[] };
    assert.equal(log.runs[0].tool.driver.version, PKG.version);
    const ser = log.runs[0].tool.driver.rules.find((r) => r.id === 'SER');
    assert.equal(ser?.shortDescription.text, 'Serializability is violated.', 'rule texts come from the packed docs/anomalies.md');
    const missing = installed(['check', 'nothing-here.hist'], work);
    assert.equal(missing.status, 2);
    assert.deepEqual(readdirSync(work).sort(), ['fractured-read.hist', 'write-skew.hist'], 'checking writes nothing');
  });
});
