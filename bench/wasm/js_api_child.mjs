// One measurement of bench/wasm/js_api.mjs, in its own process:
//   node --expose-gc bench/wasm/js_api_child.mjs <scenario> <mailroom|xstate> <quick|full> [cpu]
// Prints one JSON line { value }. Throughput runs from the first tell (send)
// to the last receive; every workload is warmed up once before it is timed.
// With `cpu`, time is this process's CPU time (user + system, all its
// threads) instead of the wall clock: on a machine shared with other work,
// the wall clock also counts the time other processes held the cores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [scenario, runtime, size, clock] = process.argv.slice(2);
const quick = size === 'quick';
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const now = clock === 'cpu' ? cpuMs : () => performance.now();
const turn = () => new Promise((resolve) => setImmediate(resolve));

let mailroom;
let xstate;
if (runtime === 'mailroom') mailroom = await import('mailroom');
else xstate = await import('xstate');

async function idle(system) {
  for (;;) {
    await turn();
    if (!system._driver._scheduled) {
      await turn();
      if (!system._driver._scheduled) return;
    }
  }
}

// A tenth of n as warm-up, then n messages timed from the first send to the
// last receive. sendAll(count) holds the send loop, so each runtime's loop
// stays its own (no call per message through this helper).
async function throughput(c, n, sendAll) {
  const once = async (count) => {
    const done = c.wait(count);
    const t0 = now();
    sendAll(count);
    return (count / ((await done) - t0)) * 1000;
  };
  await once(n / 10);
  return once(n);
}

// A tenth of n as warm-up, then the figure of a run over n.
async function warmedUp(run, n) {
  await run(n / 10);
  return run(n);
}

// A counting actor that resolves `wait(n)` once it has seen n more messages.
function counter() {
  let count = 0;
  let target = Infinity;
  let resolve = null;
  return {
    hit() {
      count += 1;
      if (count === target) resolve(now());
    },
    wait(n) {
      target = count + n;
      return new Promise((r) => {
        resolve = r;
      });
    },
  };
}

