// Component tests: lists that hold still while looked at, a "N new" pill that
// brings new letters in, and a sort header that never claims an order the rows are not in.
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/preact';
import { click, mount, rowIds, rowOf, settle, showDeadLetters, systemWith, unmountAll } from './panelHarness';

afterEach(unmountAll);

async function letters(n: number) {
  const system = systemWith();
  for (let i = 0; i < n; i++) system.deadLetter('/user/checkout', { n: i }, { timestampMs: 1_000 + i });
  const h = await mount(system);
  await showDeadLetters(h);
  return { system, h };
}

describe('Dead-letter list that holds still', () => {
  it('keeps the rows under the pointer in place and counts new letters on a pill', async () => {
    // Pointer over the list: arrivals wait behind "2 new"; the pill brings them in at the top.
    const { system, h } = await letters(3);
    expect(rowIds()).toEqual(['3', '2', '1']);
    await act(async () => void fireEvent.mouseEnter(screen.getByTestId('dl-list-area')));
    const under = rowOf('2');
    system.deadLetter('/user/checkout', { n: 3 }, { timestampMs: 2_000 });
    system.deadLetter('/user/checkout', { n: 4 }, { timestampMs: 2_001 });
    await settle(h);
    expect(rowIds()).toEqual(['3', '2', '1']);
    // The very element under the pointer still shows the same letter.
    expect(rowOf('2')).toBe(under);
    expect(screen.getByTestId('dl-held').textContent).toBe('held');
    expect(screen.getByTestId('dl-held').title).toBe('Held: pointer over the list. New letters wait behind the pill.');
    expect(screen.getByTestId('dl-new-pill').textContent).toBe('2 new ▲');
    await click(screen.getByTestId('dl-new-pill'));
    expect(rowIds()).toEqual(['5', '4', '3', '2', '1']);
    expect(screen.queryByTestId('dl-new-pill')).toBeNull();
  });

  it('lets new letters flow in once the pointer leaves and nothing else holds the list', async () => {
    const { system, h } = await letters(2);
    await act(async () => void fireEvent.mouseEnter(screen.getByTestId('dl-list-area')));
    system.deadLetter('/user/checkout', { n: 9 }, { timestampMs: 2_000 });
    await settle(h);
    expect(rowIds()).toEqual(['2', '1']);
    await act(async () => void fireEvent.mouseLeave(screen.getByTestId('dl-list-area')));
    expect(rowIds()).toEqual(['3', '2', '1']);
    expect(screen.getByTestId('dl-held').textContent).toBe('live');
  });

  it('holds while a letter is selected, keeps the selection and updates its row in place', async () => {
    // A replayed letter that dead-letters again keeps its place (and its selection) while held.
    const { system, h } = await letters(3);
    system.failReplaysTo('/user/checkout');
    await click(rowOf('1'));
    system.deadLetter('/user/checkout', { n: 7 }, { timestampMs: 3_000 });
    h.store.emit({ type: 'replay/prepare', id: '1', altPath: null });
    h.store.emit({ type: 'replay/confirm' });
    await settle(h);
    expect(rowIds()).toEqual(['3', '2', '1']);
    expect(rowOf('1').getAttribute('aria-selected')).toBe('true');
    expect(rowOf('1').textContent).toContain('1'); // replay count shown in place
    expect(h.store.deadLetters.entries.value.find((e) => e.id === '1')?.replayCount).toBe(1);
    expect(screen.getByTestId('dl-held').title).toContain('a letter is selected');
    expect(screen.getByTestId('dl-new-pill').textContent).toBe('1 new ▲');
  });

  it('holds while keyboard focus is in the list', async () => {
    const { system, h } = await letters(2);
    await act(async () => rowOf('2').focus());
    system.deadLetter('/user/checkout', { n: 5 }, { timestampMs: 2_000 });
    await settle(h);
    expect(rowIds()).toEqual(['2', '1']);
    expect(screen.getByTestId('dl-held').title).toContain('keyboard focus in the list');
    expect(document.activeElement).toBe(rowOf('2'));
  });

  it('applies a filter typed while held at once', async () => {
    // Held rows are not a stale filter: the user's own change shows immediately.
    const { system, h } = await letters(2);
    system.deadLetter('/user/sensors', { n: 'x' }, { timestampMs: 1_500 });
    await settle(h);
    await act(async () => void fireEvent.mouseEnter(screen.getByTestId('dl-list-area')));
    await act(async () => void fireEvent.input(screen.getByTestId('dl-recipient'), { target: { value: '/user/sensors' } }));
    expect(rowIds()).toEqual(['3']);
  });
});

