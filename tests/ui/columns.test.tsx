// The column chooser of both lists: a column hidden leaves header and rows
// (its track zeroed, every other cell still in its own column), required
// columns cannot be hidden, the choice survives a reload, and the chooser is
// reachable and closable from the keyboard.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/preact';
import { click, key, mount, showDeadLetters, systemWith, unmountAll } from './panelHarness';
import { PREFS_KEY, parsePrefs } from '../../devtools-ui/src/store/prefs';

afterEach(unmountAll);

const headers = (grid: HTMLElement) =>
  [...grid.querySelectorAll('.mr-head [role=columnheader]')].map((h) => `${h.getAttribute('aria-colindex')}:${h.textContent!.replace(/[▼▲▤]/g, '').trim()}`);
const option = (list: string, id: string) =>
  within(screen.getByTestId(`${list}-columns`))
    .getAllByTestId('column-option')
    .find((o) => o.getAttribute('data-column') === id) as HTMLInputElement;

async function toggle(list: string, id: string) {
  await act(async () => {
    option(list, id).click();
  });
}

describe('Column chooser', () => {
  it('hides a dead-letter column from header and rows, keeping every other cell in its own track', async () => {
    const system = systemWith();
    system.deadLetter('/user/checkout', { kind: 'order' }, { senderPath: '/user/web' });
    const h = await mount(system);
    await showDeadLetters(h);
    const grid = screen.getByTestId('dl-grid');
    expect(headers(grid)).toEqual(['1:Id', '2:Time', '3:Type', '4:Cause', '5:Recipient', '6:Sender', '7:Replays', '8:State']);
    await toggle('deadLetters', 'sender');
    await toggle('deadLetters', 'type');
    expect(headers(grid)).toEqual(['1:Id', '2:Time', '4:Cause', '5:Recipient', '7:Replays', '8:State']);
    const row = screen.getByTestId('dl-row');
    expect([...row.querySelectorAll('[role=gridcell]')].map((c) => c.getAttribute('aria-colindex'))).toEqual(['1', '2', '4', '5', '7', '8']);
    expect(row.textContent).not.toContain('/user/web');
    // The hidden tracks are zeroed; the cells carry their column's class (placed by it).
    expect(grid.style.getPropertyValue('--mr-deadLetters-c6')).toBe('0px');
    expect(grid.style.getPropertyValue('--mr-deadLetters-c3')).toBe('0px');
    expect(row.querySelector('[aria-colindex="5"]')!.classList.contains('mr-c5')).toBe(true);
    // Shown again.
    await toggle('deadLetters', 'sender');
    expect(row.textContent).toContain('/user/web');
    expect(grid.style.getPropertyValue('--mr-deadLetters-c6')).toBe('');
  });

  it('never hides a required column (recipient, path), even from a stale preference', async () => {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ version: 1, hiddenColumns: { deadLetters: ['recipient'], mailboxes: [] } }));
    const h = await mount(systemWith());
    expect(h.store.ui.hiddenColumns.value).toEqual({ deadLetters: [], mailboxes: [] });
    expect(option('mailboxes', 'path').disabled).toBe(true);
    h.store.emit({ type: 'columns/toggle', list: 'mailboxes', id: 'path' });
    expect(h.store.ui.hiddenColumns.value.mailboxes).toEqual([]);
  });

  it('hides mailbox columns and keeps the choice across a reload', async () => {
    const system = systemWith();
    let h = await mount(system);
    await toggle('mailboxes', 'className');
    await toggle('mailboxes', 'history');
    const grid = screen.getByTestId('mailbox-grid');
    expect(headers(grid).map((x) => x.split(':')[0])).not.toContain('2');
    const row = screen.getAllByTestId('mailbox-row')[0];
    expect(row.querySelector('[aria-colindex="2"]')).toBeNull();
    expect(row.querySelector('.mr-spark')).toBeNull();
    unmountAll(); // the reload: what is pending is written as the panel goes
    expect(parsePrefs(localStorage.getItem(PREFS_KEY)).hiddenColumns).toEqual({ deadLetters: [], mailboxes: ['className', 'history'] });
    h = await mount(system);
    expect(h.store.ui.hiddenColumns.value.mailboxes).toEqual(['className', 'history']);
    expect(screen.getAllByTestId('mailbox-row')[0].querySelector('[aria-colindex="2"]')).toBeNull();
  });

  it('opens from the keyboard and Esc closes it, returning focus to its button', async () => {
    const h = await mount(systemWith());
    await showDeadLetters(h);
    const chooser = screen.getByTestId('deadLetters-columns') as HTMLDetailsElement;
    const summary = screen.getByTestId('deadLetters-columns-toggle');
    expect(summary.tagName).toBe('SUMMARY'); // a native disclosure: focusable, Enter/Space toggle it
    await click(summary);
    expect(chooser.open).toBe(true);
    option('deadLetters', 'cause').focus();
    await key(option('deadLetters', 'cause'), 'Escape');
    expect(chooser.open).toBe(false);
    expect(document.activeElement).toBe(summary);
  });
});
