// Hand-written declarations of the mailroom JS API (Emscripten 3.1.6 has no --emit-tsd).

export type OverflowPolicy = 'drop-head' | 'drop-new' | 'reject';
export type PriorityOverflowPolicy = 'drop-lowest-priority' | 'drop-new' | 'reject';
export type MailboxDropReason = 'drop-head' | 'drop-new';
export type DeadLetterStore = 'off' | 'metrics' | 'memory' | 'persistent';
export type ReplayKind =
  | 'replayed'
  | 'unknown-entry'
  | 'unresolved-recipient'
  | 'degraded-payload'
  | 'quarantined'
  | 'rejected'
  | 'control-message';

/** Ranked last by a PriorityMailbox: priorityFor threw or returned a non-number. */
export declare const UNRANKABLE_PRIORITY: number;

// ---------------------------------------------------------------- errors
export declare class MailroomError extends Error {}
export declare class OptionsError extends MailroomError {
  constructor(message: string, facts?: { family?: string; field?: string; value?: unknown });
  readonly family: string;
  readonly field: string;
  readonly value: unknown;
}
export declare class MailboxFullError extends MailroomError {
  readonly path: string;
  readonly capacity: number;
}
export declare class StashOverflowError extends MailroomError {}
export declare class ConfigError extends MailroomError {
  readonly line: number;
  readonly column: number;
}
export declare class InvalidActorNameError extends MailroomError {}
export declare class IllegalStateError extends MailroomError {}
export declare class ActorKilledError extends MailroomError {}
export declare class JournalCorruptionError extends MailroomError {}
/** A journal change could not be made durable; the operator action it belongs to rejects with it. */
export declare class JournalWriteError extends MailroomError {}
/** The journal folder cannot be used (a file of that name is in the way, no permission). */
export declare class JournalFolderError extends MailroomError {
  readonly dir: string;
}
/** A journal stream already has a writer (another live system of the same name, another process). */
export declare class JournalLockedError extends MailroomError {
  readonly stream: string;
  readonly location: string;
}
/**
 * An actor could not be created: its constructor, preStart or postRestart threw,
 * or the promise an async preStart / postRestart returned rejected. What a
 * supervision decider sees; the default strategy stops such an actor.
 */
export declare class ActorInitializationError extends MailroomError {
  constructor(message: string, cause?: unknown);
  /** What was thrown (or the rejection reason). */
  readonly cause: unknown;
}

// ---------------------------------------------------------------- refs and messages
export declare class ActorRef<TMessage = unknown> {
  /** Full path, e.g. "mailroom://orders/user/checkout". */
  readonly path: string;
  /** Never runs the receiver on this stack; a full reject mailbox throws MailboxFullError; a sender that is not an ActorRef (or null) is a TypeError. */
  tell(message: TMessage, sender?: ActorRef | null): void;
  /** PoisonPill as a user message: drain what is queued, then stop. */
  stop(): void;
  /** Kill as a user message: the actor fails with ActorKilledError. */
  kill(): void;
  equals(other: ActorRef): boolean;
  toString(): string;
}

export declare class ActorSelection {
  readonly path: string;
  tell(message: unknown, sender?: ActorRef | null): void;
}

/**
 * `system.deadLetters` ("mailroom://<system>/deadLetters"). A DeadLetter told to it
 * is recorded as it is; any other message becomes `DeadLetter(message, sender,
 * system.deadLetters)`. Captured by the dead-letter queue, then published on the
 * event stream. A DeadLetter wrapping a DeadLetter is dropped (a delivery loop).
 */
export declare class DeadLetterRef extends ActorRef {
  private constructor();
}

