// Reading input files: directories expand to their histories, only regular files are read (size-capped), formats from extensions or --format.

import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { DIRECTORY_EXTENSIONS, FORMAT_NAMES, headOf, readerForFile, readerNamed, type ReaderOptions, type ReadSource } from '../engine/readers/registry.ts';
import { textOf } from '../engine/readers/reader.ts';
import { readPlumeInPieces } from '../engine/readers/plume-reader.ts';
import { plumeSource } from '../engine/readers/plume.ts';
import { terminalSafe } from './terminal-text.ts';

/** A reader's name (engine/readers/registry.ts): hist, plume, edn, json, dbcop, awdit-test. */
export type InputFormat = string;

export const HISTORY_EXTENSIONS = DIRECTORY_EXTENSIONS;

/** Plume files are read as bytes: up to 2 GiB. */
export const MAX_INPUT_BYTES = 2 * 1024 * 1024 * 1024;
/** Text formats (.hist, dbcop) become one JavaScript string, which V8 caps at about 2^29 characters. */
export const MAX_HIST_BYTES = 512 * 1024 * 1024 - 64;

/** Why a --format value is refused, or null when a reader has that name. */
export function unknownFormat(name: string): string | null {
  return readerNamed(name) ? null : `unknown format '${name}' (${FORMAT_NAMES.join(', ')})`;
}

/** The reader's name for a file: --format when given, else by ending and, for shared endings, content. */
export function formatOf(file: string, forced: InputFormat | undefined, bytes?: Uint8Array): InputFormat {
  if (forced) return forced;
  return readerForFile(file, bytes ? headOf({ bytes }) : '')?.name ?? 'hist';
}

/** Reads one input file with its reader. */
export function readSource(input: { file: string; bytes: Uint8Array }, forced: InputFormat | undefined, options: ReaderOptions = {}): ReadSource {
  const reader = readerNamed(formatOf(input.file, forced, input.bytes)) ?? readerNamed('hist')!;
  return reader.read({ bytes: input.bytes }, options);
}

/**
 * readSource for `check`, which needs the file only once: the bytes are taken out of `input`
 * (left empty) and a .hist file is parsed from its text, so that the bytes — one file size —
 * can be freed while it is parsed and checked (measured: they were 1× the file of the peak).
 * Spans are the same: the reader would decode them the same way (textOf).
 */
export function readSourceOnce(input: { file: string; bytes: Uint8Array }, forced: InputFormat | undefined, options: ReaderOptions = {}): ReadSource {
  const reader = readerNamed(formatOf(input.file, forced, input.bytes)) ?? readerNamed('hist')!;
  return reader.read(reader.name === 'hist' ? takeText(input) : { bytes: input.bytes }, options);
}

/** The input's text; no frame keeps its bytes once this returns. */
function takeText(input: { bytes: Uint8Array }): { text: string } {
  const bytes = input.bytes;
  input.bytes = Buffer.alloc(0); // a Buffer, as Input declares
  return { text: textOf({ bytes }) };
}

/** A file read whole, or why it was not: `skipped` marks a directory entry passed over (a FIFO, a device). */
export type Input = { file: string; bytes: Buffer } | { file: string; error: string; skipped?: boolean };

/** Or, for `check`, a large plume file already parsed through a small buffer (readPlumeInPieces): its length and history. */
export type CheckInput = Input | { file: string; size: number; source: ReadSource };

