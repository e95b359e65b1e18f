// Fault injection on the Node journal (the core's format over node:fs), as
// tests/native/journal_torn_test.cpp does natively: a cut at every byte
// offset, random byte flips and garbage appended; a fresh system restores
// every letter whose frame is intact and no other, and the next append
// leaves a clean file.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { idle } from './helpers.mjs';
import { frames, journalFile } from './journal_frames.mjs';

const persistentIn = (dir) => ActorSystemOptions.create().withJournalDir(dir)
  .withLogLevel('off')  // the damage reports are expected here
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withRetentionMs(0));

// A RAM-backed folder when there is one: every terminate syncs, and this test terminates ~850 times.
function tempDir(t) {
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mailroom-node-faults-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// A journal of n letters m0..; returns its bytes and frames.
async function written(dir, name, n) {
  const system = ActorSystem.create(name, persistentIn(dir));
  for (let i = 0; i < n; i += 1) system.actorSelection('/user/nobody').tell(`m${i}`);
  await idle(system);
  await system.terminate();
  const bytes = readFileSync(journalFile(dir, name));
  return { bytes, records: frames(bytes).records };
}

async function restored(dir, name) {
  const system = ActorSystem.create(name, persistentIn(dir));
  const got = (await system.deadLetterQueue.list()).map((e) => e.payload.message).reverse();
  return { system, got };
}

// A seeded generator, so a failure can be replayed.
function random(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

test('a cut at every byte offset of a Node journal restores exactly the whole letters before it', async (t) => {
  const dir = tempDir(t);
  const { bytes, records } = await written(dir, 'cut', 5);
  const file = journalFile(dir, 'cut');
  let wrong = 0;
  for (let cut = 0; cut <= bytes.length; cut += 1) {
    writeFileSync(file, bytes.subarray(0, cut));
    const { system, got } = await restored(dir, 'cut');
    const whole = records.filter((r) => r.end <= cut).length;
    if (JSON.stringify(got) !== JSON.stringify(records.slice(0, whole).map((_, i) => `m${i}`))) wrong += 1;
    await system.terminate();
  }
  assert.equal(wrong, 0);
  t.diagnostic(`node cuts: ${bytes.length + 1} offsets, letters lost beyond the cut one: 0`);
});

test('random byte flips in a Node journal lose only the letters whose frames they touch', async (t) => {
  const dir = tempDir(t);
  const { bytes, records } = await written(dir, 'flips', 20);
  const file = journalFile(dir, 'flips');
  const next = random(20261201);
  let lostUntouched = 0;
  const trials = 60;
  for (let trial = 0; trial < trials; trial += 1) {
    const damaged = Buffer.from(bytes);
    const touched = new Set();
    for (let k = 1 + next(4); k > 0; k -= 1) {
      const pos = 20 + next(bytes.length - 20);  // past the file header
      damaged[pos] ^= 1 + next(255);
      touched.add(records.findIndex((r) => pos >= r.offset && pos < r.end));
    }
    writeFileSync(file, damaged);
    const { system, got } = await restored(dir, 'flips');
    const expected = records.map((_, i) => `m${i}`).filter((_, i) => !touched.has(i));
    if (JSON.stringify(got) !== JSON.stringify(expected)) lostUntouched += 1;
    system.actorSelection('/user/nobody').tell('after');  // repairs, then appends
    await idle(system);
    await system.terminate();
    assert.equal(frames(readFileSync(file)).damaged, false, `trial ${trial}: not clean after the next append`);
  }
  assert.equal(lostUntouched, 0);
  t.diagnostic(`node flips: ${trials} trials of 1-4 flips, untouched letters lost: 0`);
});

test('garbage appended to a Node journal is cut by the next append and loses no letter', async (t) => {
  const dir = tempDir(t);
  const { bytes } = await written(dir, 'garbage', 8);
  const file = journalFile(dir, 'garbage');
  const next = random(7);
  for (const length of [1, 15, 16, 17, 100, 4096]) {
    const garbage = Buffer.from(Array.from({ length }, () => next(256)));
    writeFileSync(file, Buffer.concat([bytes, garbage]));
    const { system, got } = await restored(dir, 'garbage');
    assert.deepEqual(got, Array.from({ length: 8 }, (_, i) => `m${i}`), `${length} bytes of garbage`);
    system.actorSelection('/user/nobody').tell('after');
    await idle(system);
    await system.terminate();
    const after = frames(readFileSync(file));
    assert.equal(after.damaged, false);
    assert.equal(after.records.length, 9);
    // The new letter's number lies above any the garbage could have held.
    assert.ok(after.records.at(-1).sequence >= 8 + Math.ceil(length / 16) + 1, `${length} bytes of garbage`);
  }
});