export declare class DeadLetter<TMessage = unknown> {
  constructor(message: TMessage, sender: ActorRef | null, recipient: ActorRef);
  readonly message: TMessage;
  readonly sender: ActorRef | null;
  /** The actor the message did not reach. */
  readonly recipient: ActorRef;
}
export declare class Terminated {
  constructor(actor: ActorRef);
  readonly actor: ActorRef;
}
export declare class PoisonPill {
  static readonly instance: PoisonPill;
}
export declare class Kill {
  static readonly instance: Kill;
}
export declare class MailboxSizeWarning {
  readonly actor: ActorRef | null;
  readonly path: string;
  readonly size: number;
}
/** The lowest level a system logs at (default Info); Off silences it. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';
export declare const LogLevel: {
  readonly Debug: 'debug';
  readonly Info: 'info';
  readonly Warn: 'warn';
  readonly Error: 'error';
  readonly Off: 'off';
};
export declare class LogEvent {
  readonly level: LogLevel;
  readonly source: string;
  readonly message: string;
  readonly timestampMs: number;
}

export interface Logger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** What a log line's receiver is told besides the text. */
export interface LogLineMeta {
  readonly level: Exclude<LogLevel, 'off'>;
  /** The actor's local path ("/user/worker"), or the system name. */
  readonly source: string;
  readonly timestampMs: number;
}
/**
 * Where a system's log lines go (ActorSystemOptions.withLogger): any object with
 * these four methods (console qualifies). Called only for lines at or above the
 * system's log level; a throw is reported, never passed to the actor that logged.
 */
export interface LogReceiver {
  debug(message: string, meta: LogLineMeta): void;
  info(message: string, meta: LogLineMeta): void;
  warn(message: string, meta: LogLineMeta): void;
  error(message: string, meta: LogLineMeta): void;
}
/** The default receiver: "[info] /user/worker: processed 1" on console.info (debug, warn, error alike). */
export declare class ConsoleLogger implements LogReceiver {
  debug(message: string, meta: LogLineMeta): void;
  info(message: string, meta: LogLineMeta): void;
  warn(message: string, meta: LogLineMeta): void;
  error(message: string, meta: LogLineMeta): void;
}
/** Drops every line. */
export declare class NoopLogger implements LogReceiver {
  debug(): void;
  info(): void;
  warn(): void;
  error(): void;
}

// ---------------------------------------------------------------- closed sets
// Each set's values come from the core (one table); the strings are what the API takes.
export declare const OverflowPolicy: {
  readonly DropHead: 'drop-head';
  readonly DropNew: 'drop-new';
  readonly Reject: 'reject';
  readonly DropLowestPriority: 'drop-lowest-priority';
};
export type DropReason = MailboxDropReason;
export declare const DropReason: { readonly DropHead: 'drop-head'; readonly DropNew: 'drop-new' };
export declare const DeadLetterStore: {
  readonly Off: 'off';
  readonly Metrics: 'metrics';
  readonly Memory: 'memory';
  readonly Persistent: 'persistent';
};
export type ReplayOutcome = ReplayKind;
export declare const ReplayOutcome: {
  readonly Replayed: 'replayed';
  readonly UnknownEntry: 'unknown-entry';
  readonly UnresolvedRecipient: 'unresolved-recipient';
  readonly DegradedPayload: 'degraded-payload';
  readonly Quarantined: 'quarantined';
  readonly Rejected: 'rejected';
  readonly ControlMessage: 'control-message';
};

// ---------------------------------------------------------------- supervision
export declare enum Directive {
  /** Keep the instance and its state; take the next message. */
  Resume = 'resume',
  /** A new instance (the mailbox is kept). */
  Restart = 'restart',
  /** Stop the child for good. */
  Stop = 'stop',
  /** The supervisor fails with the same error. */
  Escalate = 'escalate',
}
/**
 * Called with the child's error: the JS value it threw (or its promise rejected
 * with), ActorKilledError for Kill, ActorInitializationError (with `cause`) for a
 * failed start. A decider that throws or answers no Directive is logged, and the
 * failure escalates.
 */
export type Decider = (error: any) => Directive;
export interface StrategyOptions {
  /** Restarts tolerated within the window, then the child is stopped. -1 (default): unlimited. */
  maxRetries?: number;
  /** The window in ms; 0 (default): the count never resets. */
  withinTimeRangeMs?: number;
}
export interface SupervisorStrategy {
  readonly scope: 'one-for-one' | 'all-for-one';
  readonly decider: Decider;
  readonly maxRetries: number;
  readonly withinTimeRangeMs: number;
}
/** The directive applies to the failing child only. */
export declare class OneForOneStrategy implements SupervisorStrategy {
  constructor(decider: Decider, opts?: StrategyOptions);
  readonly scope: 'one-for-one';
  readonly decider: Decider;
  readonly maxRetries: number;
  readonly withinTimeRangeMs: number;
}
/**
 * Not supported yet: the core applies a directive to the failing child only, so
 * the constructor throws OptionsError (field 'scope') rather than supervise
 * one-for-one in disguise.
 */
