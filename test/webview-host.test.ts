// The graph view's trust boundary, without a browser: whose messages it takes, the names it decodes, the panel's CSP.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphCsp } from '../client/src/graph/csp.ts';
import { analyzeHistText } from '../server/src/engine/analyze.ts';
import { analysisData, sourceOfAnalysis } from '../server/src/engine/export/analysis-data.ts';
import { layoutGraph, witnessSentences } from '../server/src/engine/export/layout.ts';
import { LIGHT_PALETTE, renderSvg } from '../server/src/engine/export/svg-writer.ts';
import { isViewToHostMessage, uriFileName } from '../server/src/protocol/webview.ts';
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

/** A write skew whose title, keys and values are markup: the drawing must show them as text. */
const HOSTILE = String.raw`history "<script>alert(1)</script>]]>--><svg onload=alert(2)>"
level SER
session s1
  T1: r("x\"><img src=x onerror=alert(3)>", init) w("y</text><a href='https://attacker.example'>", "&amp;<!--")
session s2
  T2: r("y</text><a href='https://attacker.example'>", init) w("x\"><img src=x onerror=alert(3)>", 2)
`;

/** The SVG the view sends with an export: its own drawing (layout and writer as in webview/src/main.ts), theme colours. */
function viewSvg(): string {
  const data = analysisData(sourceOfAnalysis(analyzeHistText(HOSTILE), 'file:///h.hist'));
  const layout = layoutGraph(data, { level: 'SER', kinds: { so: true, wr: true, co: true, ww: true, rw: true, rt: true }, visible: null });
  const palette = { ...LIGHT_PALETTE, font: 'var-less "Segoe UI", sans-serif', foreground: 'rgba(204, 204, 204, 0.9)' };
  return renderSvg(layout, palette, witnessSentences(data, layout.witness!));
}

test('an export from the view: its own drawing passes, hostile names and all; a drawing that could run or fetch anything is refused', () => {
  const svg = viewSvg();
  const exported = (s: string): boolean => isViewToHostMessage({ type: 'export', uri: 'file:///h.hist', level: 'SER', format: 'svg', svg: s });
  assert.ok(svg.includes('&lt;img src=x onerror=alert(3)&gt;'), 'the names are in the drawing, as text');
  assert.equal(exported(svg), true);
  const close = svg.lastIndexOf('</svg>');
  const inside = (markup: string): string => `${svg.slice(0, close)}${markup}\n${svg.slice(close)}`;
  const refused: Record<string, string> = {
    'a script element': inside('<script>fetch("https://attacker.example")</script>'),
    'an event handler': svg.replace('<g class="box"', '<g class="box" onmouseover="alert(1)"'),
    'a handler on the root': svg.replace('<svg ', '<svg onload="alert(1)" '),
    'a link': inside('<a href="https://attacker.example"><text x="0" y="0">x</text></a>'),
    'an image': inside('<image href="https://attacker.example/p.png"/>'),
    'foreign HTML': inside('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'),
    'a style sheet': inside('<style>@import url(https://attacker.example/s.css);</style>'),
    'a remote paint server': svg.replace('fill="#ffffff"', 'fill="url(https://attacker.example/p.svg#g)"'),
    'a style attribute': svg.replace('<rect ', '<rect style="fill:url(https://attacker.example/p.png)" '),
    'a doctype with entities': `<!DOCTYPE svg [<!ENTITY e "x">]>\n${svg}`,
    'a stylesheet instruction': `<?xml-stylesheet href="https://attacker.example/s.css"?>\n${svg}`,
    'a comment': inside('<!-- x -->'),
    'CDATA': inside('<text x="0" y="0"><![CDATA[<script>alert(1)</script>]]></text>'),
    'an unknown entity': inside('<text x="0" y="0">&e;</text>'),
    'a raw & in an attribute': svg.replace('<rect ', '<rect id="a&b" '),
    'another namespace': svg.replace(`xmlns="http://www.w3.org/2000/svg"`, `xmlns="http://www.w3.org/1999/xhtml"`),
    'a nested svg': inside('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
    'a second root': `${svg}<svg xmlns="http://www.w3.org/2000/svg"></svg>`,
    'text after the root': `${svg}<p>`,
    'an unclosed element': svg.slice(0, close),
    'a mismatched close': inside('<g></text>'),
    'not an SVG': '<html><body>x</body></html>',
    'empty': '',
  };
  for (const [what, s] of Object.entries(refused)) assert.equal(exported(s), false, what);
});

test('a hostile export SVG is refused in one pass: a tag of a million spaces, a million nested groups', () => {
  const started = performance.now();
  const exported = (s: string): boolean => isViewToHostMessage({ type: 'export', uri: 'file:///h.hist', level: 'SER', format: 'svg', svg: s });
  assert.equal(exported(`<svg xmlns="http://www.w3.org/2000/svg"><g${' '.repeat(1_000_000)}x></g></svg>`), false);
  assert.equal(exported(`<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(1_000_000)}</svg>`), false);
  assert.equal(exported(`<svg xmlns="http://www.w3.org/2000/svg"><g${' x="1"'.repeat(200_000)} onload="x"></g></svg>`), false);
  assert.ok(performance.now() - started < 5_000, `${Math.round(performance.now() - started)} ms`);
});

test('a reveal asks for a place in a document: whole non-negative lines and characters, nothing else', () => {
  const reveal = (line: unknown, character: unknown): boolean => isViewToHostMessage({ type: 'reveal', uri: 'file:///h.hist', range: { start: { line, character }, end: { line: 0, character: 0 } } });
  assert.equal(reveal(3, 7), true);
  for (const [line, character] of [[0.5, 0], [1e300, 0], [-1, 0], [0, Number.MAX_SAFE_INTEGER + 1], ['1', 0], [Infinity, 0], [NaN, 0]]) {
    assert.equal(reveal(line, character), false, `${String(line)}:${String(character)}`);
  }
});
