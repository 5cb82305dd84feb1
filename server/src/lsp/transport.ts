// The stdio transport, strict about framing: a malformed JSON body gets a -32700 reply; a broken frame or the end of the input ends the server.

import { StreamMessageWriter, type MessageReader, type MessageWriter } from 'vscode-languageserver/node';
import { FrameReader, FramingError } from './frame-reader.ts';

/** JSON-RPC's code for a body that is not JSON. */
export const PARSE_ERROR = -32700;

/** How long the messages that arrived before a clean end of the input have to be answered. */
export const END_GRACE_MS = 2000;

export interface StdioOptions {
  /** Whether the client has sent `shutdown`: the exit status is then 0 when the input ends, as for `exit`. */
  shutDown: () => boolean;
  exit?: (code: number) => void;
}

/**
 * After a malformed header the reader cannot find the next message, so every later byte would be
 * misread: the server says so on stderr and exits (status 1) instead of idling as a silent zombie.
 * A well-framed body that is not JSON is answered with -32700 (id null, as JSON-RPC asks) and
 * reading goes on with the next message.
 *
 * When the input ends nothing more can be asked, so the server exits then too (the library does so
 * for its own stdio, not for a reader passed in): at once, with a message, if the input stopped
 * inside a frame; else once the messages that had arrived are answered (the event loop runs dry)
 * or after END_GRACE_MS, whichever comes first (the client's process-id watchdog and idle workers
 * never let the loop run dry), with status 0 after `shutdown`, else 1 and a message.
 */
export function stdioTransport(o: StdioOptions): { reader: MessageReader; writer: MessageWriter } {
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let ending = false;
  /** Exits once, whatever asks first; why: the line for stderr (none for a clean end after shutdown). */
  const end = (code: number, why?: string): void => {
    if (ending) return;
    ending = true;
    if (why === undefined) exit(code);
    else process.stderr.write(`isocheck: ${why}; exiting\n`, () => exit(code));
  };
  const reader = new FrameReader(process.stdin);
  const writer = new StreamMessageWriter(process.stdout);
  reader.onError((e) => {
    if (e instanceof SyntaxError) {
      void writer.write({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: `Parse error: the message body is not JSON (${e.message})` } } as never);
      return;
    }
    const line = e.message.split('\n')[0];
    end(1, e instanceof FramingError ? `the language server's input is not framed as LSP messages (${line})` : `the language server could not read its input (${line})`);
  });
  reader.onEnd((unfinished) => {
    if (unfinished !== null) {
      end(1, `the language server's input ended ${unfinished}`);
      return;
    }
    const finish = (): void => {
      if (o.shutDown()) end(0);
      else end(1, 'the language server\'s input ended without a shutdown request');
    };
    process.once('beforeExit', finish);
    setTimeout(finish, END_GRACE_MS).unref();
  });
  // The client is gone: every later write would fail, and the connection, closed by the writer, would throw at the next log.
  writer.onError(([e]) => end(1, `the language server could not write its output (${e.message.split('\n')[0]})`));
  writer.onClose(() => end(1, 'the language server\'s output was closed'));
  return { reader, writer };
}
