// Component tests: the mounted panel against the fake system, in happy-dom.
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/preact';
import { mountDevtools, type DevtoolsHandle } from '../../devtools-ui/src';
import { FakeSystem } from '../../devtools-ui/src/testing/fakeSystem';
import type { SamplerEnv } from '../../devtools-ui/src/sampler';
import type { DeadLetterSettings } from '../../devtools-ui/src/types';

const manualEnv: SamplerEnv = {
  setInterval: () => 0,
  clearInterval: () => undefined,
  requestFrame: (fn) => fn(),
  now: () => Date.now(),
};

let handle: DevtoolsHandle | null = null;
let container: HTMLElement | null = null;

afterEach(() => {
  handle?.destroy();
  container?.remove();
  handle = null;
});

async function mount(system: FakeSystem, allowReplay = true): Promise<DevtoolsHandle> {
  container = document.createElement('div');
  document.body.appendChild(container);
  handle = mountDevtools(container, system, { allowReplay, deadLetterType: 'DeadLetter', env: manualEnv });
  await act(async () => {
    await handle!.refresh();
  });
  return handle;
}

async function click(el: Element) {
  await act(async () => {
    fireEvent.click(el);
  });
}

async function settle(h: DevtoolsHandle) {
  await act(async () => {
    await h.refresh();
  });
}

function systemWith(settings: Partial<DeadLetterSettings> = {}) {
  const system = new FakeSystem('test', settings);
  system.actor('/user/sensors', { className: 'SensorSink', mailboxKind: 'bounded', capacity: 100, overflow: 'drop-head', userDepth: 90, dropped: 12 });
  system.actor('/user/checkout', { className: 'Checkout', mailboxKind: 'bounded', capacity: 10, overflow: 'reject', userDepth: 2 });
  return system;
}

async function openLetter(h: DevtoolsHandle, id: string) {
  h.store.emit({ type: 'view', view: 'dead-letters' });
  await settle(h);
  const row = screen.getAllByTestId('dl-row').find((r) => r.getAttribute('data-id') === id)!;
  await click(row);
  return screen.getByTestId('dl-detail');
}

describe('Mailboxes view', () => {
  it('lists every actor with its depth and marks a mailbox above 85% full', async () => {
    // 90/100 is above the warning threshold, 2/10 is not.
    await mount(systemWith());
    const rows = screen.getAllByTestId('mailbox-row');
    expect(rows.map((r) => r.getAttribute('data-path'))).toEqual(['/user/checkout', '/user/sensors']);
    const depths = screen.getAllByTestId('mailbox-depth').map((d) => d.querySelector('[data-warn]')?.getAttribute('data-warn'));
    expect(depths).toEqual(['false', 'true']);
  });

  it('renders only the visible rows of 10,000 actors', async () => {
    // Virtualisation keeps the DOM to a screenful plus overscan.
    const system = new FakeSystem();
    for (let i = 0; i < 10_000; i++) system.actor(`/user/w${String(i).padStart(5, '0')}`);
    await mount(system);
    expect(screen.getByTestId('mailbox-list').getAttribute('data-total')).toBe('10000');
    expect(screen.getAllByTestId('mailbox-row').length).toBeLessThan(60);
  });

  it('keeps a selected mailbox row in place across samples until Esc releases it', async () => {
    // Sorted by depth, a sample would swap the rows; with one selected they hold still.
    const system = systemWith();
    const h = await mount(system);
    await click(screen.getByTestId('mailbox-mode-flat'));
    await click(screen.getByTestId('sort-userDepth'));
    const order = () => screen.getAllByTestId('mailbox-row').map((r) => r.getAttribute('data-path'));
    expect(order()).toEqual(['/user/sensors', '/user/checkout']);
    await click(screen.getAllByTestId('mailbox-row')[0]);
    expect(screen.getByTestId('mailbox-held').getAttribute('title')).toContain('Esc releases');
    system.actor('/user/checkout', { userDepth: 9 });
    system.actor('/user/sensors', { userDepth: 1 });
    await settle(h);
    expect(order()).toEqual(['/user/sensors', '/user/checkout']);
    await act(async () => void fireEvent.keyDown(screen.getByTestId('devtools'), { key: 'Escape' }));
    expect(order()).toEqual(['/user/checkout', '/user/sensors']);
    expect(screen.getByTestId('mailbox-held').getAttribute('data-held')).toBe('false');
  });

  it('links a mailbox row to the dead letters addressed to it', async () => {
    // The envelope button opens the inspector filtered to that recipient subtree.
    const system = systemWith();
    system.deadLetter('/user/checkout', { kind: 'order' });
    system.deadLetter('/user/sensors', { kind: 'reading' });
    const h = await mount(system);
    const checkout = screen.getAllByTestId('mailbox-row').find((r) => r.getAttribute('data-path') === '/user/checkout')!;
    await click(within(checkout).getByTestId('mailbox-to-dead-letters'));
    expect(h.store.ui.view.value).toBe('dead-letters');
    expect(screen.getAllByTestId('dl-row').map((r) => r.getAttribute('data-id'))).toEqual(['1']);
  });
});

