// An exclusive lock file beside a SQLite database: what the servers' advisory locks are to PostgreSQL and MySQL runs.

import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';

/**
 * `${file}.isocheck-lock`, made exclusively (O_EXCL) with this process's id, released by `release`
 * or when the process exits. One left by a process that is gone (killed) is taken over; one held
 * by a live process is waited for up to `waitMs`, then null. SQLite itself has no lock a run could
 * hold for its whole life without blocking its own sessions.
 */
export async function lockFile(file: string, waitMs: number): Promise<{ release: () => void } | null> {
  const path = lockPath(file);
  const until = Date.now() + waitMs;
  while (!create(path) && (holder(path) === 'alive' || !takeOver(path))) {
    if (Date.now() >= until) return null;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // A run ended by Ctrl-C or an uncaught error still leaves no lock behind (a kill -9 does: taken over above).
  const onExit = (): void => removeQuietly(path);
  process.once('exit', onExit);
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      process.removeListener('exit', onExit);
      removeQuietly(path);
    },
  };
}

/** The lock file beside the database `file`. */
export function lockPath(file: string): string {
  return `${file}.isocheck-lock`;
}

/** The process id the lock file of `file` names (digits only: the text is shown to the user), or null when it names none. */
export function lockHolder(file: string): string | null {
  try {
    const m = /^\d{1,20}/.exec(readFileSync(lockPath(file), 'utf8'));
    return m ? m[0] : null;
  } catch {
    return null;
  }
}

/** Makes the lock file with this process's id; false when it exists. */
function create(path: string): boolean {
  try {
    writeFileSync(path, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return false;
  }
}

/**
 * Replaces a dead holder's lock with this process's, under `${path}.takeover` (made exclusively):
 * two runs finding the same dead holder's lock would otherwise both remove it, the second removing
 * the first's new lock. Under the guard the lock is looked at again: gone (released meanwhile) it
 * is only made, never removed, since a run outside the guard may just have made it; dead it is
 * removed, which only a guard holder does. False when another run holds the guard, or the lock
 * is alive or made by another run: the caller waits. A guard left by a run killed inside it (a
 * few instructions) is removed once it is GUARD_STALE_MS old and names no live process; two runs
 * removing such a guard at the same instant remain a race, too narrow to close here.
 */
function takeOver(path: string): boolean {
  const guard = `${path}.takeover`;
  if (!create(guard)) {
    if (holder(guard) === 'dead' && !youngerThan(guard, GUARD_STALE_MS)) removeQuietly(guard);
    return false;
  }
  try {
    const now = holder(path);
    if (now === 'alive') return false;
    if (now === 'dead') removeQuietly(path);
    return create(path);
  } finally {
    removeQuietly(guard);
  }
}

/** An empty lock file older than this was left by a process that died between making and writing it. */
const EMPTY_STALE_MS = 10_000;
/** A takeover guard is held for a few instructions: one this old whose process is gone was left by a killed run. */
const GUARD_STALE_MS = 2_000;

/**
 * The lock file's holder: 'missing' (no file), 'alive' (its process runs, or the file is being
 * written: empty and younger than EMPTY_STALE_MS), or 'dead'.
 */
function holder(path: string): 'missing' | 'alive' | 'dead' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return 'missing';
  }
  const pid = Number.parseInt(text, 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return text.length === 0 && youngerThan(path, EMPTY_STALE_MS) ? 'alive' : 'dead';
  try {
    process.kill(pid, 0);
    return 'alive';
  } catch (e) {
    // EPERM: alive, but another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? 'alive' : 'dead';
  }
}

function youngerThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < ms;
  } catch {
    return false;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
