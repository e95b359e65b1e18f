// No leaks: after 100,000 messages and terminate(), live embind handles and the
// wasm heap are back near where they started; after 1,000,000 messages (plain,
// throwing and async receives) the JS value slab and the handles are too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorOptions, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, Directive,
  OneForOneStrategy, wasmModule,
} from 'mailroom';
import { liveSlots } from '../../wasm/js/value_slab.js';
import { idle, uniqueName, until } from './helpers.mjs';

async function run(messages) {
  const system = ActorSystem.create(uniqueName('leak'), ActorSystemOptions.create()
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('memory').withMaxEntries(10)));
  let count = 0;
  class Counter extends Actor {
    onReceive() {
      count += 1;
    }
  }
  const ref = system.spawn(Counter, 'counter');
  const sender = system.spawn(Counter, 'sender');
  for (let i = 0; i < messages; i += 1) ref.tell({ i }, sender);
  await idle(system);
  ref.stop();
  await idle(system);
  for (let i = 0; i < 100; i += 1) ref.tell({ late: i });  // dead letters, partly evicted
  await idle(system);
  await system.terminate();
  return count;
}

test('100,000 messages and terminate leave no embind handles and no heap growth behind', async () => {
  // Warm up once (first-use allocations), then measure a second full run.
  await run(1000);
  const handles = wasmModule.count_emval_handles();
  const heap = wasmModule.HEAP8.length;
  assert.equal(await run(100_000), 100_000);
  assert.equal(wasmModule.count_emval_handles(), handles);
  // The heap may have grown to hold the queue; a second run must not grow it again.
  const grown = wasmModule.HEAP8.length;
  assert.equal(await run(100_000), 100_000);
  assert.equal(wasmModule.count_emval_handles(), handles);
  assert.equal(wasmModule.HEAP8.length, grown);
  assert.ok(grown <= heap * 8, `heap grew from ${heap} to ${grown}`);
});

// The hot path keeps JS messages in a slab, not in embind handles: every slot
// is freed when the core lets go of its message (delivered, failed, awaited,
// dead-lettered and evicted, or released at terminate).
async function runHotPath(messages, kind) {
  const system = ActorSystem.create(uniqueName(`slab-${kind}`), ActorSystemOptions.create()
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('memory').withMaxEntries(10)));
  let count = 0;
  class Receiver extends Actor {
    onReceive(message) {
      count += 1;
      // Every tenth fails: 100,000 failures per million, each through supervision.
      if (kind === 'throwing' && message.i % 10 === 0) throw new Error('boom');
      if (kind === 'async') return Promise.resolve();
      return undefined;
    }
  }
  const ref = system.spawn(Receiver, 'receiver', kind === 'throwing'
    ? ActorOptions.create().withSupervisorStrategy(new OneForOneStrategy(() => Directive.Resume))
    : undefined);
  const sender = system.spawn(Receiver, 'sender');
  const batch = 10_000;
  for (let sent = 0; sent < messages; sent += batch) {
    for (let i = 0; i < batch; i += 1) ref.tell({ i }, sender);
    // Async receives take one message per settled promise: let them drain.
    await (kind === 'async' ? until(() => count >= sent + batch) : idle(system));
  }
  await idle(system);
  ref.stop();
  await idle(system);
  for (let i = 0; i < 100; i += 1) ref.tell({ late: i });  // dead letters, partly evicted
  for (let i = 0; i < 100; i += 1) system.actorSelection('/user/nobody').tell({ late: i });
  const queued = system.spawn(Receiver, 'queued');
  for (let i = 0; i < 1000; i += 1) queued.tell({ i });  // still queued at terminate
  await system.terminate();
  return count;
}

// A million of each (about 0.3 s, 6 s and 5 s of CPU time: a failure is a
// supervision decision and a log line, an async receive a promise settled).
for (const [kind, messages] of [['plain', 1_000_000], ['throwing', 1_000_000], ['async', 1_000_000]]) {
  test(`${messages.toLocaleString('en')} ${kind} receives leave the value slab and embind handles where they started`, async () => {
    const quiet = console.error;
    if (kind === 'throwing') console.error = () => {};  // one log line per failure
    try {
      await runHotPath(1000, kind);  // warm-up: first-use allocations
      const slots = liveSlots();
      const handles = wasmModule.count_emval_handles();
      const received = await runHotPath(messages, kind);
      assert.ok(received >= messages, `received ${received} of ${messages}`);
      assert.equal(liveSlots(), slots);
      assert.equal(wasmModule.count_emval_handles(), handles);
    } finally {
      console.error = quiet;
    }
  });
}
