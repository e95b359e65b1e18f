// A persistent capture in JS keeps its entry at tell (the very object, listed at
// once) and queues its journal record; the driver's slices encode queued
// records in capture order, and every journal operation drains them first
// (docs/dead-letters.md, "Encoding a JS payload off the tell path").
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { core } from '../../wasm/js/core_loader.js';
import { decodePayload } from '../../wasm/js/payload_codec.js';
import { idle, uniqueName } from './helpers.mjs';
import { frames, journalFile } from './journal_frames.mjs';

const persistentIn = (dir, { maxEntries = 100_000, maxReplays = 3 } = {}) => ActorSystemOptions.create()
  .withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(maxEntries)
    .withMaxReplays(maxReplays));

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-deferred-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const pending = (system) => core._mr_dlq_pending(system._id);

// One synchronous loop of tells to nothing: { order: i } for i in [from, from + n).
function burst(system, n, from = 0) {
  for (let i = from; i < from + n; i += 1) system.actorSelection('/user/nobody').tell({ order: i });
}

// The journal file as "<kind> <id> <order>" lines, oldest first.
function journal(dir, name) {
  return frames(readFileSync(journalFile(dir, name))).records.map((r) => {
    const j = JSON.parse(r.payload);
    let line = j.k;
    if (j.id !== undefined) line += ` ${j.id}`;
    if (j.k === 'captured') line += j.p.d ? ' degraded' : ` ${decodePayload(JSON.stringify(j.p.v)).order}`;
    return line;
  });
}

const capturedLines = (n, firstId = 1) => Array.from({ length: n }, (_, i) => `captured ${firstId + i} ${i}`);

async function restartedOrders(dir, name, options) {
  const again = ActorSystem.create(name, persistentIn(dir, options));
  const entries = (await again.deadLetterQueue.list()).reverse();
  await again.terminate();
  return entries.map((e) => (e.payload.kind === 'captured' ? e.payload.message.order : e.payload.kind));
}

test('a burst is listed at once, its records wait for the slices, and the slices write them all in order', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('deferred-burst');
  const system = ActorSystem.create(name, persistentIn(dir));
  burst(system, 3000);
  assert.equal(pending(system), 3000, 'nothing was encoded inside tell');
  assert.equal((await system.deadLetterQueue.list({ limit: Infinity })).length, 3000);
  await idle(system);  // the driver's slices pump until nothing is queued
  assert.equal(pending(system), 0);
  core.dlqFlush(system._id);
  assert.deepEqual(journal(dir, name), capturedLines(3000));
  await system.terminate();
  assert.deepEqual(await restartedOrders(dir, name), Array.from({ length: 3000 }, (_, i) => i));
});

test('a slice encodes a bounded share: one slice after a large burst leaves records queued', async (t) => {
  const dir = tempDir(t);
  const system = ActorSystem.create(uniqueName('deferred-slice'), persistentIn(dir));
  burst(system, 20_000);
  system._driver._slice();  // one slice, as the event loop would run it
  const left = pending(system);
  assert.ok(left > 0 && left < 20_000, `one slice left ${left} of 20000 queued`);
  await system.terminate();
});

// Each operation that writes the journal drains the queue first: the records
// it writes follow every capture before it, and a restart agrees.
for (const [op, run, expectAfter, restarted] of [
  ['flush', (s) => core.dlqFlush(s._id), [], [0, 1, 2, 3, 4]],
  ['remove', (s) => s.deadLetterQueue.remove(['3']), ['removed 3'], [0, 1, 3, 4]],
  ['clear', (s) => s.deadLetterQueue.clear(), ['cleared'], []],
  ['release', (s) => s.deadLetterQueue.release('2'), ['released 2'], [0, 1, 2, 3, 4]],
  ['replay', (s) => s.deadLetterQueue.replay('4', '/user/sink'), ['removed 4'], [0, 1, 2, 4]],
]) {
  test(`${op} drains the queued records before writing its own`, async (t) => {
    const dir = tempDir(t);
    const name = uniqueName(`deferred-${op}`);
    const system = ActorSystem.create(name, persistentIn(dir, { maxReplays: op === 'release' ? 0 : 3 }));
    class Sink extends Actor {
      onReceive() {}
    }
    system.spawn(Sink, 'sink');
    await idle(system);
    burst(system, 5);
    assert.equal(pending(system), 5);
    await run(system);
    assert.equal(pending(system), 0, `${op} left records queued`);
    core.dlqFlush(system._id);
    assert.deepEqual(journal(dir, name), [...capturedLines(5), ...expectAfter]);
    await system.terminate();
    assert.deepEqual(await restartedOrders(dir, name), restarted);
  });
}

test('terminate drains the queued records: a restart sees every letter', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('deferred-terminate');
  const system = ActorSystem.create(name, persistentIn(dir));
  burst(system, 2000);
  assert.equal(pending(system), 2000);
  await system.terminate();
  assert.deepEqual(await restartedOrders(dir, name), Array.from({ length: 2000 }, (_, i) => i));
});

test('a payload that cannot be encoded, in the middle of a burst, is degraded in its place when its slice runs', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('deferred-degraded');
  const system = ActorSystem.create(name, persistentIn(dir));
  burst(system, 3);
  const refused = { order: 3, callback: () => 1 };
  system.actorSelection('/user/nobody').tell(refused);
  burst(system, 3, 4);
  const middle = await system.deadLetterQueue.get('4');
  assert.equal(middle.payload.kind, 'captured', 'in memory the live value stays');
  assert.equal(middle.payload.message, refused);
  await idle(system);
  core.dlqFlush(system._id);
  assert.deepEqual(journal(dir, name), ['captured 1 0', 'captured 2 1', 'captured 3 2', 'captured 4 degraded',
    'captured 5 4', 'captured 6 5', 'captured 7 6']);
  const record = JSON.parse(frames(readFileSync(journalFile(dir, name))).records[3].payload);
  assert.equal(record.p.d.c, 'Object');
  assert.match(record.p.d.w, /function/);
  assert.match(record.p.d.w, /\$\.callback/);
  await system.terminate();
  const again = ActorSystem.create(name, persistentIn(dir));
  const entry = await again.deadLetterQueue.get('4');
  assert.equal(entry.payload.kind, 'degraded');
  assert.match(entry.payload.reason, /\$\.callback/);
  assert.equal((await again.deadLetterQueue.replay('4', '/user/anyone')).kind, 'degraded-payload');
  await again.terminate();
});

test('the memory entry is the very object sent, and a mutation after send is what the journal records', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('deferred-mutation');
  const system = ActorSystem.create(name, persistentIn(dir));
  const message = { order: 0, status: 'sent' };
  system.actorSelection('/user/nobody').tell(message);
  message.status = 'changed after send';
  const [entry] = await system.deadLetterQueue.list();
  assert.equal(entry.payload.message, message, 'the very object');
  await system.terminate();
  const again = ActorSystem.create(name, persistentIn(dir));
  const [restored] = await again.deadLetterQueue.list();
  assert.deepEqual(restored.payload.message, { order: 0, status: 'changed after send' });
  await again.terminate();
});

test('a Node process that bursts, flushes and exits without terminate: a restart sees every letter', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('deferred-restart');
  const child = spawn(process.execPath, [new URL('./dead_letter_deferred_child.mjs', import.meta.url).pathname, dir, name, '5000'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => { out += chunk; });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  assert.equal(code, 0);
  assert.match(out, /pending before flush 5000/);
  assert.deepEqual(await restartedOrders(dir, name), Array.from({ length: 5000 }, (_, i) => i));
});
