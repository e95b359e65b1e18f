// Imported data as its own session, and preferences kept across reloads.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/preact';
import { createScenario, run } from './scenario';
import { buildExport } from '../../devtools-ui/src/store/exportFile';
import { parsePrefs, PREFS_KEY } from '../../devtools-ui/src/store/prefs';
import { click, mount, settle, systemWith, unmountAll } from './panelHarness';

afterEach(unmountAll);

const importFile = (atMs: number) =>
  JSON.stringify(
    buildExport(
      { store: 'memory', maxEntries: 10, retentionMs: null, maxReplays: 3 },
      [{ path: '/user/a', className: 'A', mailboxKind: 'unbounded', capacity: null, overflow: null, userDepth: 5_000, systemDepth: 0, stashSize: 0, dropped: 0, suspended: false, processed: 99_000, deadLetterDrops: false }],
      [{ id: '77', timestampMs: atMs - 10, recipientPath: '/user/a', senderPath: null, replayCount: 0, quarantined: false, payload: { kind: 'captured', message: { old: true } } }],
      atMs,
    ),
  );

describe('Imported session', () => {
  it('starts the import from nothing: no live history, growth or letters mixed in', async () => {
    // Live depth history 1,2,3 must not continue into the imported 5,000 (no +78,600 growth, no joined sparkline).
    const ctx = await run(`
      actor /user/a depth=1 processed=10
      letter /user/a {"live":1}
      sample at=1000
      actor /user/a depth=2
      sample at=2000
      actor /user/a depth=3
      sample at=3000
    `);
    ctx.store.emit({ type: 'import', text: importFile(10_000), name: 'incident.json' });
    const row = ctx.store.mailboxes.rows.value[0];
    expect(row.history).toEqual([5_000]);
    expect(row.growth).toBe(0);
    expect(row.processedRate).toBe(0);
    expect(ctx.store.deadLetters.entries.value.map((e) => e.id)).toEqual(['77']);
    expect(ctx.store.deadLetters.evicted.value).toBe(0);
    expect(ctx.store.metrics.deadLetterRate.value).toEqual([]);
  });

  it('ignores a live sample that lands while the import is shown, and restores the live session on leaving', async () => {
    const ctx = await run(`
      actor /user/a depth=1
      letter /user/a {"live":1}
      sample at=1000
      actor /user/a depth=2
      sample at=2000
    `);
    ctx.store.emit({ type: 'import', text: importFile(10_000), name: 'incident.json' });
    await run(`sample at=3000`, ctx);
    expect(ctx.store.mailboxes.rows.value[0].history).toEqual([5_000]);
    expect(ctx.store.deadLetters.entries.value.map((e) => e.id)).toEqual(['77']);
    ctx.store.emit({ type: 'live' });
    await ctx.sampler.whenIdle();
    expect(ctx.store.ui.imported.value).toBeNull();
    // Live history goes on from where it was: the imported 5,000 is not in it.
    expect(ctx.store.mailboxes.rows.value[0].history).toEqual([1, 2, 2]);
    expect(ctx.store.deadLetters.entries.value.map((e) => e.id)).toEqual(['1']);
  });

  it('carries the replay attempt history through export and import', async () => {
    // An entry that stayed after a failed replay keeps its attempts in the file and in the imported session.
    const ctx = await run(`
      letter /user/gone {"kind":"order"}
      sample
      replay 1
      expect attempts 1 unresolved-recipient
    `);
    const file = ctx.store.exportView(9_000);
    expect(file.attempts?.['1']?.map((a) => a.outcome)).toEqual(['unresolved-recipient']);
    const other = createScenario();
    other.store.emit({ type: 'import', text: JSON.stringify(file), name: 'with-attempts.json' });
    expect(other.store.deadLetters.attempts.value.get('1')?.map((a) => a.outcome)).toEqual(['unresolved-recipient']);
    const broken = { ...file, attempts: { '1': [{ atMs: 'soon', target: '/user/x', redirect: false, outcome: 'replayed' }] } };
    other.store.emit({ type: 'live' });
    other.store.emit({ type: 'import', text: JSON.stringify(broken), name: 'broken.json' });
    expect(other.store.ui.notice.value).toBe('Import failed: attempts["1"][0] is not a replay attempt');
  });

  it('labels the panel as an imported session', async () => {
    const h = await mount(systemWith());
    await act(async () => h.store.emit({ type: 'import', text: importFile(10_000), name: 'incident.json' }));
    expect(screen.getByTestId('devtools').getAttribute('data-session')).toBe('imported');
    expect(screen.getByTestId('imported-banner').textContent).toContain('Imported session incident.json');
    await click(screen.getByTestId('back-to-live'));
    await settle(h);
    expect(screen.getByTestId('devtools').getAttribute('data-session')).toBe('live');
    expect(screen.getAllByTestId('mailbox-row').map((r) => r.getAttribute('data-path'))).toEqual(['/user/checkout', '/user/sensors']);
  });
});

