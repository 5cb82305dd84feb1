// The repository stands alone and packages honestly: licence, changelog, icon, README images for the .vsix.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
/** The project's steering folder beside the clone: written in two parts so this file does not name it. */
const OUTSIDE = ['..', 'shared', ''].join('/');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  license: string; icon: string; contributes: { languages: { icon?: { light: string; dark: string } }[] };
};

test('LICENSE names the licence package.json declares, and CHANGELOG.md exists', () => {
  assert.equal(pkg.license, 'MIT');
  assert.match(readFileSync(join(ROOT, 'LICENSE'), 'utf8'), /^MIT License/);
  assert.match(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'), /^# Changelog/);
});

test('the extension icon and the .hist file icon are PNG files of at least 128×128 pixels', () => {
  const icons = [pkg.icon, ...pkg.contributes.languages.flatMap((l) => (l.icon ? [l.icon.light, l.icon.dark] : []))];
  assert.ok(icons.length >= 3, 'an extension icon and a light and dark language icon');
  for (const icon of icons) {
    const png = readFileSync(join(ROOT, icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', icon);
    assert.ok(png.readUInt32BE(16) >= 128 && png.readUInt32BE(20) >= 128, `${icon} is at least 128×128`);
  }
});

test('the packaged README carries every README image inline (the details page cannot load relative paths)', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'client/build/inline-readme-images.ts')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.ok(images.length > 0);
  for (const image of images) assert.ok(existsSync(join(ROOT, image)), `${image} exists`);
  const packaged = readFileSync(join(ROOT, 'out/README.vsix.md'), 'utf8');
  const inlined = [...packaged.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  assert.equal(inlined.length, images.length);
  for (const src of inlined) assert.match(src, /^data:image\/png;base64,/);
});

test('nothing in the repository points outside it (no links to the steering folder, no machine paths)', () => {
  const offenders: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'out' || (name.startsWith('.') && name !== '.ci') || name === 'data' || name === 'test-results') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mjs|js|md|json|sh|hist)$/.test(name) && name !== 'package-lock.json') {
        const text = readFileSync(path, 'utf8');
        if (text.includes(OUTSIDE)) offenders.push(`${path}: a link outside the repository`);
        if (/['"`(](\/work\/|\/root\/|\/home\/)/.test(text)) offenders.push(`${path}: machine path`);
      }
    }
  };
  for (const top of ['docs', 'server', 'client', 'webview', 'test', 'bench', 'examples', '.ci']) {
    if (existsSync(join(ROOT, top))) walk(join(ROOT, top));
  }
  for (const file of ['README.md', 'CHANGELOG.md', 'package.json']) {
    if (readFileSync(join(ROOT, file), 'utf8').includes(OUTSIDE)) offenders.push(`${file}: a link outside the repository`);
  }
  assert.deepEqual([...new Set(offenders)], []);
});
