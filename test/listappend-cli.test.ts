// The CLI on list-append and Jepsen histories: gen --workload list-append, check .edn/.jsonl, convert, anomalies in --json.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileReport } from '../server/src/engine/report.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'isocheck-la-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('gen → EDN, JSON lines and .hist; check reads all three alike; convert writes a .hist that checks the same', () => {
  const base = ['gen', '--workload', 'list-append', '--txns', '120', '--store', 'permissive', '--seed', '7'];
  for (const format of ['edn', 'json', 'hist']) assert.equal(run([...base, '--format', format, '-o', join(dir, `h.${format === 'json' ? 'jsonl' : format}`)]).status, 0);
  assert.match(readFileSync(join(dir, 'h.edn'), 'utf8'), /^\{:type :invoke, :f :txn, :value \[/);
  const conv = run(['convert', join(dir, 'h.edn'), '-o', join(dir, 'converted.hist')]);
  assert.equal(conv.status, 0, conv.stderr);
  const r = run(['check', '--json', join(dir, 'h.edn'), join(dir, 'h.jsonl'), join(dir, 'converted.hist')]);
  const reports = JSON.parse(r.stdout) as FileReport[];
  const shape = (x: FileReport): unknown => ({ levels: Object.fromEntries(Object.entries(x.levels).map(([k, v]) => [k, v.consistent])), anomalies: x.anomalies?.map((a) => a.code) });
  assert.deepEqual(shape(reports[1]), shape(reports[0]));
  assert.deepEqual(shape(reports[2]), shape(reports[0]));
  assert.ok(reports[0].levels.SSER, 'SSER is evaluated on a list history with times');
  for (const a of reports[0].anomalies ?? []) {
    assert.equal(typeof a.code, 'string');
    for (let i = 0; i < a.cycle.length; i++) assert.equal(a.cycle[i].to, a.cycle[(i + 1) % a.cycle.length].from);
  }
});

test('a serial list store: every level holds, no anomaly, exit 0; the table has the anomalies column', () => {
  const p = join(dir, 'serial.edn');
  assert.equal(run(['gen', '--workload', 'list-append', '--txns', '300', '--unknown', '0.2', '--format', 'edn', '-o', p]).status, 0);
  const r = run(['check', p]);
  assert.equal(r.status, 0, r.stdout);
  assert.match(r.stdout, /file\s+RC\s+RA\s+CC\s+PC\s+PSI\s+SI\s+SER\s+SSER\s+anomalies\s+result/);
  assert.match(r.stdout, /✓\s+✓\s+✓\s+–\s+ok/);
});

test('--json lists each anomaly with its cycle', () => {
  const r = run(['check', '--json', join(ROOT, 'examples', 'la-g2-item-write-skew.hist')]);
  const [rep] = JSON.parse(r.stdout) as FileReport[];
  assert.deepEqual(rep.anomalies?.map((a) => [a.code, a.transactions, a.cycle.map((e) => e.kind)]), [['G2-item', ['T1', 'T2'], ['rw', 'rw']]]);
  assert.match(rep.anomalies?.[0].cycle[0].because ?? '', /T1 read y = \[\], missing T2's append of 2/);
});

test('bad input: malformed EDN is an error with its line (exit 1), a missing file exit 2, bad options exit 2', () => {
  const p = join(dir, 'bad.edn');
  writeFileSync(p, '{:type :invoke, :f :txn, :value [[:append 1 1]], :process 0}\n{:type :ok, :f :txn, :value [[:append 1 1]] :process 0\n');
  const r = run(['check', p]);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /malformed EDN at line 2/);
  assert.equal(run(['check', join(dir, 'missing.edn')]).status, 2);
  assert.equal(run(['convert', join(dir, 'missing.edn')]).status, 2);
  assert.equal(run(['convert']).status, 2);
  assert.equal(run(['check', '--format', 'yaml', p]).status, 2);
  assert.equal(run(['gen', '--workload', 'bank']).status, 2);
  assert.equal(run(['gen', '--workload', 'list-append', '--format', 'plume']).status, 2);
  assert.equal(run(['gen', '--workload', 'list-append', '--reads', '2']).status, 2);
});

test('gen --workload list-append to a pipe writes every byte, as -o does, in each format', async () => {
  const { spawn } = await import('node:child_process');
  for (const format of ['hist', 'edn', 'json']) {
    const args = ['gen', '--workload', 'list-append', '--txns', '3000', '--sessions', '16', '--store', 'permissive', '--seed', '3', '--format', format];
    const file = join(dir, `piped.${format}`);
    assert.equal(spawnSync(process.execPath, [CLI, ...args, '-o', file]).status, 0);
    // A slow reader: the pipe fills (a non-blocking pipe made writeSync write part of a chunk, or fail with EAGAIN).
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const parts: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => {
      parts.push(b);
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 2);
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(status, 0, format);
    assert.ok(Buffer.concat(parts).equals(readFileSync(file)), `${format}: the piped bytes equal the file's`);
  }
});
