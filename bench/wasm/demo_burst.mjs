// The demo page's burst: 100,000 dead letters into its persistent queue (IndexedDB
// journal, max-entries 5,000, the DevTools panel docked and subscribed) in
// headless Chromium. Reports µs per letter and the longest main-thread stall
// (the largest gap between animation frames, and the longest long task), for
//   loop:    one synchronous loop of tells (what a page script that bursts does);
//   chunked: the same letters in chunks of 1,000 per task (a producer that yields).
// Then checks the queue: the newest max-entries letters, in order, none lost.
//   node bench/wasm/demo_burst.mjs [--letters=100000] [--rebuild]
// Needs web/dist built from the current wasm (--rebuild runs vite build).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DIST, ROOT, launch, openPage, serveStatic } from '../../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const letters = Number(args.find((a) => a.startsWith('--letters='))?.slice(10) ?? 100_000);
if (!existsSync(join(DIST, 'index.html')) || args.includes('--rebuild')) {
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
}

async function burst(page, mode) {
  return page.evaluate(async ([n, how]) => {
    const { system } = window.__mailroomDemo;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const task = () => new Promise((r) => setTimeout(r, 0));
    // Frame gaps and long tasks from before the first letter until the page is quiet again.
    let longest = 0;
    const observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
    });
    observer.observe({ type: 'longtask' });
    let gap = 0;
    let running = true;
    const frames = (async () => {
      let last = await frame();
      while (running) {
        const t = await frame();
        gap = Math.max(gap, t - last);
        last = t;
      }
    })();
    for (let i = 0; i < 5; i += 1) await frame();
    const tag = `${how}-${performance.now().toFixed(0)}`;
    const letter = (i) => ({ order: i, burst: tag, customer: `user${i % 500}@example.com`, lines: [{ sku: `sku-${i % 97}`, qty: 1 + (i % 3) }] });
    const t0 = performance.now();
    if (how === 'loop') {
      for (let i = 0; i < n; i += 1) system.actorSelection(`/user/orders/burst-${i % 7}`).tell(letter(i));
    } else {
      for (let i = 0; i < n; i += 1000) {
        for (let k = i; k < Math.min(n, i + 1000); k += 1) system.actorSelection(`/user/orders/burst-${k % 7}`).tell(letter(k));
        await task();
      }
    }
    const told = performance.now() - t0;
    // Quiet again: the panel has caught up and the journal's batch is written.
    for (let i = 0; i < 30; i += 1) await frame();
    await new Promise((r) => setTimeout(r, 600));
    const settled = performance.now() - t0;
    running = false;
    await frames;
    observer.disconnect();
    const kept = (await system.deadLetterQueue.list()).filter((e) => e.payload.kind === 'captured' && e.payload.message?.burst === tag);
    const orders = kept.map((e) => e.payload.message.order);
    const max = system.deadLetterQueue.settings.maxEntries;
    const inOrder = orders.every((o, i) => o === n - 1 - i);  // newest first, consecutive
    return {
      mode: how, letters: n, usPerLetter: +(told * 1000 / n).toFixed(2), toldMs: +told.toFixed(0),
      settledMs: +settled.toFixed(0), longestFrameGapMs: +gap.toFixed(0), longestTaskMs: +longest.toFixed(0),
      kept: kept.length, expectedKept: Math.min(n, max), newestInOrder: inOrder,
    };
  }, [letters, mode]);
}

const server = await serveStatic();
const browser = await launch();
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const { page, problems } = await openPage(context, `${server.url}index.html?idle`);
  await page.waitForFunction(() => window.__mailroomDemo?.system, null, { timeout: 30_000 });
  await page.click('[data-testid=tab-dead-letters]').catch(() => {});
  const rows = [];
  for (const mode of ['loop', 'chunked', 'loop', 'chunked']) {
    rows.push(await burst(page, mode));
    process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
  }
  if (problems.length > 0) process.stderr.write(`page problems: ${problems.join('; ')}\n`);
  const failed = rows.filter((r) => r.kept !== r.expectedKept || !r.newestInOrder);
  process.stdout.write(`${JSON.stringify({ loadAverage: loadavg().map((x) => +x.toFixed(1)), rows }, null, 2)}\n`);
  if (failed.length > 0) process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