export declare class AllForOneStrategy implements SupervisorStrategy {
  constructor(decider: Decider, opts?: StrategyOptions);
  readonly scope: 'all-for-one';
  readonly decider: Decider;
  readonly maxRetries: number;
  readonly withinTimeRangeMs: number;
}
/** Restart; stop on Kill and on a failed start; at most 10 restarts a minute. */
export declare const defaultStrategy: OneForOneStrategy;
export declare const stoppingStrategy: OneForOneStrategy;
export declare const escalatingStrategy: OneForOneStrategy;
/** A decider from `{ match: ErrorClass, then: Directive }` cases (first match wins). */
export declare function decideBy(
  cases: ReadonlyArray<{ match: abstract new (...args: any[]) => unknown; then: Directive }>,
  fallback?: Directive,
): Decider;

// ---------------------------------------------------------------- actors
export type Receive<T> = (message: T) => void | Promise<void>;
export type ActorClass<T = any> = new () => Actor<T>;
export type ActorFactory<T = any> = () => Actor<T>;

export declare class ActorContext<TMessage = unknown> {
  readonly self: ActorRef<TMessage>;
  readonly sender: ActorRef | null;
  readonly system: ActorSystem;
  readonly log: Logger;
  readonly parent: ActorRef | null;
  readonly children: ReadonlyArray<ActorRef>;
  /**
   * Parks the message being handled, also after an await in an async onReceive (StashOverflowError
   * past 1024; IllegalStateError outside a handler, or when that message is already stashed).
   */
  stash(): void;
  unstashAll(): void;
  become(behavior: Receive<TMessage>, discardOld?: boolean): void;
  unbecome(): void;
  spawn<T>(actor: ActorClass<T> | ActorFactory<T>, name: string, options?: ActorOptionsInput<T>): ActorRef<T>;
  stop(ref: ActorRef): void;
  watch(ref: ActorRef): ActorRef;
  unwatch(ref: ActorRef): ActorRef;
  actorSelection(path: string): ActorSelection;
}

export declare abstract class Actor<TMessage = unknown> {
  constructor();
  protected get context(): ActorContext<TMessage>;
  protected get self(): ActorRef<TMessage>;
  /** The sender of the message being handled, or null. */
  protected get sender(): ActorRef | null;
  protected get system(): ActorSystem;
  protected get log(): Logger;
  /** May be async: the actor takes no next message until the promise settles. */
  onReceive(message: TMessage): void | Promise<void>;
  /**
   * May be async: no message is handled until the promise resolves; a rejection
   * is a failed start (ActorInitializationError, supervised).
   */
  preStart(): void | Promise<void>;
  /** A returned promise is only watched (a rejection is logged). */
  postStop(): void | Promise<void>;
  /** A returned promise is only watched (a rejection is logged). */
  preRestart(reason: unknown, message?: TMessage): void | Promise<void>;
  /** Default: preStart(). May be async, as preStart. */
  postRestart(reason: unknown): void | Promise<void>;
  /** How this actor supervises its children. Default: defaultStrategy. */
  supervisorStrategy(): SupervisorStrategy;
  /** The message becomes a dead letter. */
  protected unhandled(message: unknown): void;
}

// ---------------------------------------------------------------- mailboxes
export interface Envelope<T = unknown> {
  readonly message: T;
  readonly sender: ActorRef | null;
  /** A death notification (queued by enqueueSignal): no capacity sheds it, prependUser included. */
  readonly undroppable?: boolean;
}
/** Built-in mailboxes always pass the envelope; a custom one may report only the reason. */
export type MailboxDropObserver<T = unknown> = (reason: MailboxDropReason, envelope?: Envelope<T>) => void;

