// Payload fidelity in headless Chromium (issue 13): the values the Node tests
// check (tests/js/payload_fidelity.test.mjs) through the browser journal
// (IndexedDB) and a page reload — deep-equal, type included, or degraded with
// class and reason; a 10,000-level message among them; a throwing getter and a
// Proxy never make tell throw. The page: fixtures/payload.html.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, launch, serveStatic } from './harness.mjs';

let server;
let browser;

describe('Payload fidelity in the browser', () => {
  before(async () => {
    server = await serveStatic(ROOT);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('journals every kind of value to IndexedDB and restores it after a reload', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
    });
    await page.goto(`${server.url}tests/browser/fixtures/payload.html`);
    await page.waitForFunction(() => window.mrReady === true);
    const { captured } = await page.evaluate(() => window.mr.capture('fidelity'));
    assert.equal(captured, 25);
    await page.reload();
    await page.waitForFunction(() => window.mrReady === true);
    const { restored, problems } = await page.evaluate(() => window.mr.check('fidelity'));
    assert.equal(restored, 25);
    assert.deepEqual(problems, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
