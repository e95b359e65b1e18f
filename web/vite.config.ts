// The demo page (index.html, live wasm system) and the panel playground
// (playground.html, fake system: no wasm needed), built into web/dist/.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: {
    alias: {
      mailroom: here('../wasm/js/index.js'),
    },
  },
  server: { fs: { allow: [here('..')] } },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    // Unminified: actor class names (constructor.name) show in the panel, and the demo is read by people.
    minify: false,
    rollupOptions: {
      input: { index: here('index.html'), playground: here('playground.html') },
    },
  },
});
