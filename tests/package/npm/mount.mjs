// Opens the Vite build of page/ (made in the fresh project by stage 85) in
// headless Chromium: the panel from the tarball mounts on a live wasm system,
// lists its actor and its dead letter, with no console errors.
// Usage: node tests/package/npm/mount.mjs <dist folder>
import assert from 'node:assert/strict';
import { launch, openPage, serveStatic } from '../../browser/harness.mjs';

const dist = process.argv[2];
const server = await serveStatic(dist);
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const { page, problems } = await openPage(context, server.url);
  await page.waitForSelector('[data-testid=mailbox-row][data-path="/user/orders"]', { timeout: 20_000 });
  await page.click('[data-testid=tab-dead-letters]');
  await page.waitForSelector('[data-testid=dl-row]', { timeout: 10_000 });
  assert.deepEqual(problems, []);
  console.log('vite page: mailroom/devtools mounted on a live system (mailbox row + dead letter)');
} finally {
  await browser.close();
  await server.close();
}
