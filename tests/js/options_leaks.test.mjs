// No error crosses embind unconverted and nothing leaks on an error path:
// bad options — wrong types caught in JS, wrong types handed straight to the
// raw binding (past the JS checks), bad values the core refuses — leave the
// live embind handles, the wasm stack pointer and the heap where they were.
// (Before, a wrong type reached an embind conversion, threw a BindingError
// through C++ frames and leaked handles and stack until the module died.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorSystem, BoundedMailbox, DeadLetterQueueOptions, OneForOneStrategy, OptionsError,
  wasmModule as core,
} from 'mailroom';
import { uniqueName } from './helpers.mjs';

// MAILROOM_BAD_OPTION_CALLS: how many bad calls in all (default 1,000,000).
const CALLS = Number(process.env.MAILROOM_BAD_OPTION_CALLS ?? 1_000_000);

class Quiet extends Actor {
  onReceive() {}
}

function refused(run) {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

test(`${CALLS.toLocaleString('en')} bad option calls leave handles, wasm stack and heap where they were`, async () => {
  const system = ActorSystem.create(uniqueName('bad-options'));
  const kinds = [
    // JS type checks (the core's OptionsError, the value as given)
    () => system.spawn(Quiet, 'a', { mailboxOverflow: 5 }),
    () => ActorSystem.create('never', { deadLetters: { store: 5 } }),
    () => new BoundedMailbox({ capacity: '5' }),
    // values the core refuses
    () => system.spawn(Quiet, 'a', { throughput: Number.NaN }),
    () => ActorSystem.create('never', { deadLetters: DeadLetterQueueOptions.create().withRetentionMs(1.5) }),
    () => new OneForOneStrategy(() => 'stop', { maxRetries: 1.5 }),
    // wrong types handed to the raw binding, past every JS check
    () => core.checkRaw(core.systemSpawn(system._id, 0, Quiet, 'Quiet', 'a', { mailboxOverflow: 5, mailboxCapacity: 1 })),
    () => core.checkRaw(core.systemCreate('never', { deadLetters: { store: 5 }, metrics: 'yes' })),
    () => core.checkRaw(core.mailboxCreate('bounded', { capacity: '5', overflow: {} })),
  ];
  core.checkRaw = (status) => {
    if (status?.error?.type !== 'OptionsError') throw new Error(`not an OptionsError record: ${JSON.stringify(status)}`);
    throw new OptionsError(status.error.message, status.error);
  };
  const round = (n) => {
    for (let i = 0; i < n; i += 1) {
      const error = refused(kinds[i % kinds.length]);
      if (!(error instanceof OptionsError)) assert.fail(`call ${i % kinds.length}: ${error}`);
    }
  };
  round(kinds.length * 100);  // first-use allocations
  const handles = core.count_emval_handles();
  const stack = core.stackSave();
  const heap = core.HEAP8.length;
  round(CALLS);
  assert.equal(core.count_emval_handles(), handles, 'live embind handles');
  assert.equal(core.stackSave(), stack, 'wasm stack pointer');
  assert.equal(core.HEAP8.length, heap, 'wasm heap size');
  delete core.checkRaw;
  // Still alive and well: a good spawn after all that.
  system.spawn(Quiet, 'fine');
  assert.ok(system.inspect().some((row) => row.path === '/user/fine'));
  await system.terminate();
});
