// Panel safety and behaviour in headless Chromium, against the built playground
// page (the panel on a fake system: no wasm needed).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, screenshot, serveStatic } from './harness.mjs';

let server;
let browser;
let page;
let problems;

async function openLetterOfKind(kind) {
  await page.click('[data-testid=tab-dead-letters]');
  await page.fill('[data-testid=dl-search]', '');
  const row = page.locator('[data-testid=dl-row]', { hasText: kind }).first();
  await row.click({ timeout: 10_000 });
  return page.locator('[data-testid=dl-detail]');
}

describe('DevTools panel (playground, fake system)', () => {
  before(async () => {
    server = await serveStatic();
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    ({ page, problems } = await openPage(context, `${server.url}playground.html?hostile`));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('loads without console errors and lists live mailbox depths', async () => {
    // Depths change between samples while the fake load runs.
    await page.waitForSelector('[data-testid=mailbox-row]');
    const depth = page.locator('[data-testid=mailbox-row][data-path="/user/orders"] [data-testid=mailbox-depth]');
    const first = await depth.textContent();
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid=mailbox-row][data-path="/user/orders"] [data-testid=mailbox-depth]')?.textContent !== before,
      first,
      { timeout: 10_000 },
    );
    await screenshot(page, 'panel-mailboxes');
    assert.deepEqual(problems, []);
  });

  it('draws the dock and toolbar icons as SVG, with their names as text', async () => {
    // No emoji or symbol glyphs: this Chromium has no emoji font and would show empty boxes.
    const buttons = page.locator('[data-testid^=drawer-], .mr-header-tools button');
    const seen = await buttons.evaluateAll((els) =>
      els.map((b) => {
        const svg = b.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        return { text: b.textContent.trim(), hidden: svg?.getAttribute('aria-hidden'), drawn: !!box && box.width > 0 && box.height > 0 };
      }),
    );
    assert.deepEqual(seen.map((b) => b.text), ['bottom', 'right', 'full page', 'hide', 'pause', 'export', 'import', 'auto']);
    assert.ok(seen.every((b) => b.hidden === 'true' && b.drawn), JSON.stringify(seen));
    await page.click('[data-testid=drawer-toggle]');
    assert.equal(await page.locator('[data-testid=drawer]').getAttribute('data-open'), 'false');
    assert.equal((await page.locator('[data-testid=drawer-toggle]').textContent()).trim(), 'show');
    await page.click('[data-testid=drawer-toggle]');
    assert.equal(await page.locator('[data-testid=drawer]').getAttribute('data-open'), 'true');
  });

  it('renders a markup payload as text and runs nothing', async () => {
    // <img onerror> and <script> stay characters: no element, no dialog, no side effect.
    const detail = await openLetterOfKind('comment');
    const text = await detail.textContent();
    assert.ok(text.includes('<img src=x onerror=alert(1)>'));
    assert.equal(await detail.locator('img, script').count(), 0);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    await screenshot(page, 'panel-dead-letters');
    assert.deepEqual(problems, []);
  });

  it('shows a 1 MB string truncated, with show more', async () => {
    // Only a preview is in the DOM; the page stays responsive.
    const detail = await openLetterOfKind('blob');
    const length = (await detail.textContent()).length;
    assert.ok(length < 5_000, `detail text is ${length} chars`);
    await detail.locator('[data-testid=json-show-more]').click();
    assert.ok((await detail.textContent()).length > 10_000);
    assert.equal(await page.evaluate(() => 1 + 1), 2);
  });

  it('opens 10,000-deep nesting level by level without hanging', async () => {
    // Only opened levels are rendered.
    await page.click('[data-testid=tab-dead-letters]');
    const row = page.locator('[data-testid=dl-row]', { hasText: 'Object' }).first();
    await row.click();
    const detail = page.locator('[data-testid=dl-detail]');
    for (let i = 1; i <= 3; i++) await detail.locator('[data-testid=json-toggle][aria-expanded=false]').first().click();
    assert.equal(await detail.locator('.mr-json-node').count(), 5);
    assert.deepEqual(problems, []);
  });

  it('marks cycles instead of recursing', async () => {
    // The cyclic object renders with [Circular → …] markers.
    const detail = await openLetterOfKind('cyclic');
    assert.equal(await detail.locator('[data-testid=json-circular]').first().textContent(), '[Circular → message]');
  });

  it('chunks a 100,000-item array into nested ranges', async () => {
    // Ranges nest by powers of 100: 10 ranges of 10,000, each opening to 100 of 100.
    const detail = await openLetterOfKind('big-array');
    await detail.locator('[data-testid=json-toggle][aria-expanded=false]').first().click();
    const ranges = detail.locator('[data-testid=json-range]');
    assert.equal(await ranges.count(), 10);
    assert.equal((await ranges.first().textContent()).trim(), '▸ [0 … 9999]');
    await ranges.first().click();
    assert.equal(await ranges.count(), 110);
    assert.ok((await detail.locator('.mr-json-node').count()) < 20);
  });

  it('searches payloads with a match counter and exports nothing unsafe', async () => {
    // Search runs inside payloads; the counter shows how many entries match.
    await page.click('[data-testid=tab-dead-letters]');
    await page.fill('[data-testid=dl-search]', 'user7@example.com');
    const count = await page.locator('[data-testid=dl-match-count]').textContent();
    assert.match(count, /^\d+ match(es)?$/);
    await page.fill('[data-testid=dl-search]', '');
  });

  it('shows the metrics view with counters and drops per policy', async () => {
    // The scrape is parsed into a counters table.
    await page.click('[data-testid=tab-metrics]');
    await page.waitForSelector('[data-testid=metrics-table]');
    const table = await page.locator('[data-testid=metrics-table]').textContent();
    assert.ok(table.includes('actor_dead_letters_total'));
    await screenshot(page, 'panel-metrics');
    assert.deepEqual(problems, []);
  });

  it('exports the filtered view through a download and imports the file read-only', async () => {
    // The file a user saves is the one they can open again: same entries, payloads as text, no replay.
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-export-'));
    await page.click('[data-testid=tab-dead-letters]');
    await page.fill('[data-testid=dl-search]', '');
    await page.fill('[data-testid=dl-recipient]', '/user/archive');
    await page.waitForFunction(() => document.querySelector('[data-testid=dl-shown]')?.textContent === '6');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export]')]);
    assert.match(download.suggestedFilename(), /^mailroom-devtools-.+\.json$/);
    const file = join(dir, download.suggestedFilename());
    await download.saveAs(file);
    const exported = JSON.parse(await readFile(file, 'utf8'));
    assert.equal(exported.format, 'mailroom-devtools-export');
    assert.deepEqual([...new Set(exported.deadLetters.map((e) => e.recipientPath))], ['/user/archive']);
    assert.equal(exported.deadLetters.length, 6);
    const comment = exported.deadLetters.find((e) => e.payload.message?.kind === 'comment');
    assert.equal(comment.payload.message.html, '<img src=x onerror=alert(1)>');
    assert.ok(exported.mailboxes.some((m) => m.path === '/user/orders'));

    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=import]')]);
    await chooser.setFiles(file);
    const banner = page.locator('[data-testid=imported-banner]');
    await banner.waitFor();
    assert.ok((await banner.textContent()).includes(download.suggestedFilename()));
    await page.fill('[data-testid=dl-recipient]', '');
    await page.waitForFunction(() => document.querySelector('[data-testid=dl-shown]')?.textContent === '6');
    await page.locator('[data-testid=dl-row]', { hasText: 'comment' }).first().click();
    assert.equal(await page.locator('[data-testid=dl-replay]').getAttribute('title'), 'Imported data is read-only');
    assert.ok((await page.locator('[data-testid=dl-detail]').textContent()).includes('<img src=x onerror=alert(1)>'));
    assert.equal(await page.locator('[data-testid=dl-detail] img').count(), 0);

    // A file that is not an export is refused by name and changes nothing.
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"format":"nope"}');
    const [again] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-testid=import]')]);
    await again.setFiles(broken);
    await page.waitForSelector('[data-testid=notice]');
    assert.equal((await page.locator('[data-testid=notice]').textContent()).trim(), 'Import failed: not a mailroom-devtools-export file');
    assert.ok((await banner.textContent()).includes(download.suggestedFilename()));

    await page.click('[data-testid=back-to-live]');
    await banner.waitFor({ state: 'detached' });
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=dl-shown]')?.textContent) > 6);
    assert.deepEqual(problems, []);
  });

  it('keeps replay disabled when the panel is mounted without allowReplay', async () => {
    // The demo opts in; a panel that did not cannot replay.
    // A context of its own: the first page's filters, kept in localStorage with a delayed write,
    // must not leak into this one (a pending write of a filter made it list nothing, at random).
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const other = await openPage(context, `${server.url}playground.html?noreplay&still`);
    await other.page.click('[data-testid=tab-dead-letters]');
    await other.page.locator('[data-testid=dl-row]').first().click();
    assert.equal(await other.page.locator('[data-testid=dl-replay]').isDisabled(), true);
    assert.equal(await other.page.locator('[data-testid=dl-redirect]').isDisabled(), true);
    await context.close();
  });
});