/** The text of a .hist file: UTF-8 without a leading byte order mark. */
export function decodeText(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A file to read, or an argument or directory entry that could not be listed. */
export type InputRef = { file: string; inDirectory: boolean; path?: Buffer } | { file: string; error: string; skipped?: boolean };

/**
 * Expands directories (their history files, sorted, not recursive: subdirectories are passed over,
 * whatever their names) without reading anything: the
 * files are read one at a time, so a directory of large histories is never in memory at once.
 * An argument or directory that cannot be listed becomes an entry with an error.
 */
export function listInputs(paths: readonly string[]): InputRef[] {
  const out: InputRef[] = [];
  for (const p of paths) {
    let st: Stats;
    try {
      st = statSync(p);
    } catch (e) {
      out.push({ file: p, error: describe(e) });
      continue;
    }
    if (!st.isDirectory()) {
      out.push({ file: p, inDirectory: false });
      continue;
    }
    let names: Buffer[];
    try {
      // As bytes: a name that is not UTF-8 (older file systems, other locales) must still open.
      names = readdirSync(p, { encoding: 'buffer' });
    } catch (e) {
      out.push({ file: p, error: `cannot read directory: ${describe(e)}` });
      continue;
    }
    const entries = names
      .map((raw) => ({ raw, text: raw.toString('utf8') }))
      .filter((e) => HISTORY_EXTENSIONS.some((x) => e.text.endsWith(x)))
      // By name; two names that differ only in bytes that are not UTF-8 by those bytes.
      .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : Buffer.compare(a.raw, b.raw)));
    for (const { raw, text } of entries) {
      const exact = Buffer.from(text, 'utf8').equals(raw);
      const path = exact ? undefined : Buffer.concat([Buffer.from(join(p, '/'), 'utf8'), raw]);
      // Not recursive: a subdirectory that happens to be named like a history is not an input.
      if (isDirectory(path ?? join(p, text))) continue;
      out.push(path ? { file: join(p, text), inDirectory: true, path } : { file: join(p, text), inDirectory: true });
    }
  }
  return out;
}

/** Whether a path is a directory (through symbolic links); false when it cannot be examined (reading it reports why). */
export function isDirectory(path: string | Buffer): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Reads one listed input. Only regular files are read: a FIFO would block forever and a device
 * like /dev/zero never ends; those become errors (skipped, inside a directory).
 */
export function readInput(ref: InputRef, forced?: InputFormat): Input {
  return 'error' in ref ? ref : readRegular(ref.file, ref.path ?? ref.file, forced, ref.inDirectory);
}

/** readInput for `check`: plume files from PIECES_FROM_BYTES on are parsed as they are read (plume: the reader's options). */
export function readCheckInput(ref: InputRef, forced: InputFormat | undefined, plume: ReaderOptions): CheckInput {
  return 'error' in ref ? ref : readRegular(ref.file, ref.path ?? ref.file, forced, ref.inDirectory, plume);
}

/** listInputs and readInput at once (for one-file commands). */
export function readInputs(paths: readonly string[], forced?: InputFormat): Input[] {
  return listInputs(paths).map((r) => readInput(r, forced));
}

/** The message for an input that could not be read, e.g. `cannot read directory d: permission denied`. */
export function inputErrorLine(input: { file: string; error: string; skipped?: boolean }): string {
  const file = terminalSafe(input.file);
  if (input.error.startsWith('cannot read directory: ')) return `cannot read directory ${file}: ${input.error.slice('cannot read directory: '.length)}`;
  return `cannot read ${file}: ${input.error}${input.skipped ? ', skipped' : ''}`;
}

/**
 * Plume files from this size on are parsed as they are read, through one buffer of PIECE_BYTES:
 * never whole in memory, and parsed while still in the cache (plume-reader.ts PlumeReader).
 * Smaller files gain nothing from it.
 */
const PIECES_FROM_BYTES = 4 * 1024 * 1024;
const PIECE_BYTES = 1024 * 1024;

/**
 * file: the name shown; path: what opens it (its bytes when the name is not UTF-8). Only with
 * `plume` (the reader's options, for check) may a large plume file come back parsed.
 */
