// The peers' classic actor tests, run against the JS API (SPEC §2, §4; Akka's
// mailbox and death-watch specs): per-sender order with interleaved senders,
// Terminated after everything the watched actor sent, one Terminated per watch,
// every malformed or wildcard selection a named dead letter, and two live
// systems of one name that never reach each other's actors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, DeadLetter, NoopLogger, Terminated } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

const quiet = (extra = {}) => ({ logger: new NoopLogger(), ...extra });

test('a mailbox delivers the messages of each sender in the order that sender sent them', async () => {
  const system = ActorSystem.create(uniqueName('per-sender'), quiet());
  try {
    const seen = [];
    class Sink extends Actor {
      onReceive(message) {
        seen.push([this.sender.path, message]);
      }
    }
    const sink = system.spawn(Sink, 'sink');
    // Each sender sends a few per turn and continues in its next turn, so the
    // three senders' messages interleave in the sink's mailbox.
    class Sender extends Actor {
      onReceive(next) {
        for (let i = next; i < next + 3 && i < 200; i += 1) sink.tell(i, this.self);
        if (next + 3 < 200) this.self.tell(next + 3);
      }
    }
    const senders = ['s1', 's2', 's3'].map((name) => system.spawn(Sender, name, { throughput: 1 }));
    for (const s of senders) s.tell(0);
    await idle(system);
    const firstOfEach = senders.map((s) => seen.findIndex(([from]) => from === s.path));
    assert.ok(Math.max(...firstOfEach) < 20, `the senders interleave (${firstOfEach})`);
    for (const s of senders) {
      const mine = seen.filter(([from]) => from === s.path).map(([, n]) => n);
      assert.deepEqual(mine, Array.from({ length: 200 }, (_, i) => i), s.path);
    }
  } finally {
    await system.terminate();
  }
});

test('Terminated arrives after every message the watched actor sent before stopping, exactly once', async () => {
  const system = ActorSystem.create(uniqueName('watch-order'), quiet());
  try {
    const log = [];
    class Child extends Actor {
      onReceive() {
        for (let i = 0; i < 50; i += 1) this.context.parent.tell(i);
        this.context.stop(this.self);
      }
    }
    class Watcher extends Actor {
      preStart() {
        const child = this.context.spawn(Child, 'child');
        this.context.watch(child);
        this.context.watch(child);  // twice: still one notification
        child.tell('go');
      }
      onReceive(message) {
        log.push(message instanceof Terminated ? `T ${message.actor.path}` : message);
      }
    }
    const watcher = system.spawn(Watcher, 'watcher');
    await idle(system);
    assert.deepEqual(log, [...Array.from({ length: 50 }, (_, i) => i), `T ${watcher.path}/child`]);
  } finally {
    await system.terminate();
  }
});

test('watching an actor that already stopped delivers Terminated at once', async () => {
  const system = ActorSystem.create(uniqueName('watch-dead'), quiet());
  try {
    class Idle extends Actor {
      onReceive() {}
    }
    const gone = system.spawn(Idle, 'gone');
    gone.stop();
    await idle(system);
    const log = [];
    class Late extends Actor {
      preStart() {
        this.context.watch(gone);
      }
      onReceive(message) {
        log.push(message instanceof Terminated && message.actor === gone);
      }
    }
    system.spawn(Late, 'late');
    await idle(system);
    assert.deepEqual(log, [true]);
  } finally {
    await system.terminate();
  }
});

test('every malformed, wildcard or relative selection is a no-recipient dead letter, none is lost', async () => {
  const system = ActorSystem.create(uniqueName('selections'), quiet({ deadLetters: { store: 'memory' } }));
  try {
    const delivered = [];
    class Target extends Actor {
      onReceive(message) {
        delivered.push(message);
      }
    }
    system.spawn(Target, 'x');
    const paths = ['', '/user//x', '/user/*', '/user/x*', '/user/x/..', '/user/./x', ' /user/x', 'x', 'user/x',
      `mailroom://${system.name}/user/x?q=1`, `mailroom://someone-else/user/x`];
    const published = [];
    system.eventStream.subscribe((letter) => published.push(letter.message), DeadLetter);
    for (const path of paths) system.actorSelection(path).tell(`to [${path}]`);
    await idle(system);
    assert.deepEqual(delivered, []);
    assert.deepEqual(published, paths.map((p) => `to [${p}]`));
    const entries = await system.deadLetterQueue.list();
    assert.equal(entries.length, paths.length);
    for (const entry of entries) assert.equal(entry.cause, 'no-recipient', entry.recipientPath);
  } finally {
    await system.terminate();
  }
});

test('two live systems with one name never deliver into each other, by path, ghost ref or replay', async () => {
  const name = uniqueName('twin');
  const a = ActorSystem.create(name, quiet({ deadLetters: { store: 'memory' } }));
  const b = ActorSystem.create(name, quiet({ deadLetters: { store: 'memory' } }));
  try {
    const got = [];
    class Target extends Actor {
      onReceive(message) {
        got.push(message);
      }
    }
    b.spawn(Target, 'x');
    const letters = [];
    a.eventStream.subscribe((letter) => letters.push(letter), DeadLetter);
    a.actorSelection('/user/x').tell('by path');
    await idle(a);
    const ghost = letters[0].recipient;
    assert.equal(ghost.path, `mailroom://${name}/user/x`);
    ghost.tell('by ghost');
    await idle(a);
    assert.equal(a.resolve(ghost.path), null);
    const [entry] = await a.deadLetterQueue.list({ limit: 1 });
    assert.equal((await a.deadLetterQueue.replay(entry.id)).kind, 'unresolved-recipient');
    await idle(b);
    assert.deepEqual(got, []);
    assert.deepEqual(letters.map((l) => l.message), ['by path', 'by ghost']);
  } finally {
    await a.terminate();
    await b.terminate();
  }
});
