// The reader interface: one input format (bytes or text) → history, positions, findings, directives.

import type { ReadSource } from '../analyze.ts';

/** What every reader returns: the analysis starts from it (analyzeSource in analyze.ts). */
export type { ReadSource };

/**
 * A document's text (editors: spans are UTF-16 offsets) or a file's bytes (CLI: a reader may keep
 * byte offsets, as plume does). Spans always index the input as given, and `lines` converts them.
 */
export type ReaderInput = { text: string } | { bytes: Uint8Array };

export interface ReaderOptions {
  /** plume: whether value 0 is the initial value ('zero', default) or an ordinary value ('none'). */
  plumeInit?: 'zero' | 'none';
  /**
   * Polled while reading (every STOP_POLL_ITEMS items of util/stop.ts: items, events, lines or
   * transactions; plume every 256 KB): true ends the read there, with what was read so far. For a
   * caller that drops a read it no longer needs (an editor's analysis of a version already edited
   * again), never for a history to analyse.
   */
  stop?: () => boolean;
}

export interface HistoryReader {
  /** The name users give to `--format` and that messages use. */
  readonly name: string;
  /** One line for help texts. */
  readonly description: string;
  /** File name endings that choose this reader, with the dot (`.hist`). */
  readonly extensions: readonly string[];
  /**
   * Whether the first few kilobytes of a file look like this format. Consulted only for
   * endings several formats share (`.txt`), never to override an ending that is the reader's own.
   */
  sniff?(head: string): boolean;
  read(input: ReaderInput, options?: ReaderOptions): ReadSource;
}

/** Every host has TextDecoder (node, browsers); the engine's own lib declares no platform, so name it here. */
declare const TextDecoder: new (label: string) => { decode(bytes: Uint8Array): string };
const decoder = new TextDecoder('utf-8');

export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The input as text (bytes decoded as UTF-8, a byte order mark dropped). */
export function textOf(input: ReaderInput): string {
  const text = 'text' in input ? input.text : decodeUtf8(input.bytes);
  return text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
}

/**
 * The input as bytes for byte-level readers. Text becomes one byte per UTF-16 code unit (code
 * units above 0xff become 0xff, which no format accepts), so byte offsets are UTF-16 offsets.
 */
export function bytesOf(input: ReaderInput): Uint8Array {
  if ('bytes' in input) return input.bytes;
  const t = input.text;
  const out = new Uint8Array(t.length);
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    out[i] = c > 0xff ? 0xff : c;
  }
  if (t.charCodeAt(0) === 0xfeff) out[0] = 32; // a byte order mark is whitespace, as textOf makes it
  return out;
}
