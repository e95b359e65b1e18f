// One writer per stream under a race (issue 27): 2-4 Node processes released
// at one shared start time on one stream, 50 rounds, a busy process beside
// them. Every fourth round's winner is killed with SIGKILL (its lock file left
// behind: the next round is a stale takeover), the others terminate. Each
// round has exactly one writer and, after all rounds, the stream holds every
// winner's letters, none merged or missing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { nextMessage, racer, stop } from './writer_race_helpers.mjs';

const ROUNDS = 50;
const LETTERS = 10;

test('Node processes started at the same instant on one stream: one writer per round, no letter merged or lost', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-writer-race-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  const pool = Array.from({ length: 4 }, racer);
  t.after(() => {
    busy.kill('SIGKILL');
    for (const { child } of pool) child.kill('SIGKILL');
  });
  const winners = [];
  const expected = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const racers = pool.slice(0, 2 + (round % 3));
    await Promise.all(racers.map((r) => r.ready));
    const at = Date.now() + 15;
    const answers = racers.map(({ child }) => nextMessage(child, ['won', 'refused']));
    for (const { child } of racers) child.send({ type: 'go', dir, name: 'race', round, at, letters: LETTERS });
    const results = await Promise.all(answers);
    const won = results.flatMap((r, i) => (r.type === 'won' ? [i] : []));
    winners.push(won.length);
    for (const r of results) if (r.type === 'refused') assert.match(r.holder, /process \d+/);
    if (won.length === 0) continue;
    for (let i = 0; i < LETTERS; i += 1) expected.push(`r${round}-${i}`);
    const [index] = won;
    if (round % 4 === 0) {
      // A hard kill: the lock file stays, with a dead pid.
      await stop(pool[index].child, 'SIGKILL');
      // Its replacement starts meanwhile, at the back of the pool.
      pool.splice(index, 1);
      pool.push(racer());
    } else {
      const released = nextMessage(pool[index].child, ['released']);
      pool[index].child.send({ type: 'release' });
      await released;
    }
  }
  assert.deepEqual(winners, Array(ROUNDS).fill(1), 'writers per round');
  const system = ActorSystem.create('race', ActorSystemOptions.create().withJournalDir(dir)
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withRetentionMs(0)));
  const restored = (await system.deadLetterQueue.list()).map((e) => e.payload.message).reverse();
  await system.terminate();
  assert.deepEqual(restored, expected);
});
