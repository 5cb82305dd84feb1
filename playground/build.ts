// Builds the playground into out/playground/ (plain static files) and, with --serve, serves it on localhost.

import { createServer, type Server } from 'node:http';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');
export const OUT = join(ROOT, 'out', 'playground');

/** `isocheck:examples`: every examples/*.hist as { name: text }. */
const examplesPlugin: Plugin = {
  name: 'isocheck-examples',
  setup(b) {
    b.onResolve({ filter: /^isocheck:examples$/ }, () => ({ path: 'examples', namespace: 'isocheck' }));
    b.onLoad({ filter: /.*/, namespace: 'isocheck' }, () => {
      const dir = join(ROOT, 'examples');
      const files = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.hist')).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
      return { contents: JSON.stringify(files), loader: 'json', watchFiles: Object.keys(files).map((f) => join(dir, f)) };
    });
  },
};

export async function buildPlayground(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const common = {
    bundle: true, minify: true, format: 'iife', platform: 'browser', target: 'chrome114', logLevel: 'warning',
    // The LSP features use only protocol types and one enum, which the types package has without the transport.
    alias: { 'vscode-languageserver-protocol': 'vscode-languageserver-types' },
  } as const;
  // The worker is built first and embedded in the page's bundle (started from a blob: URL), so once the page
  // has loaded nothing is fetched again: a replaced worker works offline too.
  const worker = await build({ ...common, entryPoints: [join(ROOT, 'playground/src/worker.ts')], write: false });
  const workerSource: Plugin = {
    name: 'isocheck-worker-source',
    setup(b) {
      b.onResolve({ filter: /^isocheck:worker-source$/ }, () => ({ path: 'worker', namespace: 'isocheck-worker' }));
      b.onLoad({ filter: /.*/, namespace: 'isocheck-worker' }, () => ({ contents: worker.outputFiles[0].text, loader: 'text' }));
    },
  };
  await build({ ...common, entryPoints: { main: join(ROOT, 'playground/src/main.ts') }, outdir: OUT, plugins: [examplesPlugin, workerSource] });
  rmSync(join(OUT, 'worker.js'), { force: true });
  copyFileSync(join(ROOT, 'playground/index.html'), join(OUT, 'index.html'));
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json' };

/**
 * Sent with every response: no other page may frame the playground. A meta CSP cannot say `frame-ancestors`, so
 * this takes headers; a host publishing out/playground should send the same two (the README says so).
 */
export const FRAME_HEADERS = { 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'DENY' } as const;

/** A static file server for out/playground on 127.0.0.1 (port 0: any free port). */
export function servePlayground(port = 0): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split(/[?#]/)[0])).replace(/^(\.\.[/\\])+/, '');
    const file = join(OUT, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(OUT) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, FRAME_HEADERS).end('not found');
      return;
    }
    res.writeHead(200, { ...FRAME_HEADERS, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => {
    const a = server.address();
    resolve({ server, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : port}/` });
  }));
}

async function main(): Promise<void> {
  await buildPlayground();
  console.log(`built ${OUT}`);
  if (process.argv.includes('--serve')) {
    const { url } = await servePlayground(Number(process.env.PORT ?? 8080));
    console.log(`IsoCheck playground: ${url} (Ctrl+C to stop)`);
  }
}

if (process.argv[1] && normalize(process.argv[1]) === normalize(import.meta.filename)) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
