// Dead-letter concern: the queue's settings and entries, the inspector's
// filters (recipient subtree, time window, limit, payload search), the
// selection, and each entry's replay attempt history.
import { computed, effect, signal, untracked } from '@preact/signals';
import type { DeadLetterEntry, DeadLetterSettings, ReplayOutcome } from '../types';
import { inSubtree as pathInSubtree, localPath } from '../paths';
import { safeStringify } from '../payload/serialize';
import { messageType } from '../payload/values';

export type TimeWindow = { kind: 'all' } | { kind: 'last'; minutes: number } | { kind: 'range'; fromMs: number; toMs: number };
export const WINDOW_MINUTES = [1, 5, 15, 60] as const;

export interface Attempt {
  atMs: number;
  target: string;
  redirect: boolean;
  /** A replay's named outcome, 'error', or 'released' (a quarantine lifted). */
  outcome: ReplayOutcome | 'error' | 'released';
  detail?: string;
  /** unresolved-recipient: why the core found the redirect path malformed. */
  malformed?: string;
}

export interface ReplayDraft {
  entryId: string;
  /** null: replay to the recorded recipient; a string: redirect. */
  altPath: string | null;
}

/** The slot on a view that memoises its payload search text (see `searchTextOf`). */
const SEARCH_TEXT: unique symbol = Symbol('searchText');

export interface DeadLetterView extends DeadLetterEntry {
  type: string;
  /**
   * Recipient as a local path, precomputed: the subtree filter runs per keystroke.
   * Views of one recipient share one string, so the filter looks it up by identity.
   */
  recipientLocal: string;
  /**
   * Lower-cased payload text, filled on first use: a memo of the view's own (unchanging)
   * fields, not state. A symbol key, so no copy, export or JSON of the view shows it.
   */
  [SEARCH_TEXT]: string | undefined;
}

const SEARCH_CHARS = 20_000;

/**
 * The core's answer to the recipient and text filters (deadLetters.list over the protocol):
 * the panel shows these letters instead of matching its own copy of the queue.
 */
export interface ServedList {
  /** The filters it answers (see `queryKey`). */
  key: string;
  entries: readonly DeadLetterView[];
  /** The core has more letters for these filters than are loaded ("load more" asks for them). */
  more: boolean;
  /** The question is still being answered (a text search reads the queue slice by slice): `entries` is what was found so far. */
  searching: boolean;
  /** Why the last question failed (nothing is shown for it then). */
  error: string | null;
}

/** The filters the core is asked for: recipient as typed, text as typed. */
export interface CoreFilter {
  recipient: string;
  text: string;
}

const EMPTY: readonly DeadLetterView[] = [];

