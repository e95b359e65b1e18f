// Builds the dead letters' payload search text in idle time while the
// dead-letter view is shown, so the first search over a long queue is as quick
// as the next ones instead of building every entry's text in one keystroke.
// Each idle slice stops after MAX_SLICE_MS whatever the idle deadline says: an
// idle period can be 50 ms, and on a loaded machine a slice that long in CPU
// time stretches further in wall time, delaying the next frame (the live demo
// at 100,000 letters, load ~10: slices of up to 17 ms CPU ran as 25-32 ms tasks).
import { effect } from '@preact/signals';
import type { PanelStore } from './store';

export interface IdleApi {
  request(fn: (timeRemaining: () => number) => void): unknown;
  cancel(handle: unknown): void;
  /** Milliseconds, for the slice cap (performance.now). */
  now?: () => number;
}

const FALLBACK_SLICE_MS = 8;
export const MAX_SLICE_MS = 4;

function idleApi(): IdleApi {
  if (typeof requestIdleCallback === 'function') {
    return {
      request: (fn) => requestIdleCallback((deadline) => fn(() => deadline.timeRemaining())),
      cancel: (h) => cancelIdleCallback(h as number),
    };
  }
  return {
    request: (fn) =>
      setTimeout(() => {
        const start = performance.now();
        fn(() => FALLBACK_SLICE_MS - (performance.now() - start));
      }, 50),
    cancel: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

/** Starts preparing whenever the view is shown with entries not prepared yet; returns a stop function. */
export function prepareSearchWhenIdle(store: PanelStore, idle: IdleApi = idleApi()): () => void {
  const { ui, deadLetters } = store;
  let handle: unknown = null;
  const wanted = () => ui.view.peek() === 'dead-letters' && !ui.hidden.peek();
  const run = (timeRemaining: () => number) => {
    handle = null;
    if (!wanted()) return;
    const clock = idle.now ?? (() => performance.now());
    const start = clock();
    if (!deadLetters.prepareSearch(() => timeRemaining() < 2 || clock() - start >= MAX_SLICE_MS)) handle = idle.request(run);
  };
  const stopEffect = effect(() => {
    // Read to re-run on each change: a new list, the view, the panel shown or hidden.
    const list = deadLetters.entries.value;
    if (ui.view.value === 'dead-letters' && !ui.hidden.value && list.length > 0 && handle === null) {
      handle = idle.request(run);
    }
  });
  return () => {
    stopEffect();
    if (handle !== null) idle.cancel(handle);
    handle = null;
  };
}
