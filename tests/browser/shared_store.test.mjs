// Issue 18's "done means" in the browser, once per shared store: two native
// processes (tests/database/tools/shared_store_node) share one SQLite file,
// then one PostgreSQL database, each with its DevTools server. The panel
// attached to the shop shows billing's letters in billing's stream (read-only,
// replay off and naming the owner); attached to both, a replay of billing's
// letter goes to billing's connection; billing's panel shows the shop's
// letters; mailroom-dlq lists both streams. The PostgreSQL server is a
// throw-away one on a loopback port, started and stopped here through
// build/native's pg_cluster_tool (tests/database/support/pg_cluster.hpp, the
// same code the ctest binaries use). Without its binaries the PostgreSQL
// variant is skipped, saying why, or fails with MAILROOM_REQUIRE_POSTGRES=1
// (stage 65 sets it, and MAILROOM_PG_BIN). Needs build/native's
// shared_store_node, mailroom-dlq and pg_cluster_tool and web/dist-attach
// (scripts/test.d/65-database.sh builds them).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, ROOT, screenshot } from './harness.mjs';

const NODE = process.env.MAILROOM_SHARED_STORE_NODE ?? join(ROOT, 'build/native/shared_store_node');
const DLQ = process.env.MAILROOM_DLQ ?? join(ROOT, 'build/native/tools/mailroom-dlq/mailroom-dlq');
const PG_TOOL = process.env.MAILROOM_PG_CLUSTER_TOOL ?? join(ROOT, 'build/native/database/tests/pg_cluster_tool');
const REQUIRE_POSTGRES = process.env.MAILROOM_REQUIRE_POSTGRES === '1';
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

/** Why no PostgreSQL server can be started here ("" when one can): the tool's own check. */
function postgresUnavailable() {
  if (!existsSync(PG_TOOL)) return `${PG_TOOL} is missing: cmake --build build/native --target pg_cluster_tool`;
  const check = spawnSync(PG_TOOL, ['--check'], { encoding: 'utf8' });
  if (check.status === 0) return '';
  return check.stderr.trim() || `pg_cluster_tool --check failed (${check.status ?? check.signal})`;
}

/** Starts a throw-away server; resolves with its URL and a stop that waits for it to be gone. */
function startPostgres() {
  const child = spawn(PG_TOOL, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.stdin.end(); // stdin closed: it stops the server
    await exited;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.once('exit', (code) => reject(new Error(`pg_cluster_tool exited (${code}) before printing its URL: ${err}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/^(postgresql:\/\/\S+)\n/);
      if (m) resolve({ url: m[1], stop });
    });
  });
}

const stores = [
  {
    name: 'SQLite',
    shot: 'sqlite',
    title: 'one SQLite file',
    unavailable: '',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'mailroom-shared-'));
      return { url: `sqlite:${join(dir, 'shared.db')}`, close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'PostgreSQL',
    shot: 'postgres',
    title: 'one PostgreSQL database (a throw-away server)',
    unavailable: postgresUnavailable(),
    async open() {
      const server = await startPostgres();
      return { url: server.url, close: server.stop };
    },
  },
];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

for (const store of stores) {
  // Missing server binaries skip the variant, or fail it when the stage requires PostgreSQL.
  const skip = store.unavailable && !REQUIRE_POSTGRES ? `${store.name} variant skipped: ${store.unavailable}` : false;
  describe(`Two processes sharing ${store.title}`, { skip }, () => {
    let opened;
    let shop;
    let billing;
    before(async () => {
      if (store.unavailable) {
        throw new Error(`MAILROOM_REQUIRE_POSTGRES=1 but ${store.name} is unavailable: ${store.unavailable}`);
      }
      opened = await store.open();
      shop = await startNode('shop', opened.url, ['--orders', '2']);
      // Billing takes writes (replay works there) and lets the shop's page open its socket.
      billing = await startNode('billing', opened.url, [
        '--orders',
        '3',
        '--allow-writes',
        '--allowed-origin',
        `http://127.0.0.1:${shop.port}`,
      ]);
    });
    after(async () => {
      await stopNode(shop);
      await stopNode(billing);
      await opened?.close();
    });

    it(`${store.name}: the panel attached to the shop shows billing’s letters in billing’s stream, replay off naming the owner`, async () => {
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
      await screenshot(page, `shared-store-${store.shot}-other-stream`);
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${store.name}: attached to both, a replay of billing’s letter goes to billing, and billing’s panel shows the shop’s letters`, async () => {
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
      await screenshot(page, `shared-store-${store.shot}-owner-replay`);
      assert.deepEqual(problems, []);
      await context.close();
    });

    it(`${store.name}: mailroom-dlq lists both streams’ letters from the same store`, () => {
      const all = JSON.parse(execFileSync(DLQ, ['list', opened.url, '--json'], { encoding: 'utf8' }));
      const count = (stream) => all.filter((e) => e.stream === stream).length;
      assert.equal(count(SHOP), 3);
      assert.equal(count(BILLING), 4);
      assert.ok(all.some((e) => e.stream === BILLING && e.payload.message === 'order billing 1'));
      assert.ok(all.some((e) => e.stream === SHOP && e.payload.message === 'lost shop'));
    });
  });
}
