// vitest for the DevTools panel: store/reducer and component tests in happy-dom.
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    include: ['tests/ui/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    setupFiles: ['tests/ui/setup.ts'],
    testTimeout: 20_000,
  },
});
