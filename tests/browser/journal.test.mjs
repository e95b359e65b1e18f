// The browser journal (wasm/js/browser_journal.js) in headless Chromium: the
// core's journal format in IndexedDB, read back after a reload, one writer per
// stream across systems and tabs (Web Locks), damage and garbage in the stored
// bytes recovered with a report. The page (fixtures/journal.html) loads the
// wasm module straight from the repository; the tests change IndexedDB itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROOT, launch, serveStatic } from './harness.mjs';
import { frames, journalFile } from '../js/journal_frames.mjs';

let server;
let browser;
let context;

const fileOf = (name) => journalFile('/mailroom/journal', name);
const range = (n, prefix = 'm') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

async function open() {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console.error: ${m.text()}`);
  });
  await page.goto(`${server.url}tests/browser/fixtures/journal.html`);
  await page.waitForFunction(() => window.mrReady === true);
  return { page, problems };
}

async function reload(page) {
  await page.reload();
  await page.waitForFunction(() => window.mrReady === true);
}

// The bytes of a stored file, straight from IndexedDB (chunks in key order).
function storedBytes(page, path) {
  return page.evaluate(async (file) => {
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open('mailroom-journal');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const chunks = await new Promise((resolve, reject) => {
      const r = db.transaction('chunks').objectStore('chunks').getAll(IDBKeyRange.bound([file, 0], [file, Infinity]));
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return chunks.flatMap((c) => Array.from(c));
  }, path).then((bytes) => Buffer.from(bytes));
}

// Replaces a stored file by `bytes` in one chunk, or adds `bytes` as a new chunk after it.
function storeBytes(page, path, bytes, { append = false } = {}) {
  return page.evaluate(async ({ file, data, add }) => {
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open('mailroom-journal');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const tx = db.transaction('chunks', 'readwrite');
    const store = tx.objectStore('chunks');
    const keys = await new Promise((resolve) => {
      const r = store.getAllKeys(IDBKeyRange.bound([file, 0], [file, Infinity]));
      r.onsuccess = () => resolve(r.result);
    });
    if (add) {
      store.put(new Uint8Array(data), [file, keys.length === 0 ? 0 : keys[keys.length - 1][1] + 1]);
    } else {
      store.delete(IDBKeyRange.bound([file, 0], [file, Infinity]));
      store.put(new Uint8Array(data), [file, 0]);
    }
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, { file: path, data: Array.from(bytes), add: append });
}

describe('Browser journal (IndexedDB)', () => {
  before(async () => {
    server = await serveStatic(ROOT);
    browser = await launch();
    context = await browser.newContext();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('writes the core format to IndexedDB and restores it after a reload, with and without terminate', async () => {
    // A reload is a restart: the page dies holding the lock, the next one takes it.
    const { page, problems } = await open();
    assert.deepEqual(await page.evaluate(() => window.mr.create('reload')), { ok: true });
    await page.evaluate(() => window.mr.letters('reload', 20));
    const bytes = await storedBytes(page, fileOf('reload'));
    assert.equal(bytes.subarray(0, 4).toString('latin1'), 'MRJL');
    assert.deepEqual(frames(bytes).records.map((r) => r.sequence), range(20).map((_, i) => i + 1));
    await reload(page);
    assert.deepEqual(await page.evaluate(() => window.mr.create('reload')), { ok: true });
    assert.deepEqual(await page.evaluate(() => window.mr.list('reload')), range(20));
    await page.evaluate(() => window.mr.letters('reload', 5, 'n'));
    await page.evaluate(() => window.mr.terminate('reload'));
    await reload(page);
    assert.deepEqual(await page.evaluate(() => window.mr.create('reload')), { ok: true });
    assert.deepEqual(await page.evaluate(() => window.mr.list('reload')), [...range(20), ...range(5, 'n')]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('refuses a second writer of a stream in the page and in another tab, and merges nothing', async () => {
    const a = await open();
    const b = await open();
    assert.deepEqual(await a.page.evaluate(() => window.mr.create('locked')), { ok: true });
    await a.page.evaluate(() => window.mr.letters('locked', 3));
    const samePage = await a.page.evaluate(() => window.mr.create('locked'));
    assert.equal(samePage.error, 'JournalLockedError');
    assert.match(samePage.message, /another system of this page/);
    const otherTab = await b.page.evaluate(() => window.mr.create('locked'));
    assert.equal(otherTab.error, 'JournalLockedError');
    assert.match(otherTab.message, /another tab/);
    assert.deepEqual(await b.page.evaluate(() => window.mr.create('other-name')), { ok: true });
    // Once the first writer is gone, the other tab takes the stream with every letter.
    await a.page.evaluate(() => window.mr.terminate('locked'));
    await b.page.waitForFunction(() => window.mr.create('locked').ok === true, null, { timeout: 10_000 });
    assert.deepEqual(await b.page.evaluate(() => window.mr.list('locked')), range(3));
    assert.deepEqual([...a.problems, ...b.problems], []);
    await a.page.close();
    await b.page.close();
  });

  it('lets one of two tabs creating one stream at the same instant write it, and merges nothing', async (t) => {
    // Either the second is refused at create, or (a true race) its writes never reach IndexedDB
    // and fail with JournalLockedError, which the queue logs.
    const a = await open();
    const b = await open();
    const [ra, rb] = await Promise.all([a, b].map(({ page }) => page.evaluate(() => window.mr.create('race'))));
    const created = [ra, rb].filter((r) => r.ok).length;
    t.diagnostic(created === 2 ? 'race: both created, the loser\'s writes refused' : 'race: the second refused at create');
    assert.ok(created >= 1, JSON.stringify([ra, rb]));
    // A writer that learned of its loss only after its letters were accepted is told by
    // persistBrowserJournal() (it rejects with JournalLockedError) or, at its next sync, in the log.
    const refused = [];
    for (const [{ page }, r, prefix] of [[a, ra, 'a'], [b, rb, 'b']]) {
      if (!r.ok) {
        assert.equal(r.error, 'JournalLockedError');
        continue;
      }
      const persisted = await page.evaluate(async (p) => {
        try {
          await window.mr.letters('race', 5, p);
          return 'ok';
        } catch (error) {
          return `${error.constructor.name}: ${error.message}`;
        }
      }, prefix);
      if (persisted !== 'ok') refused.push(persisted);
    }
    const stored = frames(await storedBytes(a.page, fileOf('race'))).records.map((r) => JSON.parse(r.payload));
    const writers = new Set(stored.map((record) => JSON.stringify(record).match(/"([ab])\d"/)?.[1]));
    assert.equal(writers.size, 1, `letters of both tabs in one stream: ${[...writers]}`);
    assert.equal(stored.length, 5);
    if (created === 2) {
      const warnings = [...await a.page.evaluate(() => window.mr.warnings), ...await b.page.evaluate(() => window.mr.warnings)];
      const told = [...warnings, ...refused].filter((w) => /another tab took the writer's lock first/.test(w));
      assert.ok(told.length >= 1, [...warnings, ...refused].join('\n'));
      t.diagnostic(`the loser was told by ${refused.length ? 'persistBrowserJournal()' : 'the log'}`);
      assert.ok(refused.every((w) => w.startsWith('JournalLockedError')), refused.join('\n'));
    }
    await a.page.close();
    await b.page.close();
  });

  it('tells a writer whose lost Web Lock answer came after its letters were accepted: persistBrowserJournal() rejects', async () => {
    // The race above made deterministic: tab b has claimed "late" but its lock answer is held back;
    // tab a takes the lock meanwhile and writes; b's letters are accepted and synced (nothing is
    // known yet), then b's answer comes (lost). Its letters are never written, and only
    // persistBrowserJournal() can say so: it must reject with JournalLockedError.
    const a = await open();
    const b = await open();
    await b.page.evaluate(() => window.mr.holdLocks());
    assert.deepEqual(await b.page.evaluate(() => window.mr.create('late')), { ok: true });
    assert.deepEqual(await a.page.evaluate(() => window.mr.create('late')), { ok: true });
    await a.page.evaluate(() => window.mr.letters('late', 3, 'a'));
    const told = await b.page.evaluate(async () => {
      try {
        await window.mr.letters('late', 2, 'b', () => window.mr.answerLocks());
        return 'resolved';
      } catch (error) {
        return `${error.constructor.name}: ${error.message}`;
      }
    });
    assert.match(told, /^JournalLockedError: .*another tab took the writer's lock first/);
    const stored = frames(await storedBytes(a.page, fileOf('late'))).records.map((r) => JSON.parse(r.payload));
    assert.equal(stored.length, 3, JSON.stringify(stored));
    assert.ok(stored.every((record) => /"a\d"/.test(JSON.stringify(record))), JSON.stringify(stored));
    // Told once: the next persist has nothing new to report.
    assert.equal(await b.page.evaluate(async () => {
      await (await import('/wasm/js/browser_journal.js')).persistBrowserJournal();
      return 'resolved';
    }), 'resolved');
    assert.deepEqual([...a.problems, ...b.problems], []);
    await a.page.close();
    await b.page.close();
  });

  it('still runs where IndexedDB is refused: the persistent queue keeps its letters in memory', async () => {
    // A private window or a blocked origin: a warning, no page error, no lost capture.
    const blocked = await browser.newContext();
    await blocked.addInitScript(() => {
      IDBFactory.prototype.open = () => {
        throw new DOMException('IndexedDB is blocked here', 'SecurityError');
      };
    });
    const page = await blocked.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}tests/browser/fixtures/journal.html`);
    await page.waitForFunction(() => window.mrReady === true);
    assert.deepEqual(await page.evaluate(() => window.mr.create('blocked')), { ok: true });
    await page.evaluate(() => window.mr.letters('blocked', 3));
    assert.deepEqual(await page.evaluate(() => window.mr.list('blocked')), range(3));
    assert.deepEqual(errors, []);
    await blocked.close();
  });

  it('recovers every intact letter around damaged bytes in IndexedDB, reports them and keeps them aside', async () => {
    const { page, problems } = await open();
    await page.evaluate(() => window.mr.create('flip'));
    await page.evaluate(() => window.mr.letters('flip', 20));
    await page.evaluate(() => window.mr.terminate('flip'));
    const bytes = await storedBytes(page, fileOf('flip'));
    const victim = frames(bytes).records[7];
    bytes[victim.offset + 20] ^= 0x5a;  // inside the 8th letter's payload
    await storeBytes(page, fileOf('flip'), bytes);
    await reload(page);
    await page.evaluate(() => window.mr.create('flip'));
    assert.deepEqual(await page.evaluate(() => window.mr.list('flip')), range(20).filter((m) => m !== 'm7'));
    const warnings = await page.evaluate(() => window.mr.warnings);
    assert.ok(warnings.some((w) => /checksum mismatch/.test(w) && /1 records lost/.test(w)), warnings.join('\n'));
    await page.evaluate(() => window.mr.letters('flip', 1, 'after'));  // repairs the file first
    await page.evaluate(() => window.mr.terminate('flip'));
    const side = await storedBytes(page, `${fileOf('flip')}.damaged`);
    assert.ok(side.includes(bytes.subarray(victim.offset, victim.end)));
    assert.equal(frames(await storedBytes(page, fileOf('flip'))).damaged, false);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('recovers exactly the whole letters before a cut at every byte offset of a stored journal', async (t) => {
    // The core reads through the IndexedDB storage's chunks; the cut letter and those after it are gone, no other.
    const { page, problems } = await open();
    await page.evaluate(() => window.mr.create('source'));
    await page.evaluate(() => window.mr.letters('source', 6));
    await page.evaluate(() => window.mr.terminate('source'));
    const bytes = await storedBytes(page, fileOf('source'));
    const { records } = frames(bytes);
    const offsets = Array.from({ length: bytes.length + 1 }, (_, i) => i);
    const restored = await page.evaluate(({ data, cuts }) => window.mr.cuts(data, cuts), { data: Array.from(bytes), cuts: offsets });
    let wrong = 0;
    for (const cut of offsets) {
      const whole = records.filter((r) => r.end <= cut).length;
      if (JSON.stringify(restored[cut]) !== JSON.stringify(range(whole))) wrong += 1;
    }
    assert.equal(wrong, 0, `cuts with a wrong restore, of ${offsets.length}`);
    t.diagnostic(`browser cuts: ${offsets.length} offsets, letters lost beyond the cut one: 0`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('cuts garbage appended to a stored journal, keeping every letter', async () => {
    const { page, problems } = await open();
    await page.evaluate(() => window.mr.create('garbage'));
    await page.evaluate(() => window.mr.letters('garbage', 10));
    await page.evaluate(() => window.mr.terminate('garbage'));
    await storeBytes(page, fileOf('garbage'), Buffer.from('\u00ab'.repeat(37), 'latin1'), { append: true });
    await reload(page);
    await page.evaluate(() => window.mr.create('garbage'));
    assert.deepEqual(await page.evaluate(() => window.mr.list('garbage')), range(10));
    await page.evaluate(() => window.mr.letters('garbage', 1, 'after'));
    await page.evaluate(() => window.mr.terminate('garbage'));
    const { records, damaged } = frames(await storedBytes(page, fileOf('garbage')));
    assert.equal(damaged, false);
    // The new letter's number lies above any the 37 garbage bytes could have held.
    assert.ok(records.at(-1).sequence > 10 + Math.ceil(37 / 16));
    assert.deepEqual(problems, []);
    await page.close();
  });
});
