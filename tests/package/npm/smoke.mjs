// Runs inside a fresh project where only the packed tarball is installed
// (scripts/test.d/85-npm-package.sh): the package's own entry points, no
// source tree. Spawns an actor, makes a dead letter, replays it, and loads
// mailroom/devtools as plain JS.
import assert from 'node:assert/strict';
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { mountDevtools, parseFilter } from 'mailroom/devtools';

const received = [];
class Orders extends Actor {
  onReceive(message) {
    received.push(message);
  }
}

const system = ActorSystem.create(
  'shop',
  ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')),
);
system.actorSelection('/user/orders').tell({ order: 1 }); // nobody there yet: a dead letter
await new Promise((resolve) => setTimeout(resolve, 20));

const letters = await system.deadLetterQueue.list({ recipient: '/user/orders' });
assert.equal(letters.length, 1, 'one dead letter for /user/orders');
assert.deepEqual(letters[0].payload, { kind: 'captured', message: { order: 1 } });

system.spawn(Orders, 'orders');
const result = await system.deadLetterQueue.replay(letters[0].id);
assert.equal(result.kind, 'replayed');
await new Promise((resolve) => setTimeout(resolve, 20));
assert.deepEqual(received, [{ order: 1 }], 'the replayed letter reached the new actor');
assert.equal((await system.deadLetterQueue.list()).length, 0);
await system.terminate();

assert.equal(typeof mountDevtools, 'function');
assert.equal(parseFilter('dropped>0').errors?.length ?? 0, 0);
console.log('npm smoke: dead letter captured, replayed and delivered; mailroom/devtools loads');
