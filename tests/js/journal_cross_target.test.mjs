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
function nativeWriter(dir, name, n) {
  const child = spawn(WRITER, [dir, name, String(n)], { stdio: ['pipe', 'pipe', 'inherit'] });
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
