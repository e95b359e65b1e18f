// The live demo (a Mailroom system in wasm) driven through the panel in
// headless Chromium: the steps a newcomer takes, each proven.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, screenshot, serveStatic } from './harness.mjs';

let server;
let browser;
let context;
let page;
let problems;

const rowFor = (path) => `[data-testid=mailbox-row][data-path="${path}"]`;

async function deadLetterRows(recipient) {
  await page.click('[data-testid=tab-dead-letters]');
  await page.fill('[data-testid=dl-recipient]', recipient);
  return page.locator('[data-testid=dl-row]');
}

async function replaySelected({ to } = {}) {
  const detail = page.locator('[data-testid=dl-detail]');
  await detail.locator(to ? '[data-testid=dl-redirect]' : '[data-testid=dl-replay]').click();
  if (to) await page.fill('[data-testid=replay-target]', to);
  await page.click('[data-testid=replay-confirm]');
  await page.waitForSelector('[data-testid=replay-dialog]', { state: 'detached' });
  return detail.locator('[data-testid=dl-attempt]').last().getAttribute('data-outcome');
}

describe('Live demo (wasm)', () => {
  before(async () => {
    server = await serveStatic();
    browser = await launch();
    // A fresh context per run: the IndexedDB journal starts empty.
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    ({ page, problems } = await openPage(context, `${server.url}index.html?idle`));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads without console errors and lists the demo actors', async () => {
    // Every scenario's actor has a mailbox row.
    await page.waitForSelector(rowFor('/user/sensors'), { timeout: 20_000 });
    for (const path of ['/user/checkout', '/user/checkout-v2', '/user/triage', '/user/worker', '/user/ledger']) {
      await page.waitForSelector(rowFor(path));
    }
    assert.deepEqual(problems, []);
  });

  it('shows live depths while the sensor flood runs', async () => {
    // The drop-head sink fills up and sheds under the flood.
    await page.check('[data-testid=scenario-sensors-toggle]');
    await page.fill('[data-testid=scenario-sensors-rate]', '1500');
    await page.waitForFunction(
      (sel) => Number(document.querySelector(`${sel} [data-testid=mailbox-dropped]`)?.textContent?.split(' ')[0]) > 0,
      rowFor('/user/sensors'),
      { timeout: 20_000 },
    );
    const depth = await page.locator(`${rowFor('/user/sensors')} [data-testid=mailbox-depth]`).textContent();
    assert.match(depth, /\d+ \/ 200/);
    await screenshot(page, 'demo-mailboxes');
    await page.uncheck('[data-testid=scenario-sensors-toggle]');
  });

  it('captures dead letters with their payloads while checkout is down', async () => {
    // Orders sent to a stopped checkout become dead letters addressed to it.
    await page.click('[data-testid=action-checkout-down]');
    await page.check('[data-testid=scenario-checkout-toggle]');
    const rows = await deadLetterRows('/user/checkout');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=dl-row]').length >= 3, null, { timeout: 20_000 });
    await page.uncheck('[data-testid=scenario-checkout-toggle]');
    // The core records why each died: checkout had stopped (or nobody lived at its path).
    assert.match(await rows.first().locator('[data-testid=dl-cause]').textContent(), /^(stopped|no-recipient)$/);
    await rows.first().click();
    const payload = await page.locator('[data-testid=dl-payload]').textContent();
    assert.ok(payload.includes('"order"'), payload);
    assert.ok(payload.includes('orderId'), payload);
    await screenshot(page, 'demo-dead-letters');
  });

  it('replays a dead letter to checkout once it is back', async () => {
    // Replay re-resolves the path: the new incarnation receives it.
    await page.click('[data-testid=action-checkout-up]');
    await page.click('[data-testid=tab-mailboxes]');
    await page.waitForSelector(rowFor('/user/checkout'));
    const rows = await deadLetterRows('/user/checkout');
    await rows.first().click();
    assert.equal(await replaySelected(), 'replayed');
  });

  it('redirects a dead letter to checkout-v2', async () => {
    // Replay to path sends to the other actor and names where it went.
    const rows = await deadLetterRows('/user/checkout');
    await rows.first().click();
    assert.equal(await replaySelected({ to: '/user/checkout-v2' }), 'replayed');
    assert.match(await page.locator('[data-testid=notice]').textContent(), /checkout-v2/);
  });

  it("judges a typed redirect target by the in-page core's verdict, in its words", async () => {
    // "/user/./$x" (the panel's old rule said "relative") is malformed to the core; "/user/checkout-v2//"
    // (the old rule refused the empty segment) is well formed to it and delivers.
    const rows = await deadLetterRows('/user/checkout');
    await rows.first().click();
    await page.locator('[data-testid=dl-detail] [data-testid=dl-redirect]').click();
    await page.fill('[data-testid=replay-target]', '/user/./$x');
    const blocked = page.locator('[data-testid=replay-blocked][data-problem=malformed]');
    await blocked.waitFor({ timeout: 10_000 });
    assert.equal(await blocked.textContent(), `The runtime says the path is malformed: "$x" starts with '$' (reserved)`);
    assert.equal(await page.locator('[data-testid=replay-confirm]').isDisabled(), true);
    await page.fill('[data-testid=replay-target]', '/user/checkout-v2//');
    await page.waitForFunction(
      () =>
        !document.querySelector('[data-testid=replay-checking]') &&
        document.querySelector('[data-testid=replay-preview-resolves]')?.textContent === 'yes',
      null,
      { timeout: 10_000 },
    );
    assert.equal(await page.locator('[data-testid=replay-blocked]').count(), 0);
    await page.click('[data-testid=replay-confirm]');
    await page.waitForSelector('[data-testid=replay-dialog]', { state: 'detached' });
    assert.equal(await page.locator('[data-testid=dl-detail] [data-testid=dl-attempt]').last().getAttribute('data-outcome'), 'replayed');
  });

  it('quarantines a poison message after max-replays and refuses it', async () => {
    // The same entry returns after each replay; past 3 replays Replay is off, with the reason.
    await page.click('[data-testid=action-send-poison]');
    const rows = await deadLetterRows('/user/ledger');
    await rows.first().waitFor({ timeout: 10_000 });
    const id = await rows.first().getAttribute('data-id');
    const row = page.locator(`[data-testid=dl-row][data-id="${id}"]`);
    for (let i = 1; i <= 3; i++) {
      await row.click({ timeout: 10_000 });
      assert.equal(await replaySelected(), 'replayed');
      // It comes back as the same entry with one more replay.
      await page.waitForFunction(
        ([sel, n]) => document.querySelector(sel)?.querySelector('[data-testid=dl-replays]')?.textContent === String(n),
        [`[data-testid=dl-row][data-id="${id}"]`, i],
        { timeout: 10_000 },
      );
    }
    // Past max-replays the entry is quarantined: the panel turns Replay off and says why.
    await row.locator('[data-testid=dl-quarantined]').waitFor({ timeout: 10_000 });
    await row.click();
    const detail = page.locator('[data-testid=dl-detail]');
    assert.equal(await detail.locator('[data-testid=dl-replay]').isDisabled(), true);
    assert.match(await detail.locator('[data-testid=dl-replay-off]').textContent(), /^Quarantined: already replayed 3 times/);
  });

  it('shows a markup payload as text and runs nothing', async () => {
    // <img onerror> never becomes an element; no dialog opens.
    await page.click('[data-testid=action-send-hostile]');
    const rows = await deadLetterRows('/user/archive');
    await rows.first().click({ timeout: 10_000 });
    const detail = page.locator('[data-testid=dl-detail]');
    assert.ok((await detail.textContent()).includes('<img src=x onerror=alert(1)>'));
    assert.equal(await detail.locator('img, script').count(), 0);
    assert.ok(!problems.some((p) => p.startsWith('dialog')), problems.join('\n'));
  });

  it('keeps persistent dead letters across a reload', async () => {
    // Ordered shutdown completes the journal; the reloaded page reads it back.
    // (The list is virtualised, so the check reads the panel's store, not the DOM.)
    const kept = () =>
      page.evaluate(() =>
        window.__mailroomDemo.devtools.store.deadLetters.entries.value.map((e) => `${e.timestampMs} ${e.recipientPath}`),
      );
    await page.click('[data-testid=tab-dead-letters]');
    const before = await kept();
    assert.ok(before.length > 0);
    await Promise.all([page.waitForEvent('load', { timeout: 20_000 }), page.click('[data-testid=restart-system]')]);
    await page.click('[data-testid=tab-dead-letters]');
    await page.locator('[data-testid=dl-row]').first().waitFor({ timeout: 20_000 });
    const after = new Set(await kept());
    const missing = before.filter((k) => !after.has(k));
    assert.deepEqual(missing, []);
    await screenshot(page, 'demo-after-reload');
    assert.deepEqual(problems.filter((p) => !p.startsWith('dialog')), []);
  });
});

