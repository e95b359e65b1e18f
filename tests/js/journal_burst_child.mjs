// Child of the kill -9 test: dead letters in bursts; after each burst the
// journal is flushed (synced) and only then acknowledged on stdout.
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { core } from '../../wasm/js/core_loader.js';

const [dir, name] = process.argv.slice(2);
const system = ActorSystem.create(name, ActorSystemOptions.create().withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(100_000)));
let sent = 0;
const turn = () => new Promise((resolve) => setImmediate(resolve));
for (;;) {
  for (let i = 0; i < 100; i += 1) system.actorSelection('/user/nobody').tell(`b${sent++}`);
  while (system._driver._scheduled) await turn();
  await turn();
  core.dlqFlush(system._id);
  process.stdout.write(`ack ${sent - 1}\n`);
}