describe('Mailboxes sort header', () => {
  it('says the order is held while the pointer is over the list, and re-sorts when it leaves', async () => {
    // Sorted by depth, a sample swaps the rows; hovered, they hold and the header says "held" instead of claiming Depth ▼.
    const system = systemWith();
    const h = await mount(system);
    await click(screen.getByTestId('mailbox-mode-flat'));
    await click(screen.getByTestId('sort-userDepth'));
    const order = () => screen.getAllByTestId('mailbox-row').map((r) => r.getAttribute('data-path'));
    const header = () => screen.getByTestId('sort-userDepth');
    expect(order()).toEqual(['/user/sensors', '/user/checkout']);
    expect(header().closest('[role=columnheader]')!.getAttribute('aria-sort')).toBe('descending');
    await act(async () => void fireEvent.mouseEnter(screen.getByTestId('mailbox-list')));
    expect(screen.getByTestId('mailbox-held').title).toContain('pointer over the list');
    system.actor('/user/checkout', { userDepth: 9 });
    system.actor('/user/sensors', { userDepth: 1 });
    await settle(h);
    expect(order()).toEqual(['/user/sensors', '/user/checkout']);
    expect(header().textContent).toBe('Depth ▼ held');
    expect(header().getAttribute('data-stale')).toBe('true');
    expect(header().closest('[role=columnheader]')!.getAttribute('aria-sort')).toBe('none');
    await act(async () => void fireEvent.mouseLeave(screen.getByTestId('mailbox-list')));
    expect(order()).toEqual(['/user/checkout', '/user/sensors']);
    expect(header().textContent).toBe('Depth ▼');
    expect(header().closest('[role=columnheader]')!.getAttribute('aria-sort')).toBe('descending');
  });

  it('re-sorts on request while still held', async () => {
    const system = systemWith();
    const h = await mount(system);
    await click(screen.getByTestId('mailbox-mode-flat'));
    await click(screen.getByTestId('sort-userDepth'));
    await act(async () => void fireEvent.mouseEnter(screen.getByTestId('mailbox-list')));
    system.actor('/user/checkout', { userDepth: 9 });
    system.actor('/user/sensors', { userDepth: 1 });
    await settle(h);
    await click(screen.getByTestId('mailbox-resort'));
    expect(screen.getAllByTestId('mailbox-row').map((r) => r.getAttribute('data-path'))).toEqual(['/user/checkout', '/user/sensors']);
    expect(screen.getByTestId('sort-userDepth').getAttribute('data-stale')).toBeNull();
    expect((screen.getByTestId('mailbox-resort') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Mailboxes keyboard focus', () => {
  it('holds the order while keyboard focus is in the list, and the focused row stays focused', async () => {
    const system = systemWith();
    const h = await mount(system);
    await click(screen.getByTestId('mailbox-mode-flat'));
    await click(screen.getByTestId('sort-userDepth'));
    const first = screen.getAllByTestId('mailbox-row')[0];
    await act(async () => first.focus());
    system.actor('/user/checkout', { userDepth: 9 });
    system.actor('/user/sensors', { userDepth: 1 });
    await settle(h);
    expect(screen.getAllByTestId('mailbox-row').map((r) => r.getAttribute('data-path'))).toEqual(['/user/sensors', '/user/checkout']);
    expect(document.activeElement).toBe(first);
    expect(screen.getByTestId('mailbox-held').title).toContain('keyboard focus in the list');
  });
});
