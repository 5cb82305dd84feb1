// `isocheck lsp --help` prints the command's usage and exits 0 instead of starting the language server; every command takes -h for --help.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const CLI = join(import.meta.dirname, '..', 'out', 'cli.js');

test('lsp --help and lsp -h print the usage, not LSP messages', () => {
  for (const flag of ['--help', '-h']) {
    // stdin stays open: a server would wait on it until the timeout.
    const r = spawnSync(process.execPath, [CLI, 'lsp', flag], { encoding: 'utf8', timeout: 20_000, stdio: ['pipe', 'pipe', 'pipe'] });
    assert.equal(r.status, 0, `${flag}: ${r.stderr}`);
    assert.match(r.stdout, /^usage: isocheck lsp \[--stdio \| --node-ipc \| --socket=PORT \| --pipe=PATH\]/, flag);
    assert.doesNotMatch(r.stdout, /Content-Length/, flag);
    assert.match(r.stdout, /docs\/editors\.md/, flag);
  }
});

test('every command takes -h as --help: its usage on standard output, exit 0', () => {
  const cases: [string[], RegExp][] = [
    [['check', '-h'], /^isocheck — /], [['convert', '-h'], /^isocheck — /], [['witness', '-h'], /^usage: isocheck witness /],
    // gen, gen --workload list-append, run and hermitage refused -h as an unknown option (exit 2).
    [['gen', '-h'], /^usage: isocheck gen /], [['gen', '--workload', 'list-append', '-h'], /^usage: isocheck gen --workload list-append /],
    [['run', '-h'], /^usage: isocheck run /], [['hermitage', '-h'], /^usage: isocheck hermitage /],
  ];
  for (const [args, usage] of cases) {
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, usage, args.join(' '));
  }
});
