// One writer per stream (SPEC §4) when the lock is stale: several Node
// processes that find the same dead owner's lock file at the same time must
// not all take it over. Real processes race over many streams; exactly one
// wins each stream and the lock file names that one.
import assert from 'node:assert/strict';
import { fork, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { NodeJournalStorage } from '../../wasm/js/node_journal.js';

const CHILD = new URL('./journal_lock_race_child.mjs', import.meta.url).pathname;

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-lock-race-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// The pid of a process that has exited: what a killed writer leaves in its lock.
function deadPid() {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function nextMessage(child, type) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`race child exited ${code} before "${type}"`)));
  });
}

test('racing processes that all find a dead owner\'s lock: exactly one takes over each stream', async (t) => {
  const dir = tempDir(t);
  const dead = deadPid();
  const names = Array.from({ length: 400 }, (_, i) => `stream-${i}.journal`);
  for (const name of names) writeFileSync(join(dir, `${name}.lock`), `${dead}\n`);
  const children = Array.from({ length: 3 }, () => fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  t.after(() => children.forEach((child) => child.kill()));
  await Promise.all(children.map((child) => nextMessage(child, 'ready')));
  const done = children.map((child) => nextMessage(child, 'done'));
  for (const child of children) child.send({ type: 'go', dir, names });
  const results = await Promise.all(done);

  const winners = new Map(names.map((name) => [name, []]));
  for (const { pid, won } of results) for (const name of won) winners.get(name).push(pid);
  const doubled = [...winners].filter(([, pids]) => pids.length > 1);
  assert.deepEqual(doubled, [], `streams taken by two writers at once: ${doubled.length}`);
  for (const [name, pids] of winners) {
    assert.equal(pids.length, 1, `${name}: no writer at all`);
    assert.equal(Number.parseInt(readFileSync(join(dir, `${name}.lock`), 'utf8'), 10), pids[0], name);
  }
  // Every refusal names the live winner, never a vague failure.
  for (const { refused } of results) for (const holder of refused) assert.match(holder, /^process \d+$/);
  await Promise.all(children.map((child) => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send({ type: 'exit' });
    return exited;
  }));
  assert.deepEqual(readdirSync(dir).filter((f) => !f.endsWith('.lock')), [], 'no marker or aside file left');
});

test('a takeover marker left by a taker that died mid-takeover does not block the stream', (t) => {
  const dir = tempDir(t);
  const dead = deadPid();
  writeFileSync(join(dir, 'left.journal.lock'), `${dead}\n`);
  writeFileSync(join(dir, 'left.journal.lock.takeover'), `${dead}\n`);
  const storage = new NodeJournalStorage(dir);
  assert.equal(storage.lock('left.journal'), null);
  assert.match(readFileSync(join(dir, 'left.journal.lock'), 'utf8'), new RegExp(`^${process.pid}( \\d+)?\n$`));
  assert.ok(!existsSync(join(dir, 'left.journal.lock.takeover')));
  storage.unlock('left.journal');
  assert.ok(!existsSync(join(dir, 'left.journal.lock')));
});

test('a takeover in progress by a live process is waited for, then named in the refusal', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'busy.journal.lock'), `${deadPid()}\n`);
  // A live taker (our parent stands in for a process that stalls mid-takeover).
  writeFileSync(join(dir, 'busy.journal.lock.takeover'), `${process.ppid}\n`);
  const holder = new NodeJournalStorage(dir).lock('busy.journal');
  assert.match(holder, /taking over the stale lock/);
  assert.ok(existsSync(join(dir, 'busy.journal.lock')), 'the stale lock is left to the live taker');
});

test('a lock file whose pid now belongs to a process started at another time is stale (a recycled pid)', { skip: !existsSync('/proc/self/stat') && 'no /proc' }, (t) => {
  const dir = tempDir(t);
  // Our parent is alive, but it did not start 1 clock tick after boot.
  writeFileSync(join(dir, 'recycled.journal.lock'), `${process.ppid} 1\n`);
  const storage = new NodeJournalStorage(dir);
  assert.equal(storage.lock('recycled.journal'), null);
  storage.unlock('recycled.journal');
  // With its real start time the same pid is the live owner.
  const stat = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  writeFileSync(join(dir, 'recycled.journal.lock'), `${process.ppid} ${start}\n`);
  assert.equal(new NodeJournalStorage(dir).lock('recycled.journal'), `process ${process.ppid}`);
});
