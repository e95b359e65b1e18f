// Helpers of the writer race tests: Node racer processes
// (journal_writer_race_child.mjs) and their messages.
import { fork } from 'node:child_process';

const CHILD = new URL('./journal_writer_race_child.mjs', import.meta.url).pathname;
export function racer() {
  const child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`race child exited ${code}`)));
  });
  ready.catch(() => {});  // a racer killed before it was needed is no failure; awaiting it still rejects
  return { child, ready };
}

export function nextMessage(child, types) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (!types.includes(message.type)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code) => reject(new Error(`race child exited ${code} before ${types}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function stop(child, signal) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
