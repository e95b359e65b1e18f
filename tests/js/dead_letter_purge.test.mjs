// queue.remove(ids) (purge) and queue.release(id) from JS: one named outcome
// per id, journaled so a restarted system agrees (SPEC §4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueue, DeadLetterQueueOptions } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

class Refuser extends Actor {
  onReceive(m) {
    this.unhandled(m);
  }
}

test('remove(ids) answers each id by name and takes only those entries', async () => {
  const system = ActorSystem.create(uniqueName(), ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')));
  for (const m of ['a', 'b', 'c']) system.actorSelection('/user/nobody').tell(m);
  await idle(system);
  const [c, , a] = await system.deadLetterQueue.list();
  const { results } = await system.deadLetterQueue.remove([c.id, '999', a.id, 'junk', c.id]);
  assert.deepEqual(results, [
    { id: c.id, outcome: 'removed' },
    { id: '999', outcome: 'unknown-entry' },
    { id: a.id, outcome: 'removed' },
    { id: 'junk', outcome: 'unknown-entry' },
    { id: c.id, outcome: 'unknown-entry' },
  ]);
  assert.deepEqual((await system.deadLetterQueue.list()).map((e) => e.payload.message), ['b']);
  await assert.rejects(system.deadLetterQueue.remove('1'), TypeError);
  await assert.rejects(system.deadLetterQueue.remove([{}]), TypeError);
  await system.terminate();
});

test('a hand-built queue removes nothing', async () => {
  const system = ActorSystem.create(uniqueName());
  const queue = new DeadLetterQueue(system, DeadLetterQueueOptions.create().withStore('memory'));
  assert.deepEqual(await queue.remove(['1']), { results: [{ id: '1', outcome: 'unknown-entry' }] });
  assert.deepEqual(await queue.release('1'), { kind: 'unknown-entry' });
  await system.terminate();
});

test('purge and release are journaled: a restarted system agrees', async () => {
  const name = uniqueName('purge');
  const options = () =>
    ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxReplays(1));
  const first = ActorSystem.create(name, options());
  const refuser = first.spawn(Refuser, 'refuser');
  refuser.tell('poison');
  first.actorSelection('/user/nobody').tell('gone');
  await idle(first);
  const listed = await first.deadLetterQueue.list();
  const gone = listed.find((e) => e.payload.message === 'gone');
  const poison = listed.find((e) => e.payload.message === 'poison');
  assert.equal((await first.deadLetterQueue.replay(poison.id)).kind, 'replayed');
  await idle(first);
  assert.equal((await first.deadLetterQueue.get(poison.id)).quarantined, true);
  assert.deepEqual(await first.deadLetterQueue.release(gone.id), { kind: 'not-quarantined' });
  assert.deepEqual(await first.deadLetterQueue.release(poison.id), { kind: 'released' });
  assert.equal((await first.deadLetterQueue.get(poison.id)).replayCount, 0);
  assert.deepEqual((await first.deadLetterQueue.remove([gone.id])).results, [{ id: gone.id, outcome: 'removed' }]);
  await first.terminate();

  const second = ActorSystem.create(name, options());
  const entries = await second.deadLetterQueue.list();
  assert.deepEqual(entries.map((e) => [e.payload.message, e.replayCount, e.quarantined]), [['poison', 0, false]]);
  await second.terminate();
});
