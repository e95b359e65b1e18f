// The DevTools protocol in wasm (wasm/src/devtools_api.cpp): the core's
// DevtoolsSession for a system in this process, the frames the panel's
// loopback transport carries — the same ones the native server sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, openDevtoolsSession } from '../../wasm/js/index.js';

class Refuser extends Actor {
  onReceive(message) {
    this.unhandled(message);
  }
}

// Polls until the session has frames (the letter is captured on a later slice of the event loop).
async function pollUntilFrames(session) {
  for (let i = 0; i < 200; i++) {
    const frames = session.poll();
    if (frames.length > 0) return frames.map((f) => JSON.parse(f));
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return [];
}

test('a wasm system answers hello, streams dead letters as snapshot then delta, and refuses replay read-only', async () => {
  const system = ActorSystem.create(
    'loop',
    ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')),
  );
  const session = openDevtoolsSession(system);
  try {
    const [welcome] = session.receive(JSON.stringify({ type: 'hello', protocol: 'mailroom-devtools', version: 1 })).map((f) => JSON.parse(f));
    assert.equal(welcome.type, 'welcome');
    assert.equal(welcome.system, 'loop');
    assert.equal(welcome.writes, false);

    const [snapshot] = session.receive(JSON.stringify({ type: 'subscribe', stream: 'deadLetters' })).map((f) => JSON.parse(f));
    assert.equal(snapshot.kind, 'snapshot');
    assert.equal(snapshot.seq, 1);
    assert.deepEqual(snapshot.entries, []);

    const ref = system.spawn(Refuser, 'refuser');
    ref.tell({ kind: 'order', when: new Date(0), tags: new Set(['a']) });
    const [delta] = await pollUntilFrames(session);
    assert.equal(delta.kind, 'delta');
    assert.equal(delta.seq, 2);
    assert.equal(delta.captured.length, 1);
    const payload = delta.captured[0].payload;
    assert.equal(payload.kind, 'captured');
    assert.equal(payload.tag, 'js'); // the wasm layer's codec for JS values
    assert.equal(payload.value.$t, 'object');
    assert.deepEqual(payload.value.v.tags, { $t: 'set', v: ['a'] });

    const [refused] = session
      .receive(JSON.stringify({ type: 'request', id: 1, method: 'deadLetters.replay', params: { id: delta.captured[0].id } }))
      .map((f) => JSON.parse(f));
    assert.equal(refused.code, 'unavailable');
    const [unknown] = session.receive(JSON.stringify({ type: 'nope' })).map((f) => JSON.parse(f));
    assert.equal(unknown.code, 'unknown-frame');
  } finally {
    session.close();
    await system.terminate();
  }
});
