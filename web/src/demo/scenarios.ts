// The demo's scenarios (from the seeds). Each owns its actors and producers and
// exposes counters and a rate for the controls. Nothing here touches the panel.
import {
  ActorOptions,
  BoundedMailbox,
  MailboxFullError,
  PriorityMailbox,
  UNRANKABLE_PRIORITY,
  type ActorRef,
  type ActorSystem,
} from 'mailroom';
import { BoundedWorker, Checkout, CheckoutV2, Ledger, SensorSink, Triage } from './actors';
import { Producer } from './producer';

export interface ScenarioStat {
  label: string;
  value: () => string | number;
}

export interface Scenario {
  id: string;
  title: string;
  blurb: string;
  /** Messages per second; null when the scenario has no producer. */
  rate: { value: number; max: number } | null;
  stats: ScenarioStat[];
  actions: { id: string; label: string; run: () => void }[];
  enabled: boolean;
  setEnabled(on: boolean): void;
  setRate(rate: number): void;
}

function producerScenario(base: Omit<Scenario, 'enabled' | 'setEnabled' | 'setRate' | 'rate'>, producer: Producer, max: number): Scenario {
  const s: Scenario = {
    ...base,
    rate: { value: producer.rate, max },
    enabled: false,
    setEnabled(on) {
      s.enabled = on;
      if (on) producer.start();
      else producer.stop();
    },
    setRate(rate) {
      producer.rate = rate;
      if (s.rate) s.rate.value = rate;
    },
  };
  return s;
}

function sensorSink(system: ActorSystem): Scenario {
  const sensors = system.spawn(SensorSink, 'sensors', ActorOptions.create().withMailboxCapacity(200).withMailboxOverflow('drop-head'));
  const flood = new Producer(120, (n) => {
    sensors.tell({ kind: 'reading', sensor: `s-${n % 8}`, celsius: 18 + Math.round(Math.random() * 80) / 10, seq: n });
  });
  return producerScenario(
    {
      id: 'sensors',
      title: 'Sensor sink under a telemetry flood',
      blurb: 'Bounded 200, drop-head: the oldest reading is shed, the freshest always gets in.',
      stats: [{ label: 'sent', value: () => flood.sent }],
      actions: [],
    },
    flood,
    2000,
  );
}

function checkout(system: ActorSystem): Scenario {
  const options = () => ActorOptions.create().withMailboxCapacity(20).withMailboxOverflow('reject');
  // While checkout is down the client keeps its last ref: those orders become dead letters.
  let ref: ActorRef = system.spawn(Checkout, 'checkout', options());
  system.spawn(CheckoutV2, 'checkout-v2');
  let rejected = 0;
  let backoffMs = 0;
  let down = false;
  const client = new Producer(25, (n) => {
    const order = { kind: 'order', orderId: `o-${n}`, amount: Math.round(Math.random() * 20000) / 100, currency: 'EUR' };
    try {
      ref.tell(order);
      backoffMs = 0;
      return true;
    } catch (e) {
      if (!(e instanceof MailboxFullError)) throw e;
      // reject: the sender carries the backpressure and backs off, doubling up to 2 s.
      rejected++;
      backoffMs = Math.min(2000, backoffMs === 0 ? 100 : backoffMs * 2);
      client.pause(backoffMs);
      return false;
    }
  });
  // stop() sends a PoisonPill as a user message, so a full reject mailbox refuses
  // it too: retry until there is room (the checkout drains meanwhile).
  const takeDown = (attempt = 0) => {
    try {
      system.stop(ref);
      down = true;
    } catch (e) {
      if (!(e instanceof MailboxFullError) || attempt >= 50) throw e;
      setTimeout(() => takeDown(attempt + 1), 100);
    }
  };
  const bringBack = (attempt = 0) => {
    try {
      ref = system.spawn(Checkout, 'checkout', options());
      down = false;
    } catch {
      // The old incarnation may still be stopping; try again shortly.
      if (attempt < 20) setTimeout(() => bringBack(attempt + 1), 100);
    }
  };
  return producerScenario(
    {
      id: 'checkout',
      title: 'Checkout with reject, a client that backs off, and an outage',
      blurb: 'Bounded 20, reject: the client gets MailboxFullError and backs off. Take checkout down: its orders become dead letters; bring it back and replay them, or redirect them to checkout-v2.',
      stats: [
        { label: 'sent', value: () => client.sent },
        { label: 'rejected', value: () => rejected },
        { label: 'backoff', value: () => `${backoffMs} ms` },
        { label: 'checkout', value: () => (down ? 'down' : 'up') },
      ],
      actions: [
        {
          id: 'checkout-down',
          label: 'Take checkout down',
          run: () => {
            if (!down) takeDown();
          },
        },
        { id: 'checkout-up', label: 'Bring checkout back', run: () => down && bringBack() },
      ],
    },
    client,
    200,
  );
}