describe('Dead-letter inspector', () => {
  it('explains how to turn the queue on when the store is off', async () => {
    // The empty state names the store and shows the option that enables it.
    const h = await mount(systemWith({ store: 'off' }));
    h.store.emit({ type: 'view', view: 'dead-letters' });
    await settle(h);
    const empty = screen.getByTestId('dl-store-off');
    expect(empty.textContent).toContain('The dead-letter queue is off');
    expect(empty.textContent).toContain(".withStore('memory')");
  });

  it('renders a markup payload as text and creates no element from it', async () => {
    // Payload text is always a text node: no <img>, no handler, visible characters.
    const system = systemWith();
    system.deadLetter('/user/checkout', { kind: 'order', note: '<img src=x onerror=alert(1)>' });
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    expect(detail.querySelector('img')).toBeNull();
    expect(detail.textContent).toContain('"<img src=x onerror=alert(1)>"');
  });

  it('truncates a 1 MB string and reveals more on request', async () => {
    // Only a preview is in the DOM until the user asks for more.
    const system = systemWith();
    system.deadLetter('/user/checkout', { blob: 'A'.repeat(1_000_000) });
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    expect(detail.textContent!.length).toBeLessThan(3_000);
    await click(within(detail).getByTestId('json-show-more'));
    expect(detail.textContent!.length).toBeGreaterThan(10_000);
    expect(detail.textContent!.length).toBeLessThan(13_000);
  });

  it('opens 10,000-deep nesting one level at a time', async () => {
    // Children are rendered only when opened, so depth costs nothing up front.
    let deep: unknown = { end: true };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const system = systemWith();
    system.deadLetter('/user/checkout', deep);
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    expect(detail.querySelectorAll('.mr-json-node').length).toBe(2);
    await click(within(detail).getAllByTestId('json-toggle')[1]);
    expect(detail.querySelectorAll('.mr-json-node').length).toBe(3);
  });

  it('shows a cycle as a reference to its ancestor path', async () => {
    // A cyclic object renders a [Circular → path] marker instead of recursing.
    const order: Record<string, unknown> = { kind: 'order' };
    order.self = order;
    const system = systemWith();
    system.deadLetter('/user/checkout', order);
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    expect(within(detail).getByTestId('json-circular').textContent).toBe('[Circular → message]');
  });

  it('chunks a big array into ranges', async () => {
    // 1,000 items show as ten ranges of 100.
    const system = systemWith();
    system.deadLetter('/user/checkout', Array.from({ length: 1000 }, (_, i) => i));
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    const ranges = within(detail).getAllByTestId('json-range');
    expect(ranges.map((r) => r.textContent)).toEqual(
      Array.from({ length: 10 }, (_, i) => `▸ [${i * 100} … ${i * 100 + 99}]`),
    );
  });

  it('shows class and reason for a degraded entry and no payload tree', async () => {
    // A degraded entry kept only its origin.
    const system = systemWith();
    system.deadLetter('/user/checkout', undefined, { degraded: { className: 'Promise', reason: 'promises cannot be journaled' } });
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    expect(within(detail).getByTestId('dl-degraded-class').textContent).toBe('Promise');
    expect(within(detail).getByTestId('dl-degraded-reason').textContent).toBe('promises cannot be journaled');
    expect(within(detail).queryByTestId('json-tree')).toBeNull();
  });

  it('keeps replay disabled unless the panel was mounted with allowReplay', async () => {
    // Replay is off by default and says how to enable it.
    const system = systemWith();
    system.deadLetter('/user/checkout', { kind: 'order' });
    const h = await mount(system, false);
    const detail = await openLetter(h, '1');
    const replay = within(detail).getByTestId('dl-replay') as HTMLButtonElement;
    expect(replay.disabled).toBe(true);
    expect(replay.title).toContain('allowReplay: true');
  });

  it('previews, confirms and reports a replay in the attempt history', async () => {
    // The dialog shows the target and headroom; the outcome is appended after confirming.
    const system = systemWith();
    system.deadLetter('/user/checkout', { kind: 'order', id: 42 });
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    await click(within(detail).getByTestId('dl-replay'));
    const dialog = screen.getByTestId('replay-dialog');
    expect(within(dialog).getByTestId('replay-preview').textContent).toBe('target/user/checkoutresolvesyesmailboxboundedheadroom2 / 10 queued');
    await click(within(dialog).getByTestId('replay-confirm'));
    await act(async () => {
      await h.settled();
    });
    expect(screen.queryByTestId('replay-dialog')).toBeNull();
    expect(screen.getAllByTestId('dl-attempt').map((a) => a.getAttribute('data-outcome'))).toEqual(['replayed']);
    expect(system.delivered.get('/user/checkout')).toEqual([{ kind: 'order', id: 42 }]);
  });

  it('redirects to another path typed in the dialog', async () => {
    // Replay to path… sends to the edited target and names where it went.
    const system = systemWith();
    system.actor('/user/checkout-v2', { mailboxKind: 'unbounded' });
    system.deadLetter('/user/checkout', { kind: 'order', id: 43 });
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    await click(within(detail).getByTestId('dl-redirect'));
    const input = screen.getByTestId('replay-target');
    await act(async () => {
      fireEvent.input(input, { target: { value: '/user/checkout-v2' } });
    });
    expect(screen.getByTestId('replay-preview-resolves').textContent).toBe('yes');
    await click(screen.getByTestId('replay-confirm'));
    await act(async () => {
      await h.settled();
    });
    expect(system.delivered.get('/user/checkout-v2')).toEqual([{ kind: 'order', id: 43 }]);
    expect(screen.getByTestId('notice').textContent).toContain('replayed (/user/checkout-v2)');
  });
});

