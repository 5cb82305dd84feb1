// Throw-away PostgreSQL and MariaDB servers for the harness tests: temp dirs, free local ports, stopped at the end.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';

export interface DbServer {
  url: string;
  /** The server's main process id (for the test that kills it). */
  pid(): number;
  stop(): Promise<void>;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

function pgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : null;
}

const MARIADBD = ['/usr/sbin/mariadbd', '/usr/bin/mariadbd'].find((p) => existsSync(p)) ?? null;

/** Why the tests of a server cannot run here, or null when they can. */
export function missing(kind: 'postgres' | 'mysql'): string | null {
  if (kind === 'postgres') return pgBin() ? null : 'PostgreSQL is not installed (apt-get install postgresql)';
  return MARIADBD && existsSync('/usr/bin/mariadb-install-db') ? null : 'MariaDB is not installed (apt-get install mariadb-server)';
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user and its commands run as it. */
function asPostgres(cmd: string, args: string[]): void {
  if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
  else execFileSync(cmd, args, { stdio: 'pipe' });
}

export async function startPostgres(): Promise<DbServer> {
  const bin = pgBin();
  if (!bin) throw new Error(missing('postgres') ?? '');
  const dir = mkdtempSync(join(tmpdir(), 'isocheck-pg-'));
  const data = join(dir, 'data');
  const stop = async (): Promise<void> => {
    try {
      asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped (the test that kills it), or never started
    }
    await new Promise((r) => setTimeout(r, 50));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    chmodSync(dir, 0o700);
    if (isRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
    }
    const port = await freePort();
    asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100 -c deadlock_timeout=50ms`;
    asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-w', '-l', join(dir, 'log'), '-o', opts, 'start']);
    const firstPid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, pid: () => firstPid, stop };
  } catch (e) {
    // A failed start (initdb, pg_ctl's wait) must not leave a cluster running or its directory behind.
    await stop();
    throw e;
  }
}

async function waitForMysql(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`mariadbd exited (${child.exitCode}): ${log()}`);
    try {
      const c = await mysql.createConnection(url);
      await c.end();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`mariadbd did not accept connections in 30 s: ${log()}`);
}

export async function startMariadb(): Promise<DbServer> {
  if (!MARIADBD) throw new Error(missing('mysql') ?? '');
  const dir = mkdtempSync(join(tmpdir(), 'isocheck-mariadb-'));
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const stop = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const data = join(dir, 'data');
    const port = await freePort();
    const user = isRoot ? ['--user=root'] : [];
    execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${data}`, ...user, '--auth-root-authentication-method=normal', '--skip-test-db'], { stdio: 'pipe' });
    const logFile = join(dir, 'err.log');
    const server = spawn(MARIADBD, [
      '--no-defaults', `--datadir=${data}`, ...user, `--socket=${join(dir, 'sock')}`, `--port=${port}`, '--bind-address=127.0.0.1',
      `--log-error=${logFile}`, `--pid-file=${join(dir, 'pid')}`, '--innodb-buffer-pool-size=64M', '--innodb-flush-log-at-trx-commit=0',
      '--skip-log-bin', '--max-connections=200',
    ], { stdio: 'ignore' });
    child = server;
    exited = new Promise<void>((r) => server.once('exit', () => r()));
    const root = `mysql://root@127.0.0.1:${port}`;
    await waitForMysql(root, server, () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : ''));
    const c = await mysql.createConnection(root);
    await c.query('CREATE DATABASE IF NOT EXISTS isocheck');
    await c.end();
    return { url: `${root}/isocheck`, pid: () => server.pid ?? 0, stop };
  } catch (e) {
    // A server that did not come up in time (a loaded machine) must not outlive the test file, nor its directory.
    await stop();
    throw e;
  }
}
