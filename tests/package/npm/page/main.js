// A host page as a Vite user writes it, with only the installed tarball: a
// live system in wasm and the panel mounted on it.
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { mountDevtools } from 'mailroom/devtools';

class Orders extends Actor {
  onReceive() {}
}

const system = ActorSystem.create(
  'page',
  ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')),
);
system.spawn(Orders, 'orders');
system.actorSelection('/user/missing').tell({ order: 1 }); // a dead letter for the inspector
window.devtools = mountDevtools(document.getElementById('panel'), system, { allowReplay: true });
