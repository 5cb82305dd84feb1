// The graph view's trust boundary, without a browser: whose messages it takes, the names it decodes, the panel's CSP.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphCsp } from '../client/src/graph/csp.ts';
import { uriFileName } from '../server/src/protocol/webview.ts';
import { fromWebviewHost } from '../webview/src/vscode-api.ts';

test('window messages count only from the view\'s own origin (VS Code\'s host frame), never from an opaque or empty one', () => {
  const own = 'vscode-webview://0a1b2c3d';
  assert.equal(fromWebviewHost({ origin: own }, own), true);
  assert.equal(fromWebviewHost({ origin: 'https://attacker.example' }, own), false, 'a page that frames or opens the view');
  assert.equal(fromWebviewHost({ origin: '' }, own), false, 'a synthetic MessageEvent');
  // Every sandboxed frame posts as 'null': a view with an opaque origin cannot tell them apart, so it takes none.
  assert.equal(fromWebviewHost({ origin: 'null' }, 'null'), false);
  assert.equal(fromWebviewHost({ origin: '' }, ''), false);
});

test('a URI\'s file name: decoded when encoded, as written when a stray % would make decodeURIComponent throw', () => {
  assert.equal(uriFileName('playground:/100%25.edn'), '100%.edn');
  assert.equal(uriFileName('file:///histories/a%20b.hist'), 'a b.hist');
  assert.equal(uriFileName('playground:/100%.edn'), '100%.edn');
  assert.equal(uriFileName('playground:/%E0%A4%A.hist'), '%E0%A4%A.hist');
  assert.equal(uriFileName(`playground:/${encodeURIComponent('a#b/c?.hist')}`), 'a#b/c?.hist');
});

test('the panel\'s CSP: nothing by default, the nonce\'s script only, no <base>, no form target', () => {
  const csp = graphCsp('https://file+.vscode-resource.vscode-cdn.net', 'abc123');
  const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(' ')]));
  assert.equal(directives.get('default-src'), "'none'");
  assert.equal(directives.get('script-src'), "'nonce-abc123'");
  assert.equal(directives.get('base-uri'), "'none'");
  assert.equal(directives.get('form-action'), "'none'");
  assert.ok(![...directives.values()].some((v) => v.includes('unsafe')), csp);
});