const PRIORITY = { urgent: 0, normal: 5, bulk: 10 } as const;

function triage(system: ActorSystem): Scenario {
  const triageRef = system.spawn(
    Triage,
    'triage',
    ActorOptions.create().withMailbox(
      () =>
        new PriorityMailbox({
          // Framework messages (PoisonPill) have no kind: they rank last.
          priorityFor: (m: { kind?: keyof typeof PRIORITY }) => (m && m.kind ? PRIORITY[m.kind] : UNRANKABLE_PRIORITY),
          capacity: 100,
          overflow: 'drop-lowest-priority',
        }),
    ),
  );
  const kinds = ['bulk', 'bulk', 'bulk', 'normal', 'normal', 'urgent'] as const;
  const feed = new Producer(40, (n) => {
    const kind = kinds[n % kinds.length];
    triageRef.tell({ kind, text: kind === 'urgent' ? 'page-out: disk full' : kind === 'normal' ? 'user login' : `batch import row ${n}` });
  });
  return producerScenario(
    {
      id: 'triage',
      title: 'Triage with a priority mailbox',
      blurb: 'urgent 0 · normal 5 · bulk 10, capacity 100: when full, the least important message is shed.',
      stats: [{ label: 'sent', value: () => feed.sent }],
      actions: [],
    },
    feed,
    400,
  );
}

function boundedWorker(system: ActorSystem): Scenario {
  const worker = system.spawn(
    BoundedWorker,
    'worker',
    ActorOptions.create().withMailbox(() => new BoundedMailbox({ capacity: 30, overflow: 'drop-new', deadLetterDrops: true })),
  );
  const jobs = new Producer(24, (n) => {
    worker.tell({ kind: 'job', jobId: n, attempt: 1 });
  });
  return producerScenario(
    {
      id: 'worker',
      title: 'Bounded worker with deadLetterDrops',
      blurb: 'Bounded 30, drop-new, deadLetterDrops on: every dropped job becomes a dead letter you can inspect and replay.',
      stats: [{ label: 'sent', value: () => jobs.sent }],
      actions: [],
    },
    jobs,
    300,
  );
}

function poison(system: ActorSystem): Scenario {
  const ledger = system.spawn(Ledger, 'ledger');
  let sent = 0;
  const s: Scenario = {
    id: 'poison',
    title: 'A poison message',
    blurb: 'The ledger cannot process it and declares it unhandled. Replay it: it comes back as the same entry until max-replays quarantines it.',
    rate: null,
    enabled: true,
    stats: [{ label: 'sent', value: () => sent }],
    actions: [
      {
        id: 'send-poison',
        label: 'Send poison message',
        run: () => {
          sent++;
          ledger.tell({ kind: 'poison', entry: { account: 'ACC-0042', amount: -1e309, note: 'cannot be booked' } });
        },
      },
      {
        id: 'send-hostile',
        label: 'Send hostile payload',
        run: () => {
          sent++;
          system.actorSelection('/user/archive').tell({ kind: 'comment', html: '<img src=x onerror=alert(1)>', script: '<script>alert(2)</script>' });
        },
      },
      {
        id: 'send-huge',
        label: 'Send huge payloads',
        run: () => {
          sent += 2;
          system.actorSelection('/user/archive').tell({ kind: 'blob', body: 'A'.repeat(1_000_000) });
          let deep: unknown = { bottom: true };
          for (let i = 0; i < 500; i++) deep = { level: deep };
          system.actorSelection('/user/archive').tell(deep);
        },
      },
    ],
    setEnabled(on) {
      s.enabled = on;
    },
    setRate() {},
  };
  return s;
}

export function createScenarios(system: ActorSystem): Scenario[] {
  return [sensorSink(system), checkout(system), triage(system), boundedWorker(system), poison(system)];
}
