// The panel benchmark's load on the live demo (index.html?bench=N): N live actors
// under /user/load (a few get a message every 100 ms, so depths and counters move),
// and the persistent queue filled up to its max-entries with letters addressed to
// /user/orders/... (no-recipient: nobody lives there). Off unless asked for.
import { Actor, type ActorRef, type ActorSystem } from 'mailroom';

class LoadActor extends Actor {
  onReceive(_tick: unknown) {}
}

export async function loadForBench(system: ActorSystem, actors: number): Promise<() => void> {
  const refs: ActorRef[] = [];
  for (let i = 0; i < actors; i++) refs.push(system.spawn(LoadActor, `load-${i}`));
  const want = system.deadLetterQueue.settings.maxEntries;
  const have = (await system.deadLetterQueue.list()).length;
  for (let i = have; i < want; i++) {
    system.actorSelection(`/user/orders/region-${i % 7}/order-${i}`).tell({ order: i, customer: `user${i % 500}@example.com`, lines: [{ sku: `sku-${i % 97}`, qty: 1 + (i % 3) }] });
  }
  let turn = 0;
  const timer = setInterval(() => {
    for (let k = 0; k < 50; k++) refs[(turn * 50 + k) % refs.length]?.tell({ tick: turn });
    turn++;
  }, 100);
  return () => clearInterval(timer);
}
