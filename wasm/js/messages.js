// Framework messages as JS classes: what actors and subscribers receive when
// the core delivers one of its own messages.

// Ranked last by a PriorityMailbox: priorityFor threw or did not return a number.
export const UNRANKABLE_PRIORITY = Number.MAX_SAFE_INTEGER;

// A message the system could not deliver, naming the actor it did not reach.
export class DeadLetter {
  constructor(message, sender, recipient) {
    this.message = message;
    this.sender = sender ?? null;
    this.recipient = recipient;
  }
}

// Delivered to a watcher when a watched actor has stopped.
export class Terminated {
  constructor(actor) {
    this.actor = actor;
  }
}

// Stops an actor after the user messages queued before it (a user message).
export class PoisonPill {
  static instance = new PoisonPill();
}

// Fails an actor with ActorKilledError (a user message, handled by supervision).
export class Kill {
  static instance = new Kill();
}

// Published when an unbounded mailbox reaches 10,000 messages and at every doubling.
export class MailboxSizeWarning {
  constructor(actor, path, size) {
    this.actor = actor;
    this.path = path;
    this.size = size;
  }
}

// A log line, published on the event stream.
export class LogEvent {
  constructor(level, source, message, timestampMs) {
    this.level = level;
    this.source = source;
    this.message = message;
    this.timestampMs = timestampMs;
  }
}
