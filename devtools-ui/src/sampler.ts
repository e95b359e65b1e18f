// Drives the data path: samples the source at the chosen rate, applies at most
// one sample per animation frame, pauses while hidden, and runs replay intents.
import type { ListRequest, SystemSource, Sample } from './source/systemSource';
import type { ActorSnapshot, DeadLetterEntry } from './types';
import type { PanelStore } from './store';
import { batch, effect, untracked } from '@preact/signals';
import { applyEvent, type InboundEvent } from './store/reducer';
import { replayKey, type ReplayDryRun } from './store';
import type { OutboundIntent } from './store/intents';
import type { BulkOutcome } from './store/bulk';

// The list heuristics below serve a source that is read by polling (the panel's
// fake system). A pushed source (the DevTools protocol) skips them: it sends
// what was captured, updated and removed, so nothing is guessed.
/** Re-read the whole dead-letter list this often; between, push events read only what is new. */
const FULL_REFRESH_MS = 30_000;
/** A push-triggered re-read waits this many times the last read's cost, so a big queue under a storm of letters does not starve the page. */
const LIST_COST_FACTOR = 5;
const REPLAY_ECHO_MS = 10_000;
/** Ids per purge request (the protocol takes at most 10,000). */
const PURGE_CHUNK = 5_000;
/**
 * Timer beats are skipped this long after a filter change, so a keystroke does not
 * share its frame with a sample's re-render of every row in view...
 */
const TYPING_QUIET_MS = 300;
/** ...but while typing goes on, a sample still lands at least this often. */
const TYPING_MAX_STALE_MS = 1_000;
/** A typed target's dry run waits this long for the next keystroke: one question per pause, not per key. */
export const TYPED_PREVIEW_MS = 150;
/** Letters asked of the core's query per page (the recipient and text filters). */
export const QUERY_PAGE = 500;
/** While the filters are the core's, new letters ask again at most this often. */
const REQUERY_MS = 1_000;
/** ...and a text search (it reads the whole queue again) at most this often. */
const TEXT_REQUERY_MS = 5_000;
/** Letters of the queue one text question reads (by capture time): ~13 ms of the core's search in wasm. */
export const TEXT_SLICE = 1_000;

export interface SamplerEnv {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  requestFrame(fn: () => void): unknown;
  now(): number;
  /** One-shot timers (the typed dry run's pause); the global setTimeout when absent. */
  setTimeout?(fn: () => void, ms: number): unknown;
  clearTimeout?(handle: unknown): void;
}

export const browserEnv = (): SamplerEnv => ({
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  requestFrame: (fn) =>
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => fn()) : globalThis.setTimeout(fn, 16),
  now: () => Date.now(),
});

export interface Sampler {
  /** One sample, applied immediately (used at start, after replays, and by tests). */
  tick(): Promise<void>;
  setHidden(hidden: boolean): void;
  /** Resolves once every replay and sample started so far has been applied. */
  whenIdle(): Promise<void>;
  dispose(): void;
}

