// What reaches the logger at each level, in JS: the core decides (the same
// rule as natively, tests/native/log_level_test.cpp); the JS logger is only
// the sink. Default info; withLogLevel; HOCON mailroom.logger.level (unknown
// names fall back to info with a warning); withLogger(any object with the
// four methods); NoopLogger; the default console logger prints the seed's
// Worker example.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorSystem, ActorSystemOptions, LogEvent, LogLevel, NoopLogger, OptionsError,
} from 'mailroom';
import { idle, uniqueName, until } from './helpers.mjs';

class Talker extends Actor {
  onReceive() {
    this.log.debug('d');
    this.log.info('i');
    this.log.warn('w');
    this.log.error('e');
  }
}

function recordingLogger() {
  const lines = [];
  const logger = {};
  for (const level of ['debug', 'info', 'warn', 'error']) {
    logger[level] = (message, meta) => lines.push(`${level} ${message} ${meta.source}`);
  }
  return { logger, lines };
}

async function logEachLevel(options = ActorSystemOptions.create()) {
  const { logger, lines } = recordingLogger();
  const system = ActorSystem.create(uniqueName('log'), options.withLogger(logger));
  const published = [];
  system.eventStream.subscribe((e) => published.push(e.message), LogEvent);
  system.spawn(Talker, 'talker').tell('go');
  await idle(system);
  await system.terminate();
  return { lines: lines.filter((l) => l.endsWith('/user/talker')).map((l) => l.split(' ').slice(0, 2).join(' ')), all: lines, published };
}

test('LogLevel is the closed set Debug, Info, Warn, Error, Off', () => {
  assert.deepEqual({ ...LogLevel }, { Debug: 'debug', Info: 'info', Warn: 'warn', Error: 'error', Off: 'off' });
  assert.ok(Object.isFrozen(LogLevel));
});

test('by default info, warn and error reach the logger; debug does not', async () => {
  assert.deepEqual((await logEachLevel()).lines, ['info i', 'warn w', 'error e']);
});

test('withLogLevel sets the threshold; Off silences the logger and the LogEvents', async () => {
  const at = async (level) => logEachLevel(ActorSystemOptions.create().withLogLevel(level));
  assert.deepEqual((await at(LogLevel.Debug)).lines, ['debug d', 'info i', 'warn w', 'error e']);
  assert.deepEqual((await at(LogLevel.Warn)).lines, ['warn w', 'error e']);
  assert.deepEqual((await at(LogLevel.Error)).lines, ['error e']);
  const off = await at(LogLevel.Off);
  assert.deepEqual([off.all, off.published], [[], []]);
});

test('HOCON mailroom.logger.level sets the level; an unknown name is info with a warning', async () => {
  const hocon = (text) => logEachLevel(ActorSystemOptions.create().withConfig(text));
  assert.deepEqual((await hocon('mailroom.logger.level = error')).lines, ['error e']);
  assert.deepEqual((await hocon({ mailroom: { logger: { level: 'debug' } } })).lines,
    ['debug d', 'info i', 'warn w', 'error e']);
  const unknown = await hocon('mailroom.logger.level = chatty');
  assert.deepEqual(unknown.lines, ['info i', 'warn w', 'error e']);
  assert.ok(unknown.all.some((l) => l.startsWith('warn mailroom.logger.level = chatty')), unknown.all.join('\n'));
  // the explicit option wins over HOCON
  assert.deepEqual((await logEachLevel(ActorSystemOptions.create().withConfig('mailroom.logger.level = error')
    .withLogLevel(LogLevel.Warn))).lines, ['warn w', 'error e']);
});

test('a bad level or logger is an OptionsError with the value as given', () => {
  assert.throws(() => ActorSystem.create(uniqueName('log'), ActorSystemOptions.create().withLogLevel('verbose')),
    (e) => e instanceof OptionsError && e.family === 'ActorSystemOptions' && e.field === 'logLevel' && e.value === 'verbose');
  assert.throws(() => ActorSystemOptions.create().withLogLevel(3),
    (e) => e instanceof OptionsError && e.field === 'logLevel' && e.value === 3);
  const partial = { info() {} };
  assert.throws(() => ActorSystemOptions.create().withLogger(partial),
    (e) => e instanceof OptionsError && e.field === 'logger' && e.value === partial && /debug/.test(e.message));
  assert.throws(() => ActorSystem.create(uniqueName('log'), { logger: 'console' }),
    (e) => e instanceof OptionsError && e.field === 'logger' && e.value === 'console');
});

