// Reading input files: directories expand to their histories, formats come from extensions or --format.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIRECTORY_EXTENSIONS, FORMAT_NAMES, headOf, readerForFile, readerNamed, type ReaderOptions, type ReadSource } from '../engine/readers/registry.ts';

/** A reader's name (engine/readers/registry.ts): hist, plume, dbcop. */
export type InputFormat = string;

export const HISTORY_EXTENSIONS = DIRECTORY_EXTENSIONS;

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

export type Input = { file: string; bytes: Buffer } | { file: string; error: string };

/** Expands directories (their history files, sorted, not recursive) and reads every file. */
export function readInputs(paths: readonly string[]): Input[] {
  const out: Input[] = [];
  for (const p of paths) {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      out.push({ file: p, error: describe(e) });
      continue;
    }
    const files = isDir
      ? readdirSync(p).filter((f) => HISTORY_EXTENSIONS.some((x) => f.endsWith(x))).sort().map((f) => join(p, f))
      : [p];
    for (const f of files) {
      try {
        out.push({ file: f, bytes: readFileSync(f) });
      } catch (e) {
        out.push({ file: f, error: describe(e) });
      }
    }
  }
  return out;
}

function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOENT') return 'no such file or directory';
  if (err.code === 'EACCES') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  return err.message ?? String(e);
}
