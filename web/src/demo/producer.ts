// A rate-driven sender: `rate` messages per second, sent in small batches from
// a timer so the page stays responsive. Counts what it sent.
export class Producer {
  rate: number;
  sent = 0;
  private carry = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private pausedUntil = 0;

  constructor(
    rate: number,
    private readonly send: (n: number) => boolean | void,
    private readonly tickMs = 50,
  ) {
    this.rate = rate;
  }

  get running(): boolean {
    return this.timer !== null;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.tickMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Sends nothing until `ms` from now (a client backing off). */
  pause(ms: number): void {
    this.pausedUntil = Date.now() + ms;
  }

  private tick(): void {
    if (Date.now() < this.pausedUntil) return;
    this.carry += (this.rate * this.tickMs) / 1000;
    while (this.carry >= 1) {
      this.carry -= 1;
      this.sent++;
      // The sender returns false to stop this batch (e.g. it was rejected).
      if (this.send(this.sent) === false) {
        this.carry = 0;
        return;
      }
    }
  }
}