describe('Preferences', () => {
  it('remembers theme, tab and filters across a reload', async () => {
    // A second mount (the reload) reads back what the first one stored.
    const first = await mount(systemWith());
    first.store.emit({ type: 'theme', theme: 'dark' });
    first.store.emit({ type: 'view', view: 'dead-letters' });
    first.store.emit({ type: 'dead-letters/filter', recipient: '/user/checkout', limit: 100, window: { kind: 'last', minutes: 15 } });
    first.store.emit({ type: 'mailboxes/filter', text: 'kind:bounded' });
    first.store.emit({ type: 'mailboxes/sort', key: 'userDepth' });
    unmountAll();
    const again = await mount(systemWith());
    expect(again.store.ui.theme.value).toBe('dark');
    expect(again.store.ui.view.value).toBe('dead-letters');
    expect(again.store.deadLetters.recipient.value).toBe('/user/checkout');
    expect(again.store.deadLetters.limit.value).toBe(100);
    expect(again.store.deadLetters.timeWindow.value).toEqual({ kind: 'last', minutes: 15 });
    expect(again.store.mailboxes.filterText.value).toBe('kind:bounded');
    expect(again.store.mailboxes.sort.value).toEqual({ key: 'userDepth', dir: 'desc' });
    expect(screen.getByTestId('devtools').getAttribute('data-theme')).toBe('dark');
  });

  it('drops each malformed field on read and keeps the valid ones', async () => {
    // Hand-edited or stale storage: a wrong value falls back to the default, never breaks the panel.
    localStorage.setItem(
      PREFS_KEY,
      JSON.stringify({ version: 1, theme: 'purple', view: 'metrics', limit: -5, window: { kind: 'range', fromMs: 0, toMs: 1 }, mailboxSort: { key: 'evil', dir: 'asc' }, recipient: 42, search: 'order' }),
    );
    expect(parsePrefs(localStorage.getItem(PREFS_KEY))).toEqual({ view: 'metrics', search: 'order' });
    expect(parsePrefs('{not json')).toEqual({});
    expect(parsePrefs(JSON.stringify({ version: 99, theme: 'dark' }))).toEqual({});
    const h = await mount(systemWith());
    expect(h.store.ui.theme.value).toBe('system');
    expect(h.store.ui.view.value).toBe('metrics');
    expect(h.store.deadLetters.limit.value).toBeNull();
  });

  it('writes preferences once after typing, not on every keystroke', async () => {
    // The write leaves the keystroke's task; stopping (a reload) writes what is pending.
    const ctx = createScenario();
    const { persistPrefs, PREFS_KEY: key } = await import('../../devtools-ui/src/store/prefs');
    const writes: string[] = [];
    const storage = { getItem: () => null, setItem: (_k: string, v: string) => void writes.push(v) };
    const stop = persistPrefs(ctx.store, storage);
    for (const text of ['k', 'ki', 'kin', 'kind', 'kind:']) ctx.store.emit({ type: 'mailboxes/filter', text });
    expect(writes).toEqual([]);
    stop();
    expect(writes).toHaveLength(1);
    expect(parsePrefs(writes[0]).mailboxFilter).toBe('kind:');
    expect(key).toBe(PREFS_KEY);
  });

  it('keeps working when storage throws', async () => {
    const ctx = createScenario();
    const { persistPrefs } = await import('../../devtools-ui/src/store/prefs');
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    const stop = persistPrefs(ctx.store, broken);
    ctx.store.emit({ type: 'theme', theme: 'dark' });
    expect(ctx.store.ui.theme.value).toBe('dark');
    stop();
  });
});
