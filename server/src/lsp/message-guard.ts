// Keeps messages that would throw inside vscode-jsonrpc's reader callback (and so end the server), break a document's state, or wait forever (a request with an id no reply can name) away from the connection.

import { ErrorCodes, type DataCallback, type Disposable, type Message, type MessageReader } from 'vscode-languageserver/node';

/**
 * vscode-jsonrpc reads a `$/cancelRequest` notification's `params.id` in its reader callback,
 * before any check and outside every try: one without params, or whose id is null or missing
 * (`{"method":"$/cancelRequest"}`, `"params":{}`), threw a TypeError out of the input's data
 * handler, which ended the process with every open document and request. A cancellation that
 * names no request cancels nothing, so it is dropped here (and `dropped` says so); so is a didOpen
 * without a whole document (openableDocument).
 */
export function guardedReader(reader: MessageReader, dropped: (why: string) => void, refuse: (reply: Message) => void): MessageReader {
  return {
    onError: reader.onError,
    onClose: reader.onClose,
    onPartialMessage: reader.onPartialMessage,
    listen: (callback: DataCallback): Disposable => reader.listen((message) => {
      const invalid = invalidRequest(message);
      if (invalid !== null) {
        refuse(invalid);
        return;
      }
      const why = unusable(message);
      if (why === null) callback(message);
      else dropped(why);
    }),
    dispose: () => reader.dispose(),
  };
}

/**
 * The reply to a request whose id is no string or number (LSP's ids; JSON-RPC's null too is
 * refused, as LSP has no null id): vscode-jsonrpc takes such a message for neither a request nor a
 * notification and drops it, so the client waited for an answer that never came. JSON-RPC answers
 * an invalid request with -32600 and id null (the id could not be read as one). Null for any other message.
 */
export function invalidRequest(message: Message): Message | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { method?: unknown; id?: unknown };
  if (typeof m.method !== 'string' || m.id === undefined) return null;
  if (typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id))) return null;
  const shown = JSON.stringify(m.id).slice(0, 60);
  return { jsonrpc: '2.0', id: null, error: { code: ErrorCodes.InvalidRequest, message: `Invalid Request: ${m.method}'s id ${shown} is no string or number, so no reply could name it` } } as Message;
}

/** Why the connection cannot take this message without throwing, or null when it can. */
export function unusable(message: Message): string | null {
  // A body that is no object (`null`, `1`) the connection logs as neither request nor notification.
  if (typeof message !== 'object' || message === null) return null;
  const m = message as { method?: unknown; id?: unknown; params?: unknown };
  if (m.method === 'textDocument/didOpen' && m.id === undefined && !openableDocument(m.params)) {
    return `ignored a textDocument/didOpen without a whole document (uri, languageId, version, text) (params ${JSON.stringify(m.params ?? null).slice(0, 100)})`;
  }
  // With an id it is a request, which the connection answers (MethodNotFound) like any other.
  if (m.method !== '$/cancelRequest' || m.id !== undefined) return null;
  const id = typeof m.params === 'object' && m.params !== null ? (m.params as { id?: unknown }).id : undefined;
  if (typeof id === 'string' || typeof id === 'number') return null;
  return `ignored a $/cancelRequest that names no request (params ${JSON.stringify(m.params ?? null).slice(0, 100)})`;
}

/**
 * Whether a didOpen's params name a whole document. vscode-languageserver's document store takes any: one without
 * its text replaced the open document of that URI by one whose text is undefined, and every later edit, check and
 * request of it failed until the client opened it again.
 */
function openableDocument(params: unknown): boolean {
  const td = typeof params === 'object' && params !== null ? (params as { textDocument?: unknown }).textDocument : undefined;
  if (typeof td !== 'object' || td === null) return false;
  const d = td as Record<string, unknown>;
  return typeof d.uri === 'string' && typeof d.languageId === 'string' && Number.isInteger(d.version) && typeof d.text === 'string';
}
