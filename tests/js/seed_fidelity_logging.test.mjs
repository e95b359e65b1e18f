// Seed fidelity, dead-letter logging (seed 002 "Insbesondere loggt das Framework
// Dead Letters nicht"; SPEC §4 opt-in mailroom.log-dead-letters): by default no
// source of dead letters writes a log line at any level; opted in, the first N
// letters are logged, the rest summarised, and the suppressed tail of the last
// burst is reported at terminate instead of never being mentioned.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Actor, ActorSystem, BoundedMailbox, DeadLetter } from 'mailroom';
import { idle, until, uniqueName } from './helpers.mjs';

function capturingLogger(lines) {
  const at = (level) => (message, meta) => lines.push({ level, source: meta.source, message });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

class Unhandles extends Actor {
  onReceive(message) {
    this.unhandled(message);
  }
}

class Busy extends Actor {
  async onReceive() {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const store of ['off', 'metrics', 'memory']) {
  test(`store ${store}: no dead letter from any source is logged, even at debug`, async () => {
    const lines = [];
    const system = ActorSystem.create(uniqueName('dl-quiet'), {
      logger: capturingLogger(lines), logLevel: 'debug', deadLetters: { store },
    });
    const letters = [];
    system.eventStream.subscribe((letter) => letters.push(letter.message), DeadLetter);
    try {
      system.spawn(Unhandles, 'unhandles').tell('unhandled');
      system.actorSelection('/user/nobody').tell('no-recipient');
      const stopped = system.spawn(Unhandles, 'stopped');
      stopped.stop();
      await idle(system);
      stopped.tell('stopped');
      const busy = system.spawn(Busy, 'busy', {
        mailbox: () => new BoundedMailbox({ capacity: 1, overflow: 'drop-new', deadLetterDrops: true }),
      });
      busy.tell('first');
      await idle(system);
      busy.tell('queued');
      busy.tell('dropped');
      system.deadLetters.tell('published');
      await until(() => letters.length >= 5);
    } finally {
      await system.terminate();
    }
    assert.deepEqual(letters.slice(0, 5).sort(), ['dropped', 'no-recipient', 'published', 'stopped', 'unhandled']);
    assert.deepEqual(lines, []);
  });
}

test('log-dead-letters = 2: two lines, then the suppressed rest is summarised at terminate', async () => {
  const lines = [];
  const system = ActorSystem.create(uniqueName('dl-log'), {
    logger: capturingLogger(lines),
    config: 'mailroom.log-dead-letters = 2\nmailroom.log-dead-letters-summary-interval = 1h',
  });
  for (let i = 0; i < 5; i += 1) system.actorSelection('/user/nobody').tell(i);
  await idle(system);
  assert.equal(lines.length, 2);
  for (const line of lines) {
    assert.equal(line.level, 'info');
    assert.match(line.message, /^dead letter: .* to \/user\/nobody was not delivered$/);
  }
  await system.terminate();
  assert.equal(lines.length, 3, JSON.stringify(lines));
  assert.match(lines[2].message, /^suppressed 3 dead letters in the last \d+m?s$/);
});
