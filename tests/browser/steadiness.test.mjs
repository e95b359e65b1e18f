// Steadiness, keyboard and accessibility in a real browser: the list under a
// still pointer, the modal's Tab order, the narrow right-docked layout, the
// notice that floats, and WCAG AA contrast computed from the rendered styles.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, screenshot, serveStatic } from './harness.mjs';

let server;
let browser;

/** In the page: contrast of each visible text element's colour on its effective background. */
function contrastReport(root) {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const lum = ({ r, g, b }) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const blend = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a),
    a: 1,
  });
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg && bg.a > 0) {
        layers.push(bg);
        if (bg.a === 1) break;
      }
    }
    let out = { r: 255, g: 255, b: 255, a: 1 };
    for (const layer of layers.reverse()) out = blend(layer, out);
    return out;
  };
  const out = [];
  for (const el of root.querySelectorAll('*')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own || el.closest('[disabled],[aria-hidden=true],option,datalist')) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    const bg = background(el);
    const fg = blend(parse(style.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    out.push({ ratio: Math.round(ratio * 100) / 100, text: el.textContent.trim().slice(0, 40), cls: String(el.className).slice(0, 40) });
  }
  return out;
}

async function lowContrast(page, selector) {
  const all = await page.locator(selector).evaluate(contrastReport);
  assert.ok(all.length > 20, `only ${all.length} text elements checked`);
  return all.filter((t) => t.ratio < 4.5);
}

