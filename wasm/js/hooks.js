// The functions the C++ binding calls back into JS: waking a system's driver,
// building framework messages as JS classes, running actor hooks, calling a
// JS mailbox subclass, and the tagged-JSON codec for persistent payloads.
import { core } from './core_loader.js';
import { DropReason, SpecialMessage } from './closed_sets.js';
import { describe, errorFromRecord } from './errors.js';
import { refFor, senderId, specialOf } from './actor_ref.js';
import {
  actorClassName, actorGone, awaitHook, awaitOutcome, constructActor, deliver, deliverValue, invokeActor, takeOutcome,
} from './actor.js';
import { systems } from './actor_system.js';
import { DeadLetter, Kill, LogEvent, MailboxSizeWarning, PoisonPill, Terminated } from './messages.js';
import { Mailbox, envelopeFromCore, envelopeToCore } from './mailboxes.js';
import { classNameOf } from './tagged_json.js';
import { decodePayload } from './payload_codec.js';
import { decide, strategyRecord } from './supervision.js';
import { deliverLog } from './logger.js';

const dropReasons = Object.values(DropReason);

// How a JS envelope's message goes back to the core: its SpecialMessage code
// (Terminated with the actor's ref id), or None for a JS value.
function toCoreEnvelope(envelope) {
  const e = envelopeToCore(envelope);
  if (envelope.message instanceof Terminated) {
    e.special = SpecialMessage.Terminated;
    e.refId = senderId(envelope.message.actor);
  }
  return e;
}

// User mailboxes that threw where the core cannot take an error (see below):
// queues that cannot hand messages back, sizes that cannot be read.
const brokenQueues = new WeakSet();
const brokenSizes = new WeakSet();

function markBroken(set, instance, member, error, consequence) {
  set.add(instance);
  console.error(`mailroom: ${instance.constructor?.name ?? 'Mailbox'}.${member} threw; ${consequence}:`, error);
}

// Runs fn for the core: its result, or { thrown } (a JS exception must never
// unwind through C++ frames).
function guard(fn) {
  try {
    return fn();
  } catch (thrown) {
    return { thrown };
  }
}

