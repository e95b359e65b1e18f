// list() filters from JS read as a user reads them; the core decides
// (DeadLetterFilter::from_numbers), the same natively and here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, OptionsError } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

async function withLetters(n) {
  const name = uniqueName('filters');
  const system = ActorSystem.create(name, ActorSystemOptions.create()
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')));
  for (let i = 0; i < n; i += 1) system.actorSelection('/user/nobody').tell(i);
  await idle(system);
  return { system, name };
}

test('limit Infinity lists everything, sinceMs Infinity nothing, untilMs -Infinity nothing', async () => {
  const { system } = await withLetters(3);
  const q = system.deadLetterQueue;
  assert.equal((await q.list({ limit: Infinity })).length, 3);
  assert.equal((await q.list({ limit: 1e300 })).length, 3);
  assert.equal((await q.list({ limit: 2 })).length, 2);
  assert.equal((await q.list({ sinceMs: Infinity })).length, 0);
  assert.equal((await q.list({ sinceMs: -Infinity })).length, 3);
  assert.equal((await q.list({ untilMs: -Infinity })).length, 0);
  assert.equal((await q.list({ untilMs: Infinity })).length, 3);
  await system.terminate();
});

test('NaN, a negative or a fractional limit are an OptionsError naming the field', async () => {
  const { system } = await withLetters(1);
  const q = system.deadLetterQueue;
  for (const [filter, field] of [[{ limit: NaN }, 'limit'], [{ limit: -1 }, 'limit'], [{ limit: 1.5 }, 'limit'],
    [{ sinceMs: NaN }, 'sinceMs'], [{ untilMs: NaN }, 'untilMs']]) {
    await assert.rejects(q.list(filter), (e) => e instanceof OptionsError && e.field === field, JSON.stringify(filter));
  }
  await system.terminate();
});

test('a recipient path of another system matches nothing', async () => {
  const { system, name } = await withLetters(2);
  const q = system.deadLetterQueue;
  assert.equal((await q.list({ recipient: `mailroom://${name}/user/nobody` })).length, 2);
  assert.equal((await q.list({ recipient: 'mailroom://another-system/user/nobody' })).length, 0);
  await system.terminate();
});
