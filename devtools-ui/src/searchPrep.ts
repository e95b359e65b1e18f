// Builds the dead letters' payload search text in idle time while the
// dead-letter view is shown, so the first search over a long queue is as quick
// as the next ones instead of building every entry's text in one keystroke.
import { effect } from '@preact/signals';
import type { PanelStore } from './store';

interface IdleApi {
  request(fn: (timeRemaining: () => number) => void): unknown;
  cancel(handle: unknown): void;
}

const FALLBACK_SLICE_MS = 8;

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
    if (!deadLetters.prepareSearch(() => timeRemaining() < 2)) handle = idle.request(run);
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
