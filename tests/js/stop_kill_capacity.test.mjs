// stop() and kill() under a capacity (issue 13): never shed, never a
// MailboxFullError, still behind what was sent before them — the JS side goes
// through the same core as the native tests in stop_kill_capacity_test.cpp.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorOptions, ActorSystem, PriorityMailbox } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

function loggingActor(log) {
  return class Logged extends Actor {
    onReceive(m) {
      log.push(m);
    }
    postStop() {
      log.push('stopped');
    }
  };
}

for (const overflow of ['drop-head', 'drop-new', 'reject']) {
  test(`a full ${overflow} mailbox takes stop() and drains first`, async () => {
    const system = ActorSystem.create(uniqueName());
    const log = [];
    const options = ActorOptions.create().withMailboxCapacity(2).withMailboxOverflow(overflow);
    const ref = system.spawn(loggingActor(log), 'a', options);
    ref.tell(1);
    ref.tell(2);
    assert.doesNotThrow(() => ref.stop());
    await idle(system);
    assert.deepEqual(log, [1, 2, 'stopped']);
    await system.terminate();
  });

  test(`a full ${overflow} mailbox takes kill() and drains first`, async () => {
    const system = ActorSystem.create(uniqueName());
    const log = [];
    const options = ActorOptions.create().withMailboxCapacity(2).withMailboxOverflow(overflow);
    const ref = system.spawn(loggingActor(log), 'a', options);
    ref.tell(1);
    ref.tell(2);
    assert.doesNotThrow(() => ref.kill());
    await idle(system);
    assert.deepEqual(log, [1, 2, 'stopped']);
    await system.terminate();
  });
}

test('a priority mailbox delivers everything queued before stop(), whatever its rank', async () => {
  const system = ActorSystem.create(uniqueName());
  const log = [];
  const options = ActorOptions.create().withMailbox(() => new PriorityMailbox({
    priorityFor: (m) => m,
    capacity: 5,
    overflow: 'reject',
  }));
  const ref = system.spawn(loggingActor(log), 'a', options);
  for (const m of [Infinity, 1e300, 0, -Infinity, 7]) ref.tell(m);
  assert.doesNotThrow(() => ref.stop()); // full, and reject: still queued
  await idle(system);
  assert.deepEqual(log, [-Infinity, 0, 7, 1e300, Infinity, 'stopped']);
  await system.terminate();
});
