// Child of tests/js/journal_kill.test.mjs: a Node process with a persistent
// dead-letter queue that never flushes by hand and never terminates; only
// the core's sync-within bound makes its journal durable. Modes:
//   quiet N        capture N letters, report "ready", idle until killed
//   purge N K      capture N, await remove() of the oldest K, report "ready"
//   replay N       capture N, await replay() of the oldest to a live actor, "ready"
//   burst          capture without pause, reporting "sent <n> <ms>" every 100
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';

const [dir, name, mode, ...args] = process.argv.slice(2);
const system = ActorSystem.create(name, ActorSystemOptions.create().withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(1_000_000)));
const nobody = system.actorSelection('/user/nobody');
const turn = () => new Promise((resolve) => setImmediate(resolve));
const settle = async () => {
  while (system._driver._scheduled) await turn();
  await turn();
};
const say = (line) => process.stdout.write(`${line}\n`);

class Sink extends Actor {
  receive() {}
}

if (mode === 'burst') {
  let sent = 0;
  for (;;) {
    for (let i = 0; i < 100; i += 1) nobody.tell(`b${sent++}`);
    await settle();
    say(`sent ${sent} ${Date.now()}`);
  }
}
const n = Number(args[0]);
for (let i = 0; i < n; i += 1) nobody.tell(`q${i}`);
await settle();
if (mode === 'purge') {
  const oldest = (await system.deadLetterQueue.list()).slice(-Number(args[1])).map((e) => e.id);
  await system.deadLetterQueue.remove(oldest);
} else if (mode === 'replay') {
  system.spawn(Sink, 'sink');
  const [oldest] = (await system.deadLetterQueue.list()).slice(-1);
  const result = await system.deadLetterQueue.replay(oldest.id, '/user/sink');
  if (result.kind !== 'replayed') throw new Error(`replay answered ${result.kind}`);
  say(`replayed ${oldest.id}`);
}
say('ready');
setInterval(() => {}, 1 << 30);  // idle: only SIGKILL ends this process
