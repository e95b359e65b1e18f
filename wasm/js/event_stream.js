// system.eventStream: publish/subscribe by message class. Framework classes
// (DeadLetter, Terminated, MailboxSizeWarning, LogEvent) are the core's event
// stream; any other class is matched here with instanceof, for JS publishers.
import { core } from './core_loader.js';
import { check, describe } from './errors.js';
import { ActorRef } from './actor_ref.js';
import { safely } from './mailboxes.js';
import { DeadLetter, LogEvent, MailboxSizeWarning, Terminated } from './messages.js';

const coreTopics = new Map([
  [DeadLetter, 'DeadLetter'],
  [Terminated, 'Terminated'],
  [MailboxSizeWarning, 'MailboxSizeWarning'],
  [LogEvent, 'LogEvent'],
]);

export class EventStream {
  constructor(system) {
    this._system = system;
    this._coreSubs = [];  // { subscriber, type, id }
    this._jsSubs = [];  // { subscriber, type }
  }

  // subscriber: an ActorRef (told the event) or a function (called with it).
  subscribe(subscriber, type) {
    if (!(subscriber instanceof ActorRef) && typeof subscriber !== 'function') {
      throw new TypeError(`subscribe needs an ActorRef or a function, got ${describe(subscriber)}`);
    }
    if (typeof type !== 'function') {
      throw new TypeError(`subscribe needs a message class (e.g. DeadLetter), got ${describe(type)}`);
    }
    if (this._find(subscriber, type) >= 0) return false;
    const topic = coreTopics.get(type);
    if (topic === undefined) {
      this._jsSubs.push({ subscriber, type });
      return true;
    }
    const id = check(
      subscriber instanceof ActorRef
        ? core.subscribe(this._system._id, topic, subscriber._id, null)
        : core.subscribe(this._system._id, topic, 0, safely((event) => subscriber(event))),
    );
    this._coreSubs.push({ subscriber, type, id });
    return true;
  }

  // Without a type: every subscription of that subscriber.
  unsubscribe(subscriber, type) {
    const matches = (s) => s.subscriber === subscriber && (type === undefined || s.type === type);
    for (const s of this._coreSubs.filter(matches)) core.unsubscribe(this._system._id, s.id);
    const before = this._coreSubs.length + this._jsSubs.length;
    this._coreSubs = this._coreSubs.filter((s) => !matches(s));
    this._jsSubs = this._jsSubs.filter((s) => !matches(s));
    return this._coreSubs.length + this._jsSubs.length < before;
  }

  // Publish a JS event to the subscribers of its class (and its superclasses).
  publish(event) {
    for (const { subscriber, type } of [...this._jsSubs]) {
      if (!(event instanceof type)) continue;
      if (subscriber instanceof ActorRef) subscriber.tell(event);
      else subscriber(event);
    }
  }

  _find(subscriber, type) {
    const all = [...this._coreSubs, ...this._jsSubs];
    return all.findIndex((s) => s.subscriber === subscriber && s.type === type);
  }
}
