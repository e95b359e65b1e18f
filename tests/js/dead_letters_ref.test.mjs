// system.deadLetters, the dead-letter office as a ref (the seed framework's
// DeadLetterRef): what it is told becomes a DeadLetter, captured by the queue
// and published on the event stream.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorRef, ActorSystem, ActorSystemOptions, DeadLetter, DeadLetterQueueOptions, DeadLetterRef,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

const memory = () => ActorSystemOptions.create()
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('memory'));

test('system.deadLetters is a ref named <system>/deadLetters, the same object every time', async () => {
  const name = uniqueName();
  const system = ActorSystem.create(name);
  assert.ok(system.deadLetters instanceof ActorRef);
  assert.ok(system.deadLetters instanceof DeadLetterRef);
  assert.equal(system.deadLetters.path, `mailroom://${name}/deadLetters`);
  assert.equal(system.deadLetters, system.deadLetters);
  await system.terminate();
});

test('a plain message told to deadLetters is published as DeadLetter(message, sender, deadLetters)', async () => {
  // The very object sent; the recipient is the office itself; the sender as given.
  const system = ActorSystem.create(uniqueName());
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l), DeadLetter);
  class Sender extends Actor {
    onReceive(m) {
      this.system.deadLetters.tell(m, this.self);
    }
  }
  const sender = system.spawn(Sender, 'sender');
  const payload = { order: 7 };
  sender.tell(payload);
  system.deadLetters.tell('no sender');
  await idle(system);
  assert.equal(letters.length, 2);
  const fromActor = letters.find((l) => l.message === payload);
  const plain = letters.find((l) => l.message === 'no sender');
  assert.ok(fromActor instanceof DeadLetter);
  assert.equal(fromActor.message, payload);
  assert.equal(fromActor.sender, sender);
  assert.equal(fromActor.recipient, system.deadLetters);
  assert.equal(plain.message, 'no sender');
  assert.equal(plain.sender, null);
  assert.equal(plain.recipient, system.deadLetters);
  await system.terminate();
});

test('a DeadLetter told to deadLetters is recorded as it is: its own recipient and sender', async () => {
  // What an actor forwarding a letter it could not handle does in the seed framework.
  const system = ActorSystem.create(uniqueName());
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l), DeadLetter);
  class Target extends Actor {}
  const target = system.spawn(Target, 'target');
  const from = system.spawn(Target, 'from');
  const message = { lost: true };
  system.deadLetters.tell(new DeadLetter(message, from, target));
  await idle(system);
  assert.equal(letters.length, 1);
  assert.equal(letters[0].message, message);
  assert.equal(letters[0].sender, from);
  assert.equal(letters[0].recipient, target);
  await system.terminate();
});

test('a DeadLetter about a DeadLetter is dropped: a delivery loop has nowhere further to go', async () => {
  const system = ActorSystem.create(uniqueName());
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l), DeadLetter);
  const inner = new DeadLetter('x', null, system.deadLetters);
  system.deadLetters.tell(new DeadLetter(inner, null, system.deadLetters));
  await idle(system);
  assert.deepEqual(letters, []);
  await system.terminate();
});

test('the dead-letter queue captures what deadLetters is told; it cannot be replayed into the office', async () => {
  // Captured before subscribers see it; the recipient path is the office's.
  const system = ActorSystem.create(uniqueName(), memory());
  const payload = { id: 1 };
  system.deadLetters.tell(payload);
  await idle(system);
  const [entry] = await system.deadLetterQueue.list();
  assert.equal(entry.recipientPath, system.deadLetters.path);
  assert.equal(entry.senderPath, null);
  assert.deepEqual(entry.payload, { kind: 'captured', message: payload });
  assert.equal(entry.payload.message, payload);
  const result = await system.deadLetterQueue.replay(entry.id);
  assert.equal(result.kind, 'unresolved-recipient');
  assert.equal((await system.deadLetterQueue.list()).length, 1);  // the entry stays
  await system.terminate();
});
