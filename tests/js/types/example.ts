// The seeds' TypeScript examples against the declarations (type-checked only).
import {
  Actor, ActorOptions, ActorSystem, ActorSystemOptions, BoundedMailbox, BoundedMailboxOptions,
  DeadLetter, DeadLetterQueueOptions, Mailbox, PriorityMailbox, UNRANKABLE_PRIORITY,
  type Envelope, type MailboxDropReason,
} from 'mailroom';

type Message =
  | { readonly kind: 'urgent'; readonly text: string }
  | { readonly kind: 'normal'; readonly text: string }
  | { readonly kind: 'bulk'; readonly text: string };

class Worker extends Actor<Message> {
  override onReceive(message: Message): void {
    this.log.info(`[${message.kind}] ${message.text}`);
  }
}

class SlowConsumer extends Actor<{ kind: 'work'; n: number }> {
  override async onReceive(message: { kind: 'work'; n: number }): Promise<void> {
    await new Promise((r) => setTimeout(r, 100));
    this.log.info(`processed ${message.n}`);
  }
}

class Watcher extends Actor<DeadLetter> {
  override preStart(): void {
    this.system.eventStream.subscribe(this.self, DeadLetter);
  }
  override onReceive(letter: DeadLetter): void {
    this.system.log.warn(`undelivered: ${letter.message} -> ${letter.recipient.path}`);
  }
}

class SheddingMailbox<T> extends Mailbox<T> {
  private readonly observers: Array<(reason: MailboxDropReason) => void> = [];
  observeDrops(observer: (reason: MailboxDropReason) => void): void {
    this.observers.push(observer);
  }
  private shouldShed(): boolean {
    return this.size > 100;
  }
  override enqueue(envelope: Envelope<T>): void {
    if (this.shouldShed()) {
      for (const observer of this.observers) observer('drop-new');
      return;
    }
    super.enqueue(envelope);
  }
}

export async function main(): Promise<void> {
  const deadLetterOptions = DeadLetterQueueOptions.create()
    .withStore('persistent')
    .withMaxEntries(5_000)
    .withRetentionMs(6 * 60 * 60 * 1_000);
  const system = ActorSystem.create('orders', ActorSystemOptions.create().withDeadLetters(deadLetterOptions));

  const workerOptions = ActorOptions.create<Message>().withMailbox(() => new PriorityMailbox<Message>({
    priorityFor: (message) => (message.kind === 'urgent' ? 0 : message.kind === 'normal' ? 5 : 10),
  }));
  const worker = system.spawn(Worker, 'worker', workerOptions);
  worker.tell({ kind: 'bulk', text: 'batch import row 1' });

  const consumerOptions = ActorOptions.create()
    .withMailbox(() => new BoundedMailbox({ capacity: 1_000, overflow: 'drop-head' }));
  system.spawn(SlowConsumer, 'consumer', consumerOptions);
  system.spawn(Watcher, 'watcher');
  system.spawn(Worker, 'shedding', ActorOptions.create<Message>().withMailbox(() => new SheddingMailbox<Message>()));

  const sheddingMailbox = BoundedMailboxOptions.create().withCapacity(1_000).withOverflow('drop-head').withDeadLetterDrops(true);
  system.spawn(Worker, 'bounded', ActorOptions.create<Message>().withMailbox(() => new BoundedMailbox(sheddingMailbox)));
  system.spawn(Worker, 'sensors', ActorOptions.create<Message>().withMailboxCapacity(10_000).withMailboxOverflow('drop-head'));

  const recent = await system.deadLetterQueue.list({
    recipient: 'mailroom://orders/user/checkout',
    sinceMs: Date.now() - 15 * 60 * 1_000,
    limit: 20,
  });
  for (const entry of recent) {
    console.log(entry.id, entry.timestampMs, entry.recipientPath, entry.payload);
    const result = await system.deadLetterQueue.replay(entry.id, 'mailroom://orders/user/checkout-v2');
    if (result.kind !== 'replayed') console.warn('not replayed:', result.kind);
  }
  const rank: number = UNRANKABLE_PRIORITY;
  console.log(rank, system.metrics.scrape(), system.inspect()[0]?.mailboxKind);
  await system.terminate();
}
