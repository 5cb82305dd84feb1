// The server speaks LSP strictly over stdio: malformed JSON gets -32700, a broken frame ends it with a message, nothing is served after shutdown.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { ensureBuilt, ROOT, SERVER } from './helpers/lsp-client.ts';

interface Reply {
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A raw stdio peer: writes bytes as given and parses the server's frames itself. */
class RawPeer {
  readonly replies: Reply[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  private buffer = Buffer.alloc(0);
  private waiters: { test: (r: Reply) => boolean; resolve: (r: Reply) => void }[] = [];

  constructor(readonly p: ChildProcessWithoutNullStreams) {
    this.exited = new Promise((resolve) => p.on('exit', (code) => resolve(code)));
    p.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    p.stdout.on('data', (d: Buffer) => this.data(d));
  }

  static start(): RawPeer {
    return new RawPeer(spawn(process.execPath, [SERVER, '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  private data(d: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, d]);
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString())?.[1]);
      if (this.buffer.length < end + 4 + length) return;
      const body = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString()) as Reply & { method?: string };
      this.buffer = this.buffer.subarray(end + 4 + length);
      if (body.method !== undefined) continue; // notifications and requests from the server
      this.replies.push(body);
      const ready = this.waiters.filter((w) => w.test(body));
      this.waiters = this.waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve(body);
    }
  }

  raw(bytes: string): void {
    this.p.stdin.write(bytes);
  }

  send(message: object): void {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }));
    this.raw(`Content-Length: ${body.length}\r\n\r\n${body.toString()}`);
  }

  reply(test: (r: Reply) => boolean): Promise<Reply> {
    const now = this.replies.find(test);
    return now ? Promise.resolve(now) : new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  async initialize(): Promise<void> {
    this.send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    await this.reply((r) => r.id === 1);
    this.send({ method: 'initialized', params: {} });
  }
}

before(() => ensureBuilt());

describe('LSP framing and lifecycle over stdio', () => {
  test('a body that is not JSON gets a -32700 reply (id null), and the server goes on', async () => {
    const peer = RawPeer.start();
    await peer.initialize();
    const junk = '{"jsonrpc": "2.0", "id": 2, "method": ';
    peer.raw(`Content-Length: ${Buffer.byteLength(junk)}\r\n\r\n${junk}`);
    const parseError = await peer.reply((r) => r.error?.code === -32700);
    assert.equal(parseError.id, null);
    assert.match(parseError.error!.message, /not JSON/);
    peer.send({ id: 3, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///nothing.hist' }, position: { line: 0, character: 0 } } });
    assert.deepEqual(await peer.reply((r) => r.id === 3), { jsonrpc: '2.0', id: 3, result: null });
    peer.send({ id: 4, method: 'shutdown' });
    await peer.reply((r) => r.id === 4);
    peer.send({ method: 'exit' });
    assert.equal(await peer.exited, 0);
  });

  test('a frame without Content-Length ends the server with a message on stderr, not a silent zombie', async () => {
    const peer = RawPeer.start();
    await peer.initialize();
    peer.raw('Content-Type: application/vscode-jsonrpc\r\n\r\n{}');
    assert.equal(await peer.exited, 1);
    assert.match(peer.stderr, /isocheck: the language server's input is not framed as LSP messages \(Header must provide a Content-Length property/);
  });

  test('a Content-Length that is not a number ends the server too', async () => {
    const peer = RawPeer.start();
    peer.raw('Content-Length: lots\r\n\r\n{}');
    assert.equal(await peer.exited, 1);
    assert.match(peer.stderr, /not framed as LSP messages \(Content-Length value must be a number/);
  });

  test('requests after shutdown fail with InvalidRequest (-32600); exit then ends the process with 0', async () => {
    const peer = RawPeer.start();
    await peer.initialize();
    peer.send({ id: 2, method: 'shutdown' });
    assert.deepEqual(await peer.reply((r) => r.id === 2), { jsonrpc: '2.0', id: 2, result: null });
    const requests = [
      { method: 'textDocument/hover', params: { textDocument: { uri: 'file:///a.hist' }, position: { line: 0, character: 0 } } },
      { method: 'textDocument/documentSymbol', params: { textDocument: { uri: 'file:///a.hist' } } },
      { method: 'isocheck/analysis', params: { uri: 'file:///a.hist' } },
      { method: 'isocheck/exportWitness', params: { uri: 'file:///a.hist', level: 'RC', format: 'json' } },
      { method: 'shutdown' },
    ];
    for (const [i, r] of requests.entries()) peer.send({ id: 10 + i, ...r });
    for (const [i, r] of requests.entries()) {
      const reply = await peer.reply((x) => x.id === 10 + i);
      assert.equal(reply.error?.code, -32600, `${r.method}: ${JSON.stringify(reply)}`);
      assert.match(reply.error.message, /no requests after shutdown|already shutting down/);
    }
    peer.send({ method: 'exit' });
    assert.equal(await peer.exited, 0);
  });
});
