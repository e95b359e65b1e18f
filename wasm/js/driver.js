// Drives a system's HostDrivenDispatcher from the event loop: one task per
// wake, each running the core for a time-boxed slice and rescheduling while
// work remains, so a flood never freezes the page or starves I/O.
import { core } from './core_loader.js';

// Microseconds of actor work per macrotask.
export const SLICE_MICROS = 4000;

// A macrotask: setImmediate in Node (what the seed framework uses), a
// MessageChannel in the browser (setTimeout(0) is clamped to 4 ms there).
export const scheduleTask = (() => {
  if (typeof setImmediate === 'function') return (fn) => setImmediate(fn);
  if (typeof MessageChannel === 'function') {
    const queue = [];
    const channel = new MessageChannel();
    channel.port1.onmessage = () => queue.shift()?.();
    return (fn) => {
      queue.push(fn);
      channel.port2.postMessage(0);
    };
  }
  return (fn) => setTimeout(fn, 0);
})();

export class Driver {
  constructor(systemId) {
    this._systemId = systemId;
    this._scheduled = false;
    this._stopped = false;
  }

  // The core's wake callback: work appeared while idle.
  wake() {
    if (this._scheduled || this._stopped) return;
    this._scheduled = true;
    scheduleTask(() => this._slice());
  }

  _slice() {
    this._scheduled = false;
    if (this._stopped) return;
    if (core.systemRunFor(this._systemId, SLICE_MICROS)) this.wake();
  }

  stop() {
    this._stopped = true;
  }
}
