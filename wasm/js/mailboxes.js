// Mailbox, BoundedMailbox, PriorityMailbox: JS classes backed by core mailbox
// objects (the core decides every overflow), usable on their own. Once an
// actor owns one (withMailbox), the core refuses the members that would
// change it (enqueue*, dequeue*, drain*, prependUser, suspend, resume) with
// IllegalStateError naming the owner; reads keep working.
// Envelopes are { message, sender }; a returned envelope carries the very
// message object that was enqueued. A JS subclass that overrides a user-path
// method is driven through a C++ adapter that calls its JS methods.
import { core } from './core_loader.js';
import { MailboxQueue } from './closed_sets.js';
import { IllegalStateError, check, describe } from './errors.js';
import { ActorRef, refFor, senderId, specialOf } from './actor_ref.js';
import { UNRANKABLE_PRIORITY } from './messages.js';
import { settingsOf } from './options.js';
import { withUserValues } from './option_checks.js';

const internal = Symbol('mailroom.internal');
// Dead-letter replay identity travelling with an envelope through JS code.
export const replayKey = Symbol('mailroom.replayEntry');

// Core mailboxes created from JS are released when their JS object is collected.
const releaser = new FinalizationRegistry((id) => core.mailboxRelease(id));

// A user callback the core calls: a throw is reported, never unwound into C++.
export function safely(fn) {
  return (...args) => {
    try {
      fn(...args);
    } catch (error) {
      reportCallbackError(error);
    }
  };
}

export function reportCallbackError(error) {
  console.error('mailroom: an observer or subscriber threw:', error);
}

const { User: USER, Signal: SIGNAL, System: SYSTEM } = MailboxQueue;

// check(), with the core's refusal of an owned mailbox naming the JS member
// the caller used (the core names its own: dequeue_user, ...).
function checkAs(member, result) {
  try {
    return check(result);
  } catch (error) {
    if (error instanceof IllegalStateError) {
      error.message = error.message.replace(/^\w+ refused/, `${member} refused`);
    }
    throw error;
  }
}
const memberOf = { [USER]: 'enqueue', [SIGNAL]: 'enqueueSignal', [SYSTEM]: 'enqueueSystem' };

// Methods whose override makes the actor use the JS-calling adapter.
const userPathMembers = ['enqueue', 'enqueueSignal', 'dequeueUser', 'drainUser', 'prependUser',
  'size', 'hasUserMessages'];

// { message, sender } from what the core returns for an envelope.
export function envelopeFromCore(raw) {
  const envelope = { message: raw.message, sender: refFor(raw.senderId, raw.senderPath) };
  // A death notification (queued by enqueueSignal): no capacity may shed it.
  if (raw.signal) envelope.undroppable = true;
  if (raw.replay) Object.defineProperty(envelope, replayKey, { value: raw.replay });
  return envelope;
}

function checkEnvelope(envelope, what) {
  if (envelope === null || typeof envelope !== 'object' || !('message' in envelope)) {
    throw new TypeError(`${what} needs an envelope { message, sender }, got ${describe(envelope)}`);
  }
  if (envelope.sender != null && !(envelope.sender instanceof ActorRef)) {
    throw new TypeError(`${what}: envelope.sender must be an ActorRef or null`);
  }
  return envelope;
}

// The fields the core needs to rebuild an envelope.
export function envelopeToCore(envelope) {
  return {
    message: envelope.message,
    senderId: senderId(envelope.sender),
    special: specialOf(envelope.message),
    replay: envelope[replayKey] ?? 0,
    signal: envelope.undroppable === true,
  };
}

export class Mailbox {
  constructor(token, kind, settings) {
    const own = token === internal;
    // The core reports values as text; the error carries the value the caller gave.
    const created = withUserValues(own ? { [familyOf[kind]]: settings.given } : {},
      () => check(core.mailboxCreate(own ? kind : 'unbounded', own ? settings.core : {})));
    Object.defineProperty(this, '_id', { value: created.id });
    Object.defineProperty(this, '_adapterId', { value: 0, writable: true });
    releaser.register(this, created.id);
  }

