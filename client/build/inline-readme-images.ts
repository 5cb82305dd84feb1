// Writes out/README.vsix.md: the README with its local PNG images inlined as data: URIs, for the .vsix.
// VS Code's extension details page cannot load images from inside the package by relative path, and the
// project has no published repository to point absolute URLs at, so the packaged README carries them.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
let inlined = 0;
const out = readme.replace(/!\[([^\]]*)\]\(((?:\.\/)?docs\/images\/[^)\s]+\.png)\)/g, (_all, alt: string, path: string) => {
  inlined++;
  return `![${alt}](data:image/png;base64,${readFileSync(join(root, path)).toString('base64')})`;
});
mkdirSync(join(root, 'out'), { recursive: true });
writeFileSync(join(root, 'out', 'README.vsix.md'), out);
console.log(`out/README.vsix.md: ${inlined} image(s) inlined`);
