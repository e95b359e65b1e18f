// An async preStart (the seed framework awaits it before the first message):
// messages wait for the promise; a rejection is an ActorInitializationError for
// the supervisor; postRestart (by default preStart) holds a restarted actor too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorInitializationError, ActorOptions, ActorSystem, DeadLetter, Directive, OneForOneStrategy,
} from 'mailroom';
import { idle, uniqueName, until } from './helpers.mjs';

function latch() {
  let release;
  let fail;
  const promise = new Promise((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  return { promise, release, fail };
}

test('messages wait until an async preStart resolves, then run in order', async () => {
  const system = ActorSystem.create(uniqueName());
  const gate = latch();
  const log = [];
  class Loader extends Actor {
    async preStart() {
      log.push('preStart');
      this.config = await gate.promise;
      log.push('loaded');
    }
    onReceive(m) {
      log.push(`${m}:${this.config}`);
    }
  }
  const ref = system.spawn(Loader, 'loader');
  ref.tell('a');
  ref.tell('b');
  await idle(system);
  assert.deepEqual(log, ['preStart']);
  assert.equal(system.inspect().find((r) => r.path === '/user/loader').userDepth, 2);
  gate.release('v1');
  await until(() => log.length === 4);
  assert.deepEqual(log, ['preStart', 'loaded', 'a:v1', 'b:v1']);
  await system.terminate();
});

test('a rejected preStart is a failed start: the default strategy stops the actor, queued messages become dead letters', async () => {
  const system = ActorSystem.create(uniqueName());
  const gate = latch();
  const log = [];
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l.message), DeadLetter);
  class Loader extends Actor {
    async preStart() {
      await gate.promise;
    }
    onReceive(m) {
      log.push(m);
    }
    postStop() {
      log.push('postStop');
    }
  }
  const ref = system.spawn(Loader, 'loader');
  ref.tell('a');
  await idle(system);
  gate.fail(new Error('no database'));
  await until(() => letters.length === 1);
  assert.deepEqual(log, ['postStop']);
  assert.deepEqual(letters, ['a']);
  assert.equal(system.resolve(ref.path), null);
  await system.terminate();
});

test('the supervisor sees ActorInitializationError with the rejection as cause; a restart keeps the mailbox', async () => {
  // preRestart gets no message (the start failed, not a message); the second start succeeds.
  const system = ActorSystem.create(uniqueName());
  const reason = new Error('flaky');
  const seen = [];
  const log = [];
  let starts = 0;
  class Flaky extends Actor {
    async preStart() {
      starts += 1;
      log.push(`start${starts}`);
      if (starts === 1) throw reason;
    }
    preRestart(error, message) {
      log.push(['preRestart', error === reason || error?.cause === reason, message]);
    }
    onReceive(m) {
      log.push(m);
    }
  }
  class Parent extends Actor {
    preStart() {
      this.context.spawn(Flaky, 'flaky').tell('queued');
    }
    supervisorStrategy() {
      return new OneForOneStrategy((e) => {
        seen.push(e);
        return Directive.Restart;
      });
    }
  }
  system.spawn(Parent, 'parent');
  await until(() => log.includes('queued'));
  assert.equal(seen.length, 1);
  assert.ok(seen[0] instanceof ActorInitializationError);
  assert.equal(seen[0].cause, reason);
  assert.match(seen[0].message, /\/user\/parent\/flaky.*flaky/);
  assert.deepEqual(log, ['start1', ['preRestart', true, undefined], 'start2', 'queued']);
  await system.terminate();
});

test('an async postRestart (by default the async preStart) holds the restarted actor', async () => {
  const system = ActorSystem.create(uniqueName());
  const log = [];
  let gate = null;
  class Worker extends Actor {
    async preStart() {
      log.push('start');
      if (gate) await gate.promise;
    }
    onReceive(m) {
      if (m === 'fail') {
        gate = latch();
        throw new Error('fail');
      }
      log.push(m);
    }
  }
  const ref = system.spawn(Worker, 'worker');
  ref.tell('fail');
  ref.tell('after');
  await idle(system);
  assert.deepEqual(log, ['start', 'start']);
  gate.release();
  await until(() => log.length === 3);
  assert.deepEqual(log, ['start', 'start', 'after']);
  await system.terminate();
});

test('a synchronous preStart still holds nothing back', async () => {
  // Only a returned promise defers the start.
  const system = ActorSystem.create(uniqueName());
  const log = [];
  class Quick extends Actor {
    preStart() {
      log.push('start');
    }
    onReceive(m) {
      log.push(m);
    }
  }
  system.spawn(Quick, 'quick').tell('a');
  await idle(system);
  assert.deepEqual(log, ['start', 'a']);
  await system.terminate();
});

test('terminate completes while a preStart promise never settles', async () => {
  // System messages still run during an async start: the actor can be stopped.
  const system = ActorSystem.create(uniqueName());
  const log = [];
  class Stuck extends Actor {
    preStart() {
      return new Promise(() => {});
    }
    onReceive(m) {
      log.push(m);
    }
    postStop() {
      log.push('postStop');
    }
  }
  system.spawn(Stuck, 'stuck', ActorOptions.create()).tell('never');
  await idle(system);
  await system.terminate();
  assert.deepEqual(log, ['postStop']);
});
