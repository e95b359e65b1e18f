// supervisorStrategy() overrides on JS actors (the seed framework's
// Supervision.ts): deciders, directives, the restart budget, decideBy, what a
// decider sees, a decider that throws, and ActorOptions.withSupervisorStrategy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorInitializationError, ActorKilledError, ActorOptions, ActorSystem, AllForOneStrategy, DeadLetter,
  Directive, LogEvent, OneForOneStrategy, OptionsError, decideBy, defaultStrategy, escalatingStrategy,
  stoppingStrategy,
} from 'mailroom';
import { idle, uniqueName, until } from './helpers.mjs';

// A child that counts what it handles (its state) and throws on 'fail'.
function counterClass(log, error = new Error('fail')) {
  return class Counter extends Actor {
    constructor() {
      super();
      this.count = 0;
      log.push('new');
    }
    onReceive(m) {
      if (m === 'fail') throw error;
      this.count += 1;
      log.push(`${m}:${this.count}`);
    }
  };
}

// A parent with the given strategy that spawns `child` as 'child' and forwards
// every message to it.
function parentClass(child, strategy) {
  return class Parent extends Actor {
    preStart() {
      this.child = this.context.spawn(child, 'child');
    }
    supervisorStrategy() {
      return strategy;
    }
    onReceive(m) {
      this.child.tell(m);
    }
  };
}

test('Directive has the four directives of the seed framework, as strings', () => {
  assert.deepEqual({ ...Directive }, { Resume: 'resume', Restart: 'restart', Stop: 'stop', Escalate: 'escalate' });
});

test('OneForOneStrategy records its decider; maxRetries -1 and no window by default', () => {
  const decider = () => Directive.Stop;
  const s = new OneForOneStrategy(decider);
  assert.deepEqual([s.scope, s.decider, s.maxRetries, s.withinTimeRangeMs], ['one-for-one', decider, -1, 0]);
  const limited = new OneForOneStrategy(decider, { maxRetries: 3, withinTimeRangeMs: 1000 });
  assert.deepEqual([limited.maxRetries, limited.withinTimeRangeMs], [3, 1000]);
  assert.throws(() => new OneForOneStrategy('restart'), (e) => e instanceof OptionsError && e.field === 'decider');
  assert.throws(() => new OneForOneStrategy(decider, { maxRetries: 1.5 }),
    (e) => e instanceof OptionsError && e.field === 'maxRetries');
  assert.throws(() => new OneForOneStrategy(decider, { withinTimeRangeMs: -1 }),
    (e) => e instanceof OptionsError && e.field === 'withinTimeRangeMs');
});

test('the prebuilt strategies: default restarts but stops on Kill and failed starts; stopping; escalating', () => {
  // defaultStrategy spells out the core's default (10 restarts a minute).
  assert.equal(defaultStrategy.decider(new Error('x')), Directive.Restart);
  assert.equal(defaultStrategy.decider(new ActorKilledError('killed')), Directive.Stop);
  assert.equal(defaultStrategy.decider(new ActorInitializationError('start', new Error('x'))), Directive.Stop);
  assert.deepEqual([defaultStrategy.maxRetries, defaultStrategy.withinTimeRangeMs], [10, 60_000]);
  assert.equal(stoppingStrategy.decider(new Error('x')), Directive.Stop);
  assert.equal(escalatingStrategy.decider(new Error('x')), Directive.Escalate);
});

test('decideBy maps error classes to directives, first match wins, else the fallback', () => {
  class FooError extends Error {}
  class BarError extends FooError {}
  const decider = decideBy([{ match: FooError, then: Directive.Resume }, { match: BarError, then: Directive.Stop }]);
  assert.equal(decider(new BarError()), Directive.Resume);
  assert.equal(decider(new Error()), Directive.Restart);
  assert.equal(decideBy([], Directive.Escalate)(new Error()), Directive.Escalate);
});

test('AllForOneStrategy is refused with an OptionsError instead of supervising one-for-one', () => {
  // The core has no all-for-one scope yet.
  assert.throws(() => new AllForOneStrategy(() => Directive.Restart),
    (e) => e instanceof OptionsError && e.field === 'scope' && e.value === 'all-for-one');
});

test('a Resume decision keeps the failing child and its state', async () => {
  // The decider is the parent's override; the child continues counting.
  const system = ActorSystem.create(uniqueName());
  const log = [];
  const parent = system.spawn(parentClass(counterClass(log), new OneForOneStrategy(() => Directive.Resume)), 'p');
  for (const m of ['a', 'fail', 'b']) parent.tell(m);
  await idle(system);
  assert.deepEqual(log, ['new', 'a:1', 'b:2']);
  await system.terminate();
});