/**
 * A mailbox usable on its own. Once an actor owns it (returned by a withMailbox factory), the
 * members that would change it (enqueue*, dequeue*, drain*, prependUser, suspend, resume) throw
 * IllegalStateError naming the owner; reads and observeDrops keep working. The framework's calls
 * into a subclass (its super.enqueue inside an enqueue override) are not affected.
 */
export declare class Mailbox<T = unknown> {
  constructor();
  enqueue(envelope: Envelope<T>): void;
  /** A death notification: never shed by a capacity. */
  enqueueSignal(envelope: Envelope<T>): void;
  enqueueSystem(envelope: Envelope<unknown>): void;
  dequeueUser(): Envelope<T> | undefined;
  dequeueSystem(): Envelope<unknown> | undefined;
  drainUser(): Envelope<T>[];
  drainSystem(): Envelope<unknown>[];
  prependUser(envelopes: Envelope<T>[]): void;
  hasMessages(): boolean;
  hasUserMessages(): boolean;
  hasSystemMessages(): boolean;
  suspend(): void;
  resume(): void;
  get size(): number;
  get suspended(): boolean;
  get droppedCount(): number;
  get deadLetterDrops(): boolean;
  observeDrops(observer: MailboxDropObserver<T>): void;
}

export interface BoundedMailboxSettings<T = unknown> {
  capacity?: number;
  overflow?: OverflowPolicy;
  deadLetterDrops?: boolean;
  onDrop?: MailboxDropObserver<T>;
}
export declare class BoundedMailboxOptions<T = unknown> {
  static create<T = unknown>(): BoundedMailboxOptions<T>;
  capacity?: number;
  overflow?: OverflowPolicy;
  deadLetterDrops?: boolean;
  onDrop?: MailboxDropObserver<T>;
  withCapacity(capacity: number): this;
  withOverflow(policy: OverflowPolicy): this;
  withDeadLetterDrops(enabled?: boolean): this;
  withOnDrop(observer: MailboxDropObserver<T>): this;
}
/** Constructed directly, the overflow policy defaults to 'reject'. */
export declare class BoundedMailbox<T = unknown> extends Mailbox<T> {
  constructor(options: BoundedMailboxSettings<T> | BoundedMailboxOptions<T>);
}

export interface PriorityMailboxSettings<T = unknown> {
  priorityFor?: (message: T) => number;
  capacity?: number;
  overflow?: PriorityOverflowPolicy;
  deadLetterDrops?: boolean;
  onPriorityError?: (error: unknown, message: T) => void;
}
export declare class PriorityMailboxOptions<T = unknown> {
  static create<T = unknown>(): PriorityMailboxOptions<T>;
  withPriorityFor(fn: (message: T) => number): this;
  withCapacity(capacity: number): this;
  withOverflow(policy: PriorityOverflowPolicy): this;
  withDeadLetterDrops(enabled?: boolean): this;
  withOnPriorityError(fn: (error: unknown, message: T) => void): this;
}
/** Lower priority first, FIFO among equals. */
export declare class PriorityMailbox<T = unknown> extends Mailbox<T> {
  constructor(options: PriorityMailboxSettings<T> | PriorityMailboxOptions<T>);
}

// ---------------------------------------------------------------- options
export interface ActorOptionsSettings<T = unknown> {
  mailboxCapacity?: number;
  mailboxOverflow?: OverflowPolicy;
  mailbox?: () => Mailbox<any>;
  throughput?: number;
  /** The class name inspect(), the panel and the `class` metric label show (survives minification). */
  className?: string;
  supervisorStrategy?: SupervisorStrategy;
}
export declare class ActorOptions<T = unknown> {
  static create<T = unknown>(): ActorOptions<T>;
  withMailboxCapacity(capacity: number): this;
  /** Needs a capacity; defaults to 'drop-head'. */
  withMailboxOverflow(policy: OverflowPolicy): this;
  /** Called once per actor; cannot be combined with withMailboxCapacity. */
  withMailbox(factory: () => Mailbox<any>): this;
  withThroughput(messages: number): this;
  /** Names the actor's class for inspect(), the panel and metrics, instead of constructor.name (minified builds rename classes). */
  withClassName(name: string): this;
  /** How the parent supervises this actor, instead of the parent's supervisorStrategy(). */
  withSupervisorStrategy(strategy: SupervisorStrategy): this;
}
export type ActorOptionsInput<T = unknown> = ActorOptions<T> | ActorOptionsSettings<T>;

