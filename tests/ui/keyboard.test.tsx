// Component tests: the replay dialog as a real modal, the row keyboard model
// (roving tab index, focus follows the selection) and the `r` shortcut.
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/preact';
import { click, key, mount, rowOf, settle, showDeadLetters, systemWith, typingPause, unmountAll, withCoreVerdicts } from './panelHarness';

afterEach(unmountAll);

async function openRedirect() {
  const system = systemWith();
  system.actor('/user/checkout-v2');
  system.deadLetter('/user/checkout', { kind: 'order', id: 1 });
  system.deadLetter('/user/checkout', { kind: 'order', id: 2 });
  const h = await mount(system);
  await showDeadLetters(h);
  await click(rowOf('1'));
  const redirect = within(screen.getByTestId('dl-detail')).getByTestId('dl-redirect');
  (redirect as HTMLElement).focus();
  await click(redirect);
  return { system, h, redirect };
}

describe('Replay dialog', () => {
  it('moves focus into the path field of a redirect and keeps Tab and Shift+Tab inside the dialog', async () => {
    // Tab from the last control wraps to the first, Shift+Tab from the first to the last: focus never reaches the page.
    await openRedirect();
    const dialog = screen.getByRole('dialog');
    const input = screen.getByTestId('replay-target');
    expect(document.activeElement).toBe(input);
    const cancel = screen.getByTestId('replay-cancel');
    const confirm = screen.getByTestId('replay-confirm');
    confirm.focus();
    await key(confirm, 'Tab');
    expect(document.activeElement).toBe(input);
    await key(input, 'Tab', { shiftKey: true });
    expect(document.activeElement).toBe(confirm);
    await key(confirm, 'Tab', { shiftKey: true });
    expect(document.activeElement).toBe(cancel);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('pulls focus back when it escapes to the page, and Esc still closes it', async () => {
    // Focus lands outside (a click elsewhere): it returns to the dialog, and Esc from anywhere closes.
    const { redirect } = await openRedirect();
    const outside = document.createElement('button');
    document.body.appendChild(outside);
    await act(async () => outside.focus());
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
    await key(document.body, 'Escape');
    expect(screen.queryByTestId('replay-dialog')).toBeNull();
    // Focus goes back to the button that opened the dialog.
    expect(document.activeElement).toBe(redirect);
    outside.remove();
  });

  it('submits with Enter in the path field', async () => {
    // Typing a path and pressing Enter confirms the redirect.
    const { system, h } = await openRedirect();
    const input = screen.getByTestId('replay-target');
    await act(async () => void fireEvent.input(input, { target: { value: '/user/checkout-v2' } }));
    await key(input, 'Enter');
    await settle(h);
    expect(system.delivered.get('/user/checkout-v2')).toEqual([{ kind: 'order', id: 1 }]);
    expect(screen.queryByTestId('replay-dialog')).toBeNull();
  });

  it('focuses Confirm for a plain replay, and Enter does not submit a blocked target', async () => {
    // The core found the path malformed: Enter on it leaves the dialog open.
    const { system } = await openRedirect();
    withCoreVerdicts(system, { '/user//checkout': 'an empty segment (//)' });
    const input = screen.getByTestId('replay-target');
    await act(async () => void fireEvent.input(input, { target: { value: '/user//checkout' } }));
    await typingPause();
    expect(screen.getByTestId('replay-blocked').getAttribute('data-problem')).toBe('malformed');
    await key(input, 'Enter');
    expect(screen.getByTestId('replay-dialog')).toBeTruthy();
    expect(system.delivered.size).toBe(0);
    // The first Esc closes the suggestion list ("/user//checkout" suggests /user/checkout…), the next the dialog.
    expect(input.getAttribute('aria-expanded')).toBe('true');
    await key(input, 'Escape');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('replay-dialog')).toBeTruthy();
    await key(input, 'Escape');
    expect(screen.queryByTestId('replay-dialog')).toBeNull();
    await click(within(screen.getByTestId('dl-detail')).getByTestId('dl-replay'));
    expect(document.activeElement).toBe(screen.getByTestId('replay-confirm'));
  });

  it('opens from the selected row with r and returns focus to that row on Esc', async () => {
    // Keyboard only: arrows select (focus follows), r opens the dialog, Esc goes back to the row.
    const system = systemWith();
    system.deadLetter('/user/checkout', { n: 1 });
    system.deadLetter('/user/checkout', { n: 2 });
    const h = await mount(system);
    await showDeadLetters(h);
    const first = rowOf('2');
    expect(first.tabIndex).toBe(0);
    expect(rowOf('1').tabIndex).toBe(-1);
    first.focus();
    await key(first, 'ArrowDown');
    await key(document.activeElement!, 'ArrowDown');
    expect(h.store.deadLetters.selectedId.value).toBe('1');
    expect(document.activeElement).toBe(rowOf('1'));
    expect(rowOf('1').tabIndex).toBe(0);
    await key(rowOf('1'), 'r');
    expect(screen.getByTestId('replay-dialog')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByTestId('replay-confirm'));
    await key(document.activeElement!, 'Escape');
    expect(screen.queryByTestId('replay-dialog')).toBeNull();
    await act(async () => undefined);
    expect(document.activeElement).toBe(rowOf('1'));
  });
});

describe('Entries that cannot be replayed', () => {
  it('disables Replay on a quarantined entry and says why, also for the r key', async () => {
    // The reason is text next to the buttons, not only a tooltip.
    const system = systemWith({ maxReplays: 2 });
    system.deadLetter('/user/checkout', { kind: 'poison' }, { replayCount: 2, quarantined: true });
    const h = await mount(system);
    await showDeadLetters(h);
    await click(rowOf('1'));
    const detail = screen.getByTestId('dl-detail');
    expect((within(detail).getByTestId('dl-replay') as HTMLButtonElement).disabled).toBe(true);
    expect((within(detail).getByTestId('dl-redirect') as HTMLButtonElement).disabled).toBe(true);
    expect(within(detail).getByTestId('dl-replay-off').textContent).toBe(
      'Quarantined: already replayed 2 times (max-replays 2); the queue refuses further replays.',
    );
    await key(rowOf('1'), 'r');
    expect(screen.queryByTestId('replay-dialog')).toBeNull();
    expect(screen.getByTestId('notice').textContent).toContain('Cannot replay #1: Quarantined');
  });

  it('disables Replay on a degraded entry with its class and reason', async () => {
    const system = systemWith();
    system.deadLetter('/user/checkout', undefined, { degraded: { className: 'Promise', reason: 'promises cannot be journaled' } });
    const h = await mount(system);
    await showDeadLetters(h);
    await click(rowOf('1'));
    const detail = screen.getByTestId('dl-detail');
    expect((within(detail).getByTestId('dl-replay') as HTMLButtonElement).disabled).toBe(true);
    expect(within(detail).getByTestId('dl-replay-off').textContent).toContain('Degraded entry: only its origin was kept (Promise: promises cannot be journaled)');
  });
});

describe('Redirect assistant', () => {
  // What the core says of a typed path, in its words, is pinned in redirectVerdict.test.tsx.
  it('warns that nothing lives at a well-formed path but lets the runtime answer', async () => {
    // A user path with no actor now is confirmable (the actor may be back by then): expect unresolved-recipient.
    const { h } = await openRedirect();
    await act(async () => void fireEvent.input(screen.getByTestId('replay-target'), { target: { value: 'mailroom://test/user/gone' } }));
    await typingPause();
    expect(screen.queryByTestId('replay-blocked')).toBeNull();
    expect(screen.getByTestId('replay-warning').textContent).toBe('Nothing lives at /user/gone now: expect unresolved-recipient (the entry stays).');
    await click(screen.getByTestId('replay-confirm'));
    await settle(h);
    expect(screen.getAllByTestId('dl-attempt').map((a) => a.getAttribute('data-outcome'))).toEqual(['unresolved-recipient']);
  });

  it('suggests live user paths that start with what was typed, as a combobox the arrows walk', async () => {
    const { system, h } = await openRedirect();
    const input = screen.getByTestId('replay-target');
    await act(async () => void fireEvent.input(input, { target: { value: '/user/check' } }));
    const options = () => screen.getAllByTestId('path-suggestion');
    expect(options().map((o) => o.textContent)).toEqual(['/user/checkout', '/user/checkout-v2']);
    expect(input.getAttribute('role')).toBe('combobox');
    expect(input.getAttribute('aria-controls')).toBe(screen.getByTestId('replay-target-suggestions').id);
    // ArrowDown twice highlights the second (aria-activedescendant), Up wraps back, Enter takes it.
    await key(input, 'ArrowDown');
    await key(input, 'ArrowDown');
    expect(input.getAttribute('aria-activedescendant')).toBe(options()[1].id);
    expect(options()[1].getAttribute('aria-selected')).toBe('true');
    await key(input, 'ArrowUp');
    await key(input, 'ArrowUp');
    expect(input.getAttribute('aria-activedescendant')).toBe(options()[1].id);
    await key(input, 'Enter');
    expect((input as HTMLInputElement).value).toBe('/user/checkout-v2');
    expect(screen.queryByTestId('replay-target-suggestions')).toBeNull();
    // Nothing was sent by taking a suggestion; the next Enter confirms.
    expect(system.delivered.size).toBe(0);
    await key(input, 'Enter');
    await settle(h);
    expect(system.delivered.get('/user/checkout-v2')).toHaveLength(1);
  });

  it('reads the target\'s headroom from the runtime\'s dry run, not only the last snapshot', async () => {
    // The mailbox fills after the last sample: the dialog says full (reject) from the dry run's read.
    const { system } = await openRedirect();
    system.actor('/user/checkout', { userDepth: 10 });
    await act(async () => void fireEvent.input(screen.getByTestId('replay-target'), { target: { value: '/user/checkout' } }));
    await typingPause();
    const headroom = screen.getByTestId('replay-preview-headroom');
    expect(headroom.getAttribute('data-source')).toBe('dry-run');
    expect(headroom.textContent).toBe('full, 10 / 10 (reject): the letter would be refused (rejected) and stay in the queue');
    expect(screen.getByTestId('replay-warning').textContent).toContain('full, 10 / 10 (reject)');
    // Each new target is read afresh.
    system.actor('/user/checkout', { userDepth: 3 });
    for (const value of ['/user/checkout-v2', '/user/checkout']) {
      await act(async () => void fireEvent.input(screen.getByTestId('replay-target'), { target: { value } }));
      await typingPause();
    }
    expect(screen.getByTestId('replay-preview-headroom').textContent).toBe('3 / 10 queued');
  });
});
