// Actors from JS: lifecycle, ordering, sender, supervision, async receive,
// stash/become, watch, children (SPEC §2 seen from JS).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorKilledError, ActorOptions, ActorRef, ActorSystem, BoundedMailbox, DeadLetter, IllegalStateError,
  InvalidActorNameError, OptionsError, Terminated,
} from 'mailroom';
import { idle, uniqueName, until } from './helpers.mjs';

test('tell never runs the receiver on the caller stack and keeps FIFO order', async () => {
  // Messages are processed later, one at a time, in send order.
  const system = ActorSystem.create(uniqueName());
  const log = [];
  class Recorder extends Actor {
    onReceive(message) {
      log.push(message);
    }
  }
  const ref = system.spawn(Recorder, 'recorder');
  ref.tell(1);
  ref.tell(2);
  ref.tell(3);
  log.push('after tells');
  await idle(system);
  assert.deepEqual(log, ['after tells', 1, 2, 3]);
  await system.terminate();
});

test('self, system and log work in the constructor and the path names the system', async () => {
  // The JS constructor runs with its cell attached.
  const name = uniqueName();
  const system = ActorSystem.create(name);
  const seen = [];
  class Probe extends Actor {
    constructor() {
      super();
      seen.push(this.self.path, this.system === system, typeof this.log.info);
    }
  }
  const ref = system.spawn(Probe, 'probe');
  assert.equal(ref.path, `mailroom://${name}/user/probe`);
  await idle(system);
  assert.deepEqual(seen, [`mailroom://${name}/user/probe`, true, 'function']);
  await system.terminate();
});

test('sender is the ActorRef given to tell, and null without one', async () => {
  // this.sender is an ActorRef (the same object as the sender's self) or null.
  const system = ActorSystem.create(uniqueName());
  const senders = [];
  class Pong extends Actor {
    onReceive() {
      senders.push(this.sender);
    }
  }
  class Ping extends Actor {
    onReceive(target) {
      target.tell('ping', this.self);
    }
  }
  const pong = system.spawn(Pong, 'pong');
  const ping = system.spawn(Ping, 'ping');
  ping.tell(pong);
  pong.tell('no sender');
  await idle(system);
  assert.equal(senders.length, 2);
  assert.ok(senders.includes(null));
  assert.ok(senders.includes(ping));
  assert.ok(ping instanceof ActorRef);
  await system.terminate();
});

test('stop drains queued messages, then later tells become dead letters', async () => {
  // PoisonPill is a user message; the recipient named in the letter is the stopped actor.
  const system = ActorSystem.create(uniqueName());
  const got = [];
  const letters = [];
  class Sink extends Actor {
    onReceive(m) {
      got.push(m);
    }
    postStop() {
      got.push('stopped');
    }
  }
  system.eventStream.subscribe((letter) => letters.push(letter), DeadLetter);
  const ref = system.spawn(Sink, 'sink');
  ref.tell('a');
  ref.tell('b');
  ref.stop();
  ref.tell('c');
  await idle(system);
  assert.deepEqual(got, ['a', 'b', 'stopped']);
  assert.deepEqual(letters.map((l) => [l.message, l.recipient.path]), [['c', ref.path]]);
  assert.ok(letters[0] instanceof DeadLetter);
  await system.terminate();
});

test('an exception in onReceive restarts the actor, keeps its mailbox and reaches preRestart', async () => {
  // Default supervision restarts; the queued messages survive; the reason is the JS error.
  const system = ActorSystem.create(uniqueName());
  const events = [];
  const boom = new Error('boom');
  class Fragile extends Actor {
    constructor() {
      super();
      events.push('new');
    }
    onReceive(m) {
      if (m === 'fail') throw boom;
      events.push(m);
    }
    preRestart(reason, message) {
      events.push(['preRestart', reason === boom, message]);
    }
    postRestart(reason) {
      events.push(['postRestart', reason === boom]);
    }
  }
  const ref = system.spawn(Fragile, 'fragile');
  ref.tell('one');
  ref.tell('fail');
  ref.tell('two');
  await idle(system);
  assert.deepEqual(events, [
    'new', 'one', ['preRestart', true, 'fail'], 'new', ['postRestart', true], 'two',
  ]);
  await system.terminate();
});

