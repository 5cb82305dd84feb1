// Every relative link in the README, the changelog and docs/ names a file that exists, and an anchor its page has (GitHub's heading slugs).

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const PAGES = ['README.md', 'CHANGELOG.md', 'examples/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchors of a page: each heading's slug (numbered when repeated), outside code blocks. */
function anchors(file: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let code = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) code = !code;
    const m = code ? null : /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const slug = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

test('relative links and their anchors resolve', () => {
  const broken: string[] = [];
  let links = 0;
  for (const page of PAGES) {
    for (const m of readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1];
      if (/^[a-z]+:/.test(href)) continue;
      links++;
      const [path, anchor] = href.split('#');
      const target = path ? join(ROOT, dirname(page), path) : join(ROOT, page);
      if (!existsSync(target)) broken.push(`${page}: ${href} (no such file)`);
      else if (anchor && target.endsWith('.md') && !anchors(target).has(anchor)) broken.push(`${page}: ${href} (no such section)`);
    }
  }
  assert.ok(links > 50, `${links} links`);
  assert.deepEqual(broken, []);
});
