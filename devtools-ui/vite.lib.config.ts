// The panel as a library for the npm package (`mailroom/devtools`): one ES
// module with Preact and @preact/signals bundled in (the package has no
// dependencies). The .css file is written by scripts/build-devtools.sh.
// Built by scripts/build-devtools.sh into devtools-ui/dist/.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('dist'),
    emptyOutDir: false, // types/ is written next to it by tsc
    target: 'es2022',
    minify: false, // class names and stack traces stay readable in a host's DevTools
    lib: {
      entry: here('src/index.ts'),
      formats: ['es'],
      fileName: () => 'mailroom-devtools.js',
    },
  },
});
