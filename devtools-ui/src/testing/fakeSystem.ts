// A deterministic stand-in for a Mailroom ActorSystem implementing exactly the
// surface the panel consumes (inspect, deadLetterQueue, metrics, eventStream).
// Used by store/component tests, the playground page and the panel benchmark.
import type {
  ActorSnapshot,
  DeadLetterListFilter,
  DeadLetterPayload,
  DeadLetterSettings,
  InspectableSystem,
  RawDeadLetterEntry,
  RawEntryId,
  ReplayResult,
} from '../types';
import { inSubtree, isUserActor, localPath } from '../paths';

export class FakeDeadLetter {}

export interface FakeLetterOptions {
  senderPath?: string | null;
  timestampMs?: number;
  degraded?: { className: string; reason: string };
  /** An entry as a queue would hold it after earlier replays. */
  replayCount?: number;
  quarantined?: boolean;
  /** Why it died (default 'stopped'), and the policy for 'dropped'. */
  cause?: string;
  dropPolicy?: string;
}

interface StoredEntry extends RawDeadLetterEntry {
  id: number;
}

export class FakeSystem implements InspectableSystem {
  readonly name: string;
  private readonly actors = new Map<string, ActorSnapshot>();
  private readonly entries = new Map<number, StoredEntry>();
  private readonly subscribers = new Set<(letter: unknown) => void>();
  private readonly failing = new Set<string>();
  private nextId = 1;
  private captured = 0;
  private replayed = 0;
  private replayFailed = 0;
  /** Messages delivered by replay, per local path, in order. */
  readonly delivered = new Map<string, unknown[]>();
  now: () => number;
  settingsValue: DeadLetterSettings;

  constructor(name = 'fake', settings: Partial<DeadLetterSettings> = {}, now: () => number = Date.now) {
    this.name = name;
    this.now = now;
    this.settingsValue = { store: 'memory', maxEntries: 1000, retentionMs: null, maxReplays: 3, ...settings };
  }

  // ---- scenario controls ------------------------------------------------------

  actor(path: string, fields: Partial<ActorSnapshot> = {}): ActorSnapshot {
    const key = localPath(path);
    const prev = this.actors.get(key);
    const next: ActorSnapshot = {
      path: key,
      className: 'Actor',
      mailboxKind: 'unbounded',
      capacity: null,
      overflow: null,
      userDepth: 0,
      systemDepth: 0,
      stashSize: 0,
      dropped: 0,
      suspended: false,
      processed: 0,
      deadLetterDrops: false,
      ...prev,
      ...fields,
    };
    this.actors.set(key, next);
    return next;
  }

  stopActor(path: string): void {
    this.actors.delete(localPath(path));
  }

  /** Replays to this path dead-letter again (the recipient cannot take it). */
  failReplaysTo(path: string, on = true): void {
    if (on) this.failing.add(localPath(path));
    else this.failing.delete(localPath(path));
  }

