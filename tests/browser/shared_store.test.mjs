// Issue 18's "done means" in the browser: two native processes
// (tests/database/tools/shared_store_node) share one SQLite file, each with its
// DevTools server. The panel attached to the shop shows billing's letters in
// billing's stream (read-only, replay off and naming the owner); attached to
// both, a replay of billing's letter goes to billing's connection; billing's
// panel shows the shop's letters; mailroom-dlq lists both streams. Needs
// build/native's shared_store_node and mailroom-dlq and web/dist-attach
// (scripts/test.d/65-database.sh builds them).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, ROOT, screenshot } from './harness.mjs';

const NODE = process.env.MAILROOM_SHARED_STORE_NODE ?? join(ROOT, 'build/native/shared_store_node');
const DLQ = process.env.MAILROOM_DLQ ?? join(ROOT, 'build/native/tools/mailroom-dlq/mailroom-dlq');
const PANEL = join(ROOT, 'web/dist-attach');
const BILLING = 'mailroom-dead-letters-billing';
const SHOP = 'mailroom-dead-letters-shop';

/** Starts one process of the shared store; resolves once its letters are stored. */
function startNode(system, url, args) {
  const child = spawn(NODE, ['--system', system, '--journal', url, '--port', '0', '--panel-dir', PANEL, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`shared_store_node exited (${code}) before it was ready: ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/Attach: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9A-Za-z_-]+))\nReady/);
      if (m) resolve({ child, url: m[1], port: Number(m[2]), token: m[3] });
    });
  });
}

function stopNode(node) {
  if (!node || node.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    node.child.once('exit', resolve);
    node.child.kill('SIGTERM');
  });
}

/** The panel of the n-th node of the page (attach.html mounts one per endpoint). */
const panelOf = (page, n) => page.locator('#panels > div').nth(n);

async function chooseStream(panel, stream) {
  await panel.locator('[data-testid=tab-dead-letters]').click();
  const select = panel.locator('[data-testid=dl-stream]');
  await select.waitFor({ timeout: 20_000 });
  await select.selectOption(stream);
  await panel.locator(`[data-testid=os-view][data-stream="${stream}"] [data-testid=os-row]`).first().waitFor({ timeout: 10_000 });
}

let browser;
let dir;
let shop;
let billing;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mailroom-shared-'));
  const url = `sqlite:${join(dir, 'shared.db')}`;
  shop = await startNode('shop', url, ['--orders', '2']);
  // Billing takes writes (replay works there) and lets the shop's page open its socket.
  billing = await startNode('billing', url, ['--orders', '3', '--allow-writes', '--allowed-origin', `http://127.0.0.1:${shop.port}`]);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopNode(shop);
  await stopNode(billing);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Two processes sharing one SQLite file', () => {
  it('the panel attached to the shop shows billing’s letters in billing’s stream, replay off naming the owner', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const { page, problems } = await openPage(context, shop.url);
    const panel = panelOf(page, 0);
    await chooseStream(panel, BILLING);
    assert.match(await panel.locator(`[data-testid=dl-stream] option[value="${BILLING}"]`).textContent(), /^billing \(4\)$/);
    const rows = panel.locator('[data-testid=os-row]');
    assert.equal(await rows.count(), 4);
    const payloads = (await panel.locator('[data-testid=os-payload]').allTextContents()).sort();
    assert.deepEqual(payloads, ['"lost billing"', '"order billing 0"', '"order billing 1"', '"order billing 2"']);
    assert.equal(await rows.first().getAttribute('data-stream'), BILLING);
    // Billing is not attached to this page: no replay from here, and the view says who owns it.
    assert.equal(await rows.first().locator('[data-testid=os-replay]').isDisabled(), true);
    assert.equal(await rows.first().locator('[data-testid=os-replay-off]').textContent(), 'owned by billing: not attached');
    // The shop's own list holds only its own letters.
    await panel.locator('[data-testid=dl-row]').first().waitFor({ timeout: 10_000 });
    assert.equal(await panel.locator('[data-testid=dl-row]').count(), 3);
    await screenshot(page, 'shared-store-other-stream');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('attached to both, a replay of billing’s letter goes to billing, and billing’s panel shows the shop’s letters', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const also = `ws://127.0.0.1:${billing.port}/api/ws?token=${billing.token}`;
    const { page, problems } = await openPage(context, `${shop.url}&also=${encodeURIComponent(also)}`);
    await page.waitForSelector('[data-testid=node-1][data-status=attached]', { timeout: 20_000 });
    const panel = panelOf(page, 0);
    await chooseStream(panel, BILLING);
    const order = panel.locator('[data-testid=os-row]', { has: page.locator('[data-testid=os-recipient]', { hasText: '/user/orders' }) }).first();
    const id = await order.getAttribute('data-id');
    const button = order.locator('[data-testid=os-replay]');
    assert.equal(await button.isDisabled(), false);
    assert.equal(await button.textContent(), 'Replay in billing');
    await button.click();
    await order.locator('[data-testid=os-outcome][data-outcome=replayed]').waitFor({ timeout: 10_000 });
    // The orders actor handles nothing: the replayed letter comes back as the same entry, counted.
    await page.waitForFunction(
      async ([sel]) => {
        document.querySelector('#panels > div [data-testid=dl-streams-refresh]')?.click();
        await new Promise((r) => setTimeout(r, 200));
        return document.querySelector(sel)?.textContent === '1';
      },
      [`#panels > div:first-child [data-testid=os-row][data-id="${id}"] [data-testid=os-replays]`],
      { timeout: 10_000, polling: 300 },
    );
    // Billing's own panel (node 1) shows the shop's stream: the shop is attached read-only, so no replay.
    await page.click('[data-testid=node-1]');
    const other = panelOf(page, 1);
    await chooseStream(other, SHOP);
    const shopRows = other.locator('[data-testid=os-row]');
    assert.equal(await shopRows.count(), 3);
    assert.equal(await shopRows.first().locator('[data-testid=os-replay-off]').textContent(), 'shop is read-only');
    await screenshot(page, 'shared-store-owner-replay');
    assert.deepEqual(problems, []);
    await context.close();
  });

  it('mailroom-dlq lists both streams’ letters from the same file', () => {
    const url = `sqlite:${join(dir, 'shared.db')}`;
    const all = JSON.parse(execFileSync(DLQ, ['list', url, '--json'], { encoding: 'utf8' }));
    const count = (stream) => all.filter((e) => e.stream === stream).length;
    assert.equal(count(SHOP), 3);
    assert.equal(count(BILLING), 4);
    assert.ok(all.some((e) => e.stream === BILLING && e.payload.message === 'order billing 1'));
    assert.ok(all.some((e) => e.stream === SHOP && e.payload.message === 'lost shop'));
  });
});
