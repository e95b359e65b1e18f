// No leaks: after 100,000 messages and terminate(), live embind handles and the
// wasm heap are back near where they started.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, wasmModule } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

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
