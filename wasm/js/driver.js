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

// The least time a slice gives the dead-letter journal's queued records
// (more when the actors left some of the slice unused).
const JOURNAL_MIN_MICROS = SLICE_MICROS / 4;
const clock = globalThis.performance ?? Date;

export class Driver {
  constructor(systemId) {
    this._systemId = systemId;
    this._scheduled = false;
    this._stopped = false;
    // A persistent capture queues its journal record for the slices below
    // instead of encoding it inside tell (wasm/src/dead_letter_api.cpp).
    core._mr_dlq_defer_records(systemId);
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
    const start = clock.now();
    const more = core.systemRunFor(this._systemId, SLICE_MICROS);
    // Then the dead-letter journal's queued records, in what is left of the
    // slice (owned by the dead-letters engineer: the pump's only hook).
    const left = SLICE_MICROS - (clock.now() - start) * 1000;
    const pending = core._mr_dlq_pump(this._systemId, Math.max(left, JOURNAL_MIN_MICROS));
    if (more || pending > 0) this.wake();
  }

  stop() {
    this._stopped = true;
  }
}
