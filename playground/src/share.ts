// Share links: the history deflated (CompressionStream, built into the browser) and base64url-encoded in the URL fragment.
/// <reference lib="dom" />

import { EDITOR_MAX } from './limits.ts';

const PREFIX = '#h=';
/** Compressed bytes fed to the inflater at a time: deflate expands at most about 1,000×, so one piece inflates to about 1 MB. */
const PIECE = 1024;

/**
 * What a share link holds: the history, or that it inflates past the editor's limit (so it was not inflated
 * further), or that it does not decode (a link cut short or altered on its way: the page says so).
 */
export type Shared = { text: string } | { tooLarge: true } | { broken: true };

async function pipe(bytes: Uint8Array, stream: CompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/**
 * `bytes` inflated, or null once the output passes `max`: a link of a few dozen KB can hold many MB (a deflate bomb),
 * so the input goes in piece by piece and the output is counted as it comes.
 */
async function inflateAtMost(bytes: Uint8Array<ArrayBuffer>, max: number): Promise<Uint8Array | null> {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  // Errors of the writing side (bad data, a cancelled read) show on the reading side too, which reports them.
  void (async () => {
    for (let i = 0; i < bytes.length; i += PIECE) await writer.write(bytes.subarray(i, i + PIECE));
    await writer.close();
  })().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The link's fragment for `text`, or null past EDITOR_MAX bytes (such a link would not open: decodeShare stops there). */
export async function encodeShare(text: string): Promise<string | null> {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > EDITOR_MAX) return null;
  const packed = await pipe(bytes, new CompressionStream('deflate-raw'));
  let bin = '';
  for (const b of packed) bin += String.fromCharCode(b);
  return PREFIX + btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The history in a fragment (or that it is too large, or broken), or null when the fragment is no share link. */
export async function decodeShare(hash: string): Promise<Shared | null> {
  if (!hash.startsWith(PREFIX)) return null;
  if (hash.length === PREFIX.length) return { broken: true };
  try {
    const b64 = hash.slice(PREFIX.length).replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    const inflated = await inflateAtMost(bytes, EDITOR_MAX);
    return inflated ? { text: new TextDecoder().decode(inflated) } : { tooLarge: true };
  } catch {
    return { broken: true };
  }
}
