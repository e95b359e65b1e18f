// A Node process killed with SIGKILL (no terminate, no flush by hand): what
// the core's sync-within bound (50 ms in Node) made durable is what the next
// process reads back. Before the bound was the core's, appends waited for
// 64 KiB and a quiet process lost every letter.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { uniqueName } from './helpers.mjs';

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-kill-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const BOUND_MS = 50;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Starts the child; onLine sees each stdout line and may return true to kill.
function runChild(dir, name, args, onLine) {
  const child = spawn(process.execPath,
    [new URL('./journal_kill_child.mjs', import.meta.url).pathname, dir, name, ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  let buffer = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', async (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (child.exitCode === null && !child.killed && (await onLine(line))) {
          resolve({ killedAt: Date.now() });
          child.kill('SIGKILL');
        }
      }
    });
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited ${code} ${signal}`));
    });
  }).then(async (result) => {
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.on('exit', resolve)));
    return result;
  });
}

async function restored(dir, name) {
  const system = ActorSystem.create(name, ActorSystemOptions.create().withJournalDir(dir)
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(1_000_000)));
  const entries = await system.deadLetterQueue.list();
  await system.terminate();
  return entries;
}

test('a quiet Node process killed after twice the bound restores every letter it captured', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('quiet');
  await runChild(dir, name, ['quiet', '300'], async (line) => {
    if (line !== 'ready') return false;
    await sleep(2 * BOUND_MS);
    return true;
  });
  assert.equal((await restored(dir, name)).length, 300);
});

test('a purge that resolved is not undone by a kill right after it', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('purge');
  await runChild(dir, name, ['purge', '100', '40'], async (line) => line === 'ready');
  const entries = await restored(dir, name);
  assert.equal(entries.length, 60);
  assert.deepEqual(new Set(entries.map((e) => e.payload.message)).has('q0'), false);
});

test('a replay that resolved is not undone by a kill right after it: the letter never comes back', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('replay');
  let replayed = null;
  await runChild(dir, name, ['replay', '10'], async (line) => {
    if (line.startsWith('replayed ')) replayed = line.slice(9);
    return line === 'ready';
  });
  const entries = await restored(dir, name);
  assert.ok(replayed);
  assert.equal(entries.length, 9);
  assert.ok(!entries.some((e) => e.id === replayed), 'the replayed letter came back');
});

test('a burst killed mid-way loses at most what arrived within the bound, and keeps no hole', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('burst');
  const sentAt = [];  // [count, ms] as the child reported them
  const { killedAt } = await runChild(dir, name, ['burst'], async (line) => {
    const [word, count, ms] = line.split(' ');
    if (word !== 'sent') return false;
    sentAt.push([Number(count), Number(ms)]);
    return Number(count) >= 20_000;
  });
  const got = new Set((await restored(dir, name)).map((e) => e.payload.message));
  // What was restored is a prefix of what was sent: b0 .. b(k-1).
  let k = 0;
  while (got.has(`b${k}`)) k += 1;
  assert.equal(got.size, k, 'a letter after a missing one was restored: the journal has a hole');
  // Everything reported sent more than the bound (plus a second of slack for a
  // loaded machine) before the kill is back.
  const slackMs = 1000;
  const old = sentAt.filter(([, ms]) => ms < killedAt - BOUND_MS - slackMs).pop();
  if (old) assert.ok(k >= old[0], `lost letters sent ${killedAt - old[1]} ms before the kill`);
  const last = sentAt.at(-1)[0];
  t.diagnostic(`sent at least ${last}, restored ${k}, lost at most ${Math.max(0, last - k)}`);
});
