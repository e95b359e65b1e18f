// The panel attached to a native process over the DevTools protocol: the live
// example (examples/live_system.cpp, the server started by with_devtools),
// opened in headless Chromium at the URL it prints. A read-only process (rows,
// dead letters and their payload tree, replay off, token and Origin refusals,
// recovery after the process restarts), then one started with --allow-writes
// (replay delivers), then two processes in one page (&also=), each its own node. Needs build/native's examples/live_system and
// web/dist-attach (scripts/test.d/62-native-attach.sh).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { launch, openPage, ROOT, screenshot } from './harness.mjs';

const BINARY = process.env.MAILROOM_LIVE_SYSTEM ?? join(ROOT, 'build/native/examples/live_system');
const PANEL = join(ROOT, 'web/dist-attach');
// A fixed token: the restarted process keeps the URL the page was opened with.
const TOKEN = 'e2e0restart0token0000000000000000';

/** Starts the example; resolves once it printed its DevTools URL. */
function startProcess(args = []) {
  const child = spawn(BINARY, ['--port', '0', '--panel-dir', PANEL, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`live_system exited (${code}) before printing its URL: ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/DevTools: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9A-Za-z_-]+))/);
      if (m) resolve({ child, url: m[1], port: Number(m[2]), token: m[3] });
    });
  });
}

function stopProcess(proc) {
  if (!proc || proc.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    proc.child.once('exit', resolve);
    proc.child.kill('SIGTERM');
  });
}

/** A raw WebSocket upgrade (Node 20 has no WebSocket client): resolves to the HTTP status. */
function upgradeStatus(port, path, origin) {
  return new Promise((resolve, reject) => {
    const headers = { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' };
    if (origin) headers.Origin = origin;
    const req = request({ host: '127.0.0.1', port, path, headers });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

const rowFor = (path) => `[data-testid=mailbox-row][data-path="${path}"]`;
/** The panel of the n-th node of the page (attach.html mounts one per endpoint). */
const panelOf = (page, n) => page.locator('#panels > div').nth(n);

/** Opens the dead letters of `recipient` and selects the newest. */
async function selectDeadLetter(page, recipient) {
  await page.click('[data-testid=tab-dead-letters]');
  await page.fill('[data-testid=dl-recipient]', recipient);
  await page.waitForSelector('[data-testid=dl-row]', { timeout: 20_000 });
  await page.locator('[data-testid=dl-row]').first().click();
  await page.waitForSelector('[data-testid=dl-detail]');
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('Panel attached to a read-only native process', () => {
  let proc;
  let page;
  let problems;

  before(async () => {
    proc = await startProcess(['--token', TOKEN]);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    ({ page, problems } = await openPage(context, proc.url));
  });
  after(async () => {
    await stopProcess(proc);
  });

  it('shows the process mailboxes over the WebSocket', async () => {
    // Every scenario actor of the native process gets a row.
    for (const path of ['/user/sensors', '/user/checkout', '/user/triage', '/user/worker', '/user/ledger']) {
      await page.waitForSelector(rowFor(path), { timeout: 20_000 });
    }
    await page.waitForSelector('[data-testid=node-0][data-status=attached]');
    assert.match(await page.textContent('[data-testid=node-0]'), /live · read-only/);
  });

  it('shows dead letters pushed by the process, with their payload tree', async () => {
    // The worker's drop-new drops become dead letters (deadLetterDrops), decoded from the codec's JSON
    // into a tree: the Job record's fields, each a node with its value.
    await selectDeadLetter(page, '/user/worker');
    const tree = page.locator('[data-testid=dl-payload] [data-testid=json-tree]');
    await tree.waitFor();
    const fields = await tree.locator('.mr-json-node[data-depth="1"]').allTextContents();
    assert.ok(fields.some((f) => /^\s*jobId: \d+/.test(f)), fields.join(' | '));
    assert.ok(fields.some((f) => /^\s*attempt: 1(?!\d)/.test(f)), fields.join(' | '));
    await screenshot(page, 'native-dead-letters');
    assert.deepEqual(problems, []);
  });

  it('offers no replay on a read-only process', async () => {
    // The welcome said writes: false, so the panel disables replay and says why (the server would
    // answer `unavailable` anyway: tests/server).
    await selectDeadLetter(page, '/user/ledger');
    assert.equal(await page.locator('[data-testid=dl-replay]').isDisabled(), true);
    assert.equal(await page.locator('[data-testid=dl-redirect]').isDisabled(), true);
    await page.waitForSelector('[data-testid=dl-replay-off]');
    // It names the process's switch, not the in-page mount option.
    const why = await page.textContent('[data-testid=dl-replay-off]');
    assert.match(why, /allow-writes/);
    assert.doesNotMatch(why, /allowReplay/);
  });

  it('refuses a socket without the token and one from a foreign origin', async () => {
    const own = `http://127.0.0.1:${proc.port}`;
    assert.equal(await upgradeStatus(proc.port, `/api/ws?token=${proc.token}`, own), 101);
    assert.equal(await upgradeStatus(proc.port, '/api/ws', own), 401);
    assert.equal(await upgradeStatus(proc.port, `/api/ws?token=${proc.token}`, 'https://evil.example'), 403);
  });

  it('recovers by itself when the process restarts, without a reload', async () => {
    await page.evaluate(() => {
      window.__sameDocument = true;
    });
    await page.click('[data-testid=tab-mailboxes]');
    // The worker's drop counter only grows within one process: a smaller one after the restart is the
    // new process's row, not the old one left on screen.
    const dropped = () => page.$eval(`${rowFor('/user/worker')} [data-testid=mailbox-dropped]`, (e) => parseInt(e.textContent, 10));
    await page.waitForFunction((sel) => parseInt(document.querySelector(sel)?.textContent ?? '0', 10) > 0,
      `${rowFor('/user/worker')} [data-testid=mailbox-dropped]`, { timeout: 20_000 });
    const { port } = proc;
    await stopProcess(proc);
    const before = await dropped();
    await page.waitForSelector('[data-testid=node-0]:not([data-status=attached])', { timeout: 10_000 });
    proc = await startProcess(['--port', String(port), '--token', TOKEN]);
    await page.waitForSelector('[data-testid=node-0][data-status=attached]', { timeout: 20_000 });
    await page.waitForFunction(([sel, n]) => parseInt(document.querySelector(sel)?.textContent ?? 'NaN', 10) < n,
      [`${rowFor('/user/worker')} [data-testid=mailbox-dropped]`, before], { timeout: 10_000 });
    assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the page was not reloaded');
  });
});

