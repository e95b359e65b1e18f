// Bulk actions: checking many letters (Ctrl/Cmd toggles, Shift ranges, Space,
// all matching the filters), one confirmation with a preview grouped by the
// expected outcome, and a summary of what the runtime answered, by kind.
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/preact';
import { click, key, mount, rowIds, rowOf, settle, showDeadLetters, systemWith, unmountAll } from './panelHarness';

afterEach(unmountAll);

function checkedIds(): string[] {
  return screen.getAllByTestId('dl-row').filter((r) => r.getAttribute('data-checked') === 'true').map((r) => r.getAttribute('data-id')!);
}

function groups(testId: string, row: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const g of screen.getByTestId(testId).querySelectorAll(`[data-testid=${row}]`)) {
    out[g.getAttribute('data-kind')!] = Number(g.querySelector('b')!.textContent!.replace(/,/g, ''));
  }
  return out;
}

async function fiveLetters(allowReplay = true) {
  const system = systemWith({ maxReplays: 2 });
  system.deadLetter('/user/checkout', { n: 1 }, { timestampMs: 1 }); // live: replays
  system.deadLetter('/user/gone', { n: 2 }, { timestampMs: 2 }); // nobody there
  system.deadLetter('/user/checkout', { n: 3 }, { timestampMs: 3, replayCount: 2, quarantined: true });
  system.deadLetter('/user/checkout', null, { timestampMs: 4, degraded: { className: 'Fn', reason: 'a function' } });
  system.deadLetter('/user/sensors', { n: 5 }, { timestampMs: 5 }); // live
  const h = await mount(system, allowReplay);
  await showDeadLetters(h);
  return { system, h };
}

describe('Checking letters for a bulk action', () => {
  it('a plain click selects one; Ctrl toggles (taking the selected one too); Shift checks a range', async () => {
    await fiveLetters();
    expect(rowIds()).toEqual(['5', '4', '3', '2', '1']);
    await click(rowOf('4'));
    expect(screen.queryByTestId('dl-bulk-bar')).toBeNull();
    await click(rowOf('2'), { ctrlKey: true });
    expect(checkedIds()).toEqual(['4', '2']);
    await click(rowOf('4'), { metaKey: true });
    expect(checkedIds()).toEqual(['2']);
    // The range runs from the last letter clicked (4) and adds to what is checked.
    await click(rowOf('5'), { shiftKey: true });
    expect(checkedIds()).toEqual(['5', '4', '2']);
    await click(rowOf('1'), { shiftKey: true });
    expect(checkedIds()).toEqual(['5', '4', '3', '2', '1']);
    expect(screen.getByTestId('dl-checked-count').textContent).toBe('5');
    // A plain click starts over.
    await click(rowOf('1'));
    expect(checkedIds()).toEqual([]);
  });

  it('Space checks the focused row; Esc unchecks all', async () => {
    await fiveLetters();
    await key(rowOf('3'), ' ');
    await key(rowOf('1'), ' ');
    expect(checkedIds()).toEqual(['3', '1']);
    await key(rowOf('1'), 'Escape');
    expect(checkedIds()).toEqual([]);
  });

  it('"check all matching" takes every letter the filters match, not only those on screen', async () => {
    const { h } = await fiveLetters();
    await act(async () => h.store.emit({ type: 'dead-letters/filter', recipient: '/user/checkout' }));
    await click(screen.getByTestId('dl-check-all'));
    expect(checkedIds()).toEqual(['4', '3', '1']);
    expect([...h.store.bulk.checked.value].sort()).toEqual(['1', '3', '4']);
    await click(screen.getByTestId('dl-check-all'));
    expect(checkedIds()).toEqual([]);
  });
});

