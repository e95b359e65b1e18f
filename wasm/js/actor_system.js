// ActorSystem: a core system driven from the JS event loop.
import { core, runningInNode } from './core_loader.js';
import { check, describe, expectString } from './errors.js';
import { ActorSelection, DeadLetterRef, forgetRefs, forgetSelections, refArg, refFor } from './actor_ref.js';
import { Actor, actorClassName } from './actor.js';
import { DeadLetterQueue, liveQueue } from './dead_letter_queue.js';
import { Driver, scheduleTask } from './driver.js';
import { EventStream } from './event_stream.js';
import { Logger, consoleLogger } from './logger.js';
import { exactName } from './exact_text.js';
import { NodeJournalStorage } from './node_journal.js';
import { ActorSystemOptions, checkLogger, configText, settingsOf } from './options.js';
import { resolveOptions, withUserValues } from './option_checks.js';
import { browserJournalStorage, persistBrowserJournal } from './browser_journal.js';
import { strategyRecord } from './supervision.js';

// Browser: a persistent queue's new entries reach IndexedDB shortly after
// capture (coalesced), so a page reload keeps them.

// Live systems by core id (the hooks find them here).
export const systems = new Map();

function systemSettings(options) {
  const given = options !== null && typeof options === 'object' && !(options instanceof ActorSystemOptions)
    ? { ...options, config: configText(options.config) }
    : options;
  const s = settingsOf(given, 'ActorSystemOptions');
  const out = {};
  for (const key of ['config', 'metrics', 'logLevel']) if (s[key] !== undefined) out[key] = s[key];
  if (s.deadLetters != null) out.deadLetters = settingsOf(s.deadLetters, 'DeadLetterQueueOptions');
  // The core's sink calls it for lines at or above the level (hooks.log).
  out.logger = checkLogger(s.logger) ?? consoleLogger;
  // A journal folder (explicit, else HOCON mailroom.journal.dir) is real
  // files in Node, through node:fs; in the browser every folder (the default
  // one included) lives in IndexedDB (browser_journal.js).
  // In Node the folder never reaches the core's with_journal_dir: its rule
  // ('' is refused, not the working folder) is asked for here.
  if (s.journalDir !== undefined) resolveOptions('ActorSystemOptions', { journalDir: s.journalDir });
  let journalDir = s.journalDir;
  if (journalDir === undefined && s.config !== undefined) {
    journalDir = check(core.configString(s.config, 'mailroom.journal.dir')) ?? undefined;
  }
  if (journalDir !== undefined && typeof journalDir !== 'string') throw new TypeError('journalDir must be a string');
  if (runningInNode) {
    if (journalDir !== undefined) out.journal = new NodeJournalStorage(journalDir);
  } else {
    const storage = browserJournalStorage(journalDir);
    if (storage) out.journal = storage;
    else if (journalDir !== undefined) out.journalDir = journalDir;
  }
  return out;
}

function actorSettings(options) {
  const s = settingsOf(options, 'ActorOptions');
  const out = {};
  for (const key of ['mailboxCapacity', 'mailboxOverflow', 'mailbox', 'throughput', 'className']) {
    if (s[key] !== undefined) out[key] = s[key];
  }
  if (s.supervisorStrategy !== undefined) {
    // null: the default strategy, spelled out (it still overrides the parent's).
    out.supervisorStrategy = strategyRecord(s.supervisorStrategy, 'ActorOptions') ?? { default: true };
  }
  return out;
}

export class ActorSystem {
  constructor(token) {
    if (token !== ActorSystem) throw new TypeError('use ActorSystem.create(name, options)');
  }

  static create(name, options) {
    expectString(name, 'ActorSystem.create(name)');
    const settings = systemSettings(options);
    const created = withUserValues(
      { ActorSystemOptions: settings, DeadLetterQueueOptions: settings.deadLetters },
      () => check(core.systemCreate(name, settings)),
    );
    const system = new ActorSystem(ActorSystem);
    system._id = created.id;
    system.name = name;
    system._driver = new Driver(created.id);
    system._terminating = false;
    system._whenTerminated = new Promise((resolve) => {
      system._resolveTerminated = resolve;
    });
    system.eventStream = new EventStream(system);
    system.deadLetters = new DeadLetterRef(created.id, created.deadLettersPath, created.deadLetters);
    system.deadLetterQueue = new DeadLetterQueue(system, undefined, liveQueue);
    system.log = new Logger(system);
    system.metrics = { scrape: () => check(core.metricsScrape(system._id)).text };
    systems.set(created.id, system);
    return system;
  }

  // Spawn a top-level actor under /user. actorClass: an Actor subclass or a
  // function returning an Actor instance.
  spawn(actorClass, name, options) {
    return this._spawn(0, actorClass, name, options);
  }

  _spawn(parentKey, actorClass, name, options) {
    if (typeof actorClass !== 'function') {
      throw new TypeError(`spawn needs an Actor class, got ${describe(actorClass)}`);
    }
    exactName(expectString(name, 'spawn(actorClass, name)'), 'actor name');
    const isClass = actorClass.prototype instanceof Actor || actorClass === Actor;
    if (!isClass && actorClass.prototype !== undefined && /^class[\s{]/.test(String(actorClass))) {
      throw new TypeError(`${actorClass.name} does not extend Actor`);
    }
    const settings = actorSettings(options);
    // The core names the class from spawn on (inspect, metric labels); a
    // factory's class is known only once it has run.
    const className = settings.className ?? (isClass ? actorClassName(actorClass) : '');
    const created = withUserValues({ ActorOptions: settings },
      () => check(core.systemSpawn(this._id, parentKey, actorClass, className, name, settings)));
    return refFor(created.id, created.path);
  }

  actorSelection(path) {
    return new ActorSelection(this._id, path);
  }

  // The live actor at a path ("/user/a" or a full path), or null.
  resolve(path) {
    exactName(expectString(path, 'resolve(path)'), 'actor path');
    const r = core.systemResolve(this._id, path);
    // A terminated system has no actor at any path (ActorRef | null, as typed).
    if (r?.error?.type === 'IllegalStateError') return null;
    const found = check(r);
    return found ? refFor(found.id, found.path) : null;
  }

  stop(ref) {
    check(core.systemStop(this._id, refArg(ref, 'system.stop(ref)')));
  }

  // The core's snapshot of every actor and its mailbox, as plain objects.
  inspect() {
    return check(core.systemInspect(this._id)).actors;
  }

  // Coordinated shutdown; resolves once the actor tree is down, the journal
  // is flushed and every handle this system created is released.
  terminate() {
    if (!this._terminating) {
      this._terminating = true;
      check(core.systemTerminate(this._id));
      this._driver.wake();
    }
    return this._whenTerminated;
  }

  get whenTerminated() {
    return this._whenTerminated;
  }

  // Called (via the hooks) when the core reports the system terminated.
  _finish() {
    scheduleTask(async () => {
      this._driver.stop();
      this.deadLetters._release();
      forgetRefs(core.systemRelease(this._id));
      forgetSelections(this._id);
      systems.delete(this._id);
      await persistBrowserJournal();
      this._resolveTerminated();
    });
  }
}
