// In real Chromium: a journal change is committed to IndexedDB within the
// browser's sync-within bound (250 ms) with nothing else happening, and an
// operator action's promise resolves only after its commit, so a reload right
// after it never brings a purged, replayed or cleared letter back. The page
// runs under a strict Content-Security-Policy (no eval, no inline script).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ROOT, launch } from './harness.mjs';

const BOUND_MS = 250;
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

// The repository, every response under the CSP.
async function serveWithCsp() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = await readFile(join(ROOT, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'content-security-policy': CSP });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

let server;
let browser;
let page;
const problems = [];
const messages = (entries) => entries.map((e) => e.message);

async function reload() {
  await page.reload();
  await page.waitForFunction(() => window.mrReady === true);
}

describe('Durability in the browser (IndexedDB, strict CSP)', () => {
  before(async () => {
    server = await serveWithCsp();
    browser = await launch();
    const context = await browser.newContext();
    page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
    });
    await page.goto(`${server.url}tests/browser/fixtures/durability.html`);
    await page.waitForFunction(() => window.mrReady === true, null, { timeout: 30_000 });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('the API starts and runs under script-src self + wasm-unsafe-eval (no new Function)', async () => {
    const settings = await page.evaluate(() => window.mr.create('csp'));
    assert.equal(settings.syncWithinMs, BOUND_MS);
    await page.evaluate(() => window.mr.tell('csp', 3, 'c'));
    assert.deepEqual(messages(await page.evaluate(() => window.mr.list('csp'))), ['c0', 'c1', 'c2']);
    assert.deepEqual(await page.evaluate(() => window.mr.violations), []);
    assert.deepEqual(problems, []);
  });

  test('letters left alone are committed within the bound: a reload after twice the bound keeps them', async () => {
    await page.evaluate(() => window.mr.create('quiet'));
    await page.evaluate(() => window.mr.tell('quiet', 10, 'q'));
    await page.waitForTimeout(2 * BOUND_MS);
    await reload();  // no flush, no terminate
    await page.evaluate(() => window.mr.create('quiet'));
    assert.equal((await page.evaluate(() => window.mr.list('quiet'))).length, 10);
  });

  // The bound is a minute here: only the actions themselves can have made their records durable.
  test('a resolved purge, replay, redirect and clear are not undone by a reload right after them', async () => {
    await page.evaluate(() => window.mr.create('ops', 60_000));
    await page.evaluate(() => window.mr.tell('ops', 20, 'o'));
    let entries = await page.evaluate(() => window.mr.list('ops'));
    const purged = entries.slice(0, 5).map((e) => e.id);
    await page.evaluate(([ids]) => window.mr.remove('ops', ids), [purged]);
    await reload();
    await page.evaluate(() => window.mr.create('ops', 60_000));
    entries = await page.evaluate(() => window.mr.list('ops'));
    assert.equal(entries.length, 15, 'purged letters came back');
    assert.ok(!entries.some((e) => purged.includes(e.id)));

    const [replayed, redirected] = entries;
    await page.evaluate(() => window.mr.spawnSink('ops', 'sink'));
    await page.evaluate(() => window.mr.spawnSink('ops', 'sink-v2'));
    const results = await page.evaluate(([a, b]) => Promise.all([
      window.mr.replay('ops', a, '/user/sink'), window.mr.replay('ops', b, '/user/sink-v2')]),
    [replayed.id, redirected.id]);
    assert.deepEqual(results.map((r) => r.kind), ['replayed', 'replayed']);
    await reload();
    await page.evaluate(() => window.mr.create('ops', 60_000));
    entries = await page.evaluate(() => window.mr.list('ops'));
    assert.equal(entries.length, 13, 'a replayed letter came back: it could be delivered twice');
    assert.ok(!entries.some((e) => e.id === replayed.id || e.id === redirected.id));

    await page.evaluate(() => window.mr.clear('ops'));
    await reload();
    await page.evaluate(() => window.mr.create('ops', 60_000));
    assert.deepEqual(await page.evaluate(() => window.mr.list('ops')), []);
    assert.deepEqual(problems, []);
  });
});
