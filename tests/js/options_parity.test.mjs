// The options parity table (tests/parity/options_cases.json) through the JS
// API: every case as a plain object and through the builders, on the public
// path (spawn, ActorSystem.create, new BoundedMailbox, new OneForOneStrategy)
// and through the core's resolution of the record. The native
// options_parity_test runs the same cases; both must reach the same outcome,
// and a JS error carries the value as the user gave it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  Actor, ActorOptions, ActorSystem, ActorSystemOptions, BoundedMailbox, BoundedMailboxOptions,
  DeadLetterQueueOptions, Directive, Mailbox, OneForOneStrategy, OptionsError, PriorityMailbox,
  PriorityMailboxOptions,
} from 'mailroom';
import { resolveOptions } from '../../wasm/js/option_checks.js';
import { settingsOf } from '../../wasm/js/options.js';
import { uniqueName } from './helpers.mjs';

const { cases } = JSON.parse(readFileSync(new URL('../parity/options_cases.json', import.meta.url), 'utf8'));

const functions = {
  mailbox: () => new Mailbox(),
  priorityFor: () => 0,
  decider: () => Directive.Restart,
};

function decode(value, field) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if ('$number' in value) return Number(value.$number);
    if ('$function' in value) return functions[field];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v, k)]));
  }
  return value;
}

const builders = {
  ActorOptions, BoundedMailbox: BoundedMailboxOptions, PriorityMailbox: PriorityMailboxOptions,
  DeadLetterQueueOptions, ActorSystemOptions,
};

// The same input through the family's builder (withX for field x).
function built(family, input) {
  const b = builders[family].create();
  for (const [field, value] of Object.entries(input)) {
    const nested = family === 'ActorSystemOptions' && field === 'deadLetters' && typeof value === 'object';
    b[`with${field[0].toUpperCase()}${field.slice(1)}`](nested ? built('DeadLetterQueueOptions', value) : value);
  }
  return b;
}

// Whether a builder can express the input: a misspelled key has no withX
// method (a TypeError in JS, a compile error in TypeScript), so such a case
// runs as a plain object and through the core only.
function buildable(family, input) {
  const builder = builders[family];
  return builder !== undefined && Object.entries(input).every(([field, value]) => {
    const method = builder.prototype[`with${field[0].toUpperCase()}${field.slice(1)}`];
    const nested = family === 'ActorSystemOptions' && field === 'deadLetters' && typeof value === 'object';
    return typeof method === 'function' && (!nested || buildable('DeadLetterQueueOptions', value));
  });
}

class Quiet extends Actor {
  onReceive() {}
}

// What the public API does with the options: the effective values it shows.
async function publicPath(family, options, input) {
  switch (family) {
    case 'ActorOptions': {
      const system = ActorSystem.create(uniqueName('parity'));
      try {
        system.spawn(Quiet, 'a', options);
        const row = system.inspect().find((r) => r.path === '/user/a');
        return { mailboxCapacity: row.capacity, mailboxOverflow: row.overflow };
      } finally {
        await system.terminate();
      }
    }
    case 'BoundedMailbox':
    case 'PriorityMailbox': {
      const mailbox = family === 'BoundedMailbox' ? new BoundedMailbox(options) : new PriorityMailbox(options);
      return { deadLetterDrops: mailbox.deadLetterDrops };
    }
    case 'DeadLetterQueueOptions':
    case 'ActorSystemOptions': {
      const systemOptions = family === 'ActorSystemOptions' ? options
        : (options instanceof DeadLetterQueueOptions ? ActorSystemOptions.create().withDeadLetters(options)
          : { deadLetters: options });
      const system = ActorSystem.create('parity', systemOptions);
      const settings = system.deadLetterQueue.settings;
      await system.terminate();
      return family === 'ActorSystemOptions' ? { deadLetters: settings } : settings;
    }
    default: {
      const { decider, ...limits } = input;
      const s = new OneForOneStrategy(decider, limits);
      return { maxRetries: s.maxRetries, withinTimeRangeMs: s.withinTimeRangeMs };
    }
  }
}

function expectedError(c, input) {
  const family = c.error.family ?? c.family;
  let value;
  if ('value' in c.error) value = c.error.value;
  else value = (family === c.family ? input : input.deadLetters ?? {})[c.error.field];
  return { family, field: c.error.field, value };
}

async function outcome(run) {
  try {
    return { ok: await run() };
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    return { error: { family: error.family, field: error.field, value: error.value } };
  }
}

function pick(object, keys) {
  return Object.fromEntries(keys.filter((k) => k in object).map((k) => [k, object[k]]));
}

// Each case: the core's resolution of the record, then the public path with a
// plain object and with a builder, all reaching the table's outcome.
test('every parity case reaches its outcome in JS, plain object and builder alike', async () => {
  assert.ok(cases.length > 50);
  for (const c of cases) {
    const input = decode(c.input);
    const label = JSON.stringify(c);
    const routes = {
      resolved: () => {
        const r = resolveOptions(c.family, settingsOf(input, c.family === 'OneForOneStrategy' ? 'OneForOneStrategy' : c.family), 'parity');
        if ('logLevelWarning' in r) r.logLevelWarning = r.logLevelWarning !== '';
        return r;
      },
      plain: () => publicPath(c.family, input, input),
      builder: () => publicPath(c.family, builders[c.family] ? built(c.family, input) : input, input),
    };
    if (builders[c.family] && !buildable(c.family, input)) delete routes.builder;
    for (const [route, run] of Object.entries(routes)) {
      const got = await outcome(run);
      if (c.ok) {
        assert.ok(got.ok, `${route} ${label}: ${JSON.stringify(got.error)}`);
        const keys = Object.keys(got.ok);
        const want = { ...c.ok };
        if (want.deadLetters && route !== 'resolved') {
          // A live system names its journal after itself: compare the rest.
          delete want.deadLetters.persistenceId;
          delete got.ok.deadLetters.persistenceId;
        }
        assert.deepEqual(got.ok, pick(want, keys), `${route} ${label}`);
      } else {
        assert.ok(got.error, `${route} ${label}: accepted ${JSON.stringify(got.ok)}`);
        const want = expectedError(c, input);
        assert.equal(got.error.family, want.family, `${route} ${label}`);
        assert.equal(got.error.field, want.field, `${route} ${label}`);
        assert.ok(Object.is(got.error.value, want.value),
          `${route} ${label}: value ${String(got.error.value)} (${typeof got.error.value})`);
      }
    }
  }
});
