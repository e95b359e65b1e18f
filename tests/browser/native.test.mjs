// The panel attached to a native process over the DevTools protocol: the live
// example (examples/live_system.cpp) with its server, opened in
// headless Chromium at the URL it prints. Needs build/native's
// live_system and web/dist-attach (scripts/test.d/62-native-attach.sh).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { launch, openPage, ROOT, screenshot } from './harness.mjs';

const BINARY = process.env.MAILROOM_LIVE_SYSTEM ?? join(ROOT, 'build/native/examples/live_system');
const PANEL = join(ROOT, 'web/dist-attach');

/** Starts the example; resolves once it printed its DevTools URL. */
function startProcess(args = []) {
  const child = spawn(BINARY, ['--port', '0', '--panel-dir', PANEL, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`live_system exited (${code}) before printing its URL: ${out}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/DevTools: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+))/);
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

describe('Panel attached to a native process', () => {
  let proc;
  let browser;
  let page;
  let problems;

  before(async () => {
    proc = await startProcess();
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    ({ page, problems } = await openPage(context, proc.url));
  });
  after(async () => {
    await browser?.close();
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

  it('shows dead letters pushed by the process, with their payload', async () => {
    // The worker's drop-new drops become dead letters (deadLetterDrops), decoded from the codec's JSON.
    await page.click('[data-testid=tab-dead-letters]');
    await page.fill('[data-testid=dl-recipient]', '/user/worker');
    await page.waitForSelector('[data-testid=dl-row]', { timeout: 20_000 });
    await page.locator('[data-testid=dl-row]').first().click();
    const payload = await page.locator('[data-testid=dl-payload]').textContent();
    assert.ok(payload.includes('jobId'), payload);
    await screenshot(page, 'native-dead-letters');
    assert.deepEqual(problems, []);
  });

  it('refuses a socket without the token and one from a foreign origin', async () => {
    const own = `http://127.0.0.1:${proc.port}`;
    assert.equal(await upgradeStatus(proc.port, `/api/ws?token=${proc.token}`, own), 101);
    assert.equal(await upgradeStatus(proc.port, '/api/ws', own), 401);
    assert.equal(await upgradeStatus(proc.port, `/api/ws?token=${proc.token}`, 'https://evil.example'), 403);
  });
});
