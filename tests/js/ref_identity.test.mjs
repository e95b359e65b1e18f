// One JS object per actor ref (issue 11): a ref the core hands out again is
// the same object (===), and a ghost ref (a path with no live actor, as a
// decoded payload names one) is one object per path while it is held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, decodeTagged } from 'mailroom';
import { uniqueName } from './helpers.mjs';

test('a live actor looked up by path, or read back as a sender, is the very ref spawn returned', async () => {
  const system = ActorSystem.create(uniqueName('refs'));
  let seen = null;
  class Echo extends Actor {
    onReceive(message) {
      if (message === 'who') this.sender.tell(this.self, this.self);
    }
  }
  class Asker extends Actor {
    onReceive(message) {
      seen = { message, sender: this.sender };
    }
  }
  const echo = system.spawn(Echo, 'echo');
  const asker = system.spawn(Asker, 'asker');
  assert.equal(system.resolve('/user/echo'), echo);
  echo.tell('who', asker);
  for (let i = 0; i < 20 && seen === null; i += 1) await new Promise((r) => setImmediate(r));
  assert.equal(seen.message, echo);
  assert.equal(seen.sender, echo);
  await system.terminate();
});

test('a ghost ref decoded twice for the same path is one object; another path is another', () => {
  const text = (path) => JSON.stringify({ $t: 'actorref', v: path });
  const path = `mailroom://${uniqueName('gone')}/user/nobody`;
  const a = decodeTagged(text(path));
  const b = decodeTagged(text(path));
  assert.equal(a.path, path);
  assert.equal(a, b);
  assert.notEqual(decodeTagged(text(`${path}-2`)), a);
});
