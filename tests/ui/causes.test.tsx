// Why a letter died, in the panel: a Cause column, counts per cause that
// filter the list, and the cause (with the drop policy) in the detail.
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/preact';
import { click, mount, rowIds, rowOf, showDeadLetters, systemWith, unmountAll } from './panelHarness';

afterEach(unmountAll);

async function mixed() {
  const system = systemWith();
  system.deadLetter('/user/checkout', { n: 1 }, { cause: 'stopped', timestampMs: 1 });
  system.deadLetter('/user/nobody', { n: 2 }, { cause: 'no-recipient', timestampMs: 2 });
  system.deadLetter('/user/sensors', { n: 3 }, { cause: 'dropped', dropPolicy: 'drop-head', timestampMs: 3 });
  system.deadLetter('/user/sensors', { n: 4 }, { cause: 'dropped', dropPolicy: 'drop-head', timestampMs: 4 });
  const h = await mount(system);
  await showDeadLetters(h);
  return h;
}

describe('Dead-letter causes', () => {
  it('shows each entry’s cause, with the policy of a drop', async () => {
    await mixed();
    expect(screen.getAllByTestId('dl-cause').map((c) => c.textContent)).toEqual([
      'dropped (drop-head)',
      'dropped (drop-head)',
      'no-recipient',
      'stopped',
    ]);
  });

  it('counts letters per cause and filters by one, then back to all', async () => {
    // The chips are the counts; pressing one filters, pressing it again clears.
    const h = await mixed();
    const chips = within(screen.getByTestId('dl-causes')).getAllByRole('button');
    expect(chips.map((c) => c.textContent)).toEqual(['dropped 2', 'no-recipient 1', 'stopped 1']);
    await click(screen.getByTestId('dl-cause-no-recipient'));
    expect(rowIds()).toEqual(['2']);
    expect(screen.getByTestId('dl-cause-no-recipient').getAttribute('aria-pressed')).toBe('true');
    expect(h.store.deadLetters.cause.value).toBe('no-recipient');
    await click(screen.getByTestId('dl-cause-no-recipient'));
    expect(rowIds()).toEqual(['4', '3', '2', '1']);
  });

  it('groups by cause (largest group first, newest first within), with the count heading each group', async () => {
    const h = await mixed();
    await click(screen.getByTestId('dl-sort-cause'));
    expect(rowIds()).toEqual(['4', '3', '2', '1']);
    expect(screen.getAllByTestId('dl-cause').map((c) => c.textContent)).toEqual([
      '2dropped (drop-head)',
      'dropped (drop-head)',
      '1no-recipient',
      '1stopped',
    ]);
    expect(screen.getByTestId('dl-sort-cause').parentElement!.getAttribute('aria-sort')).toBe('other');
    expect(screen.getByTestId('dl-sort-time').parentElement!.getAttribute('aria-sort')).toBe('none');
    await click(screen.getByTestId('dl-sort-cause'));
    expect(h.store.deadLetters.order.value).toBe('time');
    expect(screen.queryAllByTestId('dl-group-count')).toEqual([]);
    expect(screen.getByTestId('dl-sort-time').parentElement!.getAttribute('aria-sort')).toBe('descending');
  });

  it('cause order puts a bigger group first even when its letters are older', async () => {
    const system = systemWith();
    system.deadLetter('/user/a', 1, { cause: 'stopped', timestampMs: 1 });
    system.deadLetter('/user/a', 2, { cause: 'stopped', timestampMs: 2 });
    system.deadLetter('/user/b', 3, { cause: 'unhandled', timestampMs: 3 });
    const h = await mount(system);
    await showDeadLetters(h);
    expect(rowIds()).toEqual(['3', '2', '1']);
    await click(screen.getByTestId('dl-sort-cause'));
    expect(rowIds()).toEqual(['2', '1', '3']);
  });

  it('names the cause and what it means in the detail', async () => {
    await mixed();
    await click(rowOf('3'));
    expect(screen.getByTestId('dl-detail-cause').textContent).toBe(
      'dropped (drop-head) — Shed by a full bounded mailbox with deadLetterDrops on',
    );
  });
});
