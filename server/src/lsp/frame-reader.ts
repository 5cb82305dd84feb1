// Reads LSP messages (Content-Length frames) from a byte stream with bounded buffers, and says where in a frame the input ended.

import { constants } from 'node:buffer';
import type { Readable } from 'node:stream';
import { AbstractMessageReader, Disposable, Emitter, type DataCallback, type Event, type Message } from 'vscode-languageserver/node';

/** The longest body taken: a longer one could never become the single string JSON.parse needs. */
export const MAX_BODY_BYTES = constants.MAX_STRING_LENGTH;

/** A header is a line or two (Content-Length, perhaps Content-Type): this many bytes without its blank line is not LSP. */
export const MAX_HEADER_BYTES = 8 * 1024;

/** The bytes cannot be read as messages from here on: after a broken frame nothing marks where the next one starts. */
export class FramingError extends Error {}

/**
 * vscode-jsonrpc's stream reader waits without end for a body that never comes (a timer re-armed
 * every 10 s keeps the process alive), buffers whatever follows an absurd Content-Length, and
 * closes the connection as soon as its stream closes, before it has handled the messages that
 * arrived just before. This reader refuses a length it could never parse, never holds more than
 * one header's or one body's bytes, and reports the end of its input (with the unfinished frame,
 * if any) instead of closing: until the process exits, the server's output stays open.
 *
 * Errors: a FramingError ends reading; a body that is not JSON is a SyntaxError and reading goes
 * on with the next frame; an error of the stream itself ends reading too.
 */
export class FrameReader extends AbstractMessageReader {
  private callback: DataCallback | null = null;
  /** The current header's bytes so far (it has no blank line yet). */
  private header = Buffer.alloc(0);
  /** The current body's length once its header is read; -1 while reading a header. */
  private bodyLength = -1;
  private body: Buffer[] = [];
  private bodyBytes = 0;
  /** After a FramingError, a stream error or the end: nothing more is read or reported. */
  private stopped = false;
  private readonly endEmitter = new Emitter<string | null>();

  constructor(private readonly input: Readable) {
    super();
  }

  /** The input ended: with where it stopped inside a frame ("inside a message body (2 of 10 bytes)"), or null between frames. */
  get onEnd(): Event<string | null> {
    return this.endEmitter.event;
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const data = (chunk: Buffer): void => this.data(chunk);
    const failed = (e: Error): void => this.fail(e);
    const ended = (): void => this.ended();
    this.input.on('data', data);
    this.input.on('error', failed);
    this.input.on('end', ended);
    // A destroyed stream closes without 'end'; after 'end' this does nothing.
    this.input.on('close', ended);
    return Disposable.create(() => {
      this.input.off('data', data);
      this.input.off('error', failed);
      this.input.off('end', ended);
      this.input.off('close', ended);
    });
  }

  override dispose(): void {
    super.dispose();
    this.endEmitter.dispose();
  }

  private data(chunk: Buffer): void {
    let at = 0;
    while (!this.stopped && (at < chunk.length || this.bodyLength === 0)) {
      at = this.bodyLength < 0 ? this.readHeader(chunk, at) : this.readBody(chunk, at);
    }
  }

  /** Takes header bytes from chunk[at..]; returns where the unread part starts. */
  private readHeader(chunk: Buffer, at: number): number {
    const room = MAX_HEADER_BYTES - this.header.length;
    const seen = Buffer.concat([this.header, chunk.subarray(at, at + room)]);
    // The blank line may straddle two chunks: look from 3 bytes before the new ones.
    const end = seen.indexOf('\r\n\r\n', Math.max(0, this.header.length - 3));
    if (end < 0) {
      if (seen.length >= MAX_HEADER_BYTES) this.fail(new FramingError(`no blank line ends the message header within ${MAX_HEADER_BYTES} bytes`));
      this.header = seen;
      return chunk.length;
    }
    const taken = end + 4 - this.header.length;
    this.header = Buffer.alloc(0);
    const length = contentLength(seen.subarray(0, end).toString('ascii'));
    if (typeof length === 'string') this.fail(new FramingError(length));
    else this.bodyLength = length;
    return at + taken;
  }

  /** Takes body bytes from chunk[at..] and delivers the body once complete; returns where the unread part starts. */
  private readBody(chunk: Buffer, at: number): number {
    const take = Math.min(this.bodyLength - this.bodyBytes, chunk.length - at);
    if (take > 0) this.body.push(chunk.subarray(at, at + take));
    this.bodyBytes += take;
    if (this.bodyBytes === this.bodyLength) {
      const body = this.body.length === 1 ? this.body[0] : Buffer.concat(this.body, this.bodyLength);
      this.body = [];
      this.bodyBytes = 0;
      this.bodyLength = -1;
      this.deliver(body);
    }
    return at + take;
  }

  private deliver(body: Buffer): void {
    let message: Message;
    try {
      message = JSON.parse(body.toString('utf8')) as Message;
    } catch (e) {
      this.fireError(e);
      return;
    }
    this.callback?.(message);
  }

  private fail(e: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    this.fireError(e);
  }

  private ended(): void {
    if (this.stopped) return;
    this.stopped = true;
    let unfinished: string | null = null;
    if (this.bodyLength >= 0) unfinished = `inside a message body (${this.bodyBytes} of ${this.bodyLength} bytes)`;
    else if (this.header.length > 0) unfinished = `inside a message header (${this.header.length} bytes, no blank line)`;
    this.endEmitter.fire(unfinished);
  }
}

/** The body length a header names, or why it names none. */
function contentLength(header: string): number | string {
  let length: string | undefined;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) return `Message header must separate key and value using ':' (got ${JSON.stringify(line.slice(0, 80))})`;
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') length = line.slice(colon + 1).trim();
  }
  if (length === undefined) return `Header must provide a Content-Length property (got ${JSON.stringify(header.slice(0, 200))})`;
  if (!/^\d+$/.test(length)) return `Content-Length value must be a number (got ${JSON.stringify(length.slice(0, 80))})`;
  const n = Number(length);
  if (n > MAX_BODY_BYTES) return `Content-Length ${length} is more than the ${MAX_BODY_BYTES} bytes a message may have`;
  return n;
}
