// Every diagnostic's codeDescription link lands on a section that exists: each code's anchor, and every example's diagnostics in the editor.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { DIAGNOSTIC_CODES } from '../server/src/engine/model/diagnostics.ts';
import { docLink, docSection } from '../server/src/engine/model/doc-links.ts';
import { buildSnapshot } from '../server/src/lsp/snapshot.ts';

const ROOT = join(import.meta.dirname, '..');

/** GitHub's slugs of a page's `##` headings. */
function anchors(page: string): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', page), 'utf8');
  return new Set([...text.matchAll(/^## (.+)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
}

const PAGES = { 'anomalies.md': anchors('anomalies.md'), 'list-append.md': anchors('list-append.md') };
const BASE = pathToFileURL(join(ROOT, 'docs', 'anomalies.md')).href;

/** The page and anchor a link points at, or null when it is not one of the two pages. */
function target(href: string): { page: keyof typeof PAGES; anchor: string } | null {
  const [url, anchor] = href.split('#');
  const page = url === BASE ? 'anomalies.md' : url === pathToFileURL(join(ROOT, 'docs', 'list-append.md')).href ? 'list-append.md' : null;
  return page && anchor ? { page, anchor } : null;
}

test('every diagnostic code has a section: its own in anomalies.md, or list-append.md for list-append codes', () => {
  for (const code of DIAGNOSTIC_CODES) {
    const { page, anchor } = docSection(code);
    assert.ok(PAGES[page].has(anchor), `${code}: ${page} has no section #${anchor}`);
    const t = target(docLink(BASE, code));
    assert.deepEqual(t, { page, anchor }, code);
  }
  // The level codes and the input's codes keep their own anchors.
  assert.equal(docLink(BASE, 'SER'), `${BASE}#ser`);
  assert.equal(docLink(BASE, 'thin-air'), `${BASE}#thin-air`);
  assert.equal(docLink(BASE, 'lost-update'), `${BASE}#lost-update`);
  assert.match(docLink(BASE, 'G-single'), /list-append\.md#the-anomaly-table$/);
});

test('the editor\'s diagnostics on every example link to a section that exists', () => {
  let links = 0;
  const codes = new Set<string>();
  for (const f of readdirSync(join(ROOT, 'examples')).filter((x) => x.endsWith('.hist')).sort()) {
    const text = readFileSync(join(ROOT, 'examples', f), 'utf8');
    const { snapshot } = buildSnapshot(text, { uri: `file:///examples/${f}`, levels: undefined, maxWitnesses: 1, docsBase: BASE, maxDiagnostics: 1000 });
    for (const d of snapshot.diagnostics) {
      assert.ok(d.codeDescription, `${f}: ${String(d.code)} has a link`);
      const t = target(d.codeDescription.href);
      assert.ok(t && PAGES[t.page].has(t.anchor), `${f}: ${String(d.code)} links to ${d.codeDescription.href}`);
      links++;
      codes.add(String(d.code));
    }
  }
  assert.ok(links > 50 && codes.size > 20, `${links} links, ${codes.size} codes`);
});
