// The server speaks LSP strictly over stdio: malformed JSON gets -32700, a broken frame or the end of its input ends it with a message, nothing is served after shutdown.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationRequest, InitializeRequest } from 'vscode-languageserver-protocol/node';
import { ReportRequest, WitnessExportRequest } from '../server/src/protocol/messages.ts';
import { CLI, ensureBuilt, LspClient, ROOT, SERVER } from './helpers/lsp-client.ts';

interface Reply {
  id: number | string | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A raw stdio peer: writes bytes as given and parses the server's frames itself. */
class RawPeer {
  readonly replies: Reply[] = [];
  /** The server's window/logMessage lines. */
  readonly logs: string[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  private buffer = Buffer.alloc(0);
  private waiters: { test: (r: Reply) => boolean; resolve: (r: Reply) => void }[] = [];

  constructor(readonly p: ChildProcessWithoutNullStreams) {
    this.exited = new Promise((resolve) => p.on('exit', (code) => resolve(code)));
    p.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    p.stdout.on('data', (d: Buffer) => this.data(d));
  }

  static start(args = [SERVER, '--stdio']): RawPeer {
    return new RawPeer(spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  /** The exit status, which must come within ms (else the server is killed and the test fails). */
  async exitsWithin(ms: number): Promise<number | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.p.kill();
        reject(new Error(`still running ${ms} ms later; stderr: ${this.stderr}`));
      }, ms);
    });
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
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
      if (body.method === 'window/logMessage') this.logs.push(String((body as { params?: { message?: unknown } }).params?.message));
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

