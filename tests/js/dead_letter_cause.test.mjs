// Each dead-letter entry says why it died (SPEC §4): the cause crosses to JS
// as entry.cause, a drop names its policy as entry.dropPolicy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorOptions, ActorSystem, ActorSystemOptions, BoundedMailbox, DeadLetterQueueOptions } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

const memory = () => ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory'));

class Idle extends Actor {
  onReceive() {}
}
class Refuser extends Actor {
  onReceive(m) {
    this.unhandled(m);
  }
}

test('entries name their cause: stopped, no-recipient, unhandled', async () => {
  const system = ActorSystem.create(uniqueName(), memory());
  const gone = system.spawn(Idle, 'gone');
  gone.stop();
  await idle(system);
  gone.tell('late');
  system.actorSelection('/user/nobody').tell('lost');
  system.spawn(Refuser, 'refuser').tell('what');
  await idle(system);
  const entries = await system.deadLetterQueue.list();
  assert.deepEqual(
    entries.map((e) => [e.payload.message, e.cause, e.dropPolicy]).reverse(),
    [
      ['late', 'stopped', undefined],
      ['lost', 'no-recipient', undefined],
      ['what', 'unhandled', undefined],
    ],
  );
  await system.terminate();
});

test('a drop names the mailbox policy that shed the letter', async () => {
  const system = ActorSystem.create(uniqueName(), memory());
  const bounded = system.spawn(
    Idle,
    'bounded',
    ActorOptions.create().withMailbox(() => new BoundedMailbox({ capacity: 1, overflow: 'drop-new', deadLetterDrops: true })),
  );
  bounded.tell('first');
  bounded.tell('second');
  await idle(system);
  const entries = await system.deadLetterQueue.list();
  assert.deepEqual(entries.map((e) => [e.payload.message, e.cause, e.dropPolicy]), [['second', 'dropped', 'drop-new']]);
  await system.terminate();
});
