// Share links in Node (the same CompressionStream API as the browser): round trip, the editor's size limit, deflate bombs, junk.

import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';
import { EDITOR_MAX } from '../playground/src/limits.ts';
import { decodeShare, encodeShare } from '../playground/src/share.ts';

/** A fragment as any page could write it (not through encodeShare, which refuses large texts). */
const fragment = (text: string): string => `#h=${deflateRawSync(Buffer.from(text), { level: 9 }).toString('base64url')}`;

test('a history comes back from its link; one of exactly EDITOR_MAX bytes too', async () => {
  const text = 'history "é ✓"\nsession s1\n  T1: w(x, 1)\n';
  const hash = await encodeShare(text);
  assert.ok(hash !== null && hash.startsWith('#h='));
  assert.deepEqual(await decodeShare(hash), { text });
  const full = `#${'a'.repeat(EDITOR_MAX - 2)}\n`;
  assert.equal(Buffer.byteLength(full), EDITOR_MAX);
  assert.deepEqual(await decodeShare(fragment(full)), { text: full });
  assert.deepEqual(await decodeShare((await encodeShare(full))!), { text: full });
});

test('a deflate bomb (56 KB of link, 20 MB inflated) stops at the editor limit and says so', async () => {
  const bomb = fragment(`history "bomb"\n${`#${'a'.repeat(999)}\n`.repeat(20_000)}`);
  assert.ok(bomb.length < 100_000, `${bomb.length} characters of link`);
  assert.deepEqual(await decodeShare(bomb), { tooLarge: true });
  // One byte past the limit is already too large.
  assert.deepEqual(await decodeShare(fragment('x'.repeat(EDITOR_MAX + 1))), { tooLarge: true });
});

test('no link is made for a text past the limit (it would not open); other fragments are no share link', async () => {
  assert.equal(await encodeShare('é'.repeat(EDITOR_MAX / 2 + 1)), null, 'bytes count, not characters');
  assert.equal(await decodeShare(''), null);
  assert.equal(await decodeShare('#section'), null);
});

test('a damaged share link is reported as broken (the page says so), not taken for no link at all', async () => {
  const link = (await encodeShare('history "cut"\nsession s1\n  T1: w(x, 1)\n'))!;
  for (const hash of ['#h=', '#h=!!!not base64', '#h=%E0%A4%A', `#h=${Buffer.from('not deflate at all').toString('base64url')}`, link.slice(0, -4)]) {
    assert.deepEqual(await decodeShare(hash), { broken: true }, hash);
  }
});
