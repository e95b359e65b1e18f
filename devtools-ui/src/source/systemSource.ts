// The only module that calls a live system. It turns the runtime's API into
// plain samples for the reducer and carries replay intents back.
import type {
  ActorSnapshot,
  DeadLetterEntry,
  DeadLetterSettings,
  InspectableSystem,
  RawDeadLetterEntry,
  RawEntryId,
  ReplayResult,
} from '../types';
import { malformedOf } from './malformed';

export interface Sample {
  atMs: number;
  actors: ActorSnapshot[];
  settings: DeadLetterSettings;
  /** null when the dead-letter list was not read this time. */
  entries: DeadLetterEntry[] | null;
  /** 'full': the whole queue; 'since': only entries at or after a time, to merge. */
  entriesMode: 'full' | 'since';
  metricsText: string;
  /** Time the sample itself took (the panel's own cost). */
  costMs: number;
  /** False when the rows are the same reading as the last sample's (a pushed source between events). */
  actorsFresh?: boolean;
  /** The queue's own counts when the source has them (the protocol): evictions are not guessed. */
  deadLetterStats?: { evicted: number; agedOut: number } | null;
}

/** A dry run's answer: per id the outcome the real call would give now; the target rows. */
export interface DryRunAnswer {
  results: { id: string; outcome: string; recipientPath?: string; malformed?: string }[];
  mailboxes: ActorSnapshot[];
}

/** The core's dead-letter query (deadLetters.list): recipient subtree and text, as the core matches them. */
export interface LetterQuery {
  recipient?: string;
  text?: string;
  /** Capture times, inclusive: the part of the queue read (a text search goes slice by slice). */
  sinceMs?: number;
  untilMs?: number;
  /** As the previous page's answer gave it: opaque, passed back as is. */
  cursor?: string | null;
  limit: number;
}

/** One page of the core's answer, newest first; `nextCursor` null on the last page. */
export interface LetterPage {
  entries: DeadLetterEntry[];
  nextCursor: string | null;
}

/** What to read of the dead-letter list with a sample. */
export type ListRequest = { kind: 'none' } | { kind: 'full' } | { kind: 'since'; sinceMs: number };

export interface SystemSource {
  /**
   * True when the source is told what changed (the DevTools protocol pushes dead-letter
   * deltas): the sampler then skips its list heuristics (echo window, periodic full
   * re-read, cost-based pacing), which only a source read by polling needs.
   */
  readonly pushed?: boolean;
  sample(list: ListRequest): Promise<Sample>;
  replay(id: string, altPath?: string): Promise<ReplayResult>;
  /** Purge: one named outcome per id, in order (absent: the system cannot purge). */
  remove?(ids: readonly string[]): Promise<{ id: string; outcome: string }[]>;
  /** Lifts a quarantine (absent: the system cannot). */
  release?(id: string): Promise<{ kind: string }>;
  /** The queue's dry run of a replay or purge (absent: the system has none). */
  preview?(action: 'replay' | 'remove', ids: readonly string[], path?: string): Promise<DryRunAnswer>;
  /**
   * The core's query over the queue (absent: the system has none, and the panel filters what it
   * holds). With it, the panel's recipient and text filters are the core's, page by page.
   */
  query?(q: LetterQuery): Promise<LetterPage>;
  /** The largest page `query` takes. */
  readonly maxPage?: number;
  /** Calls `fn` whenever the runtime publishes a dead letter; returns unsubscribe. */
  onDeadLetter(fn: () => void): () => void;
  dispose(): void;
}

export interface SourceOptions {
  /** The runtime's DeadLetter class, to subscribe on the event stream. */
  deadLetterType?: unknown;
  now?: () => number;
}

