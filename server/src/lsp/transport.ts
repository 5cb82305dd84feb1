// The stdio transport, strict about framing: a malformed JSON body gets a -32700 reply, a broken frame ends the server with a message.

import { StreamMessageReader, StreamMessageWriter, type MessageReader, type MessageWriter } from 'vscode-languageserver/node';

/** JSON-RPC's code for a body that is not JSON. */
export const PARSE_ERROR = -32700;

/**
 * After a malformed header the reader cannot find the next message, so every later byte would be
 * misread: the server says so on stderr and exits (status 1) instead of idling as a silent zombie.
 * A well-framed body that is not JSON is answered with -32700 (id null, as JSON-RPC asks) and
 * reading goes on with the next message.
 */
export function stdioTransport(exit: (code: number) => void = (code) => process.exit(code)): { reader: MessageReader; writer: MessageWriter } {
  const reader = new StreamMessageReader(process.stdin);
  const writer = new StreamMessageWriter(process.stdout);
  reader.onError((e) => {
    if (e instanceof SyntaxError) {
      void writer.write({ jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: `Parse error: the message body is not JSON (${e.message})` } } as never);
      return;
    }
    process.stderr.write(`isocheck: the language server's input is not framed as LSP messages (${e.message.split('\n')[0]}); exiting\n`, () => exit(1));
  });
  return { reader, writer };
}
