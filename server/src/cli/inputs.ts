// Reading input files: directories expand to their histories, formats come from extensions or --format.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type InputFormat = 'hist' | 'plume' | 'edn' | 'json';

export const INPUT_FORMATS: readonly InputFormat[] = ['hist', 'plume', 'edn', 'json'];

export const HISTORY_EXTENSIONS = ['.hist', '.txt', '.plume', '.edn', '.jsonl'];

export function formatOf(file: string, forced: InputFormat | undefined): InputFormat {
  if (forced) return forced;
  if (file.endsWith('.edn')) return 'edn';
  if (file.endsWith('.jsonl') || file.endsWith('.json')) return 'json';
  return file.endsWith('.txt') || file.endsWith('.plume') ? 'plume' : 'hist';
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
