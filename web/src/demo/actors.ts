// The demo's actors, modelled on the seeds' examples. Slow ones use an async
// onReceive: the actor holds its mailbox until the promise settles.
import { Actor } from 'mailroom';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Telemetry sink: only the freshest reading matters (drop-head). */
export class SensorSink extends Actor {
  static workMs = 20;
  last: unknown = null;
  async onReceive(reading: unknown) {
    this.last = reading;
    await sleep(SensorSink.workMs);
  }
}

/** Admission point in front of an expensive pipeline (reject). */
export class Checkout extends Actor {
  static workMs = 60;
  async onReceive(_order: unknown) {
    await sleep(Checkout.workMs);
  }
}

/** The redirect target of the outage scenario. */
export class CheckoutV2 extends Actor {
  received = 0;
  onReceive(_order: unknown) {
    this.received++;
  }
}

/** Priority triage: urgent before normal before bulk. */
export class Triage extends Actor {
  static workMs = 40;
  async onReceive(_ticket: unknown) {
    await sleep(Triage.workMs);
  }
}

/** A bounded worker whose losses must be explained: drops become dead letters. */
export class BoundedWorker extends Actor {
  static workMs = 50;
  async onReceive(_job: unknown) {
    await sleep(BoundedWorker.workMs);
  }
}

/** A ledger that cannot process a poison message: it declares it unhandled. */
export class Ledger extends Actor {
  onReceive(message: { kind?: string }) {
    if (message && message.kind === 'poison') this.unhandled(message);
  }
}