function readRegular(file: string, path: string | Buffer, forced: InputFormat | undefined, inDirectory: boolean): Input;
function readRegular(file: string, path: string | Buffer, forced: InputFormat | undefined, inDirectory: boolean, plume: ReaderOptions): CheckInput;
function readRegular(file: string, path: string | Buffer, forced: InputFormat | undefined, inDirectory: boolean, plume?: ReaderOptions): CheckInput {
  let fd = -1;
  try {
    // O_NONBLOCK: opening a FIFO without a writer must not wait for one (the kind is checked next).
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (st.isDirectory()) return { file, error: 'is a directory', skipped: inDirectory };
    if (!st.isFile()) return { file, error: `not a regular file (${kindOf(st)})`, skipped: inDirectory };
    let cap = formatOf(file, forced) === 'plume' ? MAX_INPUT_BYTES : MAX_HIST_BYTES;
    if (st.size > cap) return { file, error: tooLarge(cap), skipped: inDirectory };
    let head: Buffer | null = null;
    let headLength = 0;
    if (cap === MAX_INPUT_BYTES && (st.size > MAX_HIST_BYTES || (plume && st.size >= PIECES_FROM_BYTES))) {
      // The first piece tells the format: a .txt file may be dbcop or AWDIT test text, which must
      // fit one JavaScript string; plume is parsed piece by piece (for check).
      head = Buffer.allocUnsafe(PIECE_BYTES);
      headLength = fill(fd, head, 0);
      if (formatOf(file, forced, head.subarray(0, headLength)) !== 'plume') {
        cap = MAX_HIST_BYTES;
        if (st.size > cap) return { file, error: tooLarge(cap), skipped: inDirectory };
      } else if (plume && st.size >= PIECES_FROM_BYTES) {
        const p = readPlumeInPieces(head, headLength, (b, at) => fill(fd, b, at), { init: plume.plumeInit }, st.size, cap);
        return p ? { file, size: p.size, source: plumeSource(p.plume) } : { file, error: tooLarge(cap), skipped: inDirectory };
      }
    }
    let buf = Buffer.allocUnsafe(Math.max(st.size, headLength, 4096) + 1);
    let length = head ? head.copy(buf, 0, 0, headLength) : 0;
    // Read to the end (files under /proc report size 0), never past the cap.
    for (;;) {
      if (length === buf.length) {
        if (buf.length > cap) return { file, error: tooLarge(cap), skipped: inDirectory };
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2, cap + 1));
        buf.copy(grown, 0, 0, length);
        buf = grown;
      }
      const got = readSync(fd, buf, length, buf.length - length, null);
      if (got === 0) break;
      length += got;
    }
    if (length > cap) return { file, error: tooLarge(cap), skipped: inDirectory };
    return { file, bytes: buf.subarray(0, length) };
  } catch (e) {
    return { file, error: describe(e), skipped: inDirectory };
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** Reads into buf from `at` until it is full or the file ends; returns how many bytes buf then holds. */
function fill(fd: number, buf: Uint8Array, at: number): number {
  let length = at;
  while (length < buf.length) {
    const got = readSync(fd, buf, length, buf.length - length, null);
    if (got === 0) break;
    length += got;
  }
  return length;
}

function tooLarge(cap: number): string {
  return `larger than ${cap >= MAX_INPUT_BYTES ? '2 GB' : '512 MB (the limit for text formats such as .hist, dbcop and AWDIT test; plume files may have up to 2 GB)'}`;
}

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOENT') return 'no such file or directory';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  if (err.code === 'ELOOP') return 'too many levels of symbolic links';
  if (err.code === 'ENXIO') return 'not a regular file (a socket)';
  if (err.code === 'ENAMETOOLONG') return 'file name too long';
  return err.message ?? String(e);
}

export type PlumeInit = 'zero' | 'none';

/** `--plume-init zero|none`: undefined when not given, null when invalid. */
export function parsePlumeInit(text: string | undefined): PlumeInit | undefined | null {
  if (text === undefined) return undefined;
  return text === 'zero' || text === 'none' ? text : null;
}
