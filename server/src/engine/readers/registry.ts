// The one registry of input formats: the CLI, the language server and the browser pick readers here.

import { AWDIT_TEST_READER } from './awdit-test.ts';
import { DBCOP_READER } from './dbcop-reader.ts';
import { HIST_READER } from './hist-reader.ts';
import { EDN_READER, JEPSEN_JSON_READER } from './jepsen.ts';
import { PLUME_READER } from './plume.ts';
import { decodeUtf8, type HistoryReader, type ReaderInput, type ReaderOptions, type ReadSource } from './reader.ts';

/**
 * Every reader; a new format is one entry here (see docs/architecture.md). For a shared ending
 * the first reader whose sniff accepts the file wins, else the first that claims the ending
 * (.txt: plume, .json: Jepsen JSON).
 */
export const READERS: readonly HistoryReader[] = [HIST_READER, PLUME_READER, EDN_READER, JEPSEN_JSON_READER, DBCOP_READER, AWDIT_TEST_READER];

export const FORMAT_NAMES: readonly string[] = READERS.map((r) => r.name);

export function readerNamed(name: string): HistoryReader | null {
  return READERS.find((r) => r.name === name.toLowerCase()) ?? null;
}

/** Every file name ending some reader claims. */
export const HISTORY_EXTENSIONS: readonly string[] = [...new Set(READERS.flatMap((r) => r.extensions))];

/** The endings a directory is expanded to: `.json` files are read when named, not found (package.json…). */
export const DIRECTORY_EXTENSIONS: readonly string[] = HISTORY_EXTENSIONS.filter((x) => x !== '.json');

/**
 * The reader for a file: by its ending; where several readers share an ending (`.txt`, which
 * plume, dbcop and AWDIT test files all use), the first whose sniff accepts the head of the file,
 * else the first that claims the ending. Null: no reader claims the file.
 */
export function readerForFile(fileName: string, head: string): HistoryReader | null {
  const lower = fileName.toLowerCase();
  const claiming = READERS.filter((r) => r.extensions.some((x) => lower.endsWith(x)));
  if (claiming.length <= 1) return claiming[0] ?? null;
  return claiming.find((r) => r.sniff?.(head)) ?? claiming[0];
}

/** For a file of any name (the playground's dropped files): by ending, else the first reader whose sniff accepts it, else hist. */
export function readerForAnyFile(fileName: string, head: string): HistoryReader {
  return readerForFile(fileName, head) ?? READERS.find((r) => r.sniff?.(head)) ?? HIST_READER;
}

/** Reads an input with the named reader (or the one its file name selects; .hist when none does). */
export function readHistory(input: ReaderInput, o: { format?: string; fileName?: string; options?: ReaderOptions } = {}): ReadSource {
  const reader = (o.format ? readerNamed(o.format) : null)
    ?? (o.fileName ? readerForFile(o.fileName, headOf(input)) : null)
    ?? HIST_READER;
  return reader.read(input, o.options);
}

/** The first 4 KB of an input, as text, for sniffing. */
export function headOf(input: ReaderInput): string {
  if ('text' in input) return input.text.slice(0, 4096);
  return decodeUtf8(input.bytes.subarray(0, 4096));
}

export type { HistoryReader, ReaderInput, ReaderOptions, ReadSource } from './reader.ts';