const clock = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export function createSystemSource(system: InspectableSystem, options: SourceOptions = {}): SystemSource {
  const now = options.now ?? Date.now;
  // Ids cross the binding as numbers, strings or BigInts; replay needs the original.
  const rawIds = new Map<string, RawEntryId>();
  const listeners = new Set<() => void>();
  const stream = system.eventStream;
  const onLetter = () => {
    for (const fn of listeners) fn();
  };
  let subscribed = false;
  if (stream && options.deadLetterType !== undefined) {
    stream.subscribe(onLetter, options.deadLetterType);
    subscribed = true;
  }
  const readSettings = (): DeadLetterSettings => {
    const s = system.deadLetterQueue.settings;
    return { ...(typeof s === 'function' ? s.call(system.deadLetterQueue) : s) };
  };

  function normalize(raw: RawDeadLetterEntry): DeadLetterEntry {
    const id = String(raw.id);
    rawIds.set(id, raw.id);
    return {
      id,
      timestampMs: Number(raw.timestampMs),
      recipientPath: String(raw.recipientPath),
      senderPath: raw.senderPath == null || raw.senderPath === '' ? null : String(raw.senderPath),
      replayCount: Number(raw.replayCount) || 0,
      quarantined: Boolean(raw.quarantined),
      ...(typeof raw.cause === 'string' ? { cause: raw.cause } : {}),
      ...(typeof raw.dropPolicy === 'string' ? { dropPolicy: raw.dropPolicy } : {}),
      payload: raw.payload,
    };
  }

  return {
    async sample(list) {
      const started = clock();
      const actors = system.inspect().map((a) => ({ ...a }));
      const settings = readSettings();
      let entries: DeadLetterEntry[] | null = null;
      const keeps = settings.store !== 'off' && settings.store !== 'metrics';
      if (list.kind === 'full') {
        if (keeps) rawIds.clear();
        entries = keeps ? (await system.deadLetterQueue.list({})).map(normalize) : [];
      } else if (list.kind === 'since') {
        entries = keeps ? (await system.deadLetterQueue.list({ sinceMs: list.sinceMs })).map(normalize) : [];
      }
      const metricsText = system.metrics.scrape();
      const entriesMode = list.kind === 'since' ? 'since' : 'full';
      return { atMs: now(), actors, settings, entries, entriesMode, metricsText, costMs: clock() - started };
    },
    async replay(id, altPath) {
      const raw = rawIds.get(id) ?? id;
      const result =
        altPath === undefined ? await system.deadLetterQueue.replay(raw) : await system.deadLetterQueue.replay(raw, altPath);
      // The wasm API may answer '' for "not malformed": only a reason is kept.
      const { malformed, ...rest } = result;
      return { ...rest, ...malformedOf({ malformed }) };
    },
    ...(typeof system.deadLetterQueue.remove === 'function'
      ? {
          async remove(ids: readonly string[]) {
            const raw = ids.map((id) => rawIds.get(id) ?? id);
            const { results } = await system.deadLetterQueue.remove!(raw);
            // Answered in the order asked: keyed back to the panel's string ids.
            return results.map((r, i) => ({ id: ids[i] ?? String(r.id), outcome: String(r.outcome) }));
          },
        }
      : {}),
    ...(typeof system.deadLetterQueue.release === 'function'
      ? {
          async release(id: string) {
            const r = await system.deadLetterQueue.release!(rawIds.get(id) ?? id);
            return { kind: String(r.kind) };
          },
        }
      : {}),
    ...(typeof system.deadLetterQueue.preview === 'function'
      ? {
          async preview(action: 'replay' | 'remove', ids: readonly string[], path?: string) {
            const raw = ids.map((id) => rawIds.get(id) ?? id);
            const answer = await system.deadLetterQueue.preview!(action, raw, path);
            return {
              results: answer.results.map((r, i) => ({
                id: ids[i] ?? String(r.id),
                outcome: String(r.outcome),
                ...(r.recipientPath ? { recipientPath: String(r.recipientPath) } : {}),
                ...malformedOf(r as { malformed?: unknown }),
              })),
              mailboxes: answer.mailboxes.map((m) => ({ ...m })),
            };
          },
        }
      : {}),
    onDeadLetter(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    dispose() {
      listeners.clear();
      if (subscribed && stream?.unsubscribe) stream.unsubscribe(onLetter, options.deadLetterType);
      subscribed = false;
    },
  };
}
