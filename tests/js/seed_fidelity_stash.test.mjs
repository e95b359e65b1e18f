// Seed fidelity, stash (seed 000 "Mailboxes + Stash", SPEC §2, §5): a stashed
// message comes back once, and an async onReceive — which holds its actor until
// the promise settles — can stash its message after an await, as it can read
// this.sender and call unstashAll there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, IllegalStateError, NoopLogger } from 'mailroom';
import { idle, until, uniqueName } from './helpers.mjs';

test('stashing the same message twice is an IllegalStateError and it comes back once', async () => {
  const system = ActorSystem.create(uniqueName('stash-twice'), { logger: new NoopLogger() });
  try {
    const log = [];
    let deliveries = 0;
    class Twice extends Actor {
      onReceive(message) {
        if (message === 'open') {
          this.context.unstashAll();
          return;
        }
        log.push(`got ${message}`);
        deliveries += 1;
        if (deliveries > 1) return;
        this.context.stash();
        assert.throws(() => this.context.stash(), IllegalStateError);
        log.push('second stash refused');
      }
    }
    const ref = system.spawn(Twice, 'twice');
    ref.tell('x');
    await idle(system);
    assert.equal(system.inspect().find((row) => row.path === '/user/twice').stashSize, 1);
    ref.tell('open');
    await idle(system);
    assert.deepEqual(log, ['got x', 'second stash refused', 'got x']);
  } finally {
    await system.terminate();
  }
});

test('an async onReceive can stash its message after an await, and unstashAll brings it back', async () => {
  const system = ActorSystem.create(uniqueName('stash-async'), { logger: new NoopLogger() });
  try {
    const log = [];
    let ready = false;
    class WaitsForReady extends Actor {
      async onReceive(message) {
        if (message === 'ready') {
          ready = true;
          this.context.unstashAll();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (!ready) {
          this.context.stash();
          log.push(`stashed ${message} from ${this.sender?.path ?? 'nobody'}`);
          return;
        }
        log.push(`handled ${message}`);
      }
    }
    const ref = system.spawn(WaitsForReady, 'waits');
    ref.tell('a', ref);
    ref.tell('b');
    await until(() => log.length === 2);
    ref.tell('ready');
    await until(() => log.length === 4);
    assert.deepEqual(log, [
      `stashed a from ${ref.path}`,
      'stashed b from nobody',
      'handled a',
      'handled b',
    ]);
  } finally {
    await system.terminate();
  }
});

test('an async preStart holds no message: stash after its await is still an IllegalStateError', async () => {
  const system = ActorSystem.create(uniqueName('stash-start'), { logger: new NoopLogger() });
  try {
    const outcome = [];
    class StartsSlowly extends Actor {
      async preStart() {
        await null;
        try {
          this.context.stash();
          outcome.push('stashed');
        } catch (error) {
          outcome.push(error.constructor.name);
        }
      }
      onReceive() {}
    }
    system.spawn(StartsSlowly, 'slow');
    await until(() => outcome.length === 1);
    assert.deepEqual(outcome, ['IllegalStateError']);
  } finally {
    await system.terminate();
  }
});
