// A journal written before records carried the JS codec's text as it is (the
// core parsed it and re-dumped it with sorted keys) reads back unchanged with
// today's build, and a journal written now reads back equal too.
// tests/js/fixtures/js-before-text-records.journal: the payloads below, told in
// this order to a stopped /user/gone of a Node system named "before-text" by
// the build of commit 02d7fbb (the last one that re-dumped payloads).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { idle } from './helpers.mjs';
import { journalFile } from './journal_frames.mjs';
import { payloadDifference } from './payload_equal.mjs';

function fixturePayloads() {
  const shared = { shared: true };
  return [
    { kind: 'order', id: 1 },
    { zeta: 1, alpha: 2, mid: [3] },
    [1, 'two', null, true, -0, NaN, Infinity, undefined],
    new Map([['a', 1], [{ k: 2 }, new Set([1, 2])]]),
    { when: new Date(1764547200000), big: 12345678901234567890n, re: /x+y/gi },
    { text: 'caf\u00e9 \u20ac \u{1F600} \u2028', lone: 'a\uD800b' },
    { both: shared, again: shared },
    new Uint8Array([1, 2, 250]),
    Object.assign(new TypeError('bad order'), { code: 7 }),
    'plain string',
    42.5,
  ];
}

const persistentIn = (dir) => ActorSystemOptions.create().withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withRetentionMs(0));  // 0: no ageing

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-before-text-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function restoredPayloads(dir, name) {
  const system = ActorSystem.create(name, persistentIn(dir));
  const entries = (await system.deadLetterQueue.list()).reverse();
  await system.terminate();
  return entries;
}

function assertPayloads(entries) {
  const expected = fixturePayloads();
  assert.equal(entries.length, expected.length);
  entries.forEach((entry, i) => {
    assert.equal(entry.payload.kind, 'captured', `entry ${i + 1}: ${entry.payload.reason}`);
    assert.equal(payloadDifference(expected[i], entry.payload.message), '', `entry ${i + 1}`);
  });
}

test('a journal written before payload text was carried as it is reads back equal', async (t) => {
  const dir = tempDir(t);
  writeFileSync(journalFile(dir, 'before-text'),
    readFileSync(new URL('./fixtures/js-before-text-records.journal', import.meta.url)));
  const entries = await restoredPayloads(dir, 'before-text');
  assertPayloads(entries);
  assert.deepEqual(entries.map((e) => String(e.id)), fixturePayloads().map((_, i) => String(i + 1)));
});

test('the same payloads captured now read back equal after a restart', async (t) => {
  const dir = tempDir(t);
  const system = ActorSystem.create('after-text', persistentIn(dir));
  class Gone extends Actor {}
  const ref = system.spawn(Gone, 'gone');
  ref.stop();
  await idle(system);
  for (const payload of fixturePayloads()) ref.tell(payload);
  await idle(system);
  await system.terminate();
  assertPayloads(await restoredPayloads(dir, 'after-text'));
});
