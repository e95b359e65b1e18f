// Renders the README's panel screenshots (docs/images/panel-*-{light,dark}.png)
// from the live demo (web/dist, the wasm system, the panel over the DevTools
// protocol loopback) in headless Chromium, in both colour schemes:
//   node web/screenshots.mjs        (build first: npx vite build --config web/vite.config.ts)
// The demo's orders are driven into dead letters (checkout down), one letter is
// opened, and a bulk redirect shows the core's dry run and the path combobox.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { launch, openPage, ROOT, serveStatic } from '../tests/browser/harness.mjs';

const OUT = join(ROOT, 'docs/images');
await mkdir(OUT, { recursive: true });
const server = await serveStatic();
const browser = await launch();
try {
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme, deviceScaleFactor: 1 });
    const { page } = await openPage(context, `${server.url}index.html?dock=bottom`);
    await page.waitForSelector('[data-testid=mailbox-row][data-path="/user/checkout"]', { timeout: 30_000 });
    // Dead letters: checkout goes down while orders keep coming.
    await page.click('[data-testid=action-checkout-down]');
    await page.check('[data-testid=scenario-checkout-toggle]');
    await page.waitForTimeout(2500);
    await page.uncheck('[data-testid=scenario-checkout-toggle]');
    await page.waitForTimeout(500);
    const shot = (name) => page.screenshot({ path: join(OUT, `panel-${name}-${scheme}.png`) });
    await page.click('[data-testid=tab-mailboxes]');
    await page.mouse.move(5, 5);
    await page.waitForTimeout(600);
    await shot('mailboxes');
    await page.click('[data-testid=tab-dead-letters]');
    await page.locator('[data-testid=dl-row]').first().waitFor({ timeout: 20_000 });
    await page.locator('[data-testid=dl-row]').first().click();
    await page.locator('[data-testid=dl-detail]').waitFor();
    await page.mouse.move(5, 5);
    await shot('dead-letters');
    // A bulk redirect: the path combobox and the core's dry run, by outcome.
    await page.locator('[data-testid=dl-row]').nth(1).click({ modifiers: ['Shift'] });
    await page.click('[data-testid=bulk-redirect]');
    await page.fill('[data-testid=bulk-target]', '/user/');
    await page.locator('[data-testid=bulk-target-suggestions]').waitFor();
    await page.keyboard.press('ArrowDown');
    await shot('redirect-paths');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=bulk-dry-run][data-state=done]').waitFor({ timeout: 10_000 });
    await shot('bulk-dry-run');
    await context.close();
    console.log(`${scheme}: panel-{mailboxes,dead-letters,redirect-paths,bulk-dry-run}-${scheme}.png`);
  }
} finally {
  await browser.close();
  await server.close();
}
