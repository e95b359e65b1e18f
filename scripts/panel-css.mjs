// Writes the stylesheet mountDevtools injects (PANEL_CSS in devtools-ui/src/styles.ts)
// as a file for hosts that link it: styles.ts and the modules it imports (relative
// imports only, e.g. the column table the grid CSS is generated from) are
// transpiled into a temporary folder and imported from there.
//   node scripts/panel-css.mjs devtools-ui/dist/mailroom-devtools.css
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const [out] = process.argv.slice(2);
if (!out) throw new Error('usage: node scripts/panel-css.mjs <out.css>');
const src = resolve('devtools-ui/src');
const tmp = mkdtempSync(join(tmpdir(), 'mailroom-panel-css-'));
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;

function emit(file, seen = new Set()) {
  if (seen.has(file)) return;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText.replace(RELATIVE_IMPORT, (_, lead, quote, spec) => {
    const target = resolve(dirname(file), spec.replace(/\.(ts|js)$/, '') + '.ts');
    emit(target, seen);
    return `${lead}${quote}${spec.replace(/\.(ts|js)$/, '')}.js${quote}`;
  });
  const to = join(tmp, relative(src, file)).replace(/\.ts$/, '.js');
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, js);
}

try {
  emit(join(src, 'styles.ts'));
  const { PANEL_CSS } = await import(pathToFileURL(join(tmp, 'styles.js')).href);
  writeFileSync(out, PANEL_CSS.trim() + '\n');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
