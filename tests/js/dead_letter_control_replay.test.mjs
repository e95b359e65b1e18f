// A stop()/kill() that reaches an actor after it stopped is captured like any
// tell to a stopped actor (seed 002), but replaying it never stops or fails the
// actor living at that path now: the outcome is 'control-message' and the entry
// stays (the core's rule: tests/native/dead_letter_control_replay_test.cpp).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, ReplayOutcome,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

for (const late of ['stop', 'kill']) {
  test(`replaying a captured late ${late}() answers control-message and the revived actor keeps running`, async () => {
    const system = ActorSystem.create(uniqueName('control'), ActorSystemOptions.create()
      .withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')));
    const got = [];
    class Worker extends Actor {
      onReceive(message) {
        got.push(message);
      }
    }
    const first = system.spawn(Worker, 'worker');
    await idle(system);
    first.stop();
    await idle(system);
    first[late]();
    await idle(system);
    const entries = await system.deadLetterQueue.list();
    assert.equal(entries.length, 1, 'the late stop/kill is a dead letter');

    const revived = system.spawn(Worker, 'worker');
    await idle(system);
    const result = await system.deadLetterQueue.replay(entries[0].id);
    assert.equal(result.kind, 'control-message');
    assert.equal(result.kind, ReplayOutcome.ControlMessage);
    await idle(system);
    revived.tell('still here');
    await idle(system);
    assert.deepEqual(got, ['still here']);
    assert.equal((await system.deadLetterQueue.list()).length, 1, 'the entry stays');
    await system.terminate();
  });
}
