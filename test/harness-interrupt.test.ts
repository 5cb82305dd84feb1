// `isocheck run` interrupted: Ctrl-C during the check ends the process at once; a second Ctrl-C while recording names the journal.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteDriver } from '../server/src/harness/sqlite-driver.ts';
import { discardTemporaryDatabase, materialize, parseTarget } from '../server/src/harness/targets.ts';
import { checkRecorded, removeTempDirs, tempDir } from './helpers/harness-checks.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'out', 'cli.js');
after(() => removeTempDirs());

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function journalBytes(parts: string): number {
  try {
    return readdirSync(parts).reduce((n, f) => n + statSync(join(parts, f)).size, 0);
  } catch {
    return 0;
  }
}

test('Ctrl-C during the check ends the run at once: the history is whole, the temporary database gone', async () => {
  const tmp = tempDir('isocheck-int-tmp-');
  const out = join(tempDir('isocheck-int-out-'), 'h.hist');
  // Long transactions make a history whose check takes seconds (5 MB: about 3 s here), far beyond a loaded machine's timer delays.
  const child = spawn(process.execPath, [CLI, 'run', '--workload', 'rw-register', '--keys', '64', '--ops-per-txn', '100..200', '--seconds', '300', '-o', out], {
    cwd: ROOT, env: { ...process.env, TMPDIR: tmp },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  // 'close', not 'exit': the output is read to its end.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('close', (code, signal) => r({ code, signal })));
  const parts = `${out}.parts`;
  for (let i = 0; i < 1200 && journalBytes(parts) < 5_000_000; i++) await sleep(50);
  child.kill('SIGINT');
  // The first Ctrl-C: the clients stop, the history is assembled (the journal goes), then the check starts.
  for (let i = 0; i < 1200 && (existsSync(parts) || !existsSync(out)); i++) await sleep(10);
  const t0 = Date.now();
  child.kill('SIGINT');
  // Once more every 250 ms: under a full test run's load one Ctrl-C that came just as the history
  // was written was seen lost, twice in many runs (not reproduced alone; see run-command.ts); a
  // person presses again, and the point here is that during the check one Ctrl-C ends it at once.
  const again = setInterval(() => child.kill('SIGINT'), 250);
  const { code, signal } = await exited.finally(() => clearInterval(again));
  assert.equal(signal, 'SIGINT', `exit ${code} after the second Ctrl-C (the check went on): ${stderr}${stdout.slice(0, 300)}`);
  assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms to stop`);
  assert.match(stderr, /stopping: finishing the transactions in flight/);
  assert.doesNotMatch(stdout, /claims SER/);
  checkRecorded(readFileSync(out, 'utf8'));
  assert.deepEqual(readdirSync(tmp), [], 'the temporary database is removed before the check');
});

test('a second Ctrl-C while transactions wait for a lock quits at once and names the journal, a checkable history', async () => {
  const dir = tempDir('isocheck-int2-');
  const out = join(dir, 'h.hist');
  const db = join(dir, 'db.sqlite');
  const child = spawn(process.execPath, [CLI, 'run', '--db', `sqlite:${db}`, '--workload', 'rw-register', '--keys', '1', '--seconds', '300', '-o', out], { cwd: ROOT });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('close', (code, signal) => r({ code, signal })));
  const parts = `${out}.parts`;
  for (let i = 0; i < 1200 && journalBytes(parts) < 20_000; i++) await sleep(50);
  // Another connection holds SQLite's write lock: the clients' writes wait out their 5 s busy timeout.
  const holder = await new SqliteDriver(db).open('serializable');
  try {
    await holder.begin();
    await holder.write(1, 999_999_999);
    child.kill('SIGINT');
    await sleep(300);
    child.kill('SIGINT');
    const t0 = Date.now();
    // By the signal, as Ctrl-C ends a process (before: process.exit, and a worker in SQLite's busy wait crashed Node).
    const { signal } = await exited;
    assert.equal(signal, 'SIGINT', stderr);
    assert.doesNotMatch(stderr, /FATAL|stack trace/);
    assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms to quit`);
  } finally {
    await holder.rollback();
    await holder.close();
  }
  assert.match(stderr, new RegExp(`isocheck: quit; what was recorded is in the journal ${parts.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/ \\(cat `));
  const joined = readdirSync(parts).sort().map((f) => readFileSync(join(parts, f), 'utf8')).join('');
  checkRecorded(joined);
});

test('hermitage interrupted: the temporary database is removed, the histories so far are named and whole', async () => {
  const tmp = tempDir('isocheck-hint-');
  const child = spawn(process.execPath, [CLI, 'hermitage'], { cwd: ROOT, env: { ...process.env, TMPDIR: tmp } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((r) => child.once('close', (_code, signal) => r(signal)));
  const histories = (): string[] => readdirSync(tmp).filter((d) => d.startsWith('isocheck-hermitage-')).flatMap((d) => readdirSync(join(tmp, d)).map((f) => join(tmp, d, f)));
  for (let i = 0; i < 600 && histories().length === 0; i++) await sleep(50);
  child.kill('SIGINT');
  assert.equal(await exited, 'SIGINT', stderr);
  assert.match(stderr, /isocheck: interrupted; the histories recorded so far: .*isocheck-hermitage-/);
  // Before: the temporary SQLite database's directory stayed behind.
  assert.deepEqual(readdirSync(tmp).filter((d) => !d.startsWith('isocheck-hermitage-')), []);
  for (const f of histories()) checkRecorded(readFileSync(f, 'utf8'));
});

test('a connection opened after the temporary database is discarded cannot make it again', async () => {
  // The race behind a leftover directory: a worker opening its connection while the files were
  // being removed created the database anew at its path. This pins the contract; the race itself was
  // measured by interrupting hermitage at random moments: 4 runs in 60 left the directory, 0 in 180 now.
  const dflt = parseTarget(undefined);
  assert.ok(dflt.ok);
  const target = materialize(dflt.target);
  const driver = new SqliteDriver(target.location);
  await driver.reset(2);
  const dir = target.tempDir ?? assert.fail('the default target has a temporary directory');
  assert.ok(existsSync(target.location));
  discardTemporaryDatabase(target);
  const late = await driver.open('serializable');
  try {
    await assert.rejects(late.read(1), /unable to open|cannot open/i);
  } finally {
    await late.close();
  }
  assert.equal(existsSync(dir), false, 'the directory stays gone');
  assert.equal(existsSync(`${dir}.removing`), false);
});
