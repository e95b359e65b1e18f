// Mailboxes concern: one row per actor with its depth history, deltas and the
// derived filtered/sorted/tree view. Rows are replaced each sample, never mutated.
import { computed, signal } from '@preact/signals';
import type { ActorSnapshot } from '../types';
import { localPath, parentOf } from '../paths';
import { matchesFilter, parseFilter } from './filterQuery';

export const HISTORY_LENGTH = 60;
export const WARN_FILL = 0.85;

export interface MailboxRow extends ActorSnapshot {
  /** userDepth / capacity, null when unbounded. */
  fill: number | null;
  droppedDelta: number;
  /** Messages processed per second since the previous sample. */
  processedRate: number;
  /** Depth change per second over the recent history. */
  growth: number;
  history: readonly number[];
  /** Nesting level in tree mode (0 in flat mode). */
  level: number;
}

export const SORT_KEYS = [
  'path',
  'className',
  'mailboxKind',
  'overflow',
  'userDepth',
  'fill',
  'systemDepth',
  'stashSize',
  'dropped',
  'droppedDelta',
  'suspended',
  'processedRate',
  'growth',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface SortState {
  key: SortKey;
  dir: 'asc' | 'desc';
}
export type ViewMode = 'tree' | 'flat';

const GROWTH_WINDOW = 5;

function sortValue(row: MailboxRow, key: SortKey): string | number {
  const v = row[key];
  if (v === null) return -1;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

// Plain code-unit order: localeCompare is ~50x slower and paths are ASCII anyway.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareRows(a: MailboxRow, b: MailboxRow, sort: SortState): number {
  const va = sortValue(a, sort.key);
  const vb = sortValue(b, sort.key);
  let c = typeof va === 'number' && typeof vb === 'number' ? va - vb : compareText(String(va), String(vb));
  if (c === 0) c = compareText(a.path, b.path);
  return sort.dir === 'asc' ? c : -c;
}

/** Depth-first order; siblings sorted; a row hangs under its nearest listed ancestor. */
function treeOrder(rows: MailboxRow[], sort: SortState): MailboxRow[] {
  const byPath = new Map(rows.map((r) => [localPath(r.path), r]));
  const children = new Map<string, MailboxRow[]>();
  for (const row of rows) {
    let parent = parentOf(localPath(row.path));
    while (parent !== '/' && !byPath.has(parent)) parent = parentOf(parent);
    const key = byPath.has(parent) ? parent : '';
    const list = children.get(key) ?? [];
    list.push(row);
    children.set(key, list);
  }
  const out: MailboxRow[] = [];
  const visit = (key: string, level: number) => {
    const list = children.get(key);
    if (!list) return;
    list.sort((a, b) => compareRows(a, b, sort));
    for (const row of list) {
      out.push(level === row.level ? row : { ...row, level });
      visit(localPath(row.path), level + 1);
    }
  };
  visit('', 0);
  return out;
}

export function createMailboxStore() {
  const rows = signal<MailboxRow[]>([]);
  const lastSampleAt = signal<number | null>(null);
  const filterText = signal('');
  const sort = signal<SortState>({ key: 'path', dir: 'asc' });
  const mode = signal<ViewMode>('tree');
  /** Written through `select`, so the order holds while a row is selected. */
  const selectedPath = signal<string | null>(null);
  /** The pointer is over the list. */
  const hovered = signal(false);
  /** Keyboard focus is in the list. */
  const focused = signal(false);
  /**
   * While set, the displayed order is frozen so rows do not jump under the cursor
   * or away from the selected row: set while hovered or a row is selected.
   */
  const frozenOrder = signal<readonly string[] | null>(null);

  const parsedFilter = computed(() => parseFilter(filterText.value));

  const ordered = computed(() => {
    const filter = parsedFilter.value;
    const matching = rows.value.filter((r) => matchesFilter(filter, r));
    if (mode.value === 'tree') return treeOrder(matching, sort.value);
    return matching.slice().sort((a, b) => compareRows(a, b, sort.value));
  });

  const visible = computed(() => {
    const frozen = frozenOrder.value;
    const fresh = ordered.value;
    if (!frozen) return fresh;
    const byPath = new Map(fresh.map((r) => [r.path, r]));
    const kept = frozen.flatMap((p) => {
      const r = byPath.get(p);
      return r ? [r] : [];
    });
    const keptSet = new Set(frozen);
    return kept.concat(fresh.filter((r) => !keptSet.has(r.path)));
  });

  /**
   * True while the held order is not the order the sort asks for: the sort header
   * then says so instead of claiming an order the rows are not in.
   */
  const orderStale = computed(() => {
    if (frozenOrder.value === null) return false;
    const shown = visible.value;
    const fresh = ordered.value;
    if (shown.length !== fresh.length) return true;
    for (let i = 0; i < shown.length; i++) if (shown[i].path !== fresh[i].path) return true;
    return false;
  });

  /** Why the order is held, for the toolbar. */
  const holdReasons = computed(() => {
    const out: ('pointer' | 'focus' | 'selection')[] = [];
    if (hovered.value) out.push('pointer');
    if (focused.value) out.push('focus');
    if (selectedPath.value !== null) out.push('selection');
    return out;
  });

  /** The live rows and their history, set aside while an import is viewed (see session.ts). */
  function saveSession() {
    return { rows: rows.value, lastSampleAt: lastSampleAt.value, selectedPath: selectedPath.value };
  }

  /** Puts a saved session back (or, with an empty one, starts a fresh history). */
  function restoreSession(saved: ReturnType<typeof saveSession>) {
    frozenOrder.value = null;
    rows.value = saved.rows;
    lastSampleAt.value = saved.lastSampleAt;
    selectedPath.value = saved.selectedPath;
    hold();
  }

  /** Applies the sort to the rows now (the user asked), then holds that order. */
  function resort() {
    reorder(() => undefined);
  }

  function apply(actors: readonly ActorSnapshot[], atMs: number) {
    const previous = new Map(rows.value.map((r) => [r.path, r]));
    const prevAt = lastSampleAt.value;
    const seconds = prevAt === null ? 0 : Math.max((atMs - prevAt) / 1000, 1e-3);
    rows.value = actors.map((a) => {
      const old = previous.get(a.path);
      const history = old ? old.history.slice(-(HISTORY_LENGTH - 1)) : [];
      history.push(a.userDepth);
      const back = history[Math.max(0, history.length - 1 - GROWTH_WINDOW)];
      const span = Math.min(GROWTH_WINDOW, history.length - 1);
      return {
        ...a,
        fill: a.capacity ? a.userDepth / a.capacity : null,
        droppedDelta: old ? Math.max(0, a.dropped - old.dropped) : 0,
        processedRate: old && seconds > 0 ? Math.max(0, a.processed - old.processed) / seconds : 0,
        growth: span > 0 && seconds > 0 ? (a.userDepth - back) / (span * seconds) : 0,
        history,
        level: 0,
      };
    });
    lastSampleAt.value = atMs;
  }

  /** Freezes the order on screen when rows start holding still, releases it when they stop. */
  function hold() {
    const on = hovered.value || focused.value || selectedPath.value !== null;
    if (!on) frozenOrder.value = null;
    else if (frozenOrder.value === null) frozenOrder.value = visible.value.map((r) => r.path);
  }

  /** A new order the user asked for (sort, layout, filter) applies at once, and is the one then held. */
  function reorder(change: () => void) {
    frozenOrder.value = null;
    change();
    hold();
  }

  function toggleSort(key: SortKey) {
    const cur = sort.value;
    const textual = key === 'path' || key === 'className' || key === 'mailboxKind' || key === 'overflow';
    reorder(() => {
      sort.value =
        cur.key === key ? { key, dir: cur.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: textual ? 'asc' : 'desc' };
    });
  }

  function setMode(next: ViewMode) {
    reorder(() => (mode.value = next));
  }

  function setFilter(text: string) {
    reorder(() => (filterText.value = text));
  }

  function freeze(on: boolean) {
    hovered.value = on;
    hold();
  }

  function setFocus(on: boolean) {
    focused.value = on;
    hold();
  }

  /** Selects a row (null: none); rows hold their places while one is selected. */
  function select(path: string | null) {
    selectedPath.value = path;
    hold();
  }

  return {
    rows,
    filterText,
    parsedFilter,
    sort,
    mode,
    selectedPath,
    frozenOrder,
    visible,
    orderStale,
    holdReasons,
    resort,
    saveSession,
    restoreSession,
    apply,
    toggleSort,
    setMode,
    setFilter,
    freeze,
    setFocus,
    select,
  };
}
export type MailboxStore = ReturnType<typeof createMailboxStore>;
