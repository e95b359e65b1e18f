// Shared plumbing for component tests: the panel mounted on a fake system with
// a manual sampler (nothing runs unless a test takes a sample).
import { act, fireEvent, screen } from '@testing-library/preact';
import { mountDevtools, type DevtoolsHandle } from '../../devtools-ui/src';
import { FakeSystem } from '../../devtools-ui/src/testing/fakeSystem';
import type { SamplerEnv } from '../../devtools-ui/src/sampler';
import type { DeadLetterSettings } from '../../devtools-ui/src/types';

export const manualEnv: SamplerEnv = {
  setInterval: () => 0,
  clearInterval: () => undefined,
  requestFrame: (fn) => fn(),
  now: () => Date.now(),
};

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