describe('Malformed redirect', () => {
  it("shows the core's malformed reason in the dialog and the attempt history, as text", async () => {
    // The core alone judges a typed path (ActorPath::malformation): the reason arrives with
    // unresolved-recipient on the dry run (the message, Confirm off) and on the replay itself.
    const system = systemWith();
    system.deadLetter('/user/checkout', { kind: 'order', id: 44 });
    const reason = 'a name may not hold <b>whitespace</b>';
    const queue = system.deadLetterQueue as unknown as Record<string, unknown>;
    queue.preview = async (_action: string, ids: readonly unknown[], path?: string) =>
      path === '/user/checkout-v4'
        ? new Promise(() => undefined) // a dry run that never answers
        : {
            results: ids.map((id) => ({ id, outcome: 'unresolved-recipient', recipientPath: '/user/checkout-v3', malformed: reason })),
            mailboxes: [],
          };
    queue.replay = async () => ({ kind: 'unresolved-recipient', recipientPath: '/user/checkout-v3', malformed: reason });
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    await click(within(detail).getByTestId('dl-redirect'));
    await act(async () => {
      fireEvent.input(screen.getByTestId('replay-target'), { target: { value: '/user/checkout-v3' } });
    });
    await act(async () => {
      await h.settled();
    });
    const shown = screen.getByTestId('replay-blocked');
    expect(shown.textContent).toBe(`The runtime says the path is malformed: ${reason}`);
    expect(shown.getAttribute('data-problem')).toBe('malformed');
    expect(shown.querySelector('b')).toBeNull();
    expect(screen.getByTestId('replay-preview-resolves').textContent).toBe('no');
    expect((screen.getByTestId('replay-confirm') as HTMLButtonElement).disabled).toBe(true);
    // Confirmed before the dry run answered: the replay itself names the reason.
    await act(async () => {
      fireEvent.input(screen.getByTestId('replay-target'), { target: { value: '/user/checkout-v4' } });
    });
    expect(screen.getByTestId('replay-checking')).toBeTruthy();
    await click(screen.getByTestId('replay-confirm'));
    await act(async () => {
      await h.refresh();
    });
    expect(screen.getAllByTestId('dl-attempt').map((a) => a.getAttribute('data-outcome'))).toEqual(['unresolved-recipient']);
    const attempt = screen.getByTestId('dl-attempt-malformed');
    expect(attempt.textContent).toBe(` (malformed path: ${reason})`);
    expect(attempt.querySelector('b')).toBeNull();
    expect(screen.getByTestId('notice').textContent).toContain(`malformed path: ${reason}`);
  });
});