// Swaps the console methods for recorders while run() runs.
async function capturingConsole(run) {
  const seen = [];
  const saved = {};
  for (const method of ['debug', 'info', 'log', 'warn', 'error']) {
    saved[method] = console[method];
    console[method] = (...args) => seen.push(`${method}: ${args.join(' ')}`);
  }
  try {
    await run();
  } finally {
    Object.assign(console, saved);
  }
  return seen;
}

test("the seed's Worker example prints through the default console logger", async () => {
  class Worker extends Actor {
    onReceive(message) {
      this.log.info(`processed ${message.n}`);
    }
  }
  const seen = await capturingConsole(async () => {
    const system = ActorSystem.create(uniqueName('worker'));
    const worker = system.spawn(Worker, 'worker');
    worker.tell({ n: 1 });
    worker.tell({ n: 2 });
    await idle(system);
    await system.terminate();
  });
  assert.deepEqual(seen.filter((l) => l.includes('/user/worker')),
    ['info: [info] /user/worker: processed 1', 'info: [info] /user/worker: processed 2']);
});

test('NoopLogger drops every line; a throwing logger does not break the actor', async () => {
  const quiet = await capturingConsole(async () => {
    const system = ActorSystem.create(uniqueName('noop'), ActorSystemOptions.create()
      .withLogger(new NoopLogger()).withLogLevel(LogLevel.Debug));
    system.spawn(Talker, 'talker').tell('go');
    await idle(system);
    await system.terminate();
  });
  assert.deepEqual(quiet, []);
  let after = 0;
  class Counter extends Talker {
    onReceive(m) {
      super.onReceive(m);
      after += 1;
    }
  }
  const thrower = { debug() {}, info() { throw new Error('sink down'); }, warn() {}, error() {} };
  const seen = await capturingConsole(async () => {
    const system = ActorSystem.create(uniqueName('throwing'), ActorSystemOptions.create().withLogger(thrower));
    const ref = system.spawn(Counter, 'c');
    ref.tell(1);
    ref.tell(2);
    await idle(system);
    await system.terminate();
  });
  assert.equal(after, 2);
  assert.ok(seen.some((l) => l.includes('the logger threw')));
});

test("the seed's priority Worker and SlowConsumer examples print their lines in order", async () => {
  const { ActorOptions, BoundedMailbox, PriorityMailbox } = await import('mailroom');
  class Worker extends Actor {
    onReceive(message) {
      this.log.info(`[${message.kind}] ${message.text}`);
    }
  }
  let processed = 0;
  class SlowConsumer extends Actor {
    async onReceive(message) {
      await new Promise((r) => setTimeout(r, 5));
      this.log.info(`processed ${message.n}`);
      processed += 1;
    }
  }
  const seen = await capturingConsole(async () => {
    const system = ActorSystem.create(uniqueName('demo'));
    const worker = system.spawn(Worker, 'worker', ActorOptions.create().withMailbox(() => new PriorityMailbox({
      priorityFor: (m) => (m.kind === 'urgent' ? 0 : m.kind === 'normal' ? 5 : 10),
    })));
    worker.tell({ kind: 'bulk', text: 'batch import row 1' });
    worker.tell({ kind: 'normal', text: 'user login' });
    worker.tell({ kind: 'urgent', text: 'page-out: disk full' });
    const consumer = system.spawn(SlowConsumer, 'consumer', ActorOptions.create()
      .withMailbox(() => new BoundedMailbox({ capacity: 1_000, overflow: 'drop-head' })));
    for (let n = 1; n <= 3; n += 1) consumer.tell({ kind: 'work', n });
    await until(() => processed === 3);
    await idle(system);
    await system.terminate();
  });
  assert.deepEqual(seen.filter((l) => l.includes('/user/worker')), [
    'info: [info] /user/worker: [urgent] page-out: disk full',
    'info: [info] /user/worker: [normal] user login',
    'info: [info] /user/worker: [bulk] batch import row 1',
  ]);
  assert.deepEqual(seen.filter((l) => l.includes('/user/consumer')), [1, 2, 3].map(
    (n) => `info: [info] /user/consumer: processed ${n}`));
});