/** Newest first; equal times by id, higher (later) id first. */
function newerFirst(a: DeadLetterEntry, b: DeadLetterEntry): number {
  return b.timestampMs - a.timestampMs || compareIds(b.id, a.id);
}

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function mergeSorted(a: DeadLetterView[], b: DeadLetterView[]): DeadLetterView[] {
  if (a.length === 0) return b;
  if (b.length === 0 || newerFirst(a[a.length - 1], b[0]) <= 0) return a.concat(b);
  const out: DeadLetterView[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(newerFirst(a[i], b[j]) <= 0 ? a[i++] : b[j++]);
  return out.concat(a.slice(i), b.slice(j));
}

/** The entry's cause, 'unknown' when the system does not record causes. */
export function causeOf(entry: DeadLetterEntry): string {
  return entry.cause ?? 'unknown';
}

export function entryType(entry: DeadLetterEntry): string {
  return entry.payload.kind === 'degraded' ? entry.payload.className : messageType(entry.payload.message);
}

export function createDeadLetterStore() {
  const settings = signal<DeadLetterSettings | null>(null);
  const entries = signal<DeadLetterView[]>([]);
  const now = signal(Date.now());
  const evicted = signal(0);
  const recipient = signal('');
  const timeWindow = signal<TimeWindow>({ kind: 'all' });
  const limit = signal<number | null>(null);
  const search = signal('');
  /** Only letters that died of this cause (null: any). */
  const cause = signal<string | null>(null);
  /** The source runs the core's query: recipient and text filters are the core's (set at mount). */
  const coreQuery = signal(false);
  /** Imported data is a file, not a queue: its filters run here. */
  const importedView = signal(false);
  const served = signal<ServedList | null>(null);
  /** What the core is to be asked now, or null when the panel filters what it holds (no query, no filter, an import). */
  const coreFilter = computed<CoreFilter | null>(() => {
    if (!coreQuery.value || importedView.value) return null;
    const r = recipient.value;
    const text = search.value;
    return r === '' && text === '' ? null : { recipient: r, text };
  });
  const queryKey = computed(() => {
    const f = coreFilter.value;
    return f === null ? null : JSON.stringify([f.recipient, f.text]);
  });
  // An answer holds for its filters only while they stay set: once they change, it is dropped.
  // Kept, the same filters set again later would show it as answered at once, though its letters
  // may have been purged or replayed meanwhile (the stage-60 bulk test saw 3 purged letters
  // listed, went on, and found 1).
  effect(() => {
    const key = queryKey.value;
    untracked(() => {
      if (served.value !== null && served.value.key !== key) served.value = null;
    });
  });
  /** 'pending' while the core has not answered the filters as they are now; null when it is not asked. */
  const queryState = computed<'pending' | 'done' | 'error' | null>(() => {
    const key = queryKey.value;
    if (key === null) return null;
    const s = served.value;
    if (s === null || s.key !== key || s.searching) return 'pending';
    return s.error !== null ? 'error' : 'done';
  });
  const selectedId = signal<string | null>(null);
  const detailOpen = signal(false);
  const timeMode = signal<'absolute' | 'relative'>('absolute');
  const attempts = signal<ReadonlyMap<string, readonly Attempt[]>>(new Map());
  const draft = signal<ReplayDraft | null>(null);
  const busy = signal(false);
  /** Ids the panel replayed successfully, so they are not counted as evicted. */
  const replayedHere = new Set<string>();
  /**
   * Every recipient (local path) of a view made since the last full read, each as the one
   * string its views share. A superset of the recipients in `entries`; rebuilt by `apply`.
   */
  let recipients = new Map<string, string>();
  /** How far `prepareSearch` got through which list. */
  let prepared: { list: readonly DeadLetterView[]; next: number } = { list: [], next: 0 };
  /** The last payload search, so a query that extends it only re-checks its matches. */
  let lastSearch: { over: readonly DeadLetterView[]; query: string; result: readonly DeadLetterView[] } | null = null;

  function toView(e: DeadLetterEntry): DeadLetterView {
    const local = localPath(e.recipientPath);
    let shared = recipients.get(local);
    if (shared === undefined) recipients.set(local, (shared = local));
    return { ...e, type: entryType(e), recipientLocal: shared, [SEARCH_TEXT]: undefined };
  }

  /** Views are reused while their entry is unchanged, so each text is built once. */
  function searchTextOf(e: DeadLetterView): string {
    let text = e[SEARCH_TEXT];
    if (text === undefined) {
      text =
        e.payload.kind === 'captured'
          ? safeStringify(e.payload.message, { maxChars: SEARCH_CHARS, maxDepth: 32 })
          : `${e.payload.className} ${e.payload.reason}`;
      text = `${text} ${e.recipientLocal}`.toLowerCase();
      e[SEARCH_TEXT] = text;
    }
    return text;
  }

  const windowed = computed(() => {
    const core = queryKey.value !== null;
    // With the core's query the recipient is the core's to match (served holds its answer).
    const r = core ? '' : recipient.value.trim();
    const root = r === '' ? '' : localPath(r);
    const w = timeWindow.value;
    // `now` is read only for a relative window, so other filters do not rerun per sample.
    const from = w.kind === 'last' ? now.value - w.minutes * 60_000 : w.kind === 'range' ? w.fromMs : -Infinity;
    const to = w.kind === 'range' ? w.toMs : Infinity;
    // Only the core's answer to these very filters is shown: none while it is asked (rows of
    // another filter's answer would be clicked for this one's).
    const answer = served.value;
    const all = core ? (answer !== null && answer.key === queryKey.value ? answer.entries : EMPTY) : entries.value;
    const why = cause.value;
    // The subtree is decided once per recipient, not once per entry: typing a path
    // then costs a set lookup per entry, or nothing while no recipient matches.
    // Counted first: with 100,000 distinct recipients, a path that takes in all
    // or none of them (most keystrokes) builds no set and filters nothing.
    let inSubtree: Set<string> | null = null;
    if (root !== '') {
      let count = 0;
      for (const name of recipients.keys()) if (pathInSubtree(name, root)) count++;
      if (count === 0) return [];
      if (count < recipients.size) {
        inSubtree = new Set<string>();
        for (const name of recipients.keys()) if (pathInSubtree(name, root)) inSubtree.add(name);
      }
    }
    if (inSubtree === null && from === -Infinity && to === Infinity && why === null) return all;
    return all.filter(
      (e) =>
        e.timestampMs >= from &&
        e.timestampMs <= to &&
        (inSubtree === null || inSubtree.has(e.recipientLocal)) &&
        (why === null || causeOf(e) === why),
    );
  });

  /** Entries matching the search, before the limit: the match counter. */
  const matching = computed(() => {
    // With the core's query the text was matched by the core.
    const query = queryKey.value !== null ? '' : search.value.trim().toLowerCase();
    const over = windowed.value;
    if (query === '') return over;
    // What matches "abc" also matches "ab": a query typed further searches the last matches only.
    const last = lastSearch;
    const from = last !== null && last.over === over && query.includes(last.query) ? last.result : over;
    const kept = from.filter((e) => searchTextOf(e).includes(query));
    // Nothing dropped out: keep the same list, so nothing downstream re-renders.
    const result = kept.length === from.length ? from : kept;
    lastSearch = { over, query, result };
    return result;
  });

  /** 'cause': grouped by cause (the most frequent group first), newest first within each. */
  const order = signal<'time' | 'cause'>('time');

  const visible = computed(() => {
    const l = limit.value;
    const list = l === null ? matching.value : matching.value.slice(0, l);
    if (order.value !== 'cause') return list;
    const counts = new Map<string, number>();
    for (const e of list) counts.set(causeOf(e), (counts.get(causeOf(e)) ?? 0) + 1);
    const rank = new Map(
      [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([c], i) => [c, i] as const),
    );
    // Stable: within a cause the newest-first order of `list` stays.
    return list
      .map((e, i) => [rank.get(causeOf(e))!, i, e] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([, , e]) => e);
  });

  /** In cause order, the first letter of each group with the group's size (the group header). */
  const groupStarts = computed(() => {
    const out = new Map<string, { cause: string; count: number }>();
    if (order.value !== 'cause') return out;
    let current: { cause: string; count: number } | null = null;
    for (const e of visible.value) {
      const c = causeOf(e);
      if (current === null || current.cause !== c) {
        current = { cause: c, count: 0 };
        out.set(e.id, current);
      }
      current.count++;
    }
    return out;
  });

  /** How many kept letters died of each cause, most frequent first. */
  const causeCounts = computed(() => {
    const counts = new Map<string, number>();
    for (const e of entries.value) {
      const c = causeOf(e);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  });

  /** Kept letters per recipient (local path): the mailbox rows' badges. Read only where shown. */
  const countByRecipient = computed(() => {
    const counts = new Map<string, number>();
    for (const e of entries.value) counts.set(e.recipientLocal, (counts.get(e.recipientLocal) ?? 0) + 1);
    return counts;
  });

  /**
   * A letter by id: as the panel's copy of the queue holds it (updated by every delta), else as
   * the core's filtered answer has it (an answer can arrive before the delta that brings the letter).
   */
  function find(id: string | null): DeadLetterView | null {
    if (id === null) return null;
    const held = entries.value.find((e) => e.id === id);
    if (held) return held;
    const answer = served.value;
    return queryKey.value !== null && answer !== null && answer.key === queryKey.value ? (answer.entries.find((e) => e.id === id) ?? null) : null;
  }

  const selected = computed(() => find(selectedId.value));

  function sameEntry(a: DeadLetterView, b: DeadLetterEntry): boolean {
    return (
      a.replayCount === b.replayCount &&
      a.quarantined === b.quarantined &&
      a.timestampMs === b.timestampMs &&
      a.recipientPath === b.recipientPath &&
      a.senderPath === b.senderPath &&
      a.cause === b.cause &&
      a.dropPolicy === b.dropPolicy &&
      a.payload.kind === b.payload.kind &&
      (a.payload.kind === 'captured' ? a.payload.message === (b.payload as { message: unknown }).message : true)
    );
  }

  function apply(next: readonly DeadLetterEntry[], nextSettings: DeadLetterSettings, atMs: number) {
    const previous = new Map<string, DeadLetterView>();
    for (const e of entries.value) previous.set(e.id, e);
    let changed = next.length !== entries.value.length;
    const views = new Array<DeadLetterView>(next.length);
    let sorted = true;
    for (let i = 0; i < next.length; i++) {
      const e = next[i];
      const old = previous.get(e.id);
      // Unchanged entries keep their view object: derived text and caches survive.
      const view = old && sameEntry(old, e) ? old : toView(e);
      if (view !== entries.value[i]) changed = true;
      views[i] = view;
      if (i > 0 && newerFirst(views[i - 1], view) > 0) sorted = false;
      previous.delete(e.id);
    }
    // Whatever is left was in the last list and is not now: evicted, unless the panel replayed it.
    let gone = 0;
    for (const id of previous.keys()) if (!replayedHere.delete(id)) gone++;
    if (gone > 0) evicted.value += gone;
    if (!sorted) views.sort(newerFirst);
    // A full read: forget recipients no entry has any more.
    recipients = new Map(views.map((v) => [v.recipientLocal, v.recipientLocal]));
    if (changed) entries.value = views;
    settings.value = nextSettings;
    now.value = atMs;
  }

  /**
   * Merges entries read with `sinceMs` (new arrivals, or letters back from a replay)
   * into the list, then applies the ring's bounds locally: the oldest beyond
   * max-entries and anything past retention count as evicted.
   */
  function merge(fresh: readonly DeadLetterEntry[], nextSettings: DeadLetterSettings, atMs: number) {
    if (fresh.length > 0) {
      const byId = new Map<string, DeadLetterEntry>();
      for (const e of fresh) byId.set(e.id, e);
      const kept = entries.value.filter((e) => !byId.has(e.id));
      const combined = [...byId.values()].map(toView);
      combined.sort(newerFirst);
      let list = mergeSorted(combined, kept);
      const oldestAllowed = nextSettings.retentionMs ? atMs - nextSettings.retentionMs : -Infinity;
      let cut = Math.min(list.length, Math.max(0, nextSettings.maxEntries));
      while (cut > 0 && list[cut - 1].timestampMs < oldestAllowed) cut--;
      if (cut < list.length) {
        evicted.value += list.length - cut;
        list = list.slice(0, cut);
      }
      entries.value = list;
    }
    settings.value = nextSettings;
    now.value = atMs;
  }

  /**
   * The core's answer for `key` so far: the letters found, newest first, and whether more are
   * to come. An unchanged letter keeps its view, so a repeated answer re-renders nothing.
   */
  function serve(key: string, found: readonly DeadLetterEntry[], more: boolean, searching = false) {
    const before = served.value;
    const old = new Map<string, DeadLetterView>();
    if (before) for (const e of before.entries) old.set(e.id, e);
    const seen = new Set<string>();
    const list: DeadLetterView[] = [];
    for (const e of found) {
      if (seen.has(e.id)) continue; // a letter at a slice's edge comes twice
      seen.add(e.id);
      const prev = old.get(e.id);
      list.push(prev && sameEntry(prev, e) ? prev : toView(e));
    }
    const same =
      before !== null &&
      before.key === key &&
      before.error === null &&
      before.more === more &&
      before.searching === searching &&
      before.entries.length === list.length &&
      list.every((v, i) => v === before.entries[i]);
    if (!same) served.value = { key, entries: list, more, searching, error: null };
  }

  /** The core could not answer `key`: nothing is shown for it, with the reason. */
  function serveError(key: string, message: string) {
    const before = served.value;
    // A next page that failed keeps the pages already answered for the same filters.
    const kept = before !== null && before.key === key && before.error === null ? before.entries : EMPTY;
    served.value = { key, entries: kept, more: false, searching: false, error: message };
  }

  function recordAttempt(id: string, attempt: Attempt) {
    const map = new Map(attempts.value);
    map.set(id, [...(map.get(id) ?? []), attempt]);
    attempts.value = map;
    if (attempt.outcome === 'replayed') replayedHere.add(id);
  }

  /**
   * Letters this panel purged: they leave the list now (not at the next read) and are
   * not counted as evicted when the next full read no longer has them.
   */
  function forget(ids: Iterable<string>) {
    const gone = new Set(ids);
    if (gone.size === 0) return;
    for (const id of gone) replayedHere.add(id);
    const kept = entries.value.filter((e) => !gone.has(e.id));
    if (kept.length !== entries.value.length) entries.value = kept;
  }

  /**
   * Builds the payload search text of entries not searched yet, until `enough()` says
   * stop (an idle period is used up). True when every entry's text is ready, so the
   * first search over a long queue does not build them all in one keystroke.
   */
  function prepareSearch(enough: () => boolean): boolean {
    const list = entries.value;
    if (prepared.list !== list) prepared = { list, next: 0 };
    while (prepared.next < list.length) {
      searchTextOf(list[prepared.next++]);
      if (prepared.next % 64 === 0 && enough()) break;
    }
    return prepared.next >= list.length;
  }

  /** Arrival counts per bucket over the kept entries' time span (for the histogram brush). */
  const histogram = computed(() => {
    const list = entries.value;
    const buckets = 30;
    const counts = new Array<number>(buckets).fill(0);
    if (list.length === 0) return { fromMs: 0, toMs: 1, counts };
    const toMs = list[0].timestampMs + 1;
    const fromMs = Math.min(list[list.length - 1].timestampMs, toMs - 60_000);
    const width = (toMs - fromMs) / buckets;
    for (const e of list) counts[Math.min(buckets - 1, Math.floor((e.timestampMs - fromMs) / width))]++;
    return { fromMs, toMs, counts };
  });

  /** Everything a session owns, set aside while an import is viewed (see session.ts). */
  function saveSession() {
    return {
      settings: settings.value,
      entries: entries.value,
      evicted: evicted.value,
      attempts: attempts.value,
      selectedId: selectedId.value,
      detailOpen: detailOpen.value,
      now: now.value,
    };
  }

  function restoreSession(saved: ReturnType<typeof saveSession>) {
    settings.value = saved.settings;
    entries.value = saved.entries;
    evicted.value = saved.evicted;
    attempts.value = saved.attempts;
    selectedId.value = saved.selectedId;
    detailOpen.value = saved.detailOpen;
    now.value = saved.now;
    recipients = new Map(saved.entries.map((v) => [v.recipientLocal, v.recipientLocal]));
    replayedHere.clear();
    draft.value = null;
    busy.value = false;
  }

  return {
    coreQuery,
    importedView,
    served,
    coreFilter,
    queryKey,
    queryState,
    serve,
    serveError,
    find,
    saveSession,
    restoreSession,
    settings,
    entries,
    now,
    evicted,
    recipient,
    timeWindow,
    limit,
    search,
    cause,
    causeCounts,
    order,
    groupStarts,
    countByRecipient,
    selectedId,
    detailOpen,
    timeMode,
    attempts,
    draft,
    busy,
    matching,
    visible,
    selected,
    histogram,
    apply,
    merge,
    recordAttempt,
    forget,
    prepareSearch,
  };
}
export type DeadLetterStore = ReturnType<typeof createDeadLetterStore>;
