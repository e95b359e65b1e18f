// The Node journal is the core's journal (SPEC §4): CRC-framed files written by
// the core over node:fs, one writer per stream (a lock file with the owner's
// pid), recovery that skips damage and keeps every intact record, the old
// JSON-lines format converted once, a named error for a folder that is a file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions, JournalFolderError, JournalLockedError,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';
import { frames, journalFile } from './journal_frames.mjs';

const persistentIn = (dir, maxEntries = 1000) => ActorSystemOptions.create().withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(maxEntries));

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-node-journal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function letters(system, n, prefix = 'm') {
  for (let i = 0; i < n; i += 1) system.actorSelection('/user/nobody').tell(`${prefix}${i}`);
  await idle(system);
}

test('the Node journal is a file in the core format, and a restart restores it', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('format');
  const first = ActorSystem.create(name, persistentIn(dir));
  await letters(first, 5);
  await first.terminate();
  const bytes = readFileSync(journalFile(dir, name));
  assert.equal(bytes.subarray(0, 4).toString('latin1'), 'MRJL');
  assert.equal(frames(bytes).records.length, 5);
  const second = ActorSystem.create(name, persistentIn(dir));
  const entries = await second.deadLetterQueue.list();
  assert.deepEqual(entries.map((e) => e.payload.message).reverse(), ['m0', 'm1', 'm2', 'm3', 'm4']);
  await second.terminate();
});

test('a second live system with the same name and a persistent store is refused at create', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('twice');
  const first = ActorSystem.create(name, persistentIn(dir));
  await letters(first, 3);
  assert.throws(() => ActorSystem.create(name, persistentIn(dir)), (e) => {
    assert.ok(e instanceof JournalLockedError, String(e));
    assert.equal(e.stream, `mailroom-dead-letters-${name}`);
    assert.match(e.message, /already has a writer/);
    return true;
  });
  await letters(first, 2, 'n');
  await first.terminate();
  // Once the first is down its stream is free, and nothing was merged or lost.
  const again = ActorSystem.create(name, persistentIn(dir));
  assert.equal((await again.deadLetterQueue.list()).length, 5);
  await again.terminate();
});

test('a journal folder path naming an existing file is a JournalFolderError', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'not-a-folder');
  writeFileSync(file, 'x');
  assert.throws(() => ActorSystem.create(uniqueName('file'), persistentIn(file)), (e) => {
    assert.ok(e instanceof JournalFolderError, String(e));
    assert.match(e.message, /existing file, not a folder/);
    return true;
  });
});

test('damage in the middle of a Node journal loses only the damaged record, and the bytes are kept aside', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('flip');
  const first = ActorSystem.create(name, persistentIn(dir));
  await letters(first, 20);
  await first.terminate();
  const file = journalFile(dir, name);
  const bytes = readFileSync(file);
  const { records } = frames(bytes);
  const victim = records[7];
  bytes[victim.offset + 20] ^= 0x5a;  // inside the 8th record's payload
  writeFileSync(file, bytes);
  const second = ActorSystem.create(name, persistentIn(dir));
  const got = (await second.deadLetterQueue.list()).map((e) => e.payload.message).reverse();
  assert.deepEqual(got, Array.from({ length: 20 }, (_, i) => `m${i}`).filter((m) => m !== 'm7'));
  await letters(second, 1, 'after');  // the next append repairs the file first
  await second.terminate();
  assert.ok(existsSync(`${file}.damaged`));
  assert.ok(readFileSync(`${file}.damaged`).includes(bytes.subarray(victim.offset, victim.end)));
  assert.equal(frames(readFileSync(file)).damaged, false);
  const third = ActorSystem.create(name, persistentIn(dir));
  assert.equal((await third.deadLetterQueue.list()).length, 20);
  await third.terminate();
});

test('an old JSON-lines journal is read once and rewritten in the core format', async (t) => {
  // Records as the old Node journal wrote them: {"s": sequence, "p": payload}
  // per line, with a negative s as the compaction marker.
  const source = tempDir(t);
  const name = uniqueName('legacy');
  const writer = ActorSystem.create(name, persistentIn(source));
  await letters(writer, 4);
  await writer.terminate();
  const payloads = frames(readFileSync(journalFile(source, name))).records.map((r) => r.payload);
  const dir = tempDir(t);
  const stream = `mailroom-dead-letters-${name}`;
  const lines = [JSON.stringify({ s: -2, p: '' }), ...payloads.map((p, i) => JSON.stringify({ s: i + 3, p }))];
  writeFileSync(join(dir, `${encodeURIComponent(stream)}.jsonl`), `${lines.join('\n')}\n`);
  const system = ActorSystem.create(name, persistentIn(dir));
  const got = (await system.deadLetterQueue.list()).map((e) => e.payload.message).reverse();
  assert.deepEqual(got, ['m0', 'm1', 'm2', 'm3']);
  await system.terminate();
  const converted = frames(readFileSync(journalFile(dir, name)));
  assert.deepEqual(converted.records.slice(0, 4).map((r) => r.sequence), [3, 4, 5, 6]);
  assert.ok(existsSync(join(dir, `${encodeURIComponent(stream)}.jsonl.migrated`)));
  assert.ok(!existsSync(join(dir, `${encodeURIComponent(stream)}.jsonl`)));
});

test('kill -9 during a burst loses nothing the child had acknowledged, and the file stays readable', async (t) => {
  const dir = tempDir(t);
  const name = uniqueName('kill');
  const child = spawn(process.execPath, [new URL('./journal_burst_child.mjs', import.meta.url).pathname, dir, name], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let acked = -1;
  let buffer = '';
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith('ack ')) acked = Number(line.slice(4));
        if (acked >= 3000 && child.exitCode === null) {
          child.kill('SIGKILL');
        }
      }
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code}`))));
  });
  assert.ok(acked >= 3000);
  // The dead child's lock file is stale (its pid is gone) and taken over.
  const system = ActorSystem.create(name, persistentIn(dir, 100_000));
  const got = new Set((await system.deadLetterQueue.list()).map((e) => e.payload.message));
  for (let i = 0; i <= acked; i += 1) assert.ok(got.has(`b${i}`), `acknowledged letter b${i} lost`);
  await system.terminate();
  assert.ok(readdirSync(dir).some((f) => f.endsWith('.journal')));
});

test('a journal written by the native build is read by the Node build', async (t) => {
  // tests/js/fixtures/native-crosstarget.journal: five letters "native-0".."native-4"
  // to /user/gone, written by a native ActorSystem named "crosstarget" (std::string payloads).
  const dir = tempDir(t);
  writeFileSync(journalFile(dir, 'crosstarget'),
    readFileSync(new URL('./fixtures/native-crosstarget.journal', import.meta.url)));
  const system = ActorSystem.create('crosstarget', ActorSystemOptions.create().withJournalDir(dir)
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withRetentionMs(0)));  // 0: no ageing
  const entries = (await system.deadLetterQueue.list()).reverse();
  assert.deepEqual(entries.map((e) => e.payload.message), ['native-0', 'native-1', 'native-2', 'native-3', 'native-4']);
  assert.deepEqual(entries.map((e) => String(e.id)), ['1', '2', '3', '4', '5']);
  assert.ok(entries.every((e) => e.timestampMs === 1764547200000));
  assert.ok(entries.every((e) => e.recipientPath.endsWith('/user/gone')), entries[0].recipientPath);
  await system.terminate();
});
