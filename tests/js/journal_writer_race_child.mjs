// Child of the writer race tests: on {type: 'go', dir, name, round, at, letters}
// it waits for the shared start time `at` (epoch ms), creates a system with a
// persistent dead-letter queue on the stream, and reports 'refused' (naming
// the holder) or, once its `letters` letters "r<round>-<i>" are durable, 'won'.
// A winner keeps the stream until killed or told 'release' (terminate).
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, JournalLockedError } from 'mailroom';
import { idle } from './helpers.mjs';

const pause = new Int32Array(new SharedArrayBuffer(4));
let held = null;

process.on('message', async (message) => {
  if (message.type === 'release') {
    await held?.terminate();
    held = null;
    process.send({ type: 'released' });
    return;
  }
  if (message.type !== 'go') return;
  // Everyone starts at the same instant: sleep most of the wait, spin the rest.
  while (Date.now() < message.at - 2) Atomics.wait(pause, 0, 0, 1);
  while (Date.now() < message.at) { /* spin */ }
  let system;
  try {
    system = ActorSystem.create(message.name, ActorSystemOptions.create().withJournalDir(message.dir)
      .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withRetentionMs(0)));
  } catch (error) {
    if (!(error instanceof JournalLockedError)) throw error;
    process.send({ type: 'refused', round: message.round, holder: error.message });
    return;
  }
  for (let i = 0; i < message.letters; i += 1) system.actorSelection('/user/gone').tell(`r${message.round}-${i}`);
  await idle(system);
  await system.deadLetterQueue.whenDurable();
  held = system;
  process.send({ type: 'won', round: message.round });
});
process.send({ type: 'ready' });
