// The class label of actor_mailbox_size names a JS actor by its class
// (constructor.name), as inspect() does: also before the actor's first turn,
// and for an actor a factory built.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorOptions, ActorSystem } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

const sizeLine = (system, path) => system.metrics.scrape().split('\n')
  .find((l) => l.startsWith('actor_mailbox_size{') && l.includes(`path="${path}"`));

test('actor_mailbox_size names a JS actor by its class, also before its first turn', async () => {
  // spawn returns before the core has built the instance; the label is already there.
  const system = ActorSystem.create(uniqueName());
  class SensorSink extends Actor {
    onReceive() {}
  }
  const ref = system.spawn(SensorSink, 'sensors');
  for (let i = 0; i < 3; i += 1) ref.tell(i);
  assert.equal(sizeLine(system, '/user/sensors'), 'actor_mailbox_size{class="SensorSink",path="/user/sensors"} 3');
  assert.equal(system.inspect().find((r) => r.path === '/user/sensors').className, 'SensorSink');
  await idle(system);
  assert.equal(sizeLine(system, '/user/sensors'), 'actor_mailbox_size{class="SensorSink",path="/user/sensors"} 0');
  await system.terminate();
});

test('an actor spawned from a factory is named by the class the factory built', async () => {
  // Not by the factory function's name; inspection and the metric agree.
  const system = ActorSystem.create(uniqueName());
  class Triage extends Actor {
    onReceive() {}
  }
  const makeTriage = () => new Triage();
  system.spawn(makeTriage, 'triage');
  system.spawn(() => new (class extends Actor {})(), 'anonymous');
  await idle(system);
  assert.equal(sizeLine(system, '/user/triage'), 'actor_mailbox_size{class="Triage",path="/user/triage"} 0');
  const rows = system.inspect();
  assert.equal(rows.find((r) => r.path === '/user/triage').className, 'Triage');
  assert.equal(rows.find((r) => r.path === '/user/anonymous').className, 'Actor');
  await system.terminate();
});

test('a child spawned through the context is labelled by its class too', async () => {
  const system = ActorSystem.create(uniqueName());
  class Child extends Actor {}
  class Parent extends Actor {
    onReceive() {
      this.context.spawn(Child, 'child').tell('queued');
    }
  }
  const parent = system.spawn(Parent, 'parent');
  parent.tell('spawn');
  await idle(system);
  assert.match(sizeLine(system, '/user/parent/child'), /^actor_mailbox_size\{class="Child",path="\/user\/parent\/child"\} 0$/);
  await system.terminate();
});

test('withClassName names an actor whose class a minifier renamed, in inspect() and the metric label', async () => {
  const system = ActorSystem.create(uniqueName());
  const du = class extends Actor {  // what a production build leaves of "class Worker"
    onReceive() {}
  };
  system.spawn(du, 'plain');
  system.spawn(du, 'named', ActorOptions.create().withClassName('Worker'));
  system.spawn(() => new du(), 'factory', { className: 'Worker' });
  await idle(system);
  const rows = system.inspect();
  assert.equal(rows.find((r) => r.path === '/user/plain').className, 'du');
  assert.equal(rows.find((r) => r.path === '/user/named').className, 'Worker');
  assert.equal(rows.find((r) => r.path === '/user/factory').className, 'Worker');
  assert.equal(sizeLine(system, '/user/named'), 'actor_mailbox_size{class="Worker",path="/user/named"} 0');
  assert.throws(() => ActorOptions.create().withClassName(5), (e) => e.name === 'OptionsError' || e instanceof TypeError);
  await system.terminate();
});