export interface DeadLetterQueueSettings {
  store?: DeadLetterStore;
  maxEntries?: number;
  retentionMs?: number;
  maxReplays?: number;
  persistenceId?: string;
  /** Every journal change is durable at most this many ms after it (0..60000; default 50 in Node, 250 in the browser). */
  syncWithinMs?: number;
}
export declare class DeadLetterQueueOptions {
  static create(): DeadLetterQueueOptions;
  withStore(store: DeadLetterStore): this;
  withMaxEntries(maxEntries: number): this;
  withRetentionMs(retentionMs: number): this;
  withMaxReplays(maxReplays: number): this;
  withPersistenceId(persistenceId: string): this;
  withSyncWithinMs(syncWithinMs: number): this;
}

export interface ActorSystemSettings {
  deadLetters?: DeadLetterQueueOptions | DeadLetterQueueSettings;
  config?: string | Record<string, unknown>;
  metrics?: boolean;
  journalDir?: string;
  logLevel?: LogLevel;
  logger?: LogReceiver;
}
export declare class ActorSystemOptions {
  static create(): ActorSystemOptions;
  withDeadLetters(options: DeadLetterQueueOptions | DeadLetterQueueSettings): this;
  /** HOCON, e.g. `mailroom.dead-letters { store = "memory" }`. */
  withConfig(hocon: string | Record<string, unknown>): this;
  withMetrics(enabled?: boolean): this;
  /** Where a persistent queue keeps its journal (Node: a real folder). */
  withJournalDir(dir: string): this;
  /** The lowest level that reaches the logger (default LogLevel.Info; over HOCON `mailroom.logger.level`). */
  withLogLevel(level: LogLevel): this;
  /** Where log lines go (default: a ConsoleLogger); `new NoopLogger()` drops them. */
  withLogger(logger: LogReceiver): this;
}

// ---------------------------------------------------------------- the system
export type DeadLetterPayload =
  | { readonly kind: 'captured'; readonly message: unknown }
  | { readonly kind: 'degraded'; readonly className: string; readonly reason: string };

export interface DeadLetterEntry {
  readonly id: string;
  readonly timestampMs: number;
  readonly recipientPath: string;
  readonly senderPath: string | null;
  readonly replayCount: number;
  readonly quarantined: boolean;
  /** Why it died (the latest time, for a replayed letter that came back); journaled. */
  readonly cause: DeadLetterCause;
  /** The mailbox policy that shed it, when `cause` is 'dropped'. */
  readonly dropPolicy?: 'drop-head' | 'drop-new';
  readonly payload: DeadLetterPayload;
}
/**
 * 'stopped': told to (or queued for) an actor that stopped; 'no-recipient': nobody at the
 * path or selection; 'unhandled': declared unhandled; 'dropped': shed by a bounded mailbox
 * with deadLetterDrops (see dropPolicy); 'restarted': stashed by an instance a restart
 * replaced; 'published': sent to the dead letters by hand; 'unknown': from a journal
 * written before causes were recorded.
 */
export type DeadLetterCause = 'stopped' | 'no-recipient' | 'unhandled' | 'dropped' | 'restarted' | 'published' | 'unknown';
export interface DeadLetterFilter {
  /** A path or its subtree. */
  readonly recipient?: string;
  readonly sinceMs?: number;
  readonly untilMs?: number;
  readonly limit?: number;
}
export interface ReplayResult {
  readonly kind: ReplayKind;
  readonly recipientPath?: string;
  /** On 'quarantined': how often the letter was already replayed. */
  readonly replayCount?: number;
}
export type RemoveKind = 'removed' | 'unknown-entry' | 'in-flight';
export interface RemoveResult {
  readonly id: string;
  readonly outcome: RemoveKind;
}
export type ReleaseKind = 'released' | 'unknown-entry' | 'not-quarantined';
/**
 * `system.deadLetterQueue` is the system's queue. A queue built by hand with
 * `new DeadLetterQueue(system, options)` is valid but never installed as the
 * capture sink: it never holds a letter (configure with withDeadLetters).
 */
