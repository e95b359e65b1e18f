// Gives the relative imports in emitted .d.ts files their real targets
// ('./mount' -> './mount.js', './store' -> './store/index.js'), so the types
// resolve under moduleResolution node16/nodenext as well as bundler.
// Usage: node scripts/dts-extensions.mjs <folder of .d.ts files>
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = process.argv[2];
if (!root || !existsSync(root)) {
  console.error(`dts-extensions: no such folder: ${root ?? '(none given)'}`);
  process.exit(2);
}

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.d.ts')) yield path;
  }
}

const specifier = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;
let changed = 0;
for (const file of files(root)) {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(specifier, (all, head, quote, spec) => {
    if (/\.(js|mjs|cjs|json)$/.test(spec)) return all;
    const base = join(dirname(file), spec);
    if (existsSync(`${base}.d.ts`)) return `${head}${quote}${spec}.js${quote}`;
    if (existsSync(join(base, 'index.d.ts'))) return `${head}${quote}${spec}/index.js${quote}`;
    throw new Error(`${file}: cannot resolve '${spec}'`);
  });
  if (out !== text) {
    writeFileSync(file, out);
    changed += 1;
  }
}
console.log(`dts-extensions: ${changed} files rewritten under ${root}`);
