// Child of the deferred-records restart test: one synchronous burst into a
// persistent queue (every record still queued), a flush, then exit without
// terminate (the lock file stays behind, its pid gone).
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { core } from '../../wasm/js/core_loader.js';

const [dir, name, count] = process.argv.slice(2);
const system = ActorSystem.create(name, ActorSystemOptions.create().withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(100_000)));
for (let i = 0; i < Number(count); i += 1) system.actorSelection('/user/nobody').tell({ order: i });
process.stdout.write(`pending before flush ${core._mr_dlq_pending(system._id)}\n`);
core.dlqFlush(system._id);
process.exit(0);
