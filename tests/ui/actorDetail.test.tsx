// Actor detail: selecting a mailbox row opens its options, counters, depth chart
// and its dead letters (a count badge on the row); a letter there opens in the
// inspector, and the inspector's recipient link comes back to the actor.
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/preact';
import { click, mount, rowOf, settle, systemWith, unmountAll } from './panelHarness';

afterEach(unmountAll);

const mailboxRow = (path: string) => screen.getAllByTestId('mailbox-row').find((r) => r.getAttribute('data-path') === path)!;

async function withLetters() {
  const system = systemWith();
  system.deadLetter('/user/checkout', { order: 1 }, { timestampMs: 1, cause: 'stopped' });
  system.deadLetter('/user/checkout', { order: 2 }, { timestampMs: 2, cause: 'stopped' });
  system.deadLetter('/user/sensors', { t: 3 }, { timestampMs: 3, cause: 'dropped', dropPolicy: 'drop-head' });
  const h = await mount(system);
  h.store.emit({ type: 'mailboxes/mode', mode: 'flat' });
  await settle(h);
  return { system, h };
}

describe('Actor detail', () => {
  it('each mailbox row badges how many dead letters are kept for it', async () => {
    await withLetters();
    expect(within(mailboxRow('/user/checkout')).getByTestId('mailbox-letter-count').textContent).toBe('2');
    expect(within(mailboxRow('/user/sensors')).getByTestId('mailbox-letter-count').textContent).toBe('1');
  });

  it('selecting a row opens its options, counters, depth chart and letters; its close button closes it', async () => {
    const { system, h } = await withLetters();
    await click(mailboxRow('/user/checkout'));
    const detail = screen.getByTestId('mb-detail');
    expect(within(detail).getByTestId('mb-options').textContent).toContain('capacity10');
    expect(within(detail).getByTestId('mb-options').textContent).toContain('overflowreject');
    expect(within(detail).getByTestId('mb-depth').textContent).toBe('2 / 10');
    expect(within(detail).getByTestId('mb-letter-count').textContent).toBe('2');
    expect(within(detail).getAllByTestId('mb-letter').map((b) => b.getAttribute('data-id'))).toEqual(['2', '1']);
    // The chart grows with samples.
    system.actor('/user/checkout', { userDepth: 7 });
    await settle(h);
    expect(within(screen.getByTestId('mb-detail')).getByTestId('mb-depth-chart').querySelector('polyline')).toBeTruthy();
    expect(within(screen.getByTestId('mb-detail')).getByTestId('mb-depth').textContent).toBe('7 / 10');
    await click(screen.getByTestId('mb-detail-close'));
    expect(screen.queryByTestId('mb-detail')).toBeNull();
  });

  it('a letter in the actor detail opens in the inspector, and its recipient link leads back', async () => {
    const { h } = await withLetters();
    await click(mailboxRow('/user/checkout'));
    await click(within(screen.getByTestId('mb-detail')).getAllByTestId('mb-letter')[1]);
    expect(h.store.ui.view.value).toBe('dead-letters');
    expect(screen.getByTestId('dl-detail').getAttribute('aria-label')).toBe('Dead letter 1');
    expect(rowOf('1').getAttribute('aria-selected')).toBe('true');
    await click(screen.getByTestId('dl-to-mailbox'));
    expect(h.store.ui.view.value).toBe('mailboxes');
    expect(screen.getByTestId('mb-detail').getAttribute('aria-label')).toBe('Actor /user/checkout');
  });
});
