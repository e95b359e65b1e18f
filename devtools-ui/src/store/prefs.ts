// Preferences kept across reloads: theme, tab, filters and hidden columns, in localStorage
// (the dock is the host's: the demo's drawer keeps its own).
// Read back as untrusted input: each field is checked on its own and a bad
// one is dropped (the default stays), so a stale or hand-edited value can
// never break the panel. Storage that throws (private modes, sandboxes) is skipped.
import { effect } from '@preact/signals';
import type { PanelStore } from './index';
import { SORT_KEYS, type SortKey, type SortState, type ViewMode } from './mailboxes';
import { WINDOW_MINUTES, type TimeWindow } from './deadLetters';
import type { HiddenColumns, ThemeChoice, View } from './ui';
import { COLUMNS } from '../components/columns';

export const PREFS_KEY = 'mailroom-devtools/prefs';
const VERSION = 1;
const MAX_TEXT = 2_000;
const LIMITS = [20, 100, 1000];
const SAVE_DELAY_MS = 300;

export interface Prefs {
  theme: ThemeChoice;
  view: View;
  mailboxFilter: string;
  mailboxMode: ViewMode;
  mailboxSort: SortState;
  recipient: string;
  search: string;
  window: TimeWindow;
  limit: number | null;
  timeMode: 'absolute' | 'relative';
  cause: string | null;
  order: 'time' | 'cause';
  hiddenColumns: HiddenColumns;
}

type Check<T> = (v: unknown) => v is T;
const oneOf =
  <T extends string>(...options: readonly T[]): Check<T> =>
  (v): v is T =>
    typeof v === 'string' && (options as readonly string[]).includes(v);
const text: Check<string> = (v): v is string => typeof v === 'string' && v.length <= MAX_TEXT;
const sort: Check<SortState> = (v): v is SortState => {
  const s = v as Partial<SortState> | null;
  return typeof s === 'object' && s !== null && (SORT_KEYS as readonly string[]).includes(s.key as SortKey) && (s.dir === 'asc' || s.dir === 'desc');
};
// A brushed range is a moment, not a preference: only "all" and "last N minutes" are kept.
const timeWindow: Check<TimeWindow> = (v): v is TimeWindow => {
  const w = v as { kind?: unknown; minutes?: unknown } | null;
  if (typeof w !== 'object' || w === null) return false;
  return w.kind === 'all' || (w.kind === 'last' && (WINDOW_MINUTES as readonly number[]).includes(w.minutes as number));
};
// Only known, hideable column ids: a stale list can never hide a required column.
const hideable = (list: keyof HiddenColumns, v: unknown) =>
  Array.isArray(v) && v.every((id) => COLUMNS[list].some((c) => c.id === id && !c.required));
const hiddenColumns: Check<HiddenColumns> = (v): v is HiddenColumns => {
  const h = v as Partial<HiddenColumns> | null;
  return typeof h === 'object' && h !== null && hideable('deadLetters', h.deadLetters) && hideable('mailboxes', h.mailboxes);
};
const limit: Check<number | null> = (v): v is number | null => v === null || LIMITS.includes(v as number);

const CHECKS: { [K in keyof Prefs]: Check<Prefs[K]> } = {
  theme: oneOf<ThemeChoice>('system', 'light', 'dark'),
  view: oneOf<View>('mailboxes', 'dead-letters', 'metrics'),
  mailboxFilter: text,
  mailboxMode: oneOf<ViewMode>('tree', 'flat'),
  mailboxSort: sort,
  recipient: text,
  search: text,
  window: timeWindow,
  limit,
  timeMode: oneOf('absolute', 'relative'),
  order: oneOf('time', 'cause'),
  hiddenColumns,
  cause: (v): v is string | null => v === null || (typeof v === 'string' && /^[a-z][a-z-]{0,31}$/.test(v)),
};

/** The valid fields of what was stored; anything malformed is left out. */
export function parsePrefs(raw: string | null): Partial<Prefs> {
  if (raw === null) return {};
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof data !== 'object' || data === null || (data as { version?: unknown }).version !== VERSION) return {};
  const out: Partial<Prefs> = {};
  for (const key of Object.keys(CHECKS) as (keyof Prefs)[]) {
    const value = (data as Record<string, unknown>)[key];
    if (CHECKS[key](value)) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

function currentPrefs(store: PanelStore): Prefs {
  const { ui, mailboxes, deadLetters: dl } = store;
  const w = dl.timeWindow.value;
  return {
    theme: ui.theme.value,
    view: ui.view.value,
    mailboxFilter: mailboxes.filterText.value,
    mailboxMode: mailboxes.mode.value,
    mailboxSort: mailboxes.sort.value,
    recipient: dl.recipient.value,
    search: dl.search.value,
    window: w.kind === 'range' ? { kind: 'all' } : w,
    limit: dl.limit.value,
    timeMode: dl.timeMode.value,
    cause: dl.cause.value,
    order: dl.order.value,
    hiddenColumns: ui.hiddenColumns.value,
  };
}

function applyPrefs(store: PanelStore, p: Partial<Prefs>) {
  const { ui, mailboxes, deadLetters: dl } = store;
  if (p.theme) ui.theme.value = p.theme;
  if (p.view) ui.view.value = p.view;
  if (p.mailboxFilter !== undefined) mailboxes.setFilter(p.mailboxFilter);
  if (p.mailboxMode) mailboxes.setMode(p.mailboxMode);
  if (p.mailboxSort) mailboxes.sort.value = p.mailboxSort;
  if (p.recipient !== undefined) dl.recipient.value = p.recipient;
  if (p.search !== undefined) dl.search.value = p.search;
  if (p.window) dl.timeWindow.value = p.window;
  if (p.limit !== undefined) dl.limit.value = p.limit;
  if (p.timeMode) dl.timeMode.value = p.timeMode;
  if (p.cause !== undefined) dl.cause.value = p.cause;
  if (p.order) dl.order.value = p.order;
  if (p.hiddenColumns) ui.hiddenColumns.value = p.hiddenColumns;
}

/** Restores the stored preferences into the store and keeps them saved; returns the stop function. */
export function persistPrefs(store: PanelStore, storage: Pick<Storage, 'getItem' | 'setItem'> | null): () => void {
  if (!storage) return () => undefined;
  try {
    applyPrefs(store, parsePrefs(storage.getItem(PREFS_KEY)));
  } catch {
    return () => undefined;
  }
  // The write waits a moment (and leaves the keystroke's task): typing a filter would
  // otherwise stringify and write localStorage on every key. A page going away, and
  // stopping, write what is pending at once.
  let last = '';
  let pending: Prefs | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!pending) return;
    const json = JSON.stringify({ version: VERSION, ...pending });
    pending = null;
    if (json === last) return;
    last = json;
    try {
      storage.setItem(PREFS_KEY, json);
    } catch {
      // Full or refused: preferences are a convenience, the panel goes on.
    }
  };
  const stopEffect = effect(() => {
    pending = currentPrefs(store);
    if (timer === null) timer = setTimeout(write, SAVE_DELAY_MS);
  });
  const onHide = () => write();
  globalThis.addEventListener?.('pagehide', onHide);
  return () => {
    stopEffect();
    globalThis.removeEventListener?.('pagehide', onHide);
    write();
  };
}
