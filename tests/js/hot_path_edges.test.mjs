// Edges of the JS hot path (issue 11) and of custom JS mailboxes (issues 12, 13):
// what a user sees when a tell races a terminated system, when a user's
// Mailbox subclass throws, and what a stashed death notice looks like when it
// comes back through prependUser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorOptions, ActorSystem, BoundedMailbox, DeadLetter, Mailbox, MailboxFullError, PriorityMailbox,
  Terminated,
} from 'mailroom';
import { liveSlots } from '../../wasm/js/value_slab.js';
import { idle, uniqueName } from './helpers.mjs';

// Quiet console.error (the runtime reports a broken user mailbox there) and
// hand back what was printed.
async function capturingErrors(fn) {
  const printed = [];
  const original = console.error;
  console.error = (...args) => printed.push(args.map(String).join(' '));
  try {
    await fn(printed);
  } finally {
    console.error = original;
  }
  return printed;
}

test('after terminate, a ref tell and a selection tell both return quietly, as a tell to a stopped actor does', async () => {
  // Natively neither throws (both become dead letters); a released JS system has
  // nowhere left to record them, so both are accepted and go nowhere.
  const system = ActorSystem.create(uniqueName());
  class A extends Actor {}
  const ref = system.spawn(A, 'a');
  const selection = system.actorSelection('/user/a');
  selection.tell('before');
  await system.terminate();
  const slots = liveSlots();
  assert.doesNotThrow(() => ref.tell('late'));
  assert.doesNotThrow(() => selection.tell('late'));
  assert.doesNotThrow(() => system.actorSelection('/user/a').tell('late'));
  assert.doesNotThrow(() => ref.stop());
  assert.doesNotThrow(() => ref.kill());
  assert.equal(liveSlots(), slots);  // nothing kept for them
});

test('a selection tell crosses the path once and still resolves it at every tell', async () => {
  // The selection outlives the actor it named: later tells become dead letters,
  // and a new actor at the same path receives what follows.
  const system = ActorSystem.create(uniqueName());
  const got = [];
  class A extends Actor {
    onReceive(m) {
      got.push(m);
    }
  }
  const dead = [];
  system.eventStream.subscribe((d) => dead.push(d.message), DeadLetter);
  const selection = system.actorSelection('/user/a');
  const first = system.spawn(A, 'a');
  selection.tell(1);
  await idle(system);
  first.stop();
  await idle(system);
  selection.tell(2);
  system.spawn(A, 'a');
  selection.tell(3);
  await idle(system);
  assert.deepEqual(got, [1, 3]);
  assert.deepEqual(dead, [2]);
  await system.terminate();
});

test('MailboxFullError still throws at the tell site, and the refused message holds no slot', async () => {
  const system = ActorSystem.create(uniqueName());
  class Slow extends Actor {}
  const ref = system.spawn(Slow, 'slow',
    ActorOptions.create().withMailboxCapacity(2).withMailboxOverflow('reject'));
  ref.tell(1);
  ref.tell(2);
  const slots = liveSlots();
  assert.throws(() => ref.tell(3), (e) => e instanceof MailboxFullError && e.capacity === 2);
  assert.throws(() => system.actorSelection('/user/slow').tell(4), MailboxFullError);
  assert.equal(liveSlots(), slots);
  await idle(system);
  await system.terminate();
});

test('a drop-head actor sheds the oldest message as a dead letter carrying the very object sent', async () => {
  const system = ActorSystem.create(uniqueName());
  const got = [];
  class Slow extends Actor {
    onReceive(m) {
      got.push(m);
    }
  }
  const ref = system.spawn(Slow, 'slow', ActorOptions.create().withMailbox(
    () => new BoundedMailbox({ capacity: 2, overflow: 'drop-head', deadLetterDrops: true })));
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l.message), DeadLetter);
  await idle(system);
  const sent = [{ n: 1 }, { n: 2 }, { n: 3 }];
  for (const m of sent) ref.tell(m);
  await idle(system);
  assert.deepEqual(got, [sent[1], sent[2]]);
  assert.equal(letters.length, 1);
  assert.equal(letters[0], sent[0]);  // the same object, not a copy
  await system.terminate();
});

test('a JS priorityFor runs once per message and orders a queued burst', async () => {
  const system = ActorSystem.create(uniqueName());
  const got = [];
  let calls = 0;
  class Worker extends Actor {
    onReceive(m) {
      got.push(m.p);
    }
  }
  const ref = system.spawn(Worker, 'worker', ActorOptions.create().withMailbox(() => new PriorityMailbox({
    priorityFor: (m) => {
      calls += 1;
      return m.p;
    },
  })));
  await idle(system);
  for (const p of [5, 1, 4, 2, 3]) ref.tell({ p });
  assert.equal(calls, 5);
  await idle(system);
  assert.deepEqual(got, [1, 2, 3, 4, 5]);
  await system.terminate();
});

test('sender.path is the sender ref\'s path, read only when asked', async () => {
  const system = ActorSystem.create(uniqueName());
  const seen = [];
  class Echo extends Actor {
    onReceive(m) {
      seen.push([m, this.sender?.path ?? null, this.sender === this.sender]);
      if (m === 'ping') this.sender.tell('pong', this.self);
    }
  }
  const a = system.spawn(Echo, 'a');
  const b = system.spawn(Echo, 'b');
  a.tell('ping', b);
  a.tell('alone');
  await idle(system);
  assert.deepEqual(seen, [
    ['ping', b.path, true],
    ['alone', null, true],
    ['pong', a.path, true],
  ]);
  await system.terminate();
});