test('a Restart decision replaces the child: fresh state, the queued message survives', async () => {
  const system = ActorSystem.create(uniqueName());
  const log = [];
  const parent = system.spawn(parentClass(counterClass(log), new OneForOneStrategy(() => Directive.Restart)), 'p');
  for (const m of ['a', 'fail', 'b']) parent.tell(m);
  await idle(system);
  assert.deepEqual(log, ['new', 'a:1', 'new', 'b:1']);
  await system.terminate();
});

test('a Stop decision stops the failing child: what follows becomes dead letters', async () => {
  const system = ActorSystem.create(uniqueName());
  const log = [];
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l.message), DeadLetter);
  const parent = system.spawn(parentClass(counterClass(log), new OneForOneStrategy(() => Directive.Stop)), 'p');
  for (const m of ['a', 'fail', 'b']) parent.tell(m);
  await idle(system);
  assert.deepEqual(log, ['new', 'a:1']);
  assert.deepEqual(letters, ['b']);
  await system.terminate();
});

test('maxRetries restarts are tolerated within the window, then the child is stopped', async () => {
  // maxRetries: 2 → two restarts, the third failure stops it.
  const system = ActorSystem.create(uniqueName());
  const log = [];
  const strategy = new OneForOneStrategy(() => Directive.Restart, { maxRetries: 2, withinTimeRangeMs: 60_000 });
  const parent = system.spawn(parentClass(counterClass(log), strategy), 'p');
  for (const m of ['fail', 'fail', 'fail', 'after']) parent.tell(m);
  await idle(system);
  assert.deepEqual(log, ['new', 'new', 'new']);
  assert.equal(system.resolve(`${parent.path}/child`), null);
  await system.terminate();
});

test('an Escalate decision fails the parent with the child error: the grandparent decides', async () => {
  // The grandparent's decider sees the very error the grandchild threw.
  const system = ActorSystem.create(uniqueName());
  const log = [];
  const boom = new Error('deep');
  const seen = [];
  const Middle = parentClass(counterClass(log, boom), escalatingStrategy);
  const Top = parentClass(Middle, new OneForOneStrategy((e) => {
    seen.push(e);
    return Directive.Stop;
  }));
  const top = system.spawn(Top, 'top');
  top.tell('fail');
  await idle(system);
  assert.deepEqual(seen, [boom]);
  assert.equal(system.resolve(`${top.path}/child`), null);
  await system.terminate();
});

test('the decider sees the thrown JS value, ActorKilledError for kill(), ActorInitializationError for a failed start', async () => {
  const system = ActorSystem.create(uniqueName());
  const seen = [];
  const thrown = { code: 42 };
  const ctorError = new Error('no config');
  class Thrower extends Actor {
    onReceive() {
      throw thrown;
    }
  }
  class Broken extends Actor {
    constructor() {
      super();
      throw ctorError;
    }
  }
  class Parent extends Actor {
    supervisorStrategy() {
      return new OneForOneStrategy((e) => {
        seen.push(e);
        return Directive.Stop;
      });
    }
    onReceive(m) {
      if (m === 'throw') this.context.spawn(Thrower, 'thrower').tell('x');
      if (m === 'kill') this.context.spawn(Thrower, 'victim').kill();
      if (m === 'broken') this.context.spawn(Broken, 'broken');
    }
  }
  const parent = system.spawn(Parent, 'parent');
  for (const m of ['throw', 'kill', 'broken']) {
    parent.tell(m);
    await idle(system);
  }
  assert.equal(seen.length, 3);
  assert.equal(seen[0], thrown);
  assert.ok(seen[1] instanceof ActorKilledError);
  assert.ok(seen[2] instanceof ActorInitializationError);
  assert.equal(seen[2].cause, ctorError);
  assert.equal(seen[2].name, 'ActorInitializationError');
  await system.terminate();
});

test('a decider that throws is logged and the failure escalates to the grandparent', async () => {
  // The seed framework reports a throwing decider as an error; Mailroom also
  // escalates (the core's rule) so the failing child is not left suspended.
  const system = ActorSystem.create(uniqueName());
  const errors = [];
  system.eventStream.subscribe((e) => {
    if (e.level === 'error') errors.push(e.message);
  }, LogEvent);
  const log = [];
  const boom = new Error('child failed');
  const seen = [];
  const Middle = parentClass(counterClass(log, boom), new OneForOneStrategy(() => {
    throw new Error('decider bug');
  }));
  const Top = parentClass(Middle, new OneForOneStrategy((e) => {
    seen.push(e);
    return Directive.Resume;
  }));
  const top = system.spawn(Top, 'top');
  top.tell('fail');
  top.tell('after');
  await idle(system);
  assert.ok(errors.some((m) => /decider threw \(escalating\).*decider bug/.test(m)), errors.join('\n'));
  assert.deepEqual(seen, [boom]);
  // Resume on the middle actor resumes the suspended child too.
  assert.deepEqual(log, ['new', 'after:1']);
  await system.terminate();
});