describe('Toolbar', () => {
  it('draws its icons as inline SVG and names every button in text or aria-label', async () => {
    // No emoji or symbol glyphs that a machine without the font shows as empty boxes.
    const system = systemWith();
    system.deadLetter('/user/checkout', { kind: 'order' });
    const h = await mount(system);
    const buttons = [
      screen.getByTestId('pause'),
      screen.getByTestId('export'),
      screen.getByTestId('import'),
      screen.getByTestId('theme'),
      ...screen.getAllByTestId('mailbox-to-dead-letters'),
    ];
    for (const b of buttons) {
      const svg = b.querySelector('svg.mr-icon');
      expect(svg?.getAttribute('aria-hidden')).toBe('true');
      expect((b.textContent ?? '').trim() || b.getAttribute('aria-label')).toBeTruthy();
      expect(b.textContent).not.toMatch(/[\u2190-\u2BFF\u{1F000}-\u{1FAFF}]/u);
    }
    expect(screen.getAllByTestId('mailbox-to-dead-letters')[0].getAttribute('aria-label')).toBe('Dead letters addressed to /user/checkout');
    await click(screen.getByTestId('pause'));
    expect(screen.getByTestId('pause').textContent).toBe('resume');
    expect(screen.getByTestId('pause').querySelector('svg')?.getAttribute('data-icon')).toBe('resume');
    h.store.emit({ type: 'pause', paused: false });
  });
});

describe('Keyboard and links', () => {
  it('moves with arrows, opens with Enter, closes with Esc and focuses the filter with /', async () => {
    // The documented keys work from the panel root.
    const system = systemWith();
    system.deadLetter('/user/checkout', { n: 1 });
    system.deadLetter('/user/checkout', { n: 2 });
    const h = await mount(system);
    h.store.emit({ type: 'view', view: 'dead-letters' });
    await settle(h);
    const root = screen.getByTestId('devtools');
    const key = async (k: string) => act(async () => void fireEvent.keyDown(root, { key: k }));
    await key('ArrowDown');
    await key('ArrowDown');
    expect(h.store.deadLetters.selectedId.value).toBe('1');
    await key('Enter');
    expect(screen.getByTestId('dl-detail')).toBeTruthy();
    await key('Escape');
    expect(screen.queryByTestId('dl-detail')).toBeNull();
    await key('/');
    expect(document.activeElement).toBe(screen.getByTestId('dl-recipient'));
  });

  it('jumps from a dead letter to its recipient mailbox row', async () => {
    // The recipient link selects and filters the Mailboxes view.
    const system = systemWith();
    system.deadLetter('/user/sensors', { kind: 'reading' });
    const h = await mount(system);
    const detail = await openLetter(h, '1');
    await click(within(detail).getByTestId('dl-to-mailbox'));
    expect(h.store.ui.view.value).toBe('mailboxes');
    expect(screen.getAllByTestId('mailbox-row').map((r) => r.getAttribute('data-path'))).toEqual(['/user/sensors']);
  });

  it('stops sampling and unsubscribes from the event stream on destroy', async () => {
    // destroy leaves nothing behind in the host page or the system.
    const system = systemWith();
    const h = await mount(system);
    expect(system.subscriberCount()).toBe(1);
    h.destroy();
    handle = null;
    expect(system.subscriberCount()).toBe(0);
    expect(container!.children.length).toBe(0);
  });
});