describe('Bulk replay and purge', () => {
  it('previews what will happen to each letter, grouped by kind, before anything is sent', async () => {
    const { system, h } = await fiveLetters();
    await click(screen.getByTestId('dl-check-all'));
    await click(screen.getByTestId('bulk-replay'));
    expect(screen.getByTestId('bulk-dialog')).toBeTruthy();
    expect(groups('bulk-preview', 'bulk-group')).toEqual({
      replayed: 2,
      'unresolved-recipient': 1,
      quarantined: 1,
      'degraded-payload': 1,
    });
    // Nothing was replayed yet.
    expect(system.delivered.size).toBe(0);
    expect(document.activeElement).toBe(screen.getByTestId('bulk-confirm'));
    await click(screen.getByTestId('bulk-cancel'));
    expect(screen.queryByTestId('bulk-dialog')).toBeNull();
    expect(h.store.bulk.checked.value.size).toBe(5);
  });

  it('one confirmation replays them all and sums up the named outcomes by kind', async () => {
    const { system, h } = await fiveLetters();
    await click(screen.getByTestId('dl-check-all'));
    await click(screen.getByTestId('bulk-replay'));
    await click(screen.getByTestId('bulk-confirm'));
    await settle(h);
    expect(groups('bulk-summary', 'bulk-outcome')).toEqual({
      replayed: 2,
      'unresolved-recipient': 1,
      quarantined: 1,
      'degraded-payload': 1,
    });
    expect(system.delivered.get('/user/checkout')).toEqual([{ n: 1 }]);
    expect(system.delivered.get('/user/sensors')).toEqual([{ n: 5 }]);
    expect(rowIds()).toEqual(['4', '3', '2']);
    // The letters that stayed keep their check; each got an attempt in its history.
    expect(checkedIds()).toEqual(['4', '3', '2']);
    expect(h.store.deadLetters.attempts.value.get('2')?.map((a) => a.outcome)).toEqual(['unresolved-recipient']);
    expect(screen.getByTestId('notice').textContent).toContain('Replay of 5 letters: 2 replayed');
    await click(screen.getByTestId('bulk-cancel'));
    expect(screen.queryByTestId('bulk-dialog')).toBeNull();
  });

  it('a bulk redirect checks the target as typed and sends every letter there', async () => {
    const { system, h } = await fiveLetters();
    await click(rowOf('2'));
    await click(rowOf('1'), { shiftKey: true });
    await click(screen.getByTestId('bulk-redirect'));
    const input = screen.getByTestId('bulk-target') as HTMLInputElement;
    expect(document.activeElement).toBe(input);
    // The panel holds no path rule: a relative path is the runtime's to answer, by name.
    await act(async () => {
      fireEvent.input(input, { target: { value: 'user/checkout' } });
    });
    expect(screen.getByTestId('bulk-dry-run').getAttribute('data-state')).toBe('pending');
    await settle(h);
    expect(screen.queryByTestId('bulk-blocked')).toBeNull();
    expect(groups('bulk-preview', 'bulk-group')).toEqual({ 'unresolved-recipient': 2 });
    await act(async () => {
      fireEvent.input(input, { target: { value: '/user/checkout' } });
    });
    await settle(h);
    expect(groups('bulk-preview', 'bulk-group')).toEqual({ replayed: 2 });
    await click(screen.getByTestId('bulk-confirm'));
    await settle(h);
    expect(groups('bulk-summary', 'bulk-outcome')).toEqual({ replayed: 2 });
    expect(system.delivered.get('/user/checkout')).toEqual([{ n: 2 }, { n: 1 }]);
    expect(h.store.deadLetters.attempts.value.get('2')?.[0]).toMatchObject({ redirect: true, outcome: 'replayed' });
  });

  it("a bulk redirect the core finds malformed names the core's reason, as text, in the preview and each attempt", async () => {
    const { h, system } = await fiveLetters();
    const reason = 'a name may not hold <i>whitespace</i>';
    const queue = system.deadLetterQueue as unknown as Record<string, unknown>;
    const real = system.deadLetterQueue.preview.bind(system.deadLetterQueue);
    queue.preview = async (action: 'replay' | 'remove', ids: readonly string[], path?: string) =>
      path === '/user/checkout-v3'
        ? { results: ids.map((id) => ({ id, outcome: 'unresolved-recipient', malformed: reason })), mailboxes: [] }
        : real(action, ids, path);
    queue.replay = async () => ({ kind: 'unresolved-recipient', malformed: reason });
    await click(rowOf('2'));
    await click(rowOf('1'), { shiftKey: true });
    await click(screen.getByTestId('bulk-redirect'));
    await act(async () => {
      fireEvent.input(screen.getByTestId('bulk-target'), { target: { value: '/user/checkout-v3' } });
    });
    await settle(h);
    expect(groups('bulk-preview', 'bulk-group')).toEqual({ 'unresolved-recipient': 2 });
    const note = screen.getByTestId('bulk-group').querySelector('.mr-muted')!;
    expect(note.textContent).toBe(`the runtime says the path is malformed: ${reason}`);
    expect(note.querySelector('i')).toBeNull();
    // The core's verdict is the message as typed, and nothing can be confirmed.
    expect(screen.getByTestId('bulk-blocked').textContent).toBe(`The runtime says the path is malformed: ${reason}`);
    expect(screen.getByTestId('bulk-blocked').getAttribute('data-problem')).toBe('malformed');
    expect(screen.getByTestId('bulk-target').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('bulk-confirm').getAttribute('aria-disabled')).toBe('true');
    // A path the dry run passed that the replay itself finds malformed: each attempt keeps the reason.
    await act(async () => {
      fireEvent.input(screen.getByTestId('bulk-target'), { target: { value: '/user/checkout' } });
    });
    await settle(h);
    expect(screen.queryByTestId('bulk-blocked')).toBeNull();
    await click(screen.getByTestId('bulk-confirm'));
    await settle(h);
    expect(groups('bulk-summary', 'bulk-outcome')).toEqual({ 'unresolved-recipient': 2 });
    expect(h.store.deadLetters.attempts.value.get('2')?.[0]).toMatchObject({ outcome: 'unresolved-recipient', malformed: reason });
  });

  it('purge removes the checked letters from the queue for good, with a summary', async () => {
    const { system, h } = await fiveLetters();
    await click(rowOf('4'));
    await click(rowOf('2'), { ctrlKey: true });
    await click(screen.getByTestId('bulk-purge'));
    expect(groups('bulk-preview', 'bulk-group')).toEqual({ removed: 2 });
    await click(screen.getByTestId('bulk-confirm'));
    await settle(h);
    expect(groups('bulk-summary', 'bulk-outcome')).toEqual({ removed: 2 });
    expect(rowIds()).toEqual(['5', '3', '1']);
    expect((await system.deadLetterQueue.list()).map((e) => String(e.id)).sort()).toEqual(['1', '3', '5']);
    // Purged by the user, not evicted by the queue.
    expect(h.store.deadLetters.evicted.value).toBe(0);
    expect(h.store.bulk.checked.value.size).toBe(0);
  });

  it('the preview is the runtime\'s dry run for exactly the checked ids, shown as it answers', async () => {
    // The runtime can name what the panel could never guess (here: a letter a replay is delivering).
    const { system, h } = await fiveLetters();
    const asked: { action: string; ids: string[]; path?: string }[] = [];
    const real = system.deadLetterQueue.preview.bind(system.deadLetterQueue);
    system.deadLetterQueue.preview = async (action, ids, path) => {
      asked.push({ action, ids: ids.map(String), ...(path !== undefined ? { path } : {}) });
      const answer = await real(action, ids, path);
      return { ...answer, results: answer.results.map((r) => (String(r.id) === '5' ? { ...r, outcome: 'in-flight' } : r)) };
    };
    await click(rowOf('5'));
    await click(rowOf('1'), { ctrlKey: true });
    await click(screen.getByTestId('bulk-purge'));
    await settle(h);
    expect(asked).toEqual([{ action: 'remove', ids: ['5', '1'] }]);
    expect(groups('bulk-preview', 'bulk-group')).toEqual({ removed: 1, 'in-flight': 1 });
    expect(screen.getByTestId('bulk-dry-run').getAttribute('data-state')).toBe('done');
    // Nothing was removed by the dry run.
    expect((await system.deadLetterQueue.list()).length).toBe(5);
    await click(screen.getByTestId('bulk-cancel'));
    // A redirect asks with its target; the dialog waits (confirm off) until the answer is in.
    // (Every dry run asked until then waits: the one for the prefilled "/user/" too.)
    const waiting: (() => void)[] = [];
    let answered = false;
    const answer = () => {
      answered = true;
      for (const go of waiting.splice(0)) go();
    };
    system.deadLetterQueue.preview = (action, ids, path) => {
      asked.push({ action, ids: ids.map(String), ...(path !== undefined ? { path } : {}) });
      if (answered) return real(action, ids, path);
      return new Promise((resolve) => waiting.push(() => resolve(real(action, ids, path))));
    };
    await click(screen.getByTestId('bulk-redirect'));
    await act(async () => {
      fireEvent.input(screen.getByTestId('bulk-target'), { target: { value: '/user/sensors' } });
    });
    expect(screen.getByTestId('bulk-dry-run').getAttribute('data-state')).toBe('pending');
    expect(screen.getByTestId('bulk-confirm').getAttribute('aria-disabled')).toBe('true');
    await act(async () => answer());
    await settle(h);
    expect(asked.at(-1)).toEqual({ action: 'replay', ids: ['5', '1'], path: '/user/sensors' });
    expect(groups('bulk-preview', 'bulk-group')).toEqual({ replayed: 2 });
    expect(screen.getByTestId('bulk-confirm').getAttribute('aria-disabled')).toBe('false');
  });

  it('a runtime without a dry run says so instead of guessing', async () => {
    const system = systemWith();
    system.deadLetter('/user/checkout', { n: 1 });
    (system.deadLetterQueue as { preview?: unknown }).preview = undefined;
    const h = await mount(system);
    await showDeadLetters(h);
    await click(screen.getByTestId('dl-check-all'));
    await click(screen.getByTestId('bulk-replay'));
    await settle(h);
    expect(screen.getByTestId('bulk-dry-run').getAttribute('data-state')).toBe('unavailable');
    expect(screen.getByTestId('bulk-preview').querySelectorAll('[data-testid=bulk-group]').length).toBe(0);
    expect((screen.getByTestId('bulk-confirm') as HTMLButtonElement).disabled).toBe(false);
  });

  it('a read-only panel offers no bulk write and says why', async () => {
    await fiveLetters(false);
    await click(rowOf('4'));
    await click(rowOf('2'), { ctrlKey: true });
    expect((screen.getByTestId('bulk-purge') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('bulk-replay') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId('bulk-off').textContent).toContain('allowReplay');
  });
});