describe('Live demo (wasm): a restored queue larger than the first page', () => {
  let server2;
  let browser2;
  after(async () => {
    await browser2?.close();
    await server2?.close();
  });

  it('shows every restored letter after a reload, not only the snapshot’s first page', async () => {
    // 1,000 letters (the panel bench's fill, max-entries 1,000 for this page) outnumber the
    // deadLetters snapshot's first page (200): the panel reads the rest with deadLetters.list.
    server2 = await serveStatic();
    browser2 = await launch();
    const ctx = await browser2.newContext({ viewport: { width: 1400, height: 900 } });
    const { page: p, problems: seen } = await openPage(ctx, `${server2.url}index.html?idle&bench=10&letters=1000`);
    const held = () => p.evaluate(() => window.__mailroomDemo.devtools.store.deadLetters.entries.value.map((e) => e.id));
    await p.waitForFunction(() => window.__mailroomBenchReady === true, null, { timeout: 60_000 });
    await p.waitForFunction(() => window.__mailroomDemo.devtools.store.deadLetters.entries.value.length === 1000, null, { timeout: 60_000 });
    const before = await held();
    await Promise.all([p.waitForEvent('load', { timeout: 20_000 }), p.click('[data-testid=restart-system]')]);
    await p.waitForFunction(() => window.__mailroomDemo?.devtools.store.deadLetters.entries.value.length >= 1000, null, { timeout: 30_000 });
    assert.deepEqual(await held(), before);
    assert.deepEqual(seen.filter((x) => !x.startsWith('dialog')), []);
  });
});
