// mailroom: the JS API over the WebAssembly core. Importing this module loads
// the wasm (top-level await), so everything below is ready to use at once.
import './hooks.js';

export { Actor, ActorContext } from './actor.js';
export { ActorRef, ActorSelection, DeadLetterRef } from './actor_ref.js';
export { ActorSystem } from './actor_system.js';
export { DeadLetterQueue } from './dead_letter_queue.js';
export {
  ActorOptions,
  ActorSystemOptions,
  BoundedMailboxOptions,
  DeadLetterQueueOptions,
  PriorityMailboxOptions,
} from './options.js';
export { Mailbox, BoundedMailbox, PriorityMailbox } from './mailboxes.js';
export {
  DeadLetter,
  Terminated,
  PoisonPill,
  Kill,
  MailboxSizeWarning,
  LogEvent,
  UNRANKABLE_PRIORITY,
} from './messages.js';
export {
  MailroomError,
  OptionsError,
  MailboxFullError,
  StashOverflowError,
  ConfigError,
  InvalidActorNameError,
  IllegalStateError,
  ActorKilledError,
  ActorInitializationError,
  JournalCorruptionError,
  JournalWriteError,
  JournalLockedError,
  JournalFolderError,
} from './errors.js';
export { ConsoleLogger, NoopLogger } from './logger.js';
export { OverflowPolicy, DropReason, DeadLetterStore, ReplayOutcome, LogLevel } from './closed_sets.js';
export {
  Directive,
  OneForOneStrategy,
  AllForOneStrategy,
  defaultStrategy,
  stoppingStrategy,
  escalatingStrategy,
  decideBy,
} from './supervision.js';
export { EncodeRefusal } from './tagged_json.js';
export { encodePayload as encodeTagged, decodePayload as decodeTagged } from './payload_codec.js';
export { openDevtoolsSession } from './devtools.js';
export { core as wasmModule } from './core_loader.js';
