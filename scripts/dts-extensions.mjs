// Gives the relative imports in emitted .d.ts files their real targets
// ('./mount' -> './mount.js', './store' -> './store/index.js'), so the types
// resolve under moduleResolution node16/nodenext as well as bundler. With
// --shim MODULE=FILE.d.ts, imports of a bundled dependency's types point to
// FILE copied into the folder, so a consumer needs none of its packages.
// Usage: node scripts/dts-extensions.mjs <folder of .d.ts files> [--shim m=file.d.ts]...
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

const [root, ...rest] = process.argv.slice(2);
const shims = new Map(); // module specifier -> shim file name inside root
const sources = new Map(); // shim file name -> the file it is copied from
for (let i = 0; i < rest.length; i += 2) {
  const [module, file] = rest[i] === '--shim' ? (rest[i + 1] ?? '').split('=') : [];
  if (!module || !file || !existsSync(file)) {
    console.error(`dts-extensions: bad argument '${rest[i]} ${rest[i + 1] ?? ''}'`);
    process.exit(2);
  }
  shims.set(module, `_${basename(file)}`);
  sources.set(`_${basename(file)}`, file);
}
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

for (const [name, source] of sources) copyFileSync(source, join(root, name));

const specifier = /((?:from|import)\s*\(?\s*)(['"])([^'"]+)\2/g;
let changed = 0;
for (const file of files(root)) {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(specifier, (all, head, quote, spec) => {
    if (shims.has(spec)) {
      let target = relative(dirname(file), join(root, shims.get(spec))).replace(/\.d\.ts$/, '.js');
      if (!target.startsWith('.')) target = `./${target}`;
      return `${head}${quote}${target}${quote}`;
    }
    if (!spec.startsWith('.')) return all;  // another package: left as it is
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
