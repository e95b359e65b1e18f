// Logging and the closed sets against the declarations (type-checked only).
import {
  ActorSystem, ActorSystemOptions, ConsoleLogger, DeadLetterStore, Directive, DropReason, LogLevel,
  NoopLogger, OverflowPolicy, ReplayOutcome, type LogLineMeta, type LogReceiver,
} from 'mailroom';

const level: LogLevel = LogLevel.Debug;
const receiver: LogReceiver = {
  debug(message: string, meta: LogLineMeta) { void message; void meta.source; },
  info() {},
  warn() {},
  error() {},
};
ActorSystem.create('typed-logging', ActorSystemOptions.create().withLogLevel(level).withLogger(receiver));
ActorSystem.create('typed-quiet', ActorSystemOptions.create().withLogger(new NoopLogger()).withLogLevel(LogLevel.Off));
ActorSystem.create('typed-console', { logLevel: 'warn', logger: new ConsoleLogger() });
ActorSystem.create('typed-console-object', { logger: console });

const policy: 'drop-head' = OverflowPolicy.DropHead;
const reason: DropReason = DropReason.DropNew;
const store: 'memory' = DeadLetterStore.Memory;
const outcome: ReplayOutcome = ReplayOutcome.Quarantined;
const directive: Directive = Directive.Restart;
void [policy, reason, store, outcome, directive];