  deadLetter(recipientPath: string, message: unknown, options: FakeLetterOptions = {}): number {
    this.captured++;
    this.publish(message);
    if (this.settingsValue.store === 'off' || this.settingsValue.store === 'metrics') return 0;
    const payload: DeadLetterPayload = options.degraded
      ? { kind: 'degraded', ...options.degraded }
      : { kind: 'captured', message };
    const id = this.nextId++;
    this.entries.set(id, {
      id,
      timestampMs: options.timestampMs ?? this.now(),
      recipientPath: localPath(recipientPath),
      senderPath: options.senderPath ?? null,
      replayCount: options.replayCount ?? 0,
      quarantined: options.quarantined ?? false,
      cause: options.cause ?? 'stopped',
      ...(options.dropPolicy ? { dropPolicy: options.dropPolicy } : {}),
      payload,
    });
    while (this.entries.size > this.settingsValue.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as number);
    }
    return id;
  }

  subscriberCount(): number {
    return this.subscribers.size;
  }

  // ---- the consumed surface -----------------------------------------------------

  inspect(): ActorSnapshot[] {
    return [...this.actors.values()].map((a) => ({ ...a }));
  }

  readonly deadLetterQueue = ((self: FakeSystem) => ({
    // A getter, as in the wasm API.
    get settings(): DeadLetterSettings {
      return { ...self.settingsValue };
    },
    async list(filter: DeadLetterListFilter = {}): Promise<RawDeadLetterEntry[]> {
      // One pass, copying only what is returned: with 100,000 entries the panel benchmark
      // reads `sinceMs` whenever letters arrive, and this cost stands in for the runtime's.
      const { recipient, sinceMs = -Infinity, untilMs = Infinity, limit = Infinity } = filter;
      const out: RawDeadLetterEntry[] = [];
      for (const e of self.entries.values()) {
        if (e.timestampMs < sinceMs || e.timestampMs > untilMs) continue;
        if (recipient && !inSubtree(localPath(e.recipientPath), localPath(recipient))) continue;
        out.push(e);
      }
      out.reverse();
      return out.slice(0, limit).map((e) => ({ ...e }));
    },
    async replay(rawId: RawEntryId, altPath?: string): Promise<ReplayResult> {
      return self.replay(Number(rawId), altPath);
    },
    // The core's purge: one named outcome per id, in order.
    async remove(ids: RawEntryId[]): Promise<{ results: { id: RawEntryId; outcome: string }[] }> {
      return { results: ids.map((id) => ({ id, outcome: self.entries.delete(Number(id)) ? 'removed' : 'unknown-entry' })) };
    },
    // The core's dry run: the same checks as replay / remove, changing nothing.
    async preview(action: 'replay' | 'remove', ids: readonly RawEntryId[], path?: string) {
      const seen = new Set<number>();
      const targets = new Set<string>();
      const results = ids.map((raw) => {
        const id = Number(raw);
        if (action === 'remove') {
          const outcome = self.entries.has(id) && !seen.has(id) ? 'removed' : 'unknown-entry';
          seen.add(id);
          return { id: raw, outcome };
        }
        const check = self.replayCheck(id, path);
        if ('refused' in check) return { id: raw, outcome: check.refused };
        targets.add(check.target);
        return { id: raw, outcome: 'replayed', recipientPath: check.target };
      });
      return { results, mailboxes: [...targets].map((t) => ({ ...self.actors.get(t)! })) };
    },
    async release(rawId: RawEntryId): Promise<{ kind: string }> {
      const entry = self.entries.get(Number(rawId));
      if (!entry) return { kind: 'unknown-entry' };
      if (!(entry.quarantined || entry.replayCount >= self.settingsValue.maxReplays)) return { kind: 'not-quarantined' };
      entry.replayCount = 0;
      entry.quarantined = false;
      return { kind: 'released' };
    },
  }))(this);

  readonly metrics = { scrape: (): string => this.scrape() };

  readonly eventStream = {
    subscribe: (listener: (event: unknown) => void, _type: unknown): boolean => {
      if (this.subscribers.has(listener)) return false;
      this.subscribers.add(listener);
      return true;
    },
    unsubscribe: (listener: (event: unknown) => void, _type?: unknown): void => {
      this.subscribers.delete(listener);
    },
  };

  // ---- internals ----------------------------------------------------------------

  private publish(message: unknown) {
    for (const fn of [...this.subscribers]) fn({ message });
  }

  /** What replay checks before delivering (shared with the dry run, as in the core). */
  private replayCheck(id: number, altPath?: string): { refused: ReplayResult['kind'] } | { target: string; actor: ActorSnapshot; entry: StoredEntry } {
    const entry = this.entries.get(id);
    if (!entry) return { refused: 'unknown-entry' };
    if (entry.payload.kind === 'degraded') return { refused: 'degraded-payload' };
    if (entry.quarantined || entry.replayCount >= this.settingsValue.maxReplays) return { refused: 'quarantined' };
    const target = localPath(altPath ?? entry.recipientPath);
    const actor = isUserActor(target) ? this.actors.get(target) : undefined;
    if (!actor) return { refused: 'unresolved-recipient' };
    return { target, actor, entry };
  }

  private replay(id: number, altPath?: string): ReplayResult {
    const check = this.replayCheck(id, altPath);
    if ('refused' in check) {
      if (check.refused === 'quarantined') this.entries.get(id)!.quarantined = true;
      if (check.refused === 'unresolved-recipient') this.replayFailed++;
      return { kind: check.refused };
    }
    const { target, actor, entry } = check;
    if (actor.overflow === 'reject' && actor.capacity !== null && actor.userDepth >= actor.capacity) {
      this.replayFailed++;
      return { kind: 'rejected' };
    }
    this.replayed++;
    entry.replayCount++;
    if (this.failing.has(target)) {
      // Dead-letters again: the same entry comes back, addressed to where it failed.
      entry.recipientPath = target;
      entry.timestampMs = this.now();
      entry.quarantined = entry.replayCount >= this.settingsValue.maxReplays;
      this.captured++;
      this.publish(entry.payload);
      return { kind: 'replayed', recipientPath: target };
    }
    this.entries.delete(id);
    const list = this.delivered.get(target) ?? [];
    list.push((entry.payload as { message: unknown }).message); // checked: not degraded
    this.delivered.set(target, list);
    return { kind: 'replayed', recipientPath: target };
  }

  private scrape(): string {
    const lines = [
      '# HELP actor_dead_letters_total Dead letters seen by the queue, by outcome.',
      '# TYPE actor_dead_letters_total counter',
      `actor_dead_letters_total{outcome="captured"} ${this.captured}`,
      `actor_dead_letters_total{outcome="replayed"} ${this.replayed}`,
      `actor_dead_letters_total{outcome="replay-failed"} ${this.replayFailed}`,
      '# HELP actor_mailbox_dropped_total Messages shed by a bounded mailbox.',
      '# TYPE actor_mailbox_dropped_total counter',
    ];
    for (const a of this.actors.values()) {
      if (a.dropped > 0) {
        const policy = a.overflow === 'drop-new' ? 'drop-new' : 'drop-head';
        lines.push(`actor_mailbox_dropped_total{class="${a.className}",path="${a.path}",policy="${policy}"} ${a.dropped}`);
      }
    }
    lines.push('# HELP actor_mailbox_size User messages waiting.', '# TYPE actor_mailbox_size gauge');
    for (const a of this.actors.values()) lines.push(`actor_mailbox_size{path="${a.path}"} ${a.userDepth}`);
    return lines.join('\n') + '\n';
  }
}