// ---- Mailroom -------------------------------------------------------------
const M = {
  async tell(makeMessage, n) {
    const { Actor, ActorSystem } = mailroom;
    const system = ActorSystem.create('bench');
    const c = counter();
    class Counter extends Actor {
      onReceive() {
        c.hit();
      }
    }
    const ref = system.spawn(Counter, 'counter');
    await idle(system);
    const messages = Array.from({ length: 1000 }, (_, i) => makeMessage(i));
    const value = await throughput(c, n, (count) => {
      for (let i = 0; i < count; i += 1) ref.tell(messages[i % 1000]);
    });
    await system.terminate();
    return value;
  },

  async ping_pong(n) {
    const { Actor, ActorSystem } = mailroom;
    const system = ActorSystem.create('bench');
    let resolve;
    let target = 0;
    let pong = null;
    class Ponger extends Actor {
      onReceive(i) {
        this.sender.tell(i, this.self);
      }
    }
    class Pinger extends Actor {
      onReceive(i) {
        if (i === target) resolve(now());
        else pong.tell(i + 1, this.self);
      }
    }
    pong = system.spawn(Ponger, 'pong');
    const ping = system.spawn(Pinger, 'ping');
    await idle(system);
    const run = async (trips) => {
      target = trips;
      const done = new Promise((r) => {
        resolve = r;
      });
      const t0 = now();
      pong.tell(1, ping);
      return ((await done) - t0) * 1000 / trips;
    };
    const value = await warmedUp(run, n);
    await system.terminate();
    return value;
  },

  async four_producers(n) {
    const { Actor, ActorSystem } = mailroom;
    const system = ActorSystem.create('bench');
    const c = counter();
    class Counter extends Actor {
      onReceive() {
        c.hit();
      }
    }
    class Producer extends Actor {}
    const ref = system.spawn(Counter, 'counter');
    const [p0, p1, p2, p3] = [0, 1, 2, 3].map((k) => system.spawn(Producer, `p${k}`));
    await idle(system);
    const value = await throughput(c, n, (count) => {
      for (let i = 0; i < count / 4; i += 1) {
        ref.tell(i, p0);
        ref.tell(i, p1);
        ref.tell(i, p2);
        ref.tell(i, p3);
      }
    });
    await system.terminate();
    return value;
  },

  // Tells offered per second while a capacity-1000 drop-head mailbox overflows.
  async drop_head(n) {
    const { Actor, ActorOptions, ActorSystem } = mailroom;
    const system = ActorSystem.create('bench');
    class Sink extends Actor {}
    const ref = system.spawn(Sink, 'sink',
      ActorOptions.create().withMailboxCapacity(1000).withMailboxOverflow('drop-head'));
    await idle(system);
    const run = (count) => {
      const t0 = now();
      for (let i = 0; i < count; i += 1) ref.tell(i);
      return count / (now() - t0) * 1000;
    };
    run(n / 10);
    await idle(system);
    const value = run(n);
    await idle(system);
    await system.terminate();
    return value;
  },

  // Throughput of a priority actor when `backlog` messages are queued at once.
  async priority(backlog, total) {
    const { Actor, ActorOptions, ActorSystem, PriorityMailbox } = mailroom;
    const system = ActorSystem.create('bench');
    const c = counter();
    class Worker extends Actor {
      onReceive() {
        c.hit();
      }
    }
    const ref = system.spawn(Worker, 'worker', ActorOptions.create()
      .withMailbox(() => new PriorityMailbox({ priorityFor: (m) => m.p })));
    await idle(system);
    const messages = Array.from({ length: backlog }, (_, i) => ({ p: (i * 7919) % 1000 }));
    const round = async () => {
      const done = c.wait(backlog);
      const t0 = now();
      for (let i = 0; i < backlog; i += 1) ref.tell(messages[i]);
      return (await done) - t0;
    };
    await round();
    const rounds = Math.max(3, Math.round(total / backlog));
    let elapsed = 0;
    for (let r = 0; r < rounds; r += 1) elapsed += await round();
    await system.terminate();
    return rounds * backlog / elapsed * 1000;
  },

  // Microseconds per letter told to a stopped actor, until it is recorded
  // (and, for the persistent store, appended to the journal).
  // syncWithinMs: the durability bound (default: the journal's, 50 ms in Node).
  async dead_letters(store, n, syncWithinMs) {
    const { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, wasmModule } = mailroom;
    const dir = store === 'persistent' ? mkdtempSync(join(tmpdir(), 'mailroom-bench-')) : null;
    let queue = DeadLetterQueueOptions.create().withStore(store).withMaxEntries(n * 2);
    if (syncWithinMs !== undefined) queue = queue.withSyncWithinMs(syncWithinMs);
    let options = ActorSystemOptions.create().withDeadLetters(queue);
    if (dir) options = options.withJournalDir(dir);
    const system = ActorSystem.create('bench', options);
    class Gone extends Actor {}
    const ref = system.spawn(Gone, 'gone');
    ref.stop();
    await idle(system);
    const message = { kind: 'order', id: 1 };
    const run = async (count) => {
      const t0 = now();
      for (let i = 0; i < count; i += 1) ref.tell(message);
      await idle(system);
      if (dir) wasmModule.dlqFlush(system._id);
      return (now() - t0) * 1000 / count;
    };
    const value = await warmedUp(run, n);
    const captured = (await system.deadLetterQueue.list({ limit: 1 })).length;
    if (captured !== 1) throw new Error('nothing was captured');
    await system.terminate();
    if (dir) rmSync(dir, { recursive: true, force: true });
    return value;
  },

  // Heap (JS + wasm) per message queued and not yet delivered; one shared
  // message object, so this is what the queue itself costs per message.
  async queued_bytes(n) {
    const { Actor, ActorSystem, wasmModule } = mailroom;
    const system = ActorSystem.create('bench');
    class Sink extends Actor {}
    const ref = system.spawn(Sink, 'sink');
    await idle(system);
    const message = { i: 1 };
    for (let i = 0; i < n / 10; i += 1) ref.tell(message);  // warm up slab and pool
    await idle(system);
    globalThis.gc();
    const js0 = process.memoryUsage().heapUsed;
    const wasm0 = wasmModule._mr_heap_bytes();
    for (let i = 0; i < n; i += 1) ref.tell(message);
    globalThis.gc();
    const bytes = (process.memoryUsage().heapUsed - js0 + wasmModule._mr_heap_bytes() - wasm0) / n;
    await idle(system);
    await system.terminate();
    return bytes;
  },
};

