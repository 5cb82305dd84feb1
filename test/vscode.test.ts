// The extension in real VS Code (code-server + headless Chromium): extension-host tests, the .vsix install, UI screenshots.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { missingTools, ROOT, VSIX, WORK } from './vscode/paths.ts';
import { runExtensionTests } from './vscode/run.ts';
import { runUiCheck } from './vscode/ui.ts';

const missing = missingTools();
// Under CI these tests must run (.ci/run installs the tools); locally they say what to install instead of failing.
const skip = missing.length > 0 && process.env.CI !== 'true' ? `needs ${missing.join(' and ')}: run test/vscode/install-tools.sh` : false;

describe('VS Code extension (code-server 4.100.3 + Chromium)', { skip, timeout: 8 * 60_000 }, () => {
  test('code-server and Chromium are installed', () => {
    assert.deepEqual(missingTools(), [], 'run test/vscode/install-tools.sh (.ci/run does)');
  });

  test('npm run package writes isocheck-0.1.0.vsix', () => {
    rmSync(VSIX, { force: true });
    const r = spawnSync('npm', ['run', 'package'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.ok(existsSync(VSIX));
    for (const f of ['out/client.js', 'out/server.js', 'out/webview/webview.js', 'out/webview/webview.css', 'syntaxes/hist.tmLanguage.json', 'language-configuration.json', 'docs/anomalies.md']) {
      assert.match(r.stdout, new RegExp(f.split('/').pop()!.replace(/\./g, '\\.')), `the .vsix holds ${f}`);
    }
    assert.doesNotMatch(r.stdout, /node_modules|\.test\.ts/, 'no node_modules or tests in the .vsix');
  });

  test('extension tests inside VS Code', { timeout: 5 * 60_000 }, async (t) => {
    const run = await runExtensionTests();
    // One subtest per case run in the extension host, so each shows in the runner's summary.
    for (const c of run.results) {
      await t.test(`${c.name} [${c.ms} ms in VS Code]`, () => {
        if (!c.ok) throw new Error(c.error);
      });
    }
    assert.ok(run.results.length >= 10, `only ${run.results.length} extension tests reported (logs in ${run.logDir})`);
    assert.equal(run.exitCode, 0, `VS Code's test run exited with ${run.exitCode} (logs in ${run.logDir})`);
  });

  test('the .vsix installs into code-server; squiggle, hover, Problems panel and the graph panel (screenshots)', { timeout: 3 * 60_000 }, async (t) => {
    assert.ok(existsSync(VSIX), 'packaged by the test above');
    const ui = await runUiCheck();
    assert.equal(ui.installedAs, 'isocheck.isocheck-0.1.0');
    const installed = join(WORK, 'profiles/ui/extensions', ui.installedAs);
    assert.ok(!readdirSync(installed).includes('node_modules'), 'everything is bundled');
    assert.match(ui.statusBar, /RC ✓ RA ✗ CC ✗/);
    assert.match(ui.statusBar, /strongest: RC/);
    assert.match(ui.hover, /Fractured read \(RA\): .* — T1 must commit before the initial state/);
    assert.ok(ui.problems.some((p) => p.includes('Fractured read (RA)') && p.includes(ui.expectedLocation)), `${ui.expectedLocation} in\n${ui.problems.join('\n')}`);
    assert.deepEqual(ui.graphWitness, ['co:1->0', 'so:0->1'], 'the graph panel draws the RA cycle');
    for (const shot of Object.values(ui.screenshots)) assert.ok(existsSync(shot), shot);
    t.diagnostic(`screenshots: ${Object.values(ui.screenshots).join(', ')}`);
  });
});