export function createSampler(store: PanelStore, source: SystemSource, env: SamplerEnv = browserEnv()): Sampler {
  let timer: unknown = null;
  let inFlight = false;
  let listDirty = true;
  let lastListAt = -Infinity;
  let lastFullAt = -Infinity;
  let lastListCost = 0;
  /** For a while after a replay, a letter coming back may keep its old timestamp: read everything. */
  let echoUntil = -Infinity;
  /** Samples taken since the last frame; all are applied in that frame, rendered once. */
  let pending: Sample[] = [];
  let frameRequested = false;
  let disposed = false;
  let typedAt = -Infinity;
  let appliedAt = -Infinity;
  const inProgress = new Set<Promise<unknown>>();
  const track = <T,>(p: Promise<T>): Promise<T> => {
    inProgress.add(p);
    void p.finally(() => inProgress.delete(p));
    return p;
  };
  const later = (fn: () => void, ms: number) => (env.setTimeout ? env.setTimeout(fn, ms) : globalThis.setTimeout(fn, ms));
  const cancelLater = (h: unknown) =>
    env.clearTimeout ? env.clearTimeout(h) : globalThis.clearTimeout(h as ReturnType<typeof setTimeout>);

  /** `run` once typing pauses for TYPED_PREVIEW_MS; a new keystroke starts the wait again. Tracked: whenIdle waits for it. */
  function afterTyping(run: () => Promise<void>) {
    let handle: unknown = null;
    let done: (() => void) | null = null;
    const cancel = () => {
      if (handle !== null) cancelLater(handle);
      handle = null;
      done?.();
      done = null;
    };
    return {
      schedule() {
        cancel();
        void track(
          new Promise<void>((resolve) => {
            done = resolve;
            handle = later(() => {
              handle = null;
              done = null;
              void run().finally(resolve);
            }, TYPED_PREVIEW_MS);
          }),
        );
      },
      cancel,
      waiting: () => handle !== null,
    };
  }

  const flush = () => {
    frameRequested = false;
    if (disposed) return;
    const samples = pending;
    pending = [];
    // Every sample is applied (each carries history and maybe new letters), as one batch.
    batch(() => {
      for (const sample of samples) applyEvent(store, { type: 'snapshot', sample });
    });
    appliedAt = env.now();
    // An open replay dialog reads its target's mailbox again: the headroom shown is the current one.
    if (store.deadLetters.draft.value && !store.deadLetters.busy.value) void track(replayDryRun(true));
  };
  const requestFlush = () => {
    if (frameRequested) return;
    frameRequested = true;
    env.requestFrame(flush);
  };

  const active = () => !store.ui.paused.value && !store.ui.hidden.value && store.ui.imported.value === null;
  const givingWayToTyping = () => {
    const t = env.now();
    return t - typedAt < TYPING_QUIET_MS && t - appliedAt < TYPING_MAX_STALE_MS;
  };

  // Samples run one after another; a tick queued behind a running sample still
  // reads fresh state afterwards (a replay's effect is never hidden by an older read).
  let chain: Promise<unknown> = Promise.resolve();
  function take(force = false): Promise<Sample | null> {
    const next = chain.then(() => takeNow(force));
    chain = next;
    return next;
  }

  function listRequest(force: boolean): ListRequest {
    if (source.pushed) return { kind: 'none' };
    const t = env.now();
    if (force || t - lastFullAt >= FULL_REFRESH_MS) return { kind: 'full' };
    if (!listDirty || t - lastListAt < lastListCost * LIST_COST_FACTOR) return { kind: 'none' };
    if (t < echoUntil) return { kind: 'full' };
    const newest = store.deadLetters.entries.value[0];
    return newest ? { kind: 'since', sinceMs: newest.timestampMs } : { kind: 'full' };
  }

  async function takeNow(force: boolean): Promise<Sample | null> {
    if (disposed) return null;
    inFlight = true;
    try {
      const request = listRequest(force);
      if (request.kind !== 'none') listDirty = false;
      const started = env.now();
      const sample = await source.sample(request);
      if (request.kind !== 'none') {
        lastListAt = env.now();
        lastListCost = lastListAt - started;
        if (request.kind === 'full') lastFullAt = lastListAt;
      }
      return sample;
    } catch (e) {
      listDirty = true;
      applyEvent(store, { type: 'sample-error', message: e instanceof Error ? e.message : String(e) });
      return null;
    } finally {
      inFlight = false;
    }
  }

  async function onTimer() {
    if (!active() || inFlight) return; // a slow source skips beats instead of piling up
    if (givingWayToTyping()) return;
    const sample = await take();
    if (sample && !disposed && store.ui.imported.value === null) {
      pending.push(sample);
      requestFlush();
    }
  }

  function restart() {
    if (timer !== null) env.clearInterval(timer);
    timer = disposed ? null : env.setInterval(() => void track(onTimer()), 1000 / store.ui.sampleHz.value);
  }

  /**
   * The core's answer to the recipient and text filters (deadLetters.list): the first page, or
   * the next one (`more`), with the cursor the core gave passed back as is. A fresh first page
   * asks for as many letters as are shown (up to the largest page), so an update keeps what was
   * loaded. A text search reads the queue TEXT_SLICE letters at a time, by capture time (the
   * core encodes and searches each letter's payload: ~13 us a letter in wasm, so one question
   * over 100,000 would hold the page ~1.3 s), showing what it found after each slice and
   * letting the page paint between them. Only the last question asked is applied.
   */
  let queryAsked = 0;
  /** Where the answer for `key` goes on: the slice bounds (newest first), the slice, and the core's cursor within it. */
  let resume: { key: string; bounds: readonly number[] | null; slice: number; cursor: string | null } | null = null;
  async function askCore(more: boolean) {
    const dl = store.deadLetters;
    const filter = dl.coreFilter.value;
    const key = dl.queryKey.value;
    if (filter === null || key === null || !source.query) return;
    const served = dl.served.value?.key === key ? dl.served.value : null;
    const from = more ? (resume?.key === key ? resume : null) : null;
    if (more && from === null) return;
    const largest = source.maxPage ?? QUERY_PAGE;
    const want = more ? QUERY_PAGE : Math.min(largest, Math.max(QUERY_PAGE, served?.entries.length ?? 0));
    const bounds = from ? from.bounds : filter.text !== '' ? sliceBounds() : null;
    let slice = from?.slice ?? 0;
    let cursor = from?.cursor ?? null;
    const base = more && served ? served.entries : [];
    /** The same filters asked again (new letters, after a replay): an answer is already shown. */
    const rereading = !more && served !== null && !served.searching && served.error === null;
    const found: DeadLetterEntry[] = [];
    const ask = ++queryAsked;
    const current = () => ask === queryAsked && !disposed && dl.queryKey.value === key;
    try {
      for (;;) {
        const page = await source.query({
          ...(filter.recipient !== '' ? { recipient: filter.recipient } : {}),
          ...(filter.text !== '' ? { text: filter.text } : {}),
          ...(bounds ? sliceRange(bounds, slice) : {}),
          ...(cursor !== null ? { cursor } : {}),
          limit: Math.max(1, want - found.length),
        });
        if (!current()) return;
        found.push(...page.entries);
        cursor = page.nextCursor;
        const lastSlice = bounds === null || slice >= bounds.length - 2;
        if (cursor === null && !lastSlice) {
          slice++;
          if (found.length < want) {
            // What was found so far shows (not on a re-read: the rows shown stay until it is done);
            // the page paints before the next slice is read.
            if (!rereading) dl.serve(key, [...base, ...found], true, true);
            await new Promise<void>((resolve) => env.requestFrame(() => globalThis.setTimeout(resolve, 0)));
            if (!current()) return;
            continue;
          }
        }
        const done = cursor === null && lastSlice;
        resume = done ? null : { key, bounds, slice, cursor };
        dl.serve(key, [...base, ...found], !done);
        return;
      }
    } catch (e) {
      if (current()) dl.serveError(key, e instanceof Error ? e.message : String(e));
    }
  }

  /** Capture times cutting the letters the panel holds into slices of TEXT_SLICE, newest first. */
  function sliceBounds(): number[] {
    const held = store.deadLetters.entries.value;
    const out = [Infinity];
    for (let i = TEXT_SLICE; i < held.length; i += TEXT_SLICE) {
      const t = held[i].timestampMs;
      if (t < out[out.length - 1]) out.push(t);
    }
    out.push(-Infinity);
    return out;
  }
  /** Slice k: from bound k+1 to bound k, both inclusive (a letter on an edge comes twice and is kept once). */
  function sliceRange(bounds: readonly number[], k: number): { sinceMs?: number; untilMs?: number } {
    const until = bounds[k];
    const since = bounds[k + 1];
    return { ...(until !== Infinity ? { untilMs: until } : {}), ...(since !== -Infinity ? { sinceMs: since } : {}) };
  }
  const typedQuery = afterTyping(() => askCore(false));
  // A filter typed (or set by a link) asks once typing pauses.
  const offQuery = effect(() => {
    const key = store.deadLetters.queryKey.value;
    untracked(() => (key === null ? typedQuery.cancel() : typedQuery.schedule()));
  });
  let requery: unknown = null;
  /** New letters while the core's filters are on: ask again, at most every REQUERY_MS. */
  function requeryLater() {
    const filter = store.deadLetters.coreFilter.value;
    if (requery !== null || filter === null) return;
    // A text search reads the whole queue again: less often.
    requery = later(() => {
      requery = null;
      if (!disposed && !typedQuery.waiting()) void track(askCore(false));
    }, filter.text !== '' ? TEXT_REQUERY_MS : REQUERY_MS);
  }

  async function tick() {
    const sample = await take(listDirty);
    if (sample && !disposed) {
      // Apply what the timer already took first, so samples land in order.
      const earlier = pending;
      pending = [];
      batch(() => {
        for (const s of earlier) applyEvent(store, { type: 'snapshot', sample: s });
        applyEvent(store, { type: 'snapshot', sample });
      });
      appliedAt = env.now();
    }
    // The filtered list is the core's: read it again too (after a replay, purge or refresh).
    if (store.deadLetters.queryKey.value !== null && !typedQuery.waiting()) void track(askCore(false));
  }

  async function replay() {
    const preview = store.replayPreview.value;
    if (!preview) return;
    const { entryId, target, redirect } = preview;
    let result: InboundEvent;
    try {
      const r = await source.replay(entryId, redirect ? target : undefined);
      result = { type: 'replay-result', id: entryId, target: r.recipientPath ?? target, redirect, atMs: env.now(), result: r };
    } catch (e) {
      result = { type: 'replay-result', id: entryId, target, redirect, atMs: env.now(), result: { error: e instanceof Error ? e.message : String(e) } };
    }
    if (disposed) return;
    store.deadLetters.draft.value = null;
    listDirty = true;
    if (!source.pushed) echoUntil = env.now() + REPLAY_ECHO_MS;
    applyEvent(store, result);
    await tick();
  }

  /** One bulk action: replays one by one (each answered by name), a purge in chunks. */
  async function bulk() {
    const draft = store.bulk.draft.value;
    const preview = store.bulk.preview.value;
    if (!draft || !preview) return;
    const target = draft.action === 'redirect' ? preview.target : null;
    const results: (BulkOutcome & { recipientPath?: string; detail?: string })[] = [];
    const failed = (id: string, e: unknown) => ({ id, outcome: 'error', detail: e instanceof Error ? e.message : String(e) });
    if (draft.action === 'purge') {
      for (let i = 0; i < draft.ids.length; i += PURGE_CHUNK) {
        const chunk = draft.ids.slice(i, i + PURGE_CHUNK);
        try {
          if (!source.remove) throw new Error('this system cannot purge dead letters (no queue.remove)');
          results.push(...(await source.remove(chunk)));
        } catch (e) {
          for (const id of chunk) results.push(failed(id, e));
        }
      }
    } else {
      for (const id of draft.ids) {
        try {
          const r = await source.replay(id, target ?? undefined);
          results.push({
            id,
            outcome: r.kind,
            ...(r.recipientPath ? { recipientPath: r.recipientPath } : {}),
            ...(r.malformed ? { malformed: r.malformed } : {}),
          });
        } catch (e) {
          results.push(failed(id, e));
        }
        if (disposed) return;
      }
    }
    if (disposed) return;
    listDirty = true;
    if (!source.pushed) echoUntil = env.now() + REPLAY_ECHO_MS;
    applyEvent(store, { type: 'bulk-result', action: draft.action, target, atMs: env.now(), results });
    await tick();
  }

  /**
   * The runtime's dry run for the bulk draft on screen: the queue's own checks (the core's
   * malformed verdict on a typed target among them), in chunks as a purge goes. One at a
   * time; a draft changed meanwhile (a target typed) is asked for once the running one
   * answers, and an answer for an older draft is dropped.
   */
  let dryRunning = false;
  let dryRunAgain = false;
  async function dryRun() {
    if (dryRunning) {
      dryRunAgain = true;
      return;
    }
    dryRunning = true;
    try {
      do {
        dryRunAgain = false;
        const draft = store.bulk.draft.value;
        const preview = store.bulk.preview.value;
        if (!draft || !preview || preview.dryRun === null) break;
        const key = preview.key;
        if (!source.preview) {
          store.bulk.dryRun.value = { key, state: 'unavailable' };
          break;
        }
        store.bulk.dryRun.value = { key, state: 'pending' };
        const action = draft.action === 'purge' ? 'remove' : 'replay';
        const path = draft.action === 'redirect' ? (preview.target ?? undefined) : undefined;
        const results: BulkOutcome[] = [];
        const mailboxes = new Map<string, ActorSnapshot>();
        try {
          for (let i = 0; i < draft.ids.length && !dryRunAgain && !disposed; i += PURGE_CHUNK) {
            const answer = await source.preview(action, draft.ids.slice(i, i + PURGE_CHUNK), path);
            for (const r of answer.results) results.push({ id: r.id, outcome: r.outcome, ...(r.malformed ? { malformed: r.malformed } : {}) });
            for (const m of answer.mailboxes) mailboxes.set(m.path, m);
          }
          if (!dryRunAgain && !disposed && store.bulk.preview.value?.key === key) {
            store.bulk.dryRun.value = { key, state: 'done', results, mailboxes: [...mailboxes.values()] };
          }
        } catch (e) {
          if (store.bulk.preview.value?.key === key) {
            store.bulk.dryRun.value = { key, state: 'error', message: e instanceof Error ? e.message : String(e) };
          }
        }
      } while (dryRunAgain && !disposed);
    } finally {
      dryRunning = false;
    }
  }
  const typedBulk = afterTyping(dryRun);

  /**
   * The runtime's dry run for the replay dialog: does the target resolve (or is it malformed,
   * in the core's words), and its mailbox now. Questions may overlap (a slow answer does not
   * hold back the next text's); only the last one asked is applied, so an answer that
   * arrives late, for text typed before, never shows.
   */
  let replayAsked = 0;
  let replayUnanswered = 0;
  async function replayDryRun(refresh = false) {
    const preview = store.replayPreview.value;
    if (!preview || preview.problem !== null || store.ui.imported.value) return;
    const { entryId, target, redirect } = preview;
    const key = replayKey(entryId, target);
    if (!source.preview) {
      if (store.replayDryRun.value?.key !== key) store.replayDryRun.value = { key, outcome: null, row: null, error: 'this system has no dry run' };
      return;
    }
    // A sample's re-read waits for an answer on its way and for typing to pause.
    if (refresh && (replayUnanswered > 0 || typedReplay.waiting())) return;
    const ask = ++replayAsked;
    replayUnanswered++;
    let next: ReplayDryRun | null;
    try {
      const answer = await source.preview('replay', [entryId], redirect ? target : undefined);
      const r = answer.results[0];
      const row = r ? (answer.mailboxes.find((m) => m.path === r.recipientPath) ?? answer.mailboxes[0] ?? null) : null;
      next = r ? { key, outcome: r.outcome, ...(r.malformed ? { malformed: r.malformed } : {}), row } : null;
    } catch (e) {
      // A failed re-read keeps the answer already shown for this text.
      const shown = store.replayDryRun.value;
      next = shown?.key === key && shown.outcome !== null ? null : { key, outcome: null, row: null, error: e instanceof Error ? e.message : String(e) };
    } finally {
      replayUnanswered--;
    }
    if (next === null || ask !== replayAsked || disposed) return;
    store.replayDryRun.value = next;
  }
  const typedReplay = afterTyping(() => replayDryRun());

  async function release(id: string) {
    let result: { kind: string } | { error: string };
    try {
      if (!source.release) throw new Error('this system cannot release a quarantine (no queue.release)');
      result = await source.release(id);
    } catch (e) {
      result = { error: e instanceof Error ? e.message : String(e) };
    }
    if (disposed) return;
    listDirty = true;
    if (!source.pushed) echoUntil = env.now() + REPLAY_ECHO_MS;
    applyEvent(store, { type: 'release-result', id, atMs: env.now(), result });
    await tick();
  }

  const offIntent = store.onIntent((intent: OutboundIntent) => {
    switch (intent.type) {
      case 'replay/confirm':
        void track(replay());
        break;
      case 'bulk/confirm':
        void track(bulk());
        break;
      case 'bulk/preview':
        if (intent.typed) typedBulk.schedule();
        else {
          typedBulk.cancel();
          void track(dryRun());
        }
        break;
      case 'replay/preview':
        if (intent.typed) typedReplay.schedule();
        else {
          typedReplay.cancel();
          void track(replayDryRun());
        }
        break;
      case 'release':
        void track(release(intent.id));
        break;
      case 'sample-rate':
        restart();
        break;
      case 'refresh':
      case 'live':
        listDirty = true;
        void track(tick());
        break;
      case 'mailboxes/filter':
      case 'dead-letters/filter':
        typedAt = env.now();
        break;
      case 'dead-letters/more':
        void track(askCore(true));
        break;
      case 'pause':
        break;
    }
  });
  const offDeadLetter = source.onDeadLetter(() => {
    listDirty = true;
    requeryLater();
  });
  // With the core's query, the recipient and text filters are the core's (store.deadLetters.coreQuery).
  store.deadLetters.coreQuery.value = typeof source.query === 'function';

  restart();

  return {
    tick,
    async whenIdle() {
      while (inProgress.size > 0) await Promise.all([...inProgress]);
    },
    setHidden(hidden) {
      if (store.ui.hidden.value !== hidden) applyEvent(store, { type: 'hidden', hidden });
    },
    dispose() {
      disposed = true;
      typedReplay.cancel();
      typedBulk.cancel();
      typedQuery.cancel();
      offQuery();
      if (requery !== null) cancelLater(requery);
      requery = null;
      if (timer !== null) env.clearInterval(timer);
      timer = null;
      offIntent();
      offDeadLetter();
    },
  };
}
