// The runtime surface the panel consumes, as plain data. Only the adapter in
// source/ touches a live system; everything else sees these records.

export type MailboxKind = 'unbounded' | 'bounded' | 'priority' | 'custom' | (string & {});

/** One row of `system.inspect()`. */
export interface ActorSnapshot {
  path: string;
  className: string;
  mailboxKind: MailboxKind;
  capacity: number | null;
  overflow: string | null;
  userDepth: number;
  systemDepth: number;
  stashSize: number;
  dropped: number;
  suspended: boolean;
  processed: number;
  deadLetterDrops: boolean;
}

export type DeadLetterStore = 'off' | 'metrics' | 'memory' | 'persistent';

export interface DeadLetterSettings {
  store: DeadLetterStore;
  maxEntries: number;
  retentionMs: number | null;
  maxReplays: number;
}

export type DeadLetterPayload =
  | { kind: 'captured'; message: unknown }
  | { kind: 'degraded'; className: string; reason: string };

export interface DeadLetterEntry {
  id: string;
  timestampMs: number;
  recipientPath: string;
  senderPath: string | null;
  replayCount: number;
  quarantined: boolean;
  /** Why it died ('stopped', 'no-recipient', 'unhandled', 'dropped', ...); absent from older systems. */
  cause?: string;
  /** The mailbox policy that shed it, when cause is 'dropped'. */
  dropPolicy?: string;
  payload: DeadLetterPayload;
}

/** Ids may cross the binding as numbers or strings; the panel keys by string. */
export type RawEntryId = string | number | bigint;
export type RawDeadLetterEntry = Omit<DeadLetterEntry, 'id'> & { id: RawEntryId };

export interface DeadLetterListFilter {
  recipient?: string;
  sinceMs?: number;
  untilMs?: number;
  limit?: number;
}

export const REPLAY_OUTCOMES = [
  'replayed',
  'unknown-entry',
  'unresolved-recipient',
  'degraded-payload',
  'quarantined',
  'rejected',
  'control-message',
] as const;
export type ReplayOutcome = (typeof REPLAY_OUTCOMES)[number];

export interface ReplayResult {
  kind: ReplayOutcome;
  recipientPath?: string;
  /** With unresolved-recipient: why the core found the redirect path malformed (text, never markup). */
  malformed?: string;
}

/** Exactly what the panel needs from an ActorSystem (real or fake). */
export interface InspectableSystem {
  readonly name?: string;
  inspect(): ActorSnapshot[];
  readonly deadLetterQueue: {
    /** A getter in the wasm API, a method in older drafts: both are accepted. */
    readonly settings: DeadLetterSettings | (() => DeadLetterSettings);
    list(filter?: DeadLetterListFilter): Promise<RawDeadLetterEntry[]>;
    replay(id: RawEntryId, altPath?: string): Promise<ReplayResult>;
    /** Purge (optional: older systems lack it): one named outcome per id, in order. */
    // Readonly in and out, so the wasm API's `remove(ids: readonly string[])` fits.
    remove?(
      ids: readonly RawEntryId[],
    ): Promise<{ readonly results: readonly { readonly id: RawEntryId; readonly outcome: string }[] }>;
    /** Lifts a quarantine (optional). */
    release?(id: RawEntryId): Promise<{ kind: string }>;
    /**
     * Dry run of replay (to `path` when given) or remove (optional): the outcome each id
     * would get now, from the queue's own checks, and the rows of the actors a replay reaches.
     */
    preview?(
      action: 'replay' | 'remove',
      ids: readonly RawEntryId[],
      path?: string,
    ): Promise<{ readonly results: readonly { readonly id: RawEntryId; readonly outcome: string; readonly recipientPath?: string }[]; readonly mailboxes: readonly ActorSnapshot[] }>;
  };
  readonly metrics: { scrape(): string };
  readonly eventStream?: {
    subscribe(listener: (event: unknown) => void, type: unknown): unknown;
    unsubscribe?(listener: (event: unknown) => void, type?: unknown): unknown;
  };
}