// ---- XState 5 -------------------------------------------------------------
// The cheapest XState actor logic (fromTransition); send() takes event objects.
const X = {
  async tell(makeEvent, n) {
    const { createActor, fromTransition } = xstate;
    const c = counter();
    const actor = createActor(fromTransition((state) => {
      c.hit();
      return state;
    }, 0));
    actor.start();
    const events = Array.from({ length: 1000 }, (_, i) => makeEvent(i));
    const value = await throughput(c, n, (count) => {
      for (let i = 0; i < count; i += 1) actor.send(events[i % 1000]);
    });
    actor.stop();
    return value;
  },

  async ping_pong(n) {
    const { createActor, fromTransition } = xstate;
    let resolve;
    let target = 0;
    let ping = null;
    const pong = createActor(fromTransition((state, e) => {
      ping.send({ type: 'pong', i: e.i });
      return state;
    }, 0));
    ping = createActor(fromTransition((state, e) => {
      if (e.i === target) resolve(now());
      else pong.send({ type: 'ping', i: e.i + 1 });
      return state;
    }, 0));
    pong.start();
    ping.start();
    const run = async (trips) => {
      target = trips;
      const done = new Promise((r) => {
        resolve = r;
      });
      const t0 = now();
      pong.send({ type: 'ping', i: 1 });
      return ((await done) - t0) * 1000 / trips;
    };
    const value = await warmedUp(run, n);
    return value;
  },

  async four_producers(n) {
    const { createActor, fromTransition } = xstate;
    const c = counter();
    const actor = createActor(fromTransition((state) => {
      c.hit();
      return state;
    }, 0));
    actor.start();
    const value = await throughput(c, n, (count) => {
      for (let i = 0; i < count / 4; i += 1) {
        actor.send({ type: 'n', i, from: 0 });
        actor.send({ type: 'n', i, from: 1 });
        actor.send({ type: 'n', i, from: 2 });
        actor.send({ type: 'n', i, from: 3 });
      }
    });
    actor.stop();
    return value;
  },
};

const n = quick ? 300_000 : 1_000_000;
const impl = runtime === 'mailroom' ? M : X;
const run = {
  tell_numbers: () => (runtime === 'mailroom'
    ? M.tell((i) => i, n)
    : X.tell((i) => ({ type: 'n', value: i }), n)),
  tell_objects: () => impl.tell((i) => ({ type: 'n', value: i }), n),
  ping_pong: () => impl.ping_pong(n / 10),
  four_producers: () => impl.four_producers(n),
  drop_head: () => M.drop_head(n),
  priority_1k: () => M.priority(1000, n / 3),
  priority_100k: () => M.priority(100_000, n / 3),
  dead_letters_memory: () => M.dead_letters('memory', n / 10),
  dead_letters_persistent: () => M.dead_letters('persistent', Math.round(n / 30)),
  dead_letters_persistent_unsynced: () => M.dead_letters('persistent', Math.round(n / 30), 60_000),
  queued_bytes: () => M.queued_bytes(n),
}[scenario];
if (!run) throw new Error(`unknown scenario ${scenario}`);
const value = await run();
process.stdout.write(`${JSON.stringify({ scenario, runtime, value })}\n`);
process.exit(0);
