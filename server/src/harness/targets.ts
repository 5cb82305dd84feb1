// Which database a run talks to: `--db` URLs (sqlite:PATH, postgres://…, mysql://…) parsed into a target.

import { mkdtempSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type DbKind = 'sqlite' | 'postgres' | 'mysql';

export interface Target {
  kind: DbKind;
  /** The URL as given (postgres/mysql) or the SQLite file path. */
  location: string;
  /** What to print: the URL without its password. */
  label: string;
  /** The temporary directory materialize() made for the database: the command removes both when it ends, unless it says it keeps them. */
  tempDir?: string;
}

/**
 * The default target's file, created only now: a fresh file per run, so nothing is left from an
 * earlier run to confuse the check, and a usage error leaves no empty directory behind.
 */
export function materialize(t: Target): Target {
  if (t.kind !== 'sqlite' || t.location !== '') return t;
  const dir = mkdtempSync(join(tmpdir(), 'isocheck-run-'));
  const file = join(dir, 'isocheck.sqlite');
  return { kind: 'sqlite', location: file, label: `sqlite:${file}`, tempDir: dir };
}

/** Removes the database materialize() made, SQLite's side files with it, and its directory once nothing else is in it. */
export function removeTemporaryDatabase(t: Target): void {
  if (t.tempDir === undefined) return;
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(t.location + suffix, { force: true });
  removeIfEmpty(t.tempDir);
}

/**
 * Removes the database materialize() made together with its directory, for a command whose
 * directory holds nothing else (hermitage), while its connections may still be live: a Ctrl-C
 * comes while a worker thread is opening a connection, and SQLite creates the file again at its
 * path after it was removed (4 runs in 60 left the directory behind). The directory is renamed
 * first, so that path no longer leads anywhere, then removed whole.
 */
export function discardTemporaryDatabase(t: Target): void {
  if (t.tempDir === undefined) return;
  const away = `${t.tempDir}.removing`;
  try {
    renameSync(t.tempDir, away);
  } catch {
    // Already gone, or cannot be moved: remove what can be removed in place.
    removeTemporaryDatabase(t);
    return;
  }
  rmSync(away, { recursive: true, force: true });
}

/** Removes a directory a command made, if it holds nothing (what it does hold, a history or a journal, is the user's). */
export function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty (kept, and named by the command) or already gone.
  }
}

export type TargetResult = { ok: true; target: Target } | { ok: false; error: string };

export function parseTarget(url: string | undefined): TargetResult {
  if (url === undefined) return { ok: true, target: { kind: 'sqlite', location: '', label: 'sqlite (a fresh temporary file)' } };
  if (url.startsWith('sqlite:')) {
    const rest = url.slice('sqlite:'.length);
    // sqlite://NAME would be the path //NAME, which is /NAME: a file at the root of the file
    // system, not beside the user (sqlite://test.db made /test.db). Say which form means what.
    if (/^\/\/(?!\/)/.test(rest)) return { ok: false, error: `'${url}': write sqlite:${rest.slice(2)} for a path relative to the current directory, or sqlite:///ABSOLUTE/PATH` };
    const path = rest.replace(/^\/\/(?=\/)/, '');
    if (path.length === 0) return { ok: false, error: 'sqlite: needs a file path (sqlite:PATH)' };
    return { ok: true, target: { kind: 'sqlite', location: path, label: `sqlite:${path}` } };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: `cannot parse the database URL '${url}' (sqlite:PATH, postgres://…, mysql://…)` };
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  const kind: DbKind | null = scheme === 'postgres' || scheme === 'postgresql' ? 'postgres'
    : scheme === 'mysql' || scheme === 'mariadb' ? 'mysql' : null;
  if (kind === null) return { ok: false, error: `unsupported database '${scheme}:' (sqlite:PATH, postgres://…, mysql://…)` };
  if (parsed.password) parsed.password = '***';
  const location = kind === 'mysql' && scheme === 'mariadb' ? url.replace(/^mariadb:/, 'mysql:') : url;
  return { ok: true, target: { kind, location, label: parsed.toString() } };
}