describe('Panel attached to a native process started with --allow-writes', () => {
  let proc;
  let page;
  let problems;

  before(async () => {
    proc = await startProcess(['--allow-writes']);
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    ({ page, problems } = await openPage(context, proc.url));
  });
  after(async () => {
    await stopProcess(proc);
  });

  it('replays a dead letter into the process', async () => {
    await page.waitForSelector('[data-testid=node-0][data-status=attached]', { timeout: 20_000 });
    assert.match(await page.textContent('[data-testid=node-0]'), /live · read-write/);
    // The poison message the ledger could not book: replayed to the live ledger, it is delivered
    // (and, still unbookable there, becomes a new dead letter).
    await selectDeadLetter(page, '/user/ledger');
    await page.click('[data-testid=dl-replay]');
    await page.waitForSelector('[data-testid=replay-dialog]');
    await page.click('[data-testid=replay-confirm]');
    await page.waitForSelector('[data-testid=dl-attempt][data-outcome=replayed]', { timeout: 10_000 });
    assert.deepEqual(problems, []);
  });

  it("names a malformed redirect target in the native core's words as it is typed", async () => {
    // The same verdict as the in-page core's: the panel asks deadLetters.preview over the socket.
    await selectDeadLetter(page, '/user/ledger');
    await page.click('[data-testid=dl-redirect]');
    await page.fill('[data-testid=replay-target]', '/user/led ger');
    const blocked = page.locator('[data-testid=replay-blocked][data-problem=malformed]');
    await blocked.waitFor({ timeout: 10_000 });
    assert.equal(await blocked.textContent(), 'The runtime says the path is malformed: whitespace in "led ger"');
    assert.equal(await page.locator('[data-testid=replay-confirm]').isDisabled(), true);
    await page.click('[data-testid=replay-cancel]');
    assert.deepEqual(problems, []);
  });
});

describe('Panel attached to two native processes at once', () => {
  let first;
  let second;
  let page;
  let problems;

  before(async () => {
    first = await startProcess(['--node', 'orders-eu']);
    // The page comes from the first process's server: the second lets that origin attach.
    second = await startProcess(['--node', 'orders-us', '--allow-writes', '--allowed-origin', `http://127.0.0.1:${first.port}`]);
    const also = `ws://127.0.0.1:${second.port}/api/ws?token=${second.token}`;
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    ({ page, problems } = await openPage(context, `${first.url}&also=${encodeURIComponent(also)}`));
  });
  after(async () => {
    await stopProcess(first);
    await stopProcess(second);
  });

  it('shows each process as its own node, as its own welcome describes it', async () => {
    await page.waitForSelector('[data-testid=node-0][data-status=attached]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid=node-1][data-status=attached]', { timeout: 20_000 });
    // Names and write modes come from each process's own welcome, not from the other.
    assert.equal(await page.textContent('[data-testid=node-0]'), 'orders-eu · read-only');
    assert.equal(await page.textContent('[data-testid=node-1]'), 'orders-us · read-write');
    await panelOf(page, 0).locator(rowFor('/user/worker')).waitFor({ timeout: 20_000 });
    await page.click('[data-testid=node-1]');
    await panelOf(page, 1).locator(rowFor('/user/worker')).waitFor({ timeout: 20_000 });
    assert.equal(await panelOf(page, 0).isVisible(), false);
    assert.deepEqual(problems, []);
  });

  it('loses only the node of a process that goes away', async () => {
    await stopProcess(second);
    await page.waitForSelector('[data-testid=node-1]:not([data-status=attached])', { timeout: 10_000 });
    assert.equal(await page.getAttribute('[data-testid=node-0]', 'data-status'), 'attached');
    await page.click('[data-testid=node-0]');
    await panelOf(page, 0).locator(rowFor('/user/worker')).waitFor({ timeout: 10_000 });
  });
});