test('a custom Mailbox whose dequeueUser throws is reported and cannot make terminate hang', async () => {
  const printed = await capturingErrors(async () => {
    const system = ActorSystem.create(uniqueName());
    class Broken extends Mailbox {
      dequeueUser() {
        throw new Error('dequeue broke');
      }
    }
    class A extends Actor {}
    const ref = system.spawn(A, 'a', ActorOptions.create().withMailbox(() => new Broken()));
    ref.tell(1);
    ref.tell(2);
    await idle(system);
    await system.terminate();
  });
  assert.ok(printed.some((line) => /dequeue broke/.test(line)), printed.join('\n'));
});

test('a custom Mailbox whose drainUser throws cannot make terminate hang', async () => {
  const printed = await capturingErrors(async () => {
    const system = ActorSystem.create(uniqueName());
    let release;
    const gate = new Promise((resolve) => {
      release = resolve;
    });
    class Broken extends Mailbox {
      drainUser() {
        throw new Error('drain broke');
      }
    }
    class A extends Actor {
      onReceive() {
        return gate;  // holds the actor, so the rest is still queued at terminate
      }
    }
    const ref = system.spawn(A, 'a', ActorOptions.create().withMailbox(() => new Broken()));
    for (let i = 0; i < 3; i += 1) ref.tell(i);
    await idle(system);
    const done = system.terminate();
    release();
    await done;
  });
  assert.ok(printed.some((line) => /drain broke/.test(line)), printed.join('\n'));
});

test('a custom Mailbox whose size getter throws does not make tell throw once the message is queued', async () => {
  const got = [];
  const printed = await capturingErrors(async () => {
    const system = ActorSystem.create(uniqueName());
    class Sizeless extends Mailbox {
      get size() {
        throw new Error('size broke');
      }
    }
    class A extends Actor {
      onReceive(m) {
        got.push(m);
      }
    }
    const ref = system.spawn(A, 'a', ActorOptions.create().withMailbox(() => new Sizeless()));
    await idle(system);
    assert.doesNotThrow(() => ref.tell('kept'));
    await idle(system);
    await system.terminate();
  });
  assert.deepEqual(got, ['kept']);
  assert.ok(printed.some((line) => /size broke/.test(line)), printed.join('\n'));
});

test('a stashed death notification reaches a custom mailbox\'s prependUser still undroppable', async () => {
  // index.d.ts: Envelope.undroppable marks a death notification, prependUser included.
  const system = ActorSystem.create(uniqueName());
  const prepended = [];
  class Recording extends Mailbox {
    prependUser(envelopes) {
      for (const e of envelopes) prepended.push([e.message instanceof Terminated, e.undroppable === true]);
      super.prependUser(envelopes);
    }
  }
  class Watched extends Actor {}
  const watched = system.spawn(Watched, 'watched');
  const got = [];
  class Watcher extends Actor {
    preStart() {
      this.context.watch(watched);
    }
    onReceive(m) {
      if (m instanceof Terminated && !got.includes('stashed')) {
        got.push('stashed');
        this.context.stash();
      } else if (m === 'unstash') {
        this.context.unstashAll();
      } else {
        got.push(m instanceof Terminated ? 'terminated' : m);
      }
    }
  }
  const watcher = system.spawn(Watcher, 'watcher', ActorOptions.create().withMailbox(() => new Recording()));
  await idle(system);
  watched.stop();
  await idle(system);
  watcher.tell('unstash');
  await idle(system);
  assert.deepEqual(got, ['stashed', 'terminated']);
  assert.deepEqual(prepended, [[true, true]]);
  await system.terminate();
});

test('a number crosses as itself: delivered, dead-lettered, ranked and unhandled as the same value, with no slab slot', async () => {
  // ref.tell(number) takes the raw number path (no slot): -0, NaN and
  // fractions must come back as exactly what was sent, everywhere a JS
  // message shows up.
  const system = ActorSystem.create(uniqueName());
  const sent = [-0, NaN, 1.5, 2 ** 53, -Infinity];
  const got = [];
  const ranked = [];
  class Echo extends Actor {
    onReceive(m) {
      got.push(m);
      if (m === 1.5) this.unhandled(7);  // another number: recorded as 7, not as 1.5
      if (Number.isNaN(m)) this.unhandled(m);  // the one being handled
    }
  }
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l.message), DeadLetter);
  const ref = system.spawn(Echo, 'echo');
  const ranks = system.spawn(Echo, 'ranks', ActorOptions.create().withMailbox(() => new PriorityMailbox({
    priorityFor: (m) => {
      ranked.push(m);
      return -m;
    },
  })));
  await idle(system);
  const slots = liveSlots();
  for (const m of sent) ref.tell(m);
  assert.equal(liveSlots(), slots);  // queued numbers hold no slot
  await idle(system);
  assert.equal(got.length, sent.length);
  for (let i = 0; i < sent.length; i += 1) assert.ok(Object.is(got[i], sent[i]), `message ${i}`);
  assert.equal(letters.length, 2);
  assert.ok(Number.isNaN(letters[0]));  // NaN is handled before 1.5
  assert.equal(letters[1], 7);
  got.length = 0;
  for (const m of [1, 3, 2]) ranks.tell(m);
  await idle(system);
  assert.deepEqual(ranked, [1, 3, 2]);
  assert.deepEqual(got, [3, 2, 1]);
  ref.stop();
  await idle(system);
  ref.tell(-0);  // to a stopped actor: the dead letter carries -0, not 0
  await idle(system);
  assert.ok(Object.is(letters.at(-1), -0));
  await system.terminate();
});