const hooks = {
  wake(systemId) {
    systems.get(systemId)?._driver.wake();
  },
  terminated(systemId) {
    systems.get(systemId)?._finish();
  },
  // The core's sync-within bound: it asks, JS only keeps the time. A
  // system gone meanwhile is ignored by the core.
  armJournalSync(systemId, delayMs) {
    setTimeout(() => core._mr_dlq_sync_due(systemId), delayMs);
  },

  // Framework messages as JS values.
  poisonPill: () => PoisonPill.instance,
  kill: () => Kill.instance,
  terminatedMessage: (id, path) => new Terminated(refFor(id, path)),
  deadLetter: (message, sId, sPath, rId, rPath) =>
    new DeadLetter(message, refFor(sId, sPath), refFor(rId, rPath)),
  sizeWarning: (id, path, size) => new MailboxSizeWarning(refFor(id, path), path, size),
  logEvent: (level, source, message, timestampMs) => new LogEvent(level, source, message, timestampMs),
  // The JS error for a core error record (preRestart/postRestart reasons).
  coreError: (record) => errorFromRecord(record),
  // A log line that passed the system's level, for its JS logger (never throws).
  log: deliverLog,

  // Actors.
  constructActor(systemId, key, actorClass, selfId, selfPath) {
    const system = systems.get(systemId);
    return guard(() => {
      const { instance, index } = constructActor(system, key, actorClass, selfId, selfPath);
      // The class a factory built, not the factory (inspection, metric labels).
      return { instance, index, className: actorClassName(instance.constructor) };
    });
  },
  invokeActor,
  awaitHook,
  // An actor's supervisorStrategy() for the core: null (the core default) or
  // { decider, maxRetries, withinTimeRangeMs }, or { thrown }.
  strategyOf(instance) {
    return guard(() => strategyRecord(instance.supervisorStrategy(),
      `${instance.constructor?.name || 'Actor'}.supervisorStrategy()`));
  },
  // One decision of a JS decider: { directive } | { invalid } | { thrown }.
  decide: (decider, error) => guard(() => decide(decider, error)),

  // withMailbox factories: the core mailbox id to use, or { error }.
  mailboxFromFactory(factory) {
    return guard(() => {
      const mailbox = factory();
      if (!(mailbox instanceof Mailbox)) {
        return {
          error: {
            // describe(): a class or function returned by mistake is named, not its source text.
            type: 'OptionsError', family: 'ActorOptions', field: 'mailbox', value: describe(mailbox),
            message: 'the factory must return a Mailbox instance',
          },
        };
      }
      return { id: mailbox._idForActor() };
    });
  },

  // A JS mailbox subclass driven by the core (the adapter's user path).
  mailboxEnqueue(instance, signal, raw) {
    return guard(() => {
      const envelope = envelopeFromCore(raw);
      if (signal) envelope.undroppable = true;  // a death notification, as index.d.ts says
      if (signal) instance.enqueueSignal(envelope);
      else instance.enqueue(envelope);
      return undefined;
    });
  },
  // A subclass whose dequeueUser or drainUser throws cannot hand its messages
  // back: it is reported once and treated as empty from then on, so its actor
  // (and terminate()) can go on instead of waiting for it forever.
  mailboxDequeue(instance) {
    if (brokenQueues.has(instance)) return null;
    try {
      const envelope = instance.dequeueUser();
      return envelope ? toCoreEnvelope(envelope) : null;
    } catch (error) {
      markBroken(brokenQueues, instance, 'dequeueUser', error, 'its actor now treats it as empty');
      return null;
    }
  },
  mailboxDrain(instance) {
    if (brokenQueues.has(instance)) return [];
    try {
      return instance.drainUser().map(toCoreEnvelope);
    } catch (error) {
      markBroken(brokenQueues, instance, 'drainUser', error, 'its actor now treats it as empty');
      return [];
    }
  },
  mailboxPrepend(instance, raws) {
    return guard(() => {
      instance.prependUser(raws.map(envelopeFromCore));
      return undefined;
    });
  },
  // A throwing size getter must not fail a tell whose message is already
  // queued (the core reads the size after enqueue): reported once, read as 0.
  mailboxSize(instance) {
    if (brokenQueues.has(instance) || brokenSizes.has(instance)) return 0;
    try {
      return Number(instance.size);
    } catch (error) {
      markBroken(brokenSizes, instance, 'size', error, 'it now reads as 0');
      return 0;
    }
  },
  mailboxDroppedCount: (instance) => guard(() => Number(instance.droppedCount ?? 0)),
  mailboxDeadLetterDrops: (instance) => guard(() => Boolean(instance.deadLetterDrops)),
  mailboxReportsDrops: (instance) => typeof instance.observeDrops === 'function',
  mailboxObserveDrops(instance, observerKey) {
    return guard(() => {
      // The seed's SheddingMailbox calls observer(reason) without an envelope.
      instance.observeDrops((reason, envelope) => {
        // A closed set: a reason outside it is the mailbox's bug, never relabelled as drop-new.
        if (!dropReasons.includes(reason)) {
          throw new TypeError(`a drop observer needs ${dropReasons.join(' or ')}, got ${describe(reason)}`);
        }
        core.dropNotify(observerKey, reason, envelope ? toCoreEnvelope(envelope) : null);
      });
    });
  },
  mailboxClassName: (instance) => instance.constructor?.name ?? 'Mailbox',

  // A JS Journal (NodeJournal) called by the core's JsJournal adapter.
  journalCall(storage, method, name, a, b) {
    return guard(() => ({ value: storage[method](name, a, b) }));
  },

  // Persistent payloads are encoded through the raw import mrEncodePayload
  // (payload_codec.js); decoding a journaled one comes through here.
  decodePayload(text) {
    return guard(() => ({ value: decodePayload(text) }));
  },
  classNameOf,
  specialOf,
};

core.installHooks(hooks);

// The per-message imports the core calls with integers (EM_JS in
// wasm/src/js_actor.cpp; the slab's are in value_slab.js): no embind, no
// objects per call.
core.mrSetHotImports({ deliver, deliverNumber: deliverValue });
core.mrTakeOutcome = takeOutcome;
core.mrAwaitOutcome = awaitOutcome;
core.mrActorGone = actorGone;
