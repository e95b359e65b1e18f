// Shared plumbing for component tests: the panel mounted on a fake system with
// a manual sampler (nothing runs unless a test takes a sample).
import { act, fireEvent, screen } from '@testing-library/preact';
import { mountDevtools, type DevtoolsHandle } from '../../devtools-ui/src';
import { FakeSystem } from '../../devtools-ui/src/testing/fakeSystem';
import type { SamplerEnv } from '../../devtools-ui/src/sampler';
import type { DeadLetterSettings } from '../../devtools-ui/src/types';

/** One-shot timers (a typed target's dry run waits for typing to pause) run only when a test says typing paused. */
const pauses = new Set<() => void>();

export const manualEnv: SamplerEnv = {
  setInterval: () => 0,
  clearInterval: () => undefined,
  requestFrame: (fn) => fn(),
  now: () => Date.now(),
  setTimeout: (fn) => {
    pauses.add(fn);
    return fn;
  },
  clearTimeout: (handle) => void pauses.delete(handle as () => void),
};

/** Typing pauses: the dry runs waiting for it are asked now. */
export async function typingPause() {
  await act(async () => {
    for (const fn of [...pauses]) {
      pauses.delete(fn);
      fn();
    }
  });
}

/** How many dry runs wait for typing to pause. */
export function waitingForPause(): number {
  return pauses.size;
}

let mounted: { handle: DevtoolsHandle; container: HTMLElement }[] = [];

export async function mount(system: FakeSystem, allowReplay = true): Promise<DevtoolsHandle> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const handle = mountDevtools(container, system, { allowReplay, deadLetterType: 'DeadLetter', env: manualEnv });
  mounted.push({ handle, container });
  await act(async () => {
    await handle.refresh();
  });
  return handle;
}

export function unmountAll() {
  for (const { handle, container } of mounted) {
    handle.destroy();
    container.remove();
  }
  mounted = [];
  pauses.clear();
}

export async function click(el: Element, init: MouseEventInit = {}) {
  await act(async () => {
    fireEvent.click(el, init);
  });
}

export async function key(el: Element, k: string, init: KeyboardEventInit = {}) {
  await act(async () => {
    fireEvent.keyDown(el, { key: k, ...init });
  });
}

export async function settle(h: DevtoolsHandle) {
  await typingPause();
  await act(async () => {
    await h.refresh();
    await h.settled();
  });
}

export function systemWith(settings: Partial<DeadLetterSettings> = {}) {
  const system = new FakeSystem('test', settings);
  system.actor('/user/sensors', { className: 'SensorSink', mailboxKind: 'bounded', capacity: 100, overflow: 'drop-head', userDepth: 90, dropped: 12 });
  system.actor('/user/checkout', { className: 'Checkout', mailboxKind: 'bounded', capacity: 10, overflow: 'reject', userDepth: 2 });
  return system;
}

export async function showDeadLetters(h: DevtoolsHandle) {
  h.store.emit({ type: 'view', view: 'dead-letters' });
  await settle(h);
}

export function rowIds(): string[] {
  return screen.getAllByTestId('dl-row').map((r) => r.getAttribute('data-id')!);
}

export function rowOf(id: string): HTMLElement {
  return screen.getAllByTestId('dl-row').find((r) => r.getAttribute('data-id') === id)!;
}

/**
 * The core's verdicts on the paths a test types (ActorPath::malformation's words): the fake
 * system holds no path rule, so a test names what the core answers. Returns the paths asked.
 */
export function withCoreVerdicts(system: FakeSystem, malformed: Record<string, string>): (string | undefined)[] {
  const real = system.deadLetterQueue.preview.bind(system.deadLetterQueue);
  const asked: (string | undefined)[] = [];
  system.deadLetterQueue.preview = async (action, ids, path) => {
    asked.push(path);
    const reason = path !== undefined ? malformed[path] : undefined;
    if (reason === undefined) return real(action, ids, path);
    return { results: ids.map((id) => ({ id, outcome: 'unresolved-recipient', malformed: reason })), mailboxes: [] };
  };
  return asked;
}
