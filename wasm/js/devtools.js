// The DevTools protocol session of a system in this page (the panel's loopback
// transport): frames in, frames out, produced by the core's DevtoolsSession,
// the same module the native DevTools server runs.
import { core } from './core_loader.js';
import { check } from './errors.js';

export function openDevtoolsSession(system, { allowWrites = false } = {}) {
  if (!system || typeof system._id !== 'number') throw new TypeError('openDevtoolsSession(system): not an ActorSystem');
  const { id } = check(core.devtoolsOpen(system._id, allowWrites === true));
  let open = true;
  return {
    /** One client frame (text); returns the frames it produced. */
    receive: (frame) => (open ? core.devtoolsReceive(id, String(frame)) : []),
    /** The stream events that are due. */
    poll: () => (open ? core.devtoolsPoll(id) : []),
    /** Milliseconds until poll() has something to do by time; -1: nothing subscribed. */
    nextPollInMs: () => (open ? core.devtoolsNextPollMs(id) : -1),
    close() {
      if (!open) return;
      open = false;
      core.devtoolsClose(id);
    },
  };
}
