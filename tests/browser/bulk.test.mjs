// Bulk actions and the cause filter on the live demo (a wasm system, panel over
// the DevTools protocol loopback) in headless Chromium: filter by cause, check
// all matching, purge them in one go (journaled in the core), and bulk-replay
// letters to an actor that came back.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, screenshot, serveStatic } from './harness.mjs';

let server;
let browser;
let context;
let page;
let problems;

const store = (fn) => page.evaluate(fn);
const outcomes = () =>
  page.$$eval('[data-testid=bulk-outcome]', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.kind, Number(r.querySelector('b').textContent)])));

/** Checkout goes down, orders pile up as dead letters, production stops. */
async function lettersToStoppedCheckout(atLeast) {
  await page.click('[data-testid=action-checkout-down]');
  await page.check('[data-testid=scenario-checkout-toggle]');
  await page.click('[data-testid=tab-dead-letters]');
  await page.fill('[data-testid=dl-recipient]', '/user/checkout');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=dl-row]').length >= n, atLeast, { timeout: 20_000 });
  await page.uncheck('[data-testid=scenario-checkout-toggle]');
}

describe('Bulk actions and the cause filter (live wasm demo)', () => {
  before(async () => {
    server = await serveStatic();
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    ({ page, problems } = await openPage(context, `${server.url}index.html?idle`));
    await page.waitForSelector('[data-testid=mailbox-row][data-path="/user/checkout"]', { timeout: 20_000 });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('filters by cause, checks all matching and purges them with one confirmation', async () => {
    await lettersToStoppedCheckout(3);
    // Another cause in the queue: a selection that reached nobody.
    await page.evaluate(() => window.__mailroomDemo.system.actorSelection('/user/nobody-here').tell({ stray: true }));
    await page.fill('[data-testid=dl-recipient]', '');
    await page.locator('[data-testid=dl-cause-no-recipient]').waitFor({ timeout: 10_000 });
    const chip = page.locator('[data-testid=dl-cause-stopped]');
    await chip.click();
    const causes = await page.$$eval('[data-testid=dl-row] [data-testid=dl-cause]', (cells) => [...new Set(cells.map((c) => c.textContent))]);
    assert.deepEqual(causes, ['stopped']);
    const matching = await store(() => window.__mailroomDemo.devtools.store.deadLetters.visible.value.length);
    await page.click('[data-testid=dl-check-all]');
    const purged = await store(() => [...window.__mailroomDemo.devtools.store.bulk.checked.value]);
    assert.equal(purged.length, matching);
    assert.equal(await page.locator('[data-testid=dl-checked-count]').textContent(), String(matching));
    await page.click('[data-testid=bulk-purge]');
    // The preview is the core's dry run (deadLetters.preview over the loopback), not the panel's guess.
    await page.locator('[data-testid=bulk-dry-run][data-state=done]').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('[data-testid=bulk-group][data-kind=removed] b').textContent(), String(matching));
    await page.click('[data-testid=bulk-confirm]');
    await page.locator('[data-testid=bulk-summary]').waitFor({ timeout: 10_000 });
    assert.deepEqual(await outcomes(), { removed: matching });
    await screenshot(page, 'bulk-purge-summary');
    await page.click('[data-testid=bulk-cancel]');
    // Gone from the panel and from the core's queue (orders still in flight may add new ones).
    await page.waitForFunction(
      (ids) => !window.__mailroomDemo.devtools.store.deadLetters.entries.value.some((e) => ids.includes(e.id)),
      purged,
      { timeout: 10_000 },
    );
    const left = await page.evaluate(async () => (await window.__mailroomDemo.system.deadLetterQueue.list()).map((e) => e.id));
    assert.deepEqual(left.filter((id) => purged.includes(id)), []);
  });

  it('bulk-replays letters to checkout once it is back and sums up the outcomes', async () => {
    await store(() => window.__mailroomDemo.devtools.store.emit({ type: 'dead-letters/filter', cause: null }));
    await lettersToStoppedCheckout(2);
    await page.click('[data-testid=action-checkout-up]');
    await page.click('[data-testid=tab-mailboxes]');
    await page.waitForSelector('[data-testid=mailbox-row][data-path="/user/checkout"]');
    await page.click('[data-testid=tab-dead-letters]');
    await page.fill('[data-testid=dl-recipient]', '/user/checkout');
    const rows = page.locator('[data-testid=dl-row]');
    // The filtered list is the core's answer (asked after a typing pause, re-asked as letters
    // arrive): wait for both letters, not only the first row.
    await page.waitForFunction(() => window.__mailroomDemo.devtools.store.deadLetters.visible.value.length >= 2);
    await rows.nth(1).waitFor();
    const count = await store(() => window.__mailroomDemo.devtools.store.deadLetters.visible.value.length);
    // Click the first, Shift+click the last: the range in between is checked.
    await rows.first().click();
    await rows.nth((await rows.count()) - 1).click({ modifiers: ['Shift'] });
    const checked = Number(await page.locator('[data-testid=dl-checked-count]').textContent());
    assert.ok(checked >= 2 && checked <= count, `${checked} of ${count}`);
    await page.click('[data-testid=bulk-replay]');
    await page.locator('[data-testid=bulk-dry-run][data-state=done]').waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('[data-testid=bulk-group][data-kind=replayed] b').textContent(), String(checked));
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=bulk-summary]').waitFor({ timeout: 10_000 });
    assert.deepEqual(await outcomes(), { replayed: checked });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=bulk-dialog]', { state: 'detached' });
    assert.deepEqual(problems, []);
  });
});
