// The panel for native processes alone (attach.html → web/dist-attach/), which a
// process's DevTools server serves at "/". Needs no wasm build.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('dist-attach'),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    rollupOptions: { input: { attach: here('attach.html') } },
  },
});
