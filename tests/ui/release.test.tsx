// Quarantine release from the detail (the core resets the replay count,
// journaled) and the attempt history that survives a reload and an export.
import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/preact';
import { click, mount, rowOf, settle, showDeadLetters, systemWith, unmountAll } from './panelHarness';
import { ATTEMPTS_KEY, parseAttempts } from '../../devtools-ui/src/store/attemptLog';

afterEach(() => {
  unmountAll();
  localStorage.clear();
});

async function quarantined(store: 'memory' | 'persistent' = 'persistent') {
  const system = systemWith({ store, maxReplays: 1 });
  system.deadLetter('/user/checkout', { n: 1 }, { timestampMs: 1, replayCount: 1, quarantined: true });
  system.deadLetter('/user/checkout', { n: 2 }, { timestampMs: 2 });
  const h = await mount(system);
  await showDeadLetters(h);
  return { system, h };
}

describe('Quarantine release', () => {
  it('a quarantined letter offers Release; releasing makes it replayable and records it', async () => {
    const { h } = await quarantined();
    await click(rowOf('1'));
    expect((screen.getByTestId('dl-replay') as HTMLButtonElement).disabled).toBe(true);
    await click(screen.getByTestId('dl-release'));
    await settle(h);
    expect(screen.getByTestId('notice').textContent).toBe('Release of #1: released');
    expect(rowOf('1').querySelector('[data-testid=dl-quarantined]')).toBeNull();
    expect((screen.getByTestId('dl-replay') as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId('dl-release')).toBeNull();
    expect(screen.getAllByTestId('dl-attempt').map((a) => a.getAttribute('data-outcome'))).toEqual(['released']);
  });

  it('a letter that is not quarantined has no Release button', async () => {
    await quarantined();
    await click(rowOf('2'));
    expect(screen.queryByTestId('dl-release')).toBeNull();
  });
});

describe('Attempt history across reloads', () => {
  it('a persistent queue’s history comes back after a reload and goes into the export', async () => {
    const { system, h } = await quarantined('persistent');
    await click(rowOf('2'));
    await click(screen.getByTestId('dl-replay'));
    await click(screen.getByTestId('replay-confirm'));
    await settle(h);
    await click(rowOf('1'));
    await click(screen.getByTestId('dl-release'));
    await settle(h);
    expect(parseAttempts(localStorage.getItem(`${ATTEMPTS_KEY}test`)).get('1')?.map((a) => a.outcome)).toEqual(['released']);
    expect(parseAttempts(localStorage.getItem(`${ATTEMPTS_KEY}test`)).get('2')?.map((a) => a.outcome)).toEqual(['replayed']);

    // "Reload": a new panel on the same system.
    unmountAll();
    const again = await mount(system);
    await showDeadLetters(again);
    expect(again.store.deadLetters.attempts.value.get('1')?.map((a) => a.outcome)).toEqual(['released']);
    await click(rowOf('1'));
    expect(screen.getAllByTestId('dl-attempt').map((a) => a.getAttribute('data-outcome'))).toEqual(['released']);
    expect(again.store.exportView().attempts?.['1']?.map((a) => a.outcome)).toEqual(['released']);
  });

  it('a memory queue’s history is not kept (its ids start again after a restart)', async () => {
    const { h } = await quarantined('memory');
    await click(rowOf('1'));
    await click(screen.getByTestId('dl-release'));
    await settle(h);
    expect(localStorage.getItem(`${ATTEMPTS_KEY}test`)).toBeNull();
  });

  it('stored history is untrusted: malformed attempts and ids are dropped', () => {
    const raw = JSON.stringify({
      version: 1,
      attempts: {
        '7': [{ atMs: 1, target: '/user/a', redirect: false, outcome: 'replayed' }, { atMs: 'x' }, { atMs: 2, target: '/user/a', redirect: false, outcome: 'boom' }],
        'not-an-id': [{ atMs: 1, target: '/user/a', redirect: false, outcome: 'replayed' }],
      },
    });
    expect([...parseAttempts(raw).entries()]).toEqual([['7', [{ atMs: 1, target: '/user/a', redirect: false, outcome: 'replayed' }]]]);
    expect(parseAttempts('{').size).toBe(0);
    expect(parseAttempts(JSON.stringify({ version: 2, attempts: {} })).size).toBe(0);
  });
});