describe('Panel steadiness and accessibility (Chromium)', () => {
  before(async () => {
    server = await serveStatic();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('keeps the row under a still pointer while letters arrive, and the pill brings them in', async () => {
    // The playground adds a letter every 1.25 s; 3 s under a still pointer must not change the row there.
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const { page, problems } = await openPage(context, `${server.url}playground.html`);
    await page.click('[data-testid=tab-dead-letters]');
    const box = await page.locator('[data-testid=dl-row]').nth(3).boundingBox();
    await page.mouse.move(box.x + 40, box.y + box.height / 2);
    const under = () => page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid=dl-row]')?.getAttribute('data-id'), [box.x + 40, box.y + box.height / 2]);
    const before = await under();
    await page.locator('[data-testid=dl-new-pill]').waitFor({ timeout: 5_000 });
    await page.waitForTimeout(1_500);
    assert.equal(await under(), before);
    assert.match(await page.locator('[data-testid=dl-held]').getAttribute('title'), /^Held: pointer over the list/);
    const pending = Number((await page.locator('[data-testid=dl-new-pill]').textContent()).split(' ')[0]);
    assert.ok(pending >= 1);
    const top = await page.locator('[data-testid=dl-row]').first().getAttribute('data-id');
    await page.click('[data-testid=dl-new-pill]');
    assert.notEqual(await page.locator('[data-testid=dl-row]').first().getAttribute('data-id'), top);
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('traps Tab in the replay dialog, closes on Esc and returns focus to the row', async () => {
    // Real key presses: Tab from the last control wraps; focus never reaches the page behind.
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const { page } = await openPage(context, `${server.url}playground.html?still`);
    await page.click('[data-testid=tab-dead-letters]');
    const row = page.locator('[data-testid=dl-row]').first();
    const id = await row.getAttribute('data-id');
    await row.focus();
    await page.keyboard.press('Shift+R');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'replay-target');
    const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('[role=dialog]'));
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press(i % 2 ? 'Shift+Tab' : 'Tab');
      assert.ok(await inDialog(), `focus left the dialog after ${i + 1} presses`);
    }
    for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
    assert.ok(await inDialog());
    await page.keyboard.press('Escape');
    await page.locator('[data-testid=replay-dialog]').waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-id')), id);
    // Enter in the path field confirms a redirect.
    await page.keyboard.press('Shift+R');
    await page.fill('[data-testid=replay-target]', '/user/checkout-v2');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=replay-dialog]').waitFor({ state: 'detached' });
    assert.match(await page.locator('[data-testid=notice]').textContent(), /replayed \(\/user\/checkout-v2\)/);
    await context.close();
  });

  it('keeps the list usable at 800 px docked right with a detail open', async () => {
    // The detail floats over the list instead of squeezing it; no two header cells overlap.
    const context = await browser.newContext({ viewport: { width: 800, height: 700 } });
    const { page } = await openPage(context, `${server.url}playground.html?still&dock=right`);
    await page.click('[data-testid=tab-dead-letters]');
    await page.locator('[data-testid=dl-row]').first().click();
    await page.locator('[data-testid=dl-detail]').waitFor();
    const layout = await page.evaluate(() => {
      const list = document.querySelector('[data-testid=dl-list]').getBoundingClientRect();
      const cells = [...document.querySelectorAll('.mr-dl-grid.mr-head > .mr-cell')]
        .map((c) => c.getBoundingClientRect())
        .filter((r) => r.width > 0);
      const overlaps = cells.slice(1).filter((r, i) => r.left < cells[i].right - 0.5).length;
      const rowCells = [...document.querySelector('[data-testid=dl-row]').children].map((c) => c.getBoundingClientRect()).filter((r) => r.width > 0);
      const clipped = rowCells.filter((r) => r.right > list.right + 0.5).length;
      return { list: list.width, cells: cells.length, overlaps, clipped };
    });
    await screenshot(page, 'panel-800-right-detail');
    assert.ok(layout.list >= 380, `list is ${layout.list}px wide`);
    assert.ok(layout.cells >= 3);
    assert.equal(layout.overlaps, 0);
    assert.equal(layout.clipped, 0);
    await context.close();
  });

  it('filters the list by a cause chip and shows the count per cause', async () => {
    // The chip names the cause and its count; pressed, only those letters remain.
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const { page } = await openPage(context, `${server.url}playground.html?still`);
    await page.click('[data-testid=tab-dead-letters]');
    const chip = page.locator('[data-testid=dl-cause-no-recipient]');
    const count = Number((await chip.textContent()).split(' ').pop());
    assert.ok(count > 0);
    await chip.click();
    assert.equal(Number(await page.locator('[data-testid=dl-shown]').textContent()), count);
    const shown = await page.locator('[data-testid=dl-row] [data-testid=dl-cause]').allTextContents();
    assert.ok(shown.length > 0 && shown.every((c) => c === 'no-recipient'), shown.join());
    await chip.click();
    assert.ok(Number(await page.locator('[data-testid=dl-shown]').textContent()) > count);
    await context.close();
  });

  it('keeps dock, theme, tab and filters across a reload (localStorage)', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const { page } = await openPage(context, `${server.url}playground.html?still`);
    await page.click('[data-testid=drawer-right]');
    await page.click('[data-testid=theme]'); // auto -> light
    await page.click('[data-testid=theme]'); // light -> dark
    await page.click('[data-testid=tab-dead-letters]');
    await page.fill('[data-testid=dl-recipient]', '/user/orders');
    await page.reload();
    await page.locator('[data-testid=dl-recipient]').waitFor();
    const kept = await page.evaluate(() => ({
      dock: document.querySelector('[data-testid=drawer]').dataset.dock,
      theme: document.querySelector('[data-testid=devtools]').dataset.theme,
      tab: document.querySelector('[role=tab][aria-selected=true]').dataset.testid,
      recipient: document.querySelector('[data-testid=dl-recipient]').value,
    }));
    assert.deepEqual(kept, { dock: 'right', theme: 'dark', tab: 'tab-dead-letters', recipient: '/user/orders' });
    await context.close();
  });

  it('shows a notice without moving the list', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const { page } = await openPage(context, `${server.url}playground.html?still`);
    await page.click('[data-testid=tab-dead-letters]');
    const top = () => page.locator('[data-testid=dl-list]').evaluate((el) => el.getBoundingClientRect().top);
    const before = await top();
    await page.evaluate(() => (window.__playground.devtools.store.ui.notice.value = 'Copied path (12 chars)'));
    await page.locator('[data-testid=notice]').waitFor();
    assert.equal(await top(), before);
    await context.close();
  });

  for (const scheme of ['light', 'dark']) {
    it(`meets 4.5:1 for text in the ${scheme} theme (panel, dialog, payload) and 3:1 for links`, async () => {
      // Computed from getComputedStyle: every visible text element on its effective background.
      const context = await browser.newContext({ viewport: { width: 1400, height: 850 }, colorScheme: scheme });
      const { page } = await openPage(context, `${server.url}playground.html?still&hostile`);
      await page.evaluate(() => (window.__playground.devtools.store.ui.notice.value = 'Replay of #1: replayed'));
      const failures = [...(await lowContrast(page, '[data-testid=devtools]'))];
      await page.click('[data-testid=tab-dead-letters]');
      await page.locator('[data-testid=dl-row]').nth(2).click();
      await page.locator('[data-testid=dl-detail] .mr-json-string').first().waitFor();
      failures.push(...(await lowContrast(page, '[data-testid=devtools]')));
      // The dialog with its warning (nothing lives at the path).
      await page.click('[data-testid=dl-redirect]');
      await page.fill('[data-testid=replay-target]', '/user/nobody');
      await page.locator('[data-testid=replay-warning]').waitFor();
      failures.push(...(await page.locator('[role=dialog]').evaluate(contrastReport)).filter((t) => t.ratio < 4.5));
      const named = await page.evaluate(() => {
        const pick = (sel) => document.querySelector(sel);
        return {
          replay: !!pick('[data-testid=replay-confirm]'),
          badge: !!pick('[data-testid=tab-dead-letters-count]'),
          warning: !!pick('[data-testid=replay-warning]'),
          json: !!pick('.mr-json-string'),
        };
      });
      assert.deepEqual(named, { replay: true, badge: true, warning: true, json: true });
      await screenshot(page, `panel-contrast-${scheme}`);
      assert.deepEqual(failures, []);
      await context.close();
    });
  }

  it('gives the demo page buttons 4.5:1 text in dark mode', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 }, colorScheme: 'dark' });
    const { page } = await openPage(context, `${server.url}index.html?idle`);
    await page.locator('.actions button').first().waitFor({ timeout: 20_000 });
    const report = await page.locator('.page').evaluate(contrastReport);
    const buttons = report.filter((t) => t.cls === '' || true);
    assert.deepEqual(buttons.filter((t) => t.ratio < 4.5), []);
    await context.close();
  });
});
