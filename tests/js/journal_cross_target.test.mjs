// One journal format and one lock protocol for the native and the Node build
// (issue 13): a journal a native process writes is read by Node and the
// reverse, and a writer of either kind refuses the other on the same stream.
// The native side is the real native build: tests/native/tools/journal_writer_tool
// (a native ActorSystem with a persistent store) and tools/mailroom-dlq (the
// native offline reader). Stage 20 builds both; run alone, this file builds
// them in build/native when that folder is configured.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, JournalLockedError } from 'mailroom';
import { idle } from './helpers.mjs';
import { nextMessage, racer, stop } from './writer_race_helpers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD = join(ROOT, 'build/native');
const WRITER = join(BUILD, 'tests/native/journal_writer_tool');
const READER = join(BUILD, 'tools/mailroom-dlq/mailroom-dlq');

function nativeTools() {
  if ((!existsSync(WRITER) || !existsSync(READER)) && existsSync(join(BUILD, 'CMakeCache.txt'))) {
    execFileSync('cmake', ['--build', BUILD, '--target', 'journal_writer_tool', 'mailroom-dlq'], { stdio: 'ignore' });
  }
  return existsSync(WRITER) && existsSync(READER);
}
const skip = nativeTools() ? false : 'no native build in build/native (stage 20 makes one)';

const persistentIn = (dir) => ActorSystemOptions.create().withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withRetentionMs(0));

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-cross-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function letters(system, n, prefix) {
  for (let i = 0; i < n; i += 1) system.actorSelection('/user/gone').tell(`${prefix}${i}`);
  await idle(system);
}
const messages = async (system) => (await system.deadLetterQueue.list()).map((e) => e.payload.message).reverse();
const range = (n, prefix) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

// The native writer: resolves on its first line ("ready" while it holds the stream,
// "locked: ..." when refused) with the process, whose stdin closing ends it.
// With `at` (epoch ms) it starts at that instant.
function nativeWriter(dir, name, n, at) {
  const args = [dir, name, String(n), ...(at === undefined ? [] : [String(at)])];
  const child = spawn(WRITER, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ child, line: out.split('\n')[0], exited });
    });
    child.on('error', reject);
    exited.then((code) => reject(new Error(`journal_writer_tool exited ${code} before a line: ${out}`)));
  });
}

// What the native reader finds in the folder: the messages, oldest first.
function nativeRead(dir, name) {
  const text = execFileSync(READER, ['export', dir, '--system', name], { encoding: 'utf8' });
  return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line).payload.message);
}

test('a journal a native process writes is read by Node, and Node\'s appends are read by the native reader', { skip }, async (t) => {
  const dir = tempDir(t);
  const writer = await nativeWriter(dir, 'cross', 5);
  assert.equal(writer.line, 'ready');
  writer.child.stdin.end();
  assert.equal(await writer.exited, 0);
  const system = ActorSystem.create('cross', persistentIn(dir));
  assert.deepEqual(await messages(system), range(5, 'native-'));
  await letters(system, 3, 'node-');
  await system.terminate();
  assert.deepEqual(nativeRead(dir, 'cross'), [...range(5, 'native-'), ...range(3, 'node-')]);
});

test('a journal Node creates is read by the native reader and continued by a native writer', { skip }, async (t) => {
  const dir = tempDir(t);
  const system = ActorSystem.create('fromnode', persistentIn(dir));
  await letters(system, 4, 'node-');
  await system.terminate();
  assert.deepEqual(nativeRead(dir, 'fromnode'), range(4, 'node-'));
  const writer = await nativeWriter(dir, 'fromnode', 6);  // restores the 4, then captures 6
  writer.child.stdin.end();
  assert.equal(await writer.exited, 0);
  const again = ActorSystem.create('fromnode', persistentIn(dir));
  assert.deepEqual(await messages(again), [...range(4, 'node-'), ...range(6, 'native-')]);
  await again.terminate();
});

test('a native writer holding a stream refuses a Node writer, and a Node writer refuses a native one', { skip }, async (t) => {
  const dir = tempDir(t);
  // Native holds: Node's create is refused, naming the native process.
  const writer = await nativeWriter(dir, 'shared', 2);
  assert.equal(writer.line, 'ready');
  assert.throws(() => ActorSystem.create('shared', persistentIn(dir)),
    (e) => e instanceof JournalLockedError && e.message.includes(`process ${writer.child.pid}`));
  writer.child.stdin.end();
  assert.equal(await writer.exited, 0);
  // Node holds: the native writer is refused (exit 3) and writes nothing.
  const system = ActorSystem.create('shared', persistentIn(dir));
  assert.deepEqual(await messages(system), range(2, 'native-'));
  const refused = await nativeWriter(dir, 'shared', 1).catch((e) => e);
  assert.match(refused.line ?? '', new RegExp(`^locked: .*process ${process.pid}`));
  assert.equal(await refused.exited, 3);
  await letters(system, 1, 'node-');
  await system.terminate();
  assert.deepEqual(nativeRead(dir, 'shared'), [...range(2, 'native-'), 'node-0']);
});

// The takeover race across targets (issue 27): a native writer and one or two
// Node writers released at one instant on a stream whose last writer was
// killed (stale lock) or terminated; both follow one protocol, so exactly one
// writes each round and the stream ends with every winner's letters only.
test('a native and Node writers started at the same instant on one stream: exactly one writes each round', { skip }, async (t) => {
  const dir = tempDir(t);
  const pool = [racer(), racer()];
  t.after(() => pool.forEach(({ child }) => child.kill('SIGKILL')));
  await Promise.all(pool.map((r) => r.ready));
  const rounds = 20;
  const winners = [];
  const expected = [];
  for (let round = 0; round < rounds; round += 1) {
    const at = Date.now() + 40;
    const nodes = pool.slice(0, 1 + (round % 2));
    const answers = nodes.map(({ child }) => nextMessage(child, ['won', 'refused']));
    for (const { child } of nodes) child.send({ type: 'go', dir, name: 'racing', round, at, letters: 3 });
    const native = await nativeWriter(dir, 'racing', 2, at).catch((e) => e);
    const results = await Promise.all(answers);
    const nodeWinner = results.findIndex((r) => r.type === 'won');
    const nativeWon = native.line === 'ready';
    winners.push(results.filter((r) => r.type === 'won').length + (nativeWon ? 1 : 0));
    if (!nativeWon) assert.equal(await native.exited, 3, native.line);
    if (nativeWon) {
      expected.push(...range(2, 'native-'));
      if (round % 2 === 0) await stop(native.child, 'SIGKILL');
      else {
        native.child.stdin.end();
        assert.equal(await native.exited, 0);
      }
    } else if (nodeWinner >= 0) {
      expected.push(...range(3, `r${round}-`));
      if (round % 2 === 0) {
        await stop(pool[nodeWinner].child, 'SIGKILL');
        pool[nodeWinner] = racer();
        await pool[nodeWinner].ready;
      } else {
        const released = nextMessage(pool[nodeWinner].child, ['released']);
        pool[nodeWinner].child.send({ type: 'release' });
        await released;
      }
    }
  }
  assert.deepEqual(winners, Array(rounds).fill(1), 'writers per round');
  assert.deepEqual(nativeRead(dir, 'racing'), expected);
});