  enqueue(envelope) {
    this._enqueue(USER, checkEnvelope(envelope, 'enqueue'));
  }
  // A death notification: never shed by a capacity.
  enqueueSignal(envelope) {
    this._enqueue(SIGNAL, checkEnvelope(envelope, 'enqueueSignal'));
  }
  enqueueSystem(envelope) {
    this._enqueue(SYSTEM, checkEnvelope(envelope, 'enqueueSystem'));
  }
  _enqueue(which, envelope) {
    const e = envelopeToCore(envelope);
    checkAs(memberOf[which],
      core.mailboxEnqueue(this._id, which, e.message, e.senderId, e.special, e.replay));
  }
  // Undefined while suspended: a suspended mailbox holds its user messages
  // (the core's ActorMailbox::dequeue_user decides it).
  dequeueUser() {
    const raw = checkAs('dequeueUser', core.mailboxDequeue(this._id, USER));
    return raw ? envelopeFromCore(raw) : undefined;
  }
  dequeueSystem() {
    const raw = checkAs('dequeueSystem', core.mailboxDequeue(this._id, SYSTEM));
    return raw ? envelopeFromCore(raw) : undefined;
  }
  drainUser() {
    return checkAs('drainUser', core.mailboxDrain(this._id, USER)).map(envelopeFromCore);
  }
  drainSystem() {
    return checkAs('drainSystem', core.mailboxDrain(this._id, SYSTEM)).map(envelopeFromCore);
  }
  // Put envelopes back at the front in their order (unstash). Bounded: may
  // shed at the tail, or throw MailboxFullError under reject.
  prependUser(envelopes) {
    if (!Array.isArray(envelopes)) throw new TypeError('prependUser needs an array of envelopes');
    const raws = envelopes.map((e) => envelopeToCore(checkEnvelope(e, 'prependUser')));
    checkAs('prependUser', core.mailboxPrepend(this._id, raws));
  }
  // System messages always count; user messages only while not suspended
  // (ActorMailbox::has_messages' rule, composed from the members a subclass
  // may override).
  hasMessages() {
    return this.hasSystemMessages() || (!this.suspended && this.hasUserMessages());
  }
  hasUserMessages() {
    return this.size > 0;
  }
  hasSystemMessages() {
    return core.mailboxSystemSize(this._id) > 0;
  }
  suspend() {
    checkAs('suspend', core.mailboxSuspend(this._id, true));
  }
  resume() {
    checkAs('resume', core.mailboxSuspend(this._id, false));
  }
  // Pending user messages.
  get size() {
    return core.mailboxSize(this._id);
  }
  get suspended() {
    return core.mailboxSuspended(this._id);
  }
  get droppedCount() {
    return core.mailboxDroppedCount(this._id);
  }
  get deadLetterDrops() {
    return core.mailboxDeadLetterDrops(this._id);
  }
  // Additive: observer(reason, envelope) for every drop ('drop-head' | 'drop-new').
  observeDrops(observer) {
    if (typeof observer !== 'function') throw new TypeError('observeDrops needs a function');
    core.mailboxObserveDrops(this._id, safely((reason, raw) => observer(reason, envelopeFromCore(raw))));
  }

  // The core mailbox id an actor should use: the adapter when this object's
  // class overrides the user path, else the core mailbox itself (fast path).
  _idForActor() {
    if (!overridesUserPath(this)) return this._id;
    if (this._adapterId === 0 || !core.mailboxAlive(this._adapterId)) {
      this._adapterId = core.mailboxAdapterCreate(this, this._id);
    }
    return this._adapterId;
  }
}

// Built-in prototypes: overrides found below them come from user code.
const builtIns = new Set();

function overridesUserPath(mailbox) {
  for (let proto = Object.getPrototypeOf(mailbox); proto && !builtIns.has(proto);
    proto = Object.getPrototypeOf(proto)) {
    for (const name of userPathMembers) {
      if (Object.prototype.hasOwnProperty.call(proto, name)) return true;
    }
  }
  return false;
}

const familyOf = { bounded: 'BoundedMailbox', priority: 'PriorityMailbox' };

// FIFO with a capacity; constructed directly its overflow defaults to 'reject'.
export class BoundedMailbox extends Mailbox {
  constructor(options) {
    // JS types checked here (the core's field table); values by the core.
    const s = settingsOf(options, 'BoundedMailbox');
    const onDrop = s.onDrop;
    super(internal, 'bounded', { given: s, core: {
      capacity: s.capacity,
      overflow: s.overflow,
      deadLetterDrops: s.deadLetterDrops,
      onDrop: onDrop ? safely((reason, raw) => onDrop(reason, envelopeFromCore(raw))) : undefined,
    } });
  }
}

// Lower priority first, FIFO among equals. priorityFor runs at enqueue on the
// caller's stack; a throw or a non-number ranks the message UNRANKABLE_PRIORITY.
export class PriorityMailbox extends Mailbox {
  constructor(options) {
    // JS types checked here (the core's field table); values by the core,
    // which also refuses a missing priorityFor.
    const s = settingsOf(options, 'PriorityMailbox');
    const { priorityFor, onPriorityError, onDrop } = s;
    const report = (cause, message) => {
      try {
        onPriorityError?.(cause, message);
      } catch {
        // an error handler that throws must not fail the send either
      }
    };
    // NaN tells the core "unrankable"; the core does the ranking. A throw and
    // a non-number are both reported, the latter as a TypeError naming it.
    const rank = (message) => {
      let p;
      try {
        p = priorityFor(message);
      } catch (error) {
        report(error, message);
        return NaN;
      }
      if (typeof p === 'number' && !Number.isNaN(p)) return p;
      const got = typeof p === 'number' ? 'NaN' : `type ${p === null ? 'null' : typeof p}`;
      report(new TypeError(`priorityFor must return a number, got ${got}`), message);
      return NaN;
    };
    super(internal, 'priority', { given: s, core: {
      priorityFor: priorityFor === undefined || priorityFor === null ? undefined : rank,
      capacity: s.capacity,
      overflow: s.overflow,
      deadLetterDrops: s.deadLetterDrops,
    } });
    // The caller's hook is the first drop observer (the core has no slot for it).
    if (onDrop !== undefined && onDrop !== null) Mailbox.prototype.observeDrops.call(this, onDrop);
  }
}

builtIns.add(Mailbox.prototype).add(BoundedMailbox.prototype).add(PriorityMailbox.prototype);

export { UNRANKABLE_PRIORITY };
