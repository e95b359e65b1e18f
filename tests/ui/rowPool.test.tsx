// Component tests: the lists' row elements are a pool. A filter keystroke patches
// the elements already on screen instead of building new ones, an item keeps its
// element while it stays in view, the selected item's element is never handed to
// another, and a filter keystroke does not render a row whose data did not change.
import { afterEach, describe, expect, it } from 'vitest';
import { options } from 'preact';
import { act, fireEvent, screen } from '@testing-library/preact';
import { assignSlots } from '../../devtools-ui/src/components/VirtualList';
import { FakeSystem } from '../../devtools-ui/src/testing/fakeSystem';
import { click, mount, unmountAll } from './panelHarness';

afterEach(unmountAll);

const rows = () => screen.getAllByTestId('mailbox-row');
const rowAt = (path: string) => rows().find((r) => r.getAttribute('data-path') === path);

async function actors(n: number) {
  const system = new FakeSystem('test', {});
  for (let i = 0; i < n; i++) system.actor(`/user/${i % 2 === 0 ? 'even' : 'odd'}-${String(i).padStart(3, '0')}`, { className: 'Worker' });
  const h = await mount(system);
  await click(screen.getByTestId('mailbox-mode-flat'));
  return { system, h };
}

async function filter(text: string) {
  await act(async () => void fireEvent.input(screen.getByTestId('mailbox-filter'), { target: { value: text } }));
}

describe('assignSlots', () => {
  it('keeps the slots of items still in the window and gives freed slots to newcomers', () => {
    const next = { n: 0 };
    const first = assignSlots(new Map(), ['a', 'b', 'c'], null, next);
    expect([...first]).toEqual([['a', 0], ['b', 1], ['c', 2]]);
    const second = assignSlots(first, ['b', 'x', 'y', 'z'], null, next);
    expect(second.get('b')).toBe(1);
    expect([second.get('x'), second.get('y'), second.get('z')]).toEqual([0, 2, 3]);
  });

  it('never hands the pinned item’s slot to another item', () => {
    const next = { n: 0 };
    const first = assignSlots(new Map(), ['a', 'b'], 'a', next);
    const second = assignSlots(first, ['x', 'y'], 'a', next);
    expect(second.get('x')).toBe(1);
    expect(second.get('y')).toBe(2);
  });
});

describe('Row element pool', () => {
  it('a filter keystroke reuses the row elements on screen for the rows that now match', async () => {
    // Sorted by path the evens come first: the window shows only evens, the filter only odds.
    await actors(80);
    const before = new Set(rows());
    expect(rows().every((r) => r.getAttribute('data-path')!.startsWith('/user/even-'))).toBe(true);
    await filter('odd');
    const after = rows();
    expect(after.length).toBe(before.size);
    expect(after.every((r) => r.getAttribute('data-path')!.startsWith('/user/odd-'))).toBe(true);
    // Patched, not rebuilt: every element now showing an odd actor was on screen before.
    for (const r of after) expect(before.has(r)).toBe(true);
  });

  it('an actor that stays in view keeps its element across filter changes', async () => {
    await actors(20);
    const kept = rowAt('/user/odd-001');
    await filter('odd');
    expect(rowAt('/user/odd-001')).toBe(kept);
    await filter('');
    expect(rowAt('/user/odd-001')).toBe(kept);
  });

  it('the selected actor’s element is not reused for another actor when the filter hides it', async () => {
    // 80 actors: the odd ones the filter brings in take the elements the evens leave.
    await actors(80);
    await click(rowAt('/user/even-000')!);
    const selected = rowAt('/user/even-000')!;
    expect(selected.getAttribute('aria-selected')).toBe('true');
    await filter('odd');
    expect(rows().includes(selected)).toBe(false);
    expect(selected.isConnected).toBe(false);
  });

  it('a filter keystroke renders no row whose actor and marks are unchanged', async () => {
    await actors(6);
    const rendered: string[] = [];
    const previous = options.diffed;
    options.diffed = (vnode) => {
      if (typeof vnode.type === 'function' && vnode.type.name === 'Row') rendered.push((vnode.props as unknown as { row: { path: string } }).row.path);
      previous?.(vnode);
    };
    try {
      await filter('odd');
    } finally {
      options.diffed = previous;
    }
    // The odd rows stay with the same data; only the first one's tab stop moved (index 0 now).
    expect(rows().map((r) => r.getAttribute('data-path'))).toEqual(['/user/odd-001', '/user/odd-003', '/user/odd-005']);
    expect(rendered).toEqual(['/user/odd-001']);
  });
});