test('a decider answering something that is not a Directive is logged and escalates', async () => {
  const system = ActorSystem.create(uniqueName());
  const errors = [];
  system.eventStream.subscribe((e) => {
    if (e.level === 'error') errors.push(e.message);
  }, LogEvent);
  const seen = [];
  const Middle = parentClass(counterClass([]), new OneForOneStrategy(() => 'retry'));
  const Top = parentClass(Middle, new OneForOneStrategy((e) => {
    seen.push(e.message);
    return Directive.Stop;
  }));
  system.spawn(Top, 'top').tell('fail');
  await idle(system);
  assert.ok(errors.some((m) => /answered "retry", not a Directive \(escalating\)/.test(m)), errors.join('\n'));
  assert.deepEqual(seen, ['fail']);
  await system.terminate();
});

test('a supervisorStrategy() that throws is logged and the failure escalates', async () => {
  const system = ActorSystem.create(uniqueName());
  const errors = [];
  system.eventStream.subscribe((e) => {
    if (e.level === 'error') errors.push(e.message);
  }, LogEvent);
  const seen = [];
  class Middle extends parentClass(counterClass([]), null) {
    supervisorStrategy() {
      return new AllForOneStrategy(() => Directive.Restart);
    }
  }
  const Top = parentClass(Middle, new OneForOneStrategy((e) => {
    seen.push(e.message);
    return Directive.Stop;
  }));
  system.spawn(Top, 'top').tell('fail');
  await idle(system);
  assert.ok(errors.some((m) => /supervisorStrategy\(\) threw \(escalating\).*AllForOneStrategy/.test(m)),
    errors.join('\n'));
  assert.deepEqual(seen, ['fail']);
  await system.terminate();
});

test('without an override the core default applies: restart on errors, stop on kill()', async () => {
  const system = ActorSystem.create(uniqueName());
  const log = [];
  class Plain extends Actor {
    preStart() {
      this.child = this.context.spawn(counterClass(log), 'child');
    }
    onReceive(m) {
      if (m === 'kill') this.child.kill();
      else this.child.tell(m);
    }
  }
  const parent = system.spawn(Plain, 'p');
  for (const m of ['a', 'fail', 'b', 'kill', 'c']) parent.tell(m);
  await idle(system);
  assert.deepEqual(log, ['new', 'a:1', 'new', 'b:1']);
  assert.equal(system.resolve(`${parent.path}/child`), null);
  await system.terminate();
});

test('ActorOptions.withSupervisorStrategy overrides the parent strategy for that child only', async () => {
  // 'fragile' stops by its options; its sibling is restarted by the parent's strategy.
  const system = ActorSystem.create(uniqueName());
  const fragile = [];
  const resilient = [];
  class Parent extends Actor {
    preStart() {
      this.context.spawn(counterClass(fragile), 'fragile', ActorOptions.create().withSupervisorStrategy(stoppingStrategy));
      this.context.spawn(counterClass(resilient), 'resilient', { supervisorStrategy: defaultStrategy });
    }
    supervisorStrategy() {
      return new OneForOneStrategy(() => Directive.Resume);
    }
    onReceive([name, m]) {
      this.context.children.find((c) => c.path.endsWith(`/${name}`))?.tell(m);
    }
  }
  const parent = system.spawn(Parent, 'parent');
  for (const name of ['fragile', 'resilient']) {
    parent.tell([name, 'fail']);
    parent.tell([name, 'x']);
  }
  await idle(system);
  assert.deepEqual(fragile, ['new']);
  assert.deepEqual(resilient, ['new', 'new', 'x:1']);
  assert.throws(() => ActorOptions.create().withSupervisorStrategy({ scope: 'one-for-one' }),
    (e) => e instanceof OptionsError && e.field === 'decider');
  await system.terminate();
});

test('a top-level actor is supervised by the user guardian with the default strategy', async () => {
  // supervisorStrategy() governs children; a top-level actor's failures go to the guardian.
  const system = ActorSystem.create(uniqueName());
  const log = [];
  const ref = system.spawn(counterClass(log), 'top', ActorOptions.create().withSupervisorStrategy(
    new OneForOneStrategy(() => Directive.Resume),
  ));
  for (const m of ['a', 'fail', 'b']) ref.tell(m);
  await until(() => log.length === 3);
  assert.deepEqual(log, ['new', 'a:1', 'b:2']);
  await system.terminate();
});
