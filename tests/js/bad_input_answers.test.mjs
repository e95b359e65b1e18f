// Bad input gets a named answer, never a silent guess (issue 27), with the
// same error as the C++ API where both have it (tests/native/bad_input_answers_test.cpp).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorSystem, ActorSystemOptions, ConfigError, DeadLetterQueueOptions, InvalidActorNameError, OptionsError,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

class Quiet extends Actor {
  receive() {}
}

test('withJournalDir(\'\') is an OptionsError naming journalDir, as with_journal_dir("")', () => {
  for (const options of [ActorSystemOptions.create().withJournalDir(''), { journalDir: '' }]) {
    assert.throws(() => ActorSystem.create(uniqueName('dir'), options),
      (e) => e instanceof OptionsError && e.family === 'ActorSystemOptions' && e.field === 'journalDir');
  }
});

test('HOCON blocks written as values are a ConfigError naming the key', () => {
  const cases = [
    ['mailroom.dead-letters = 5', /mailroom\.dead-letters: expected an object/],
    ['mailroom = 5', /mailroom: expected an object/],
    ['mailroom.dead-letters.persistence-id = ""', /mailroom\.dead-letters\.persistence-id: must not be empty/],
  ];
  for (const [hocon, message] of cases) {
    assert.throws(() => ActorSystem.create(uniqueName('hocon'), ActorSystemOptions.create().withConfig(hocon)),
      (e) => e instanceof ConfigError && message.test(e.message), hocon);
  }
});

test('a HOCON document starting with a byte-order mark is read as the same text without it', async () => {
  const system = ActorSystem.create(uniqueName('bom'),
    ActorSystemOptions.create().withConfig('\uFEFFmailroom.dead-letters.max-entries = 7'));
  assert.equal(system.deadLetterQueue.settings.maxEntries, 7);
  await system.terminate();
});

test('a name or path with a lone surrogate is refused, not changed into another one', async () => {
  const system = ActorSystem.create(uniqueName('surrogate'));
  const lone = 'x\ud800abc';
  assert.throws(() => system.spawn(Quiet, lone),
    (e) => e instanceof InvalidActorNameError && /lone UTF-16 surrogate/.test(e.message));
  assert.throws(() => system.actorSelection(`/user/${lone}`), InvalidActorNameError);
  assert.throws(() => system.resolve(`/user/${lone}`), InvalidActorNameError);
  assert.equal(system.resolve('/user/x\u{10061}bc'), null);  // nothing was created under another name
  // Paired surrogates are ordinary characters and kept exactly.
  assert.equal(system.spawn(Quiet, 'mail-\u{1F4EC}').path.endsWith('/user/mail-\u{1F4EC}'), true);
  await assert.rejects(system.deadLetterQueue.replay('1', `/user/${lone}`), InvalidActorNameError);
  await assert.rejects(system.deadLetterQueue.list({ recipient: `/user/${lone}` }), InvalidActorNameError);
  assert.throws(() => DeadLetterQueueOptions.create().withPersistenceId('p\udc00'),
    (e) => e instanceof OptionsError && e.field === 'persistenceId');
  await system.terminate();
});

test('dead-letter entry ids match exactly: "01", "1.0", " 1", "+1" are not entry 1', async () => {
  const system = ActorSystem.create(uniqueName('ids'),
    ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')));
  system.actorSelection('/user/gone').tell('lost');
  await idle(system);
  const [entry] = await system.deadLetterQueue.list();
  assert.equal(entry.id, '1');
  const queue = system.deadLetterQueue;
  for (const id of ['01', '1.0', ' 1', '+1', '1 ']) {
    assert.equal(await queue.get(id), undefined, id);
    assert.equal((await queue.release(id)).kind, 'unknown-entry', id);
    assert.equal((await queue.replay(id)).kind, 'unknown-entry', id);
    assert.deepEqual((await queue.remove([id])).results, [{ id, outcome: 'unknown-entry' }], id);
  }
  assert.equal((await queue.get('1')).id, '1');
  await system.terminate();
});

test('resolve(path) after terminate() answers null, as typed (ActorRef | null)', async () => {
  const system = ActorSystem.create(uniqueName('after'));
  system.spawn(Quiet, 'a');
  assert.ok(system.resolve('/user/a'));
  await system.terminate();
  assert.equal(system.resolve('/user/a'), null);
});