export declare class DeadLetterQueue {
  constructor(system: ActorSystem, options?: DeadLetterQueueOptions | DeadLetterQueueSettings);
  list(filter?: DeadLetterFilter): Promise<DeadLetterEntry[]>;
  get(id: string): Promise<DeadLetterEntry | undefined>;
  /** Resolves once the replay's journal records are durable. */
  replay(id: string, alternatePath?: string): Promise<ReplayResult>;
  /** Purge: one named outcome per id, in order; resolves once journaled durably (a purged letter never comes back). */
  remove(ids: readonly string[]): Promise<{ readonly results: readonly RemoveResult[] }>;
  /** Lifts a quarantine: replayCount goes back to 0 (resolves once journaled durably). */
  release(id: string): Promise<{ readonly kind: ReleaseKind }>;
  clear(): Promise<number>;
  /** Resolves once every change journaled so far is durable (written and fdatasync'ed in Node, committed to IndexedDB in the browser). */
  whenDurable(): Promise<void>;
  readonly settings: Required<DeadLetterQueueSettings>;
  readonly store: DeadLetterStore;
}

export type EventClass<T> = abstract new (...args: any[]) => T;
export interface EventStream {
  subscribe<T>(subscriber: ActorRef | ((event: T) => void), type: EventClass<T>): boolean;
  unsubscribe(subscriber: ActorRef | ((event: any) => void), type?: EventClass<unknown>): boolean;
  publish(event: object): void;
}

export interface ActorSnapshot {
  readonly path: string;
  readonly fullPath: string;
  readonly className: string;
  readonly mailboxKind: string;
  readonly capacity: number | null;
  readonly overflow: string | null;
  readonly userDepth: number;
  readonly systemDepth: number;
  readonly stashSize: number;
  readonly dropped: number;
  readonly suspended: boolean;
  readonly processed: number;
  readonly deadLetterDrops: boolean;
}

export declare class ActorSystem {
  private constructor();
  static create(name: string, options?: ActorSystemOptions | ActorSystemSettings): ActorSystem;
  readonly name: string;
  readonly eventStream: EventStream;
  /** The dead-letter office as a ref: what it is told becomes a DeadLetter. */
  readonly deadLetters: DeadLetterRef;
  readonly deadLetterQueue: DeadLetterQueue;
  readonly log: Logger;
  readonly metrics: { scrape(): string };
  spawn<T>(actor: ActorClass<T> | ActorFactory<T>, name: string, options?: ActorOptionsInput<T>): ActorRef<T>;
  actorSelection(path: string): ActorSelection;
  resolve(path: string): ActorRef | null;
  stop(ref: ActorRef): void;
  inspect(): ActorSnapshot[];
  terminate(): Promise<void>;
  readonly whenTerminated: Promise<void>;
}

// ---------------------------------------------------------------- tagged JSON
export declare class EncodeRefusal extends Error {
  readonly className: string;
  readonly reason: string;
}
/**
 * A JS value as the persistent store journals it (docs/dead-letters.md, "Payload fidelity"):
 * decodeTagged gives it back deep-equal, type included (an ActorRef as a ref to the same path),
 * or encodeTagged throws an EncodeRefusal naming the class and the reason. Never any other error.
 */
export declare function encodeTagged(value: unknown): string;
/** The value encodeTagged wrote; malformed text is a SyntaxError. */
export declare function decodeTagged(text: string): unknown;
/** The DevTools protocol (docs/devtools-protocol.md) for a system in this page: the panel's loopback. */
export interface DevtoolsSession {
  receive(frame: string): string[];
  poll(): string[];
  nextPollInMs(): number;
  close(): void;
}
export declare function openDevtoolsSession(system: ActorSystem, options?: { allowWrites?: boolean }): DevtoolsSession;

/** The raw Emscripten module (count_emval_handles, HEAP8, FS, ...). */
export declare const wasmModule: any;
