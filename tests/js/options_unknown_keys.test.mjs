// A misspelled option key is refused, never ignored: the core's OptionsError
// names the key and the nearest known one, for plain objects, builders' plain
// forms and the HOCON dead-letters block alike (the parity table pins the
// field; here the message). Native: tests/native/option_schema_test.cpp.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, BoundedMailbox, OptionsError, PriorityMailbox } from 'mailroom';
import { uniqueName } from './helpers.mjs';

function assertMisspelled(call, family, field, nearest) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof OptionsError, String(error));
    assert.equal(error.family, family);
    assert.equal(error.field, field);
    assert.match(error.message, new RegExp(`did you mean ${nearest}\\?`));
    return true;
  });
}

test('misspelled keys name the nearest known key', async () => {
  class Idle extends Actor {
    onReceive() {}
  }
  const system = ActorSystem.create(uniqueName('keys'));
  assertMisspelled(() => system.spawn(Idle, 'a', { mailboxCapactiy: 3 }), 'ActorOptions',
    'mailboxCapactiy', 'mailboxCapacity');
  assert.equal(system.inspect().some((row) => row.path === '/user/a'), false, 'nothing spawned');
  assertMisspelled(() => new BoundedMailbox({ capacity: 3, overflw: 'drop-new' }), 'BoundedMailbox',
    'overflw', 'overflow');
  assertMisspelled(() => new PriorityMailbox({ priorityfor: () => 1 }), 'PriorityMailbox',
    'priorityfor', 'priorityFor');
  assertMisspelled(() => ActorSystem.create(uniqueName('keys'), { deadLetters: { stor: 'memory' } }),
    'DeadLetterQueueOptions', 'stor', 'store');
  assertMisspelled(() => ActorSystem.create(uniqueName('keys'), { metric: false }),
    'ActorSystemOptions', 'metric', 'metrics');
  await system.terminate();
});

test('a misspelled key in the HOCON dead-letters block is refused with its nearest key', () => {
  assertMisspelled(() => ActorSystem.create(uniqueName('keys'), { config: 'mailroom.dead-letters { stor = "memory" }' }),
    'DeadLetterQueueOptions', 'mailroom.dead-letters.stor', 'store');
  assertMisspelled(() => ActorSystem.create(uniqueName('keys'), { config: { 'actor-ts': { 'dead-letters': { 'max-replay': 2 } } } }),
    'DeadLetterQueueOptions', 'actor-ts.dead-letters.max-replay', 'max-replays');
});

test('a key nothing resembles lists the known keys instead of guessing', () => {
  assert.throws(() => ActorSystem.create(uniqueName('keys'), { deadLetters: { colour: 'red' } }), (error) => {
    assert.ok(error instanceof OptionsError);
    assert.equal(error.field, 'colour');
    assert.doesNotMatch(error.message, /did you mean/);
    assert.match(error.message, /known: store, maxEntries/);
    return true;
  });
});
