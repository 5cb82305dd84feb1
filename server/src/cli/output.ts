// Every output of the CLI: files written atomically (temp file + rename), standard output with backpressure.

import { closeSync, fchmodSync, fsyncSync, lstatSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Eight hex digits for a temporary file's name beside the pid; created with 'wx', so a clash
 * fails instead of overwriting. Not node:crypto: loading it cost every `check` 3 ms (measured).
 */
function tempSuffix(): string {
  return Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
}

export type WriteResult = { ok: true } | { ok: false; message: string };

/**
 * Writes the chunks to `target` through a temporary file beside it, renamed over the target at
 * the end: a full disk, a crash or an error halfway leaves the old file as it was. Refuses a
 * target that is one of `inputs` (also through a symbolic link); a symbolic link as target is
 * kept and its destination replaced. A character device or FIFO (a terminal, /dev/null, `>(…)`)
 * is written to in place; a block device or socket is refused.
 */
export function writeFileAtomic(target: string, chunks: Iterable<string>, inputs: readonly string[] = []): WriteResult {
  let dest = target;
  try {
    if (lstatSync(target).isSymbolicLink()) dest = realpathSync(target);
  } catch {
    // A missing target (or a dangling link, which rename replaces) is fine.
  }
  const clash = inputs.find((i) => sameFile(i, dest));
  if (clash !== undefined) return { ok: false, message: `refusing to write ${target}: it is the input ${clash}` };
  let oldMode = -1;
  let st: Stats | null = null;
  try {
    st = statSync(dest);
  } catch {
    // Does not exist yet.
  }
  if (st?.isDirectory()) return { ok: false, message: `cannot write ${target}: is a directory` };
  // A terminal, /dev/null, a FIFO or a process substitution is written to, never replaced: a
  // temporary file renamed over it would turn the device into a regular file.
  if (st && (st.isCharacterDevice() || st.isFIFO())) return writeInPlace(target, dest, chunks);
  if (st && !st.isFile()) return { ok: false, message: `cannot write ${target}: not a regular file (${st.isBlockDevice() ? 'a block device' : 'a socket'})` };
  if (st) oldMode = st.mode & 0o7777;
  const temp = join(dirname(dest), `.${basename(dest)}.isocheck-${process.pid}-${tempSuffix()}.tmp`);
  let fd = -1;
  try {
    fd = openSync(temp, 'wx', 0o666);
    if (oldMode >= 0) fchmodSync(fd, oldMode); // the replacement keeps the old file's permissions
    for (const chunk of chunks) writeAll(fd, Buffer.from(chunk, 'utf8'));
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
    return { ok: false, message: `cannot write ${target}: ${describeWriteError(e)}${existed(dest) ? ' (the old file is unchanged)' : ''}` };
  }
}

/** Writes the chunks straight into a device or FIFO (no atomicity to keep: nothing there to preserve). */
function writeInPlace(target: string, dest: string, chunks: Iterable<string>): WriteResult {
  let fd = -1;
  try {
    fd = openSync(dest, 'w');
    for (const chunk of chunks) writeAll(fd, Buffer.from(chunk, 'utf8'));
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

/** writeSync may write part of a buffer (a disk filling up): loop until all of it is written or it throws. */
function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

function sameFile(a: string, b: string): boolean {
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

function existed(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function describeWriteError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOSPC') return 'no space left on device';
  if (err.code === 'EDQUOT') return 'disk quota exceeded';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'ENOENT') return 'no such directory';
  if (err.code === 'EROFS') return 'read-only file system';
  return err.message ?? String(e);
}

/**
 * Writes the chunks to standard output, waiting for 'drain' when the pipe is full; stops
 * quietly when the reader has gone (`| head`). Returns false in that case.
 */
export async function pipeToStdout(chunks: Iterable<string>): Promise<boolean> {
  const out = process.stdout;
  let gone = false;
  const onError = (): void => {
    gone = true;
  };
  out.on('error', onError);
  try {
    let n = 0;
    for (const chunk of chunks) {
      if (gone || out.destroyed) return false;
      if (!out.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            out.off('drain', done);
            out.off('close', done);
            out.off('error', done);
            resolve();
          };
          out.on('drain', done);
          out.on('close', done);
          out.on('error', done);
        });
      } else if (++n % 16 === 0) {
        // Writes to a pipe may complete synchronously: let a pending EPIPE surface now and then.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    return !gone;
  } finally {
    out.off('error', onError);
  }
}