test('kill fails the actor with ActorKilledError and the default decider stops it', async () => {
  // Kill is a user message; the actor is stopped, later tells are dead letters.
  const system = ActorSystem.create(uniqueName());
  const stops = [];
  const letters = [];
  class Victim extends Actor {
    onReceive() {}
    postStop() {
      stops.push('stopped');
    }
  }
  system.eventStream.subscribe((l) => letters.push(l.message), DeadLetter);
  const ref = system.spawn(Victim, 'victim');
  ref.kill();
  await idle(system);
  ref.tell('after');
  await idle(system);
  assert.deepEqual(stops, ['stopped']);
  assert.deepEqual(letters, ['after']);
  assert.equal(typeof ActorKilledError, 'function');
  await system.terminate();
});

test('an async onReceive holds its actor until the promise settles', async () => {
  // The seed's SlowConsumer: no second message starts before the first finishes.
  const system = ActorSystem.create(uniqueName());
  const trace = [];
  class SlowConsumer extends Actor {
    async onReceive(message) {
      trace.push(`start ${message.n}`);
      await new Promise((r) => setTimeout(r, 5));
      trace.push(`end ${message.n}`);
    }
  }
  const ref = system.spawn(SlowConsumer, 'consumer');
  for (let n = 1; n <= 3; n += 1) ref.tell({ kind: 'work', n });
  await until(() => trace.length === 6);
  assert.deepEqual(trace, ['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  await system.terminate();
});

test('SlowConsumer with a drop-head BoundedMailbox keeps the newest work while busy', async () => {
  // The seed example: withMailbox(() => new BoundedMailbox({ capacity, overflow: 'drop-head' })).
  const system = ActorSystem.create(uniqueName());
  const processed = [];
  class SlowConsumer extends Actor {
    async onReceive(message) {
      await new Promise((r) => setTimeout(r, 2));
      processed.push(message.n);
    }
  }
  const consumerOptions = ActorOptions.create()
    .withMailbox(() => new BoundedMailbox({ capacity: 2, overflow: 'drop-head' }));
  const consumer = system.spawn(SlowConsumer, 'consumer', consumerOptions);
  for (let n = 1; n <= 5; n += 1) consumer.tell({ kind: 'work', n });
  await until(() => processed.length === 2);
  await idle(system);
  assert.deepEqual(processed, [4, 5]);
  await system.terminate();
});

test('a rejected async onReceive goes to supervision like a throw', async () => {
  // Rejection → restart; the next message is processed by the new instance.
  const system = ActorSystem.create(uniqueName());
  const events = [];
  class AsyncFragile extends Actor {
    constructor() {
      super();
      events.push('new');
    }
    async onReceive(m) {
      await null;
      if (m === 'fail') throw new Error('async boom');
      events.push(m);
    }
  }
  const ref = system.spawn(AsyncFragile, 'async-fragile');
  ref.tell('fail');
  ref.tell('after');
  await until(() => events.includes('after'));
  assert.deepEqual(events, ['new', 'new', 'after']);
  await system.terminate();
});

test('stash parks messages and unstashAll puts them back in order', async () => {
  // Become + stash, as in the seed's Become and Stash guide.
  const system = ActorSystem.create(uniqueName());
  const handled = [];
  class Gate extends Actor {
    onReceive(m) {
      if (m === 'open') {
        this.context.become((msg) => handled.push(msg));
        this.context.unstashAll();
      } else {
        this.context.stash();
      }
    }
  }
  const ref = system.spawn(Gate, 'gate');
  ref.tell('x');
  ref.tell('y');
  ref.tell('open');
  ref.tell('z');
  await idle(system);
  assert.deepEqual(handled, ['x', 'y', 'z']);
  await system.terminate();
});

test('become with discardOld=false can be undone with unbecome', async () => {
  // The behaviour stack returns to onReceive.
  const system = ActorSystem.create(uniqueName());
  const out = [];
  class Moody extends Actor {
    onReceive(m) {
      out.push(`base:${m}`);
      if (m === 'switch') {
        this.context.become((msg) => {
          out.push(`alt:${msg}`);
          if (msg === 'back') this.context.unbecome();
        }, false);
      }
    }
  }
  const ref = system.spawn(Moody, 'moody');
  for (const m of ['a', 'switch', 'b', 'back', 'c']) ref.tell(m);
  await idle(system);
  assert.deepEqual(out, ['base:a', 'base:switch', 'alt:b', 'alt:back', 'base:c']);
  await system.terminate();
});

test('a restart drops the become() behaviour: the new instance starts at onReceive', async () => {
  // The behaviour stack belongs to the failed instance.
  const system = ActorSystem.create(uniqueName());
  const out = [];
  class Switcher extends Actor {
    onReceive(m) {
      out.push(`base:${m}`);
      this.context.become((msg) => {
        out.push(`alt:${msg}`);
        if (msg === 'fail') throw new Error('fail');
      });
    }
  }
  const ref = system.spawn(Switcher, 'switcher');
  for (const m of ['a', 'fail', 'b']) ref.tell(m);
  await idle(system);
  assert.deepEqual(out, ['base:a', 'alt:fail', 'base:b']);
  await system.terminate();
});

test('stash outside a handler is an IllegalStateError', async () => {
  // The core's rule, surfaced as the typed JS error.
  const system = ActorSystem.create(uniqueName());
  let caught = null;
  class Early extends Actor {
    preStart() {
      try {
        this.context.stash();
      } catch (e) {
        caught = e;
      }
    }
  }
  system.spawn(Early, 'early');
  await idle(system);
  assert.ok(caught instanceof IllegalStateError, String(caught));
  await system.terminate();
});

test('watch delivers Terminated with the watched ref', async () => {
  // Death watch from JS; children spawned through the context live under the parent.
  const system = ActorSystem.create(uniqueName());
  const seen = [];
  class Child extends Actor {}
  class Parent extends Actor {
    preStart() {
      this.child = this.context.spawn(Child, 'child');
      this.context.watch(this.child);
      seen.push(this.child.path, this.context.children.length);
      this.child.stop();
    }
    onReceive(m) {
      if (m instanceof Terminated) seen.push(m.actor === this.child);
    }
  }
  const parent = system.spawn(Parent, 'parent');
  await idle(system);
  assert.deepEqual(seen, [`${parent.path}/child`, 1, true]);
  await system.terminate();
});

test('unhandled messages become dead letters naming the actor', async () => {
  // this.unhandled(msg) and the default onReceive both dead-letter the message.
  const system = ActorSystem.create(uniqueName());
  const letters = [];
  class Picky extends Actor {
    onReceive(m) {
      if (m !== 'ok') this.unhandled(m);
    }
  }
  class Silent extends Actor {}
  system.eventStream.subscribe((l) => letters.push([l.message, l.recipient.path]), DeadLetter);
  const picky = system.spawn(Picky, 'picky');
  const silent = system.spawn(Silent, 'silent');
  const odd = { odd: true };
  picky.tell('ok');
  picky.tell(odd);
  silent.tell('anything');
  await idle(system);
  assert.deepEqual(letters, [[odd, picky.path], ['anything', silent.path]]);
  assert.equal(letters[0][0], odd);
  await system.terminate();
});

test('actorSelection and system.stop reach actors by path; unknown paths dead-letter', async () => {
  // A selection resolving to nothing is a dead letter naming that path.
  const system = ActorSystem.create(uniqueName());
  const got = [];
  const letters = [];
  class Target extends Actor {
    onReceive(m) {
      got.push(m);
    }
    postStop() {
      got.push('stopped');
    }
  }
  system.eventStream.subscribe((l) => letters.push([l.message, l.recipient.path]), DeadLetter);
  const ref = system.spawn(Target, 'target');
  system.actorSelection(ref.path).tell('by path');
  system.actorSelection('/user/nobody').tell('lost');
  await idle(system);
  system.stop(ref);
  await idle(system);
  assert.deepEqual(got, ['by path', 'stopped']);
  assert.deepEqual(letters, [['lost', `mailroom://${system.name}/user/nobody`]]);
  await system.terminate();
});

test('bad spawn input is a TypeError or a named error, never a wasm abort', async () => {
  // Wrong types at the boundary; duplicate and invalid names from the core.
  const system = ActorSystem.create(uniqueName());
  class A extends Actor {}
  assert.throws(() => system.spawn(A, 42), TypeError);
  assert.throws(() => system.spawn('A', 'a'), TypeError);
  assert.throws(() => system.spawn(A, 'a', 'opts'), TypeError);
  system.spawn(A, 'a');
  assert.throws(() => system.spawn(A, 'a'), InvalidActorNameError);
  assert.throws(() => system.spawn(A, 'has/slash'), InvalidActorNameError);
  assert.throws(() => system.actorSelection(7), TypeError);
  assert.throws(() => ActorSystem.create(3), TypeError);
  assert.throws(() => ActorSystem.create('x', null), TypeError);
  assert.throws(() => ActorSystem.create('bad name!'), OptionsError);
  await system.terminate();
});

test('terminate resolves once the tree is down and postStop ran', async () => {
  // await system.terminate() after every actor stopped.
  const system = ActorSystem.create(uniqueName());
  const stopped = [];
  class A extends Actor {
    postStop() {
      stopped.push(this.self.path);
    }
  }
  system.spawn(A, 'a');
  system.spawn(A, 'b');
  await idle(system);
  await system.terminate();
  assert.equal(stopped.length, 2);
});
