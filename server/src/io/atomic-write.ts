// Output files written atomically (temp file beside the target + rename), for the CLI and the harness alike.

import { closeSync, fchmodSync, fsyncSync, lstatSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Eight hex digits for a temporary file's name beside the pid; created with 'wx', so a clash
 * fails instead of overwriting. Not node:crypto: loading it cost every `check` 3 ms (measured).
 */
function tempSuffix(): string {
  return Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
}

export type WriteResult = { ok: true } | { ok: false; message: string };

/**
 * What goes into the file: chunks pulled from an iterable, or a producer that pushes them (a
 * generator that streams through a callback, as the list-append `gen` does).
 */
export type Content = Iterable<string> | ((write: (chunk: string) => void) => void);

/** A write the harness could not do: its message names the file; the commands turn it into exit 2. */
export class OutputError extends Error {}

/** Where a target really goes: a symbolic link as target is kept and its destination replaced. */
function destinationOf(target: string): string {
  try {
    if (lstatSync(target).isSymbolicLink()) return realpathSync(target);
  } catch {
    // A missing target (or a dangling link, which rename replaces) is fine.
  }
  return target;
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * Why `target` cannot be written, or null: one of `inputs` (also through a symbolic link, or
 * the same path before either exists), a directory, a block device or socket, a directory
 * that does not exist. Checked again by writeFileAtomic; commands that work long before they
 * write (`run`) call it first, so that a bad path costs nothing and leaves nothing behind.
 */
export function outputProblem(target: string, inputs: readonly string[] = []): string | null {
  const dest = destinationOf(target);
  const clash = inputs.find((i) => samePath(i, dest));
  if (clash !== undefined) return `refusing to write ${target}: it is the input ${clash}`;
  const st = statOrNull(dest);
  if (st?.isDirectory()) return `cannot write ${target}: is a directory`;
  if (st && !st.isFile() && !st.isCharacterDevice() && !st.isFIFO()) return `cannot write ${target}: not a regular file (${st.isBlockDevice() ? 'a block device' : 'a socket'})`;
  if (!st && !statOrNull(dirname(dest))?.isDirectory()) return `cannot write ${target}: no such directory`;
  return null;
}

/**
 * Writes the content to `target` through a temporary file beside it, renamed over the target at
 * the end: a full disk, a file size limit or an error halfway leaves the old file as it was and no
 * temporary file. A process killed halfway (Ctrl-C, SIGTERM, a crash) leaves the old file too, but
 * its temporary file stays: the write is synchronous, so a signal handler would run only after it
 * (delaying Ctrl-C for a whole `gen`), and removing other processes' leftovers on a later write
 * cannot tell a dead writer from one on another machine sharing the directory. Refuses what
 * outputProblem refuses. A character device or FIFO (a
 * terminal, /dev/null, `>(…)`) is written to in place.
 */
export function writeFileAtomic(target: string, content: Content, inputs: readonly string[] = []): WriteResult {
  const problem = outputProblem(target, inputs);
  if (problem !== null) return { ok: false, message: problem };
  const dest = destinationOf(target);
  const st = statOrNull(dest);
  // A terminal, /dev/null, a FIFO or a process substitution is written to, never replaced: a
  // temporary file renamed over it would turn the device into a regular file.
  if (st && (st.isCharacterDevice() || st.isFIFO())) return writeInPlace(target, dest, content);
  const oldMode = st ? st.mode & 0o7777 : -1;
  const temp = join(dirname(dest), `.${basename(dest)}.isocheck-${process.pid}-${tempSuffix()}.tmp`);
  let fd = -1;
  try {
    fd = openSync(temp, 'wx', 0o666);
    if (oldMode >= 0) fchmodSync(fd, oldMode); // the replacement keeps the old file's permissions
    writeContent(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(temp, dest);
    return { ok: true };
  } catch (e) {
    if (fd >= 0) {
      try {
        closeSync(fd);
      } catch {
        // Already failing: the first error is the one to report.
      }
    }
    try {
      unlinkSync(temp);
    } catch {
      // Never created, or already gone.
    }
    return { ok: false, message: `cannot write ${target}: ${describeWriteError(e)}${st ? ' (the old file is unchanged)' : ''}` };
  }
}

/** writeFileAtomic for the harness, which reports a failed write by throwing (OutputError). */
export function writeFileAtomicOrThrow(target: string, content: Content): void {
  const written = writeFileAtomic(target, content);
  if (!written.ok) throw new OutputError(written.message);
}

/** Writes the content straight into a device or FIFO (no atomicity to keep: nothing there to preserve). */
function writeInPlace(target: string, dest: string, content: Content): WriteResult {
  let fd = -1;
  try {
    fd = openSync(dest, 'w');
    writeContent(fd, content);
    return { ok: true };
  } catch (e) {
    return { ok: false, message: `cannot write ${target}: ${describeWriteError(e)}` };
  } finally {
    if (fd >= 0) {
      try {
        closeSync(fd);
      } catch {
        // Written or already failing: the close adds nothing to report.
      }
    }
  }
}

function writeContent(fd: number, content: Content): void {
  const write = (chunk: string): void => writeAll(fd, Buffer.from(chunk, 'utf8'));
  if (typeof content === 'function') content(write);
  else for (const chunk of content) write(chunk);
}

/** writeSync may write part of a buffer (a disk filling up): loop until all of it is written or it throws. */
function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

/** One file: the same inode (hard or symbolic links), or the same path while neither exists yet. */
export function samePath(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const sa = statOrNull(a);
  const sb = statOrNull(b);
  return sa !== null && sb !== null && sa.dev === sb.dev && sa.ino === sb.ino;
}

/** An errno as a phrase for a message ("no space left on device"), the raw message when it has none. */
export function describeWriteError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOSPC') return 'no space left on device';
  if (err.code === 'EDQUOT') return 'disk quota exceeded';
  if (err.code === 'EFBIG') return 'file too large (over the file size limit)';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return 'no such directory';
  if (err.code === 'EISDIR') return 'is a directory';
  if (err.code === 'EROFS') return 'read-only file system';
  return err.message ?? String(e);
}
