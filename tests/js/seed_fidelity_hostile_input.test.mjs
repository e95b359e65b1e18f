// Seed fidelity under hostile input (SPEC §3, §5; STYLE "bad input gets a clear
// named error and loses nothing; never change data silently"): what a reviewer
// trying to break the API hands it — a sender that is not a ref, a custom
// mailbox reporting a drop reason outside the closed set.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, Mailbox, NoopLogger } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

class Recorder extends Actor {
  onReceive(message) {
    this.constructor.seen.push([message, this.sender]);
  }
}

test('tell with a sender that is not an ActorRef is a TypeError, never a silently missing sender', async () => {
  const system = ActorSystem.create(uniqueName('hostile-sender'), { logger: new NoopLogger() });
  try {
    class Sink extends Recorder {
      static seen = [];
    }
    const sink = system.spawn(Sink, 'sink');
    const selection = system.actorSelection('/user/sink');
    for (const bad of ['mailroom://x/user/a', 42, {}, { path: '/user/sink' }, () => null]) {
      assert.throws(() => sink.tell('ref', bad), TypeError, `ref.tell sender ${typeof bad}`);
      assert.throws(() => selection.tell('selection', bad), TypeError, `selection.tell sender ${typeof bad}`);
    }
    // Nothing was queued by the refused tells; null and undefined still mean "no sender".
    sink.tell('none-null', null);
    sink.tell('none-undefined', undefined);
    sink.tell('from-self', sink);
    await idle(system);
    assert.deepEqual(Sink.seen.map(([m]) => m), ['none-null', 'none-undefined', 'from-self']);
    assert.equal(Sink.seen[0][1], null);
    assert.equal(Sink.seen[2][1], sink);
  } finally {
    await system.terminate();
  }
});

test('a custom mailbox reporting a drop reason outside drop-head / drop-new gets a TypeError, and nothing is counted', async () => {
  const system = ActorSystem.create(uniqueName('hostile-reason'), { logger: new NoopLogger() });
  try {
    const answers = [];
    class MislabellingMailbox extends Mailbox {
      constructor() {
        super();
        this.observers = [];
      }
      observeDrops(observer) {
        this.observers.push(observer);
      }
      enqueue(envelope) {
        const reason = envelope.message;
        for (const observer of this.observers) {
          try {
            observer(reason);
            answers.push(['accepted', reason]);
          } catch (error) {
            answers.push([error.constructor.name, reason, /drop-head/.test(error.message)]);
          }
        }
      }
    }
    const ref = system.spawn(Recorder, 'shedder', { mailbox: () => new MislabellingMailbox() });
    for (const reason of ['drop-tail', 'reject', undefined, 'drop-head', 'drop-new']) ref.tell(reason);
    await idle(system);
    assert.deepEqual(answers, [
      ['TypeError', 'drop-tail', true],
      ['TypeError', 'reject', true],
      ['TypeError', undefined, true],
      ['accepted', 'drop-head'],
      ['accepted', 'drop-new'],
    ]);
    const counted = system.metrics.scrape().split('\n').filter((l) => l.startsWith('actor_mailbox_dropped_total')
      && l.includes('path="/user/shedder"'));
    assert.deepEqual(counted.sort(), [
      'actor_mailbox_dropped_total{class="Recorder",path="/user/shedder",policy="drop-head"} 1',
      'actor_mailbox_dropped_total{class="Recorder",path="/user/shedder",policy="drop-new"} 1',
    ]);
  } finally {
    await system.terminate();
  }
});

test('a withMailbox factory returning a non-mailbox is an OptionsError that names what it returned in one line', async () => {
  const system = ActorSystem.create(uniqueName('hostile-factory'), { logger: new NoopLogger() });
  try {
    const cases = [
      [() => Mailbox, 'function Mailbox'],  // the class instead of an instance
      [async () => new Mailbox(), 'an object (Promise)'],
      [() => ({ enqueue() {} }), 'an object (Object)'],
      [() => 42, 'number 42'],
    ];
    let n = 0;
    for (const [factory, named] of cases) {
      n += 1;
      assert.throws(() => system.spawn(Recorder, `f${n}`, { mailbox: factory }), (error) => {
        assert.equal(error.name, 'OptionsError');
        assert.equal(error.family, 'ActorOptions');
        assert.equal(error.field, 'mailbox');
        assert.equal(error.message, `ActorOptions.mailbox = ${named}: the factory must return a Mailbox instance`);
        return true;
      });
    }
    // Refused before the actor existed: the names are still free.
    assert.equal(system.spawn(Recorder, 'f1').path.endsWith('/user/f1'), true);
  } finally {
    await system.terminate();
  }
});
