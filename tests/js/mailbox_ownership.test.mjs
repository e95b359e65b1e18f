// A mailbox an actor owns cannot be changed from outside (SPEC §3 promises the
// mailbox API on a mailbox no actor owns; the rule is the core's, see
// tests/native/mailbox_ownership_test.cpp). Keeping the instance a withMailbox
// factory returned must not let a caller slip a message past the scheduler,
// steal one, or suspend a mailbox the actor does not read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorOptions, ActorSystem, BoundedMailbox, IllegalStateError, Mailbox, PriorityMailbox,
} from 'mailroom';
import { idle, until, uniqueName } from './helpers.mjs';

const env = (message) => ({ message, sender: null });

// `call` throws IllegalStateError naming the JS member and the owner's path.
function assertRefused(call, member, path) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof IllegalStateError, `${member}: ${error}`);
    assert.ok(error.message.startsWith(`${member} refused`), error.message);
    assert.ok(error.message.includes(path), error.message);
    return true;
  });
}

class Recorder extends Actor {
  onReceive(message) {
    this.constructor.got.push(message);
  }
}

for (const [kind, make] of [
  ['Mailbox', () => new Mailbox()],
  ['BoundedMailbox', () => new BoundedMailbox({ capacity: 8, overflow: 'drop-new' })],
  ['PriorityMailbox', () => new PriorityMailbox({ priorityFor: () => 1 })],
]) {
  test(`a ${kind} kept after withMailbox refuses every mutator while reads keep working`, async () => {
    const system = ActorSystem.create(uniqueName('owned'));
    class Sink extends Recorder {
      static got = [];
    }
    let kept;
    const ref = system.spawn(Sink, 'sink', ActorOptions.create().withMailbox(() => (kept = make())));
    await idle(system);
    const path = ref.path;
    assertRefused(() => kept.enqueue(env('slipped')), 'enqueue', path);
    assertRefused(() => kept.enqueueSignal(env('signal')), 'enqueueSignal', path);
    assertRefused(() => kept.enqueueSystem(env('system')), 'enqueueSystem', path);
    assertRefused(() => kept.prependUser([env('front')]), 'prependUser', path);
    assertRefused(() => kept.suspend(), 'suspend', path);
    assertRefused(() => kept.resume(), 'resume', path);
    assert.equal(kept.size, 0, 'a refused call queued nothing');

    ref.tell('kept for the actor');
    assert.equal(kept.size, 1); // reads keep working
    assert.equal(kept.droppedCount, 0);
    assert.equal(kept.hasUserMessages(), true);
    assertRefused(() => kept.dequeueUser(), 'dequeueUser', path);
    assertRefused(() => kept.dequeueSystem(), 'dequeueSystem', path);
    assertRefused(() => kept.drainUser(), 'drainUser', path);
    assertRefused(() => kept.drainSystem(), 'drainSystem', path);
    kept.observeDrops(() => {}); // additive registration stays allowed
    await idle(system);
    assert.deepEqual(Sink.got, ['kept for the actor']);
    await system.terminate();
  });
}

test('the seed SheddingMailbox still works through the framework, and refuses outside calls', async () => {
  // The seed's custom mailbox, unchanged: its enqueue override calls
  // super.enqueue(...) when the framework delivers — that call is the
  // framework's and goes through; the same instance used from outside is refused.
  const system = ActorSystem.create(uniqueName('owned'));
  class SheddingMailbox extends Mailbox {
    constructor() {
      super();
      this.observers = [];
      this.seen = 0;
    }
    observeDrops(observer) {
      this.observers.push(observer);
    }
    shouldShed() {
      this.seen += 1;
      return this.seen % 2 === 0;
    }
    enqueue(envelope) {
      if (this.shouldShed()) {
        for (const observer of this.observers) observer('drop-new');
        return;
      }
      super.enqueue(envelope);
    }
  }
  class Sink extends Recorder {
    static got = [];
  }
  let kept;
  const ref = system.spawn(Sink, 'shed', ActorOptions.create().withMailbox(() => (kept = new SheddingMailbox())));
  for (let i = 1; i <= 6; i += 1) ref.tell(i);
  await until(() => Sink.got.length === 3);
  await idle(system);
  assert.deepEqual(Sink.got, [1, 3, 5]);

  kept.seen = 0; // the next arrival is not shed, so it reaches super.enqueue
  assertRefused(() => kept.enqueue(env('slipped')), 'enqueue', ref.path);
  assertRefused(() => kept.dequeueUser(), 'dequeueUser', ref.path);
  assertRefused(() => kept.suspend(), 'suspend', ref.path);
  ref.tell(7); // seen 2: shed
  ref.tell(9); // seen 3: delivered — the framework path was not broken by the refusals
  await idle(system);
  assert.deepEqual(Sink.got, [1, 3, 5, 9]);
  await system.terminate();
});

test('a mailbox no actor owns keeps the whole member list', () => {
  // The refusal is about ownership, not about the methods: unowned, they all work.
  const box = new BoundedMailbox({ capacity: 4 });
  box.enqueue(env('a'));
  box.enqueueSignal(env('b'));
  box.enqueueSystem(env('sys'));
  box.prependUser([env('front')]);
  box.suspend();
  assert.equal(box.dequeueUser(), undefined);
  box.resume();
  assert.equal(box.dequeueSystem().message, 'sys');
  assert.deepEqual(box.drainUser().map((e) => e.message), ['front', 'a', 'b']);
  assert.deepEqual(box.drainSystem(), []);
});