  /** Ends the server's input, as a client does that closes its end of the pipe. */
  end(bytes = ''): void {
    this.p.stdin.end(bytes);
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

  test('a request whose id is no string or number gets -32600 (id null), not silence; the server goes on', async () => {
    // Before, vscode-jsonrpc logged "neither a response nor a notification" and the client waited for ever.
    const peer = RawPeer.start();
    try {
      await peer.initialize();
      const hover = { method: 'textDocument/hover', params: { textDocument: { uri: 'file:///a.hist' }, position: { line: 0, character: 0 } } };
      const ids = [{ a: 1 }, [1], true, null];
      for (const [i, id] of ids.entries()) {
        peer.send({ id, ...hover });
        peer.send({ id: 10 + i, ...hover });
        assert.deepEqual(await peer.reply((r) => r.id === 10 + i), { jsonrpc: '2.0', id: 10 + i, result: null });
      }
      const refusals = peer.replies.filter((r) => r.error?.code === -32600);
      assert.equal(refusals.length, ids.length, JSON.stringify(peer.replies));
      for (const r of refusals) {
        assert.equal(r.id, null);
        assert.match(r.error!.message, /textDocument\/hover's id .* is no string or number/);
      }
      peer.send({ id: 2, method: 'shutdown' });
      await peer.reply((r) => r.id === 2);
      peer.send({ method: 'exit' });
      assert.equal(await peer.exitsWithin(5000), 0);
      assert.doesNotMatch(peer.stderr, STACK);
    } finally {
      peer.p.kill();
    }
  });

  test('a $/cancelRequest that names no request is ignored: it used to throw inside vscode-jsonrpc and end the server', async () => {
    const bad = [undefined, null, 5, 'x', [], {}, { id: null }, { id: {} }, { id: true }];
    const hover = { method: 'textDocument/hover', params: { textDocument: { uri: 'file:///a.hist' }, position: { line: 0, character: 0 } } };
    for (const args of [[SERVER, '--stdio'], [CLI, 'lsp', '--stdio']]) {
      const peer = RawPeer.start(args);
      await peer.initialize();
      for (const [i, params] of bad.entries()) {
        peer.send({ method: '$/cancelRequest', ...(params === undefined ? {} : { params }) });
        peer.send({ id: 100 + i, ...hover });
        assert.deepEqual(await peer.reply((r) => r.id === 100 + i), { jsonrpc: '2.0', id: 100 + i, result: null }, `${args.join(' ')}: after params ${JSON.stringify(params)}`);
      }
      peer.send({ id: 2, method: 'shutdown' });
      await peer.reply((r) => r.id === 2);
      peer.send({ method: 'exit' });
      assert.equal(await peer.exitsWithin(5000), 0);
      assert.doesNotMatch(peer.stderr, STACK);
    }
    // The VS Code extension's transport (node IPC) goes through the same guard.
    const ipc = spawn(process.execPath, [SERVER, '--node-ipc'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
    const replies: Reply[] = [];
    ipc.on('message', (m: Reply) => replies.push(m));
    ipc.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    for (const params of bad) ipc.send({ jsonrpc: '2.0', method: '$/cancelRequest', ...(params === undefined ? {} : { params }) });
    ipc.send({ jsonrpc: '2.0', id: 2, ...hover });
    for (let waited = 0; waited < 5000 && !replies.some((r) => r.id === 2); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(replies.some((r) => r.id === 2) && ipc.exitCode === null, 'the IPC server answered after the cancellations');
    ipc.kill();
  });

  test('a client that never answers workspace/configuration: the document is checked with the defaults and an export is answered; a late answer takes over', async (t) => {
    const c = await LspClient.start({ settings: {}, initializationOptions: { debounceMs: 0, configurationWaitMs: 300 } });
    t.after(() => {
      if (c.process.exitCode === null) c.kill();
    });
    const answers: ((settings: unknown[]) => void)[] = [];
    c.connection.onRequest(ConfigurationRequest.type, () => new Promise<unknown[]>((resolve) => answers.push(resolve)));
    const uri = 'file:///unanswered.hist';
    await c.open(uri, 'session s1\n  T1: w(x, 1)\nsession s2\n  T2: r(x, 1)\n  T3: r(x, 2)\n');
    const started = performance.now();
    const first = await c.diagnosticsOfVersion(uri, 1, 5000);
    assert.ok(performance.now() - started < 4000);
    assert.ok(first.some((d) => d.code === 'thin-air'), 'checked with the default settings');
    const exported = await c.connection.sendRequest(WitnessExportRequest.type, { uri, level: 'RC', format: 'json' });
    assert.equal(typeof exported.ok, 'boolean');
    assert.ok(c.logs.some((l) => /has not answered workspace\/configuration/.test(l)));
    // The client answers at last: its levels make another analysis, published again for version 1.
    const before = c.publications.length;
    for (const answer of answers) answer([{ levels: ['RC'] }]);
    await c.diagnosticsFor(uri, () => c.publications.length > before, 5000);
    const report = await c.connection.sendRequest(ReportRequest.type, { uri, file: 'unanswered.hist' });
    assert.deepEqual(Object.keys(report?.levels ?? {}), ['RC'], 'the late answer\'s levels');
  });

  test('a second initialize is refused with InvalidRequest and starts no workers (each one used to orphan the running ones)', async (t) => {
    const c = await LspClient.start({ settings: {}, initializationOptions: { debounceMs: 0 } });
    t.after(() => {
      if (c.process.exitCode === null) c.kill();
    });
    const threads = (): number => Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${c.process.pid}/status`, 'utf8'))?.[1] ?? 0);
    const uri = 'file:///twice.hist';
    await c.open(uri, 'session s1\n  T1: w(x, 1)\n');
    await c.diagnosticsOfVersion(uri, 1);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the lane's spare worker boots after the first job
    const before = threads();
    for (let i = 0; i < 5; i++) {
      await assert.rejects(c.connection.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, workspaceFolders: null, capabilities: {} }),
        (e: { code?: number; message?: string }) => e.code === -32600 && /already initialised/.test(e.message ?? ''));
      const v = await c.change(uri, `session s1\n  T1: w(x, ${i})\n`);
      await c.diagnosticsOfVersion(uri, v);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (existsSync('/proc/self/status')) assert.ok(threads() <= before, `threads ${before} → ${threads()}`);
    assert.equal(await c.stop(), 0);
  });

  test('requests whose params have the wrong shape are answered InvalidParams (-32602), not logged as failures; the server goes on', async (t) => {
    const peer = RawPeer.start();
    t.after(() => {
      if (peer.p.exitCode === null) peer.p.kill();
    });
    await peer.initialize();
    const uri = 'file:///params.hist';
    peer.send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'hist', version: 1, text: 'session s1\n  T1: w(x, 1)\n  T2: r(x, 1)\n' } } });
    const doc = { textDocument: { uri } };
    const at = { ...doc, position: { line: 2, character: 6 } };
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    const bad: [string, unknown][] = [
      ['textDocument/hover', []], ['textDocument/hover', { textDocument: 'x', position: at.position }],
      ['textDocument/hover', { ...doc, position: { line: '2', character: 0 } }], ['textDocument/hover', { ...doc, position: { line: -1, character: 0 } }],
      ['textDocument/definition', { textDocument: { uri: 5 }, position: at.position }], ['textDocument/references', at],
      ['textDocument/references', { ...at, context: { includeDeclaration: 'yes' } }], ['textDocument/documentSymbol', {}],
      ['textDocument/foldingRange', { textDocument: {} }], ['textDocument/codeLens', 7], ['textDocument/codeAction', { ...doc, range, context: {} }],
      ['textDocument/codeAction', { ...doc, range, context: { diagnostics: [{ message: 'm' }] } }], ['textDocument/codeAction', { ...doc, context: { diagnostics: [] } }],
      ['textDocument/completion', { ...at, context: { triggerCharacter: 3 } }], ['textDocument/completion', { ...doc, position: 1.5 }],
      ['isocheck/analysis', { uri: 3 }], ['isocheck/analysis', null], ['isocheck/report', { uri }], ['isocheck/exportWitness', []],
    ];
    for (const [i, [method, params]] of bad.entries()) peer.send({ id: 100 + i, method, params });
    for (const [i, [method, params]] of bad.entries()) {
      const reply = await peer.reply((r) => r.id === 100 + i);
      assert.equal(reply.error?.code, -32602, `${method} ${JSON.stringify(params)}: ${JSON.stringify(reply)}`);
      assert.match(reply.error.message, /must be|received parameters by position/);
    }
    // Well-formed ones are still answered.
    peer.send({ id: 200, method: 'textDocument/hover', params: at });
    peer.send({ id: 201, method: 'textDocument/codeAction', params: { ...doc, range, context: { diagnostics: [] } } });
    peer.send({ id: 202, method: 'textDocument/completion', params: at });
    for (const id of [200, 201, 202]) assert.equal((await peer.reply((r) => r.id === id)).error, undefined, `request ${id}`);
    assert.deepEqual(peer.logs.filter((l) => / failed:/.test(l)), []);
    peer.send({ id: 2, method: 'shutdown' });
    await peer.reply((r) => r.id === 2);
    peer.send({ method: 'exit' });
    assert.equal(await peer.exited, 0);
    assert.doesNotMatch(peer.stderr, STACK);
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

/** What a stack trace on stderr looks like (`    at f (file:1:2)`). */
const STACK = /^\s+at .+:\d+/m;
const DOC = { uri: 'file:///eof.hist', languageId: 'hist', version: 1, text: 'session s1\nT1: w(x,1)\nT2: r(x,1) <- T1\n' };

describe('the end of the input over stdio (isocheck lsp --stdio)', () => {
  const cli = [CLI, 'lsp', '--stdio'];

  test('input that ends inside a message body ends the server at once, with one line on stderr', async () => {
    const peer = RawPeer.start(cli);
    peer.end('Content-Length: 10\r\n\r\n{}');
    assert.equal(await peer.exitsWithin(5000), 1);
    assert.equal(peer.stderr, "isocheck: the language server's input ended inside a message body (2 of 10 bytes); exiting\n");
  });

  test('input that ends inside a header ends it the same way', async () => {
    const peer = RawPeer.start(cli);
    peer.end('Content-Len');
    assert.equal(await peer.exitsWithin(5000), 1);
    assert.equal(peer.stderr, "isocheck: the language server's input ended inside a message header (11 bytes, no blank line); exiting\n");
  });

  test('an absurd Content-Length is refused when its header arrives, not waited for (the input still open)', async () => {
    const peer = RawPeer.start(cli);
    peer.raw('Content-Length: 99999999999\r\n\r\n{}');
    assert.equal(await peer.exitsWithin(5000), 1);
    assert.match(peer.stderr, /^isocheck: the language server's input is not framed as LSP messages \(Content-Length 99999999999 is more than the \d+ bytes a message may have\); exiting\n$/);
  });

  test('so is a header that never ends', async () => {
    const peer = RawPeer.start(cli);
    peer.raw('x'.repeat(10_000));
    assert.equal(await peer.exitsWithin(5000), 1);
    assert.match(peer.stderr, /not framed as LSP messages \(no blank line ends the message header within 8192 bytes\)/);
  });

  test('a well-framed body that is no request, then the end: logged, and a clean exit without a stack trace', async () => {
    await Promise.all(['[]', 'null', '1', '"x"', '{}', '{"jsonrpc":"2.0"}'].map(async (body) => {
      const peer = RawPeer.start(cli);
      peer.end(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      assert.equal(await peer.exitsWithin(5000), 1, body);
      assert.doesNotMatch(peer.stderr, STACK, body);
      assert.equal(peer.stderr, "isocheck: the language server's input ended without a shutdown request; exiting\n", body);
    }));
  });

  test('the end after shutdown: status 0, although the client\'s process-id watchdog and a worker would keep the process alive', async () => {
    const peer = RawPeer.start(cli);
    peer.send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } });
    await peer.reply((r) => r.id === 1);
    peer.send({ method: 'initialized', params: {} });
    peer.send({ method: 'textDocument/didOpen', params: { textDocument: DOC } });
    peer.send({ id: 2, method: 'textDocument/documentSymbol', params: { textDocument: { uri: DOC.uri } } });
    await peer.reply((r) => r.id === 2);
    peer.send({ id: 3, method: 'shutdown' });
    peer.end();
    assert.equal(await peer.exitsWithin(5000), 0);
    assert.ok(peer.replies.some((r) => r.id === 3), 'shutdown, sent just before the end, was answered');
    assert.equal(peer.stderr, '');
  });

  test('the end without shutdown: what arrived before it is still answered (a check\'s logs and notifications too), then status 1', async () => {
    const peer = RawPeer.start(cli);
    const notified: string[] = [];
    peer.p.stdout.on('data', (d: Buffer) => notified.push(...[...d.toString().matchAll(/"method":"([^"]+)"/g)].map((m) => m[1])));
    peer.send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } });
    peer.send({ method: 'initialized', params: {} });
    peer.send({ method: 'textDocument/didOpen', params: { textDocument: DOC } });
    peer.send({ id: 2, method: 'isocheck/analysis', params: { uri: DOC.uri } });
    peer.end('Content-Length: 2\r\n\r\n[]');
    assert.equal(await peer.exitsWithin(8000), 1);
    assert.ok(peer.replies.some((r) => r.id === 1) && peer.replies.some((r) => r.id === 2), JSON.stringify(peer.replies));
    assert.ok(notified.includes('textDocument/publishDiagnostics'), notified.join(' '));
    assert.doesNotMatch(peer.stderr, STACK);
    assert.equal(peer.stderr, "isocheck: the language server's input ended without a shutdown request; exiting\n");
  });

  test('a client that closes the server\'s output: status 1 and a line on stderr, as for out/server.js (not the quiet 0 of `check | head`)', async () => {
    for (const args of [cli, [SERVER, '--stdio']]) {
      const peer = RawPeer.start(args);
      await peer.initialize();
      peer.p.stdout.destroy();
      peer.send({ id: 2, method: 'textDocument/documentSymbol', params: { textDocument: { uri: DOC.uri } } });
      assert.equal(await peer.exitsWithin(5000), 1, args.join(' '));
      assert.match(peer.stderr, /^isocheck: the language server could not write its output \(write EPIPE\); exiting\n$/, args.join(' '));
    }
  });

  test('--pipe=PATH with an = in the path: the server connects to that path (it was cut at the second =)', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'isocheck-pipe='));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'a=b.sock');
    const server = createServer();
    // Closed whatever happens: a server left listening would keep the test process alive.
    t.after(() => server.close());
    const connected = new Promise<Socket>((resolve) => server.on('connection', resolve));
    server.listen(path);
    const p = spawn(process.execPath, [SERVER, `--pipe=${path}`], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    t.after(() => p.kill());
    let timer: NodeJS.Timeout | undefined;
    const socket = await Promise.race([connected, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 10_000)))]);
    clearTimeout(timer);
    assert.ok(socket, 'the server connected to the pipe it was given');
    t.after(() => socket.destroy());
    let got = '';
    socket.on('data', (d: Buffer) => (got += d.toString()));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    socket.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    for (let waited = 0; waited < 10_000 && !got.includes('"id":1'); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    assert.match(got, /"capabilities"/, 'initialize answered over the pipe');
  });
});
