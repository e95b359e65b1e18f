// Type-checked against the types the tarball ships (tsc --noEmit, strict).
// Compiling is the test: a wrong or missing declaration fails it.
import {
  Actor,
  ActorSystem,
  ActorSystemOptions,
  DeadLetterQueueOptions,
  type DeadLetterEntry,
  type ReplayResult,
} from 'mailroom';
import { mountDevtools, type DevtoolsHandle } from 'mailroom/devtools';

interface Order {
  readonly order: number;
}

class Orders extends Actor<Order> {
  total = 0;
  override onReceive(message: Order): void {
    this.total += message.order;
  }
}

export async function run(panel: HTMLElement): Promise<ReplayResult | undefined> {
  const system = ActorSystem.create(
    'shop',
    ActorSystemOptions.create().withDeadLetters(DeadLetterQueueOptions.create().withStore('memory')),
  );
  const orders = system.spawn(Orders, 'orders');
  orders.tell({ order: 1 });
  const devtools: DevtoolsHandle = mountDevtools(panel, system, { allowReplay: true });
  const view: string = devtools.store.ui.view.value; // the store's signals are typed too
  void view;
  const letters: DeadLetterEntry[] = await system.deadLetterQueue.list({ recipient: '/user' });
  const first = letters[0];
  const result = first ? await system.deadLetterQueue.replay(first.id) : undefined;
  devtools.destroy();
  await system.terminate();
  return result;
}
