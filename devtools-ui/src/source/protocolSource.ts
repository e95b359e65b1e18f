// The panel's side of the DevTools protocol (docs/devtools-protocol.md) over
// any Transport. It greets, subscribes to the three streams, keeps what the
// frames say (rows by path, dead letters by id with the queue's revision and
// stats, the metrics text) and hands the sampler plain samples, so the store
// never re-derives the queue's limits: evictions and ageing arrive as
// `removed` deltas with their reason. A gap in a stream's sequence numbers
// resubscribes that stream. A dead-letter snapshot holds only the first page
// (`complete: false` when the queue holds more, e.g. after a restore or when
// the panel fell behind the queue's change log): the older entries are read
// with `deadLetters.list`, page after page with its cursor, one page per task.
import { signal, type Signal } from '@preact/signals';
import type { ActorSnapshot, DeadLetterEntry, DeadLetterSettings, ReplayResult } from '../types';
import { decodePayload, type WirePayload } from '../payload/tagged';
import type { Transport, TransportStatus } from '../transport/transport';
import type { DryRunAnswer, LetterPage, LetterQuery, ListRequest, Sample, SystemSource } from './systemSource';
import { malformedOf, replayAnswer } from './malformed';

export const PROTOCOL = 'mailroom-devtools';
export const PROTOCOL_VERSION = 1;
const STREAMS = ['mailboxes', 'deadLetters', 'metrics'] as const;
type StreamName = (typeof STREAMS)[number];

// An entry as the protocol sends it: the panel's entry with its payload still
// tagged and a null dropPolicy allowed (docs/devtools-protocol.md).
type WireEntry = Omit<DeadLetterEntry, 'payload' | 'dropPolicy'> & {
  dropPolicy?: string | null;
  payload: WirePayload;
};

export interface DeadLetterStats {
  size: number;
  captured: number;
  evicted: number;
  agedOut: number;
  replayed: number;
  replayFailed: number;
}

export interface Welcome {
  system: string;
  node: string;
  writes: boolean;
}

/** One dead-letter stream of the store the process writes to (deadLetters.streams). */
export interface StreamSummary {
  stream: string;
  system: string;
  size: number;
  own: boolean;
}

/** A letter of another process's stream: read-only here, `quarantined` is the owner's call. */
export interface StreamLetter extends DeadLetterEntry {
  stream: string;
}

export interface StreamListParams {
  recipient?: string;
  sinceMs?: number;
  untilMs?: number;
  text?: string;
  cursor?: string | null;
  limit?: number;
}

export interface ProtocolSource extends SystemSource {
  readonly kind: 'protocol';
  /** Connection state and the process that answered (null before welcome). */
  readonly status: Signal<TransportStatus>;
  readonly welcome: Signal<Welcome | null>;
  /** The last error frame the server sent that no request was waiting for. */
  readonly lastError: Signal<string | null>;
  /** What turns writes on at the far end (the transport's writesSwitch): the read-only text names it. */
  readonly writesSwitch: string;
  /** The journal stream this process writes its dead letters to (welcome's deadLetterStream; null: none or an older server). */
  readonly deadLetterStream: Signal<string | null>;
  /** deadLetters.streams: every dead-letter stream of the shared store, and which is this process's. */
  streams(): Promise<{ own: string | null; streams: StreamSummary[] }>;
  /** deadLetters.list {stream}: another process's letters, read-only, newest first. */
  listStream(stream: string, params?: StreamListParams): Promise<{ entries: StreamLetter[]; nextCursor: string | null }>;
  /** Replays a letter of this process's own `stream` (the server refuses another stream: not-owner). */
  replayInStream(stream: string, id: string): Promise<ReplayResult>;
}

export interface ProtocolSourceOptions {
  intervalMs?: number;
  firstPage?: number;
  now?: () => number;
  client?: string;
}

type Frame = { type?: unknown; [key: string]: unknown };

const OFF_SETTINGS: DeadLetterSettings = { store: 'off', maxEntries: 0, retentionMs: null, maxReplays: 0 };

function toEntry(w: WireEntry): DeadLetterEntry {
  return {
    id: String(w.id),
    timestampMs: Number(w.timestampMs),
    recipientPath: String(w.recipientPath),
    senderPath: w.senderPath == null || w.senderPath === '' ? null : String(w.senderPath),
    replayCount: Number(w.replayCount) || 0,
    quarantined: Boolean(w.quarantined),
    ...(typeof w.cause === 'string' ? { cause: w.cause } : {}),
    ...(typeof w.dropPolicy === 'string' ? { dropPolicy: w.dropPolicy } : {}),
    payload: decodePayload(w.payload),
  };
}

function newerFirst(a: DeadLetterEntry, b: DeadLetterEntry): number {
  return b.timestampMs - a.timestampMs || b.id.length - a.id.length || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0);
}

export function createProtocolSource(transport: Transport, options: ProtocolSourceOptions = {}): ProtocolSource {
  const now = options.now ?? Date.now;
  const status = signal<TransportStatus>(transport.status);
  const welcome = signal<Welcome | null>(null);
  const lastError = signal<string | null>(null);
  const deadLetterStream = signal<string | null>(null);
  const seq: Record<StreamName, number> = { mailboxes: 0, deadLetters: 0, metrics: 0 };
  let rows = new Map<string, ActorSnapshot>();
  let entries = new Map<string, DeadLetterEntry>();
  let sorted: DeadLetterEntry[] = [];
  let entriesChanged = true;
  // What changed since the last sample, so 100,000 held entries are not re-sorted for
  // each delta: new captures go on top, removals are filtered out; anything else
  // (a snapshot, a page, an updated entry) sorts again.
  let resort = true;
  let dropped = false;
  let captures: DeadLetterEntry[] = [];
  let settings: DeadLetterSettings = OFF_SETTINGS;
  let stats: DeadLetterStats | null = null;
  let metricsText = '';
  /** The welcome's limits.maxPage: the page size asked of deadLetters.list when paging. */
  let maxPage = 1000;
  /** Bumped by each dead-letter snapshot: a paging run started for an older one stops. */
  let pagingRun = 0;
  /** A mailboxes event arrived since the last sample (else its rates would read 0). */
  let rowsFresh = false;
  let nextRequest = 1;
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const letterListeners = new Set<() => void>();

  const send = (frame: object) => transport.send(JSON.stringify(frame));
  const subscribe = (stream: StreamName) => {
    seq[stream] = 0;
    const frame: Record<string, unknown> = { type: 'subscribe', stream };
    if (options.intervalMs !== undefined && stream !== 'deadLetters') frame.intervalMs = options.intervalMs;
    if (stream === 'deadLetters' && options.firstPage !== undefined) frame.limit = options.firstPage;
    send(frame);
  };

  function onEvent(frame: Frame) {
    const stream = frame.stream as StreamName;
    if (!STREAMS.includes(stream)) return;
    const n = Number(frame.seq);
    if (frame.kind === 'snapshot') {
      seq[stream] = n;
    } else if (n !== seq[stream] + 1) {
      // Frames were lost (a slow page): start the stream over.
      subscribe(stream);
      return;
    } else {
      seq[stream] = n;
    }
    if (stream === 'mailboxes') {
      rowsFresh = true;
      if (frame.kind === 'snapshot') rows = new Map();
      else rows = new Map(rows);
      for (const row of ((frame.kind === 'snapshot' ? frame.rows : frame.changed) ?? []) as ActorSnapshot[]) {
        rows.set(row.path, row);
      }
      for (const path of (frame.removed ?? []) as string[]) rows.delete(path);
    } else if (stream === 'deadLetters') {
      if (frame.settings) settings = frame.settings as DeadLetterSettings;
      if (frame.stats) stats = frame.stats as DeadLetterStats;
      if (frame.kind === 'snapshot') {
        entries = new Map();
        const first = (frame.entries ?? []) as WireEntry[];
        for (const w of first) entries.set(String(w.id), toEntry(w));
        resort = true;
        pagingRun++;
        if (frame.complete === false && first.length > 0) pageOlder(pagingRun, first.length);
      } else {
        for (const w of (frame.captured ?? []) as WireEntry[]) {
          const id = String(w.id);
          if (entries.has(id)) resort = true;
          const e = toEntry(w);
          entries.set(id, e);
          captures.push(e);
        }
        for (const w of (frame.updated ?? []) as WireEntry[]) {
          entries.set(String(w.id), toEntry(w));
          resort = true;
        }
        for (const r of (frame.removed ?? []) as { id: string }[]) {
          if (entries.delete(String(r.id))) dropped = true;
        }
      }
      entriesChanged = true;
      for (const fn of letterListeners) fn();
    } else {
      metricsText = String(frame.text ?? '');
    }
  }

  /**
   * Reads the entries older than a snapshot's first page, newest first, one page per task
   * so the page keeps painting: deadLetters.list walked by its own cursor, which names a
   * position in the list's capture order (the queue starts each page there by binary search).
   * The snapshot carries no cursor, so the walk starts with a fresh first page as long as the
   * snapshot's: new captures since may take its place, and the cursor then continues below
   * them, so every older letter comes exactly once. Paging by capture time (untilMs) missed
   * letters further down with newer times (captured before the clock went back). Deltas keep
   * arriving meanwhile and are applied in order with the pages (a page is the queue's state
   * when it answered, a later delta overrides it), so the mirror ends as the queue is.
   */
  function pageOlder(run: number, firstPage: number) {
    const ask = (params: Record<string, unknown>) => {
      if (run !== pagingRun) return;
      request('deadLetters.list', params, apply).catch((e: Error) => {
        if (run === pagingRun) lastError.value = `reading older dead letters: ${e.message}`;
      });
    };
    // Applied as the response frame arrives (not a microtask later): a delta behind it
    // in the same delivery must find the page's entries already there.
    const apply = (answer: unknown) => {
      if (run !== pagingRun) return;
      const result = answer as { entries: WireEntry[]; nextCursor: string | null };
      for (const w of result.entries) entries.set(String(w.id), toEntry(w));
      entriesChanged = true;
      resort = true;
      for (const fn of letterListeners) fn();
      if (!result.nextCursor || result.entries.length === 0) return;
      const next = { cursor: result.nextCursor, limit: maxPage };
      setTimeout(() => ask(next), 0);
    };
    ask({ limit: Math.max(1, Math.min(maxPage, firstPage)) });
  }

  function onFrame(text: string) {
    let frame: Frame;
    try {
      frame = JSON.parse(text) as Frame;
    } catch {
      return;
    }
    switch (frame.type) {
      case 'welcome':
        welcome.value = {
          system: String(frame.system ?? ''),
          node: String(frame.node ?? frame.system ?? ''),
          writes: frame.writes === true,
        };
        deadLetterStream.value = typeof frame.deadLetterStream === 'string' ? frame.deadLetterStream : null;
        {
          const limits = frame.limits as { maxPage?: unknown } | undefined;
          if (typeof limits?.maxPage === 'number' && limits.maxPage >= 1) maxPage = Math.floor(limits.maxPage);
        }
        for (const stream of STREAMS) subscribe(stream);
        break;
      case 'event':
        onEvent(frame);
        break;
      case 'response': {
        const waiting = pending.get(String(frame.id));
        pending.delete(String(frame.id));
        waiting?.resolve(frame.result);
        break;
      }
      case 'error': {
        const message = `${String(frame.code)}: ${String(frame.message ?? '')}`;
        const waiting = frame.id !== undefined ? pending.get(String(frame.id)) : undefined;
        if (waiting) {
          pending.delete(String(frame.id));
          waiting.reject(new Error(message));
        } else lastError.value = message;
        break;
      }
      default:
        break; // frames of a later minor revision: ignored
    }
  }

  function onStatus(next: TransportStatus) {
    status.value = next;
    if (next === 'open') {
      send({ type: 'hello', protocol: PROTOCOL, version: PROTOCOL_VERSION, client: options.client ?? 'mailroom-panel' });
    } else if (next === 'closed') {
      welcome.value = null;
      deadLetterStream.value = null;
      for (const waiting of pending.values()) waiting.reject(new Error('disconnected'));
      pending.clear();
    }
  }

  const offFrame = transport.onFrame(onFrame);
  const offStatus = transport.onStatus(onStatus);
  if (transport.status === 'open') onStatus('open');

  /** The sorted list after only captures and removals: O(n), no sort of the whole. */
  function patchSorted(): DeadLetterEntry[] {
    const held = (e: DeadLetterEntry) => entries.get(e.id) === e;
    const kept = dropped ? sorted.filter(held) : sorted;
    if (captures.length === 0) return kept === sorted ? sorted.slice() : kept;
    const top = captures.filter(held).sort(newerFirst);
    // Captures older than what is held (a clock step back): sort the whole.
    if (top.length > 0 && kept.length > 0 && newerFirst(top[top.length - 1], kept[0]) > 0) return [...entries.values()].sort(newerFirst);
    return top.concat(kept);
  }

  /** `onAnswer` runs as the response frame is handled, before any later frame. */
  function request(method: string, params: object, onAnswer?: (result: unknown) => void): Promise<unknown> {
    const id = String(nextRequest++);
    return new Promise((resolve, reject) => {
      if (status.value !== 'open') return reject(new Error('not connected'));
      pending.set(id, {
        resolve: onAnswer
          ? (v) => {
              onAnswer(v);
              resolve(v);
            }
          : resolve,
        reject,
      });
      send({ type: 'request', id, method, params });
    });
  }

  return {
    kind: 'protocol',
    pushed: true,
    status,
    welcome,
    lastError,
    writesSwitch: transport.writesSwitch ?? 'let the process accept writes',
    deadLetterStream,
    async streams() {
      const result = (await request('deadLetters.streams', {})) as { own: string | null; streams: StreamSummary[] };
      return { own: result.own ?? null, streams: result.streams ?? [] };
    },
    async listStream(stream: string, params: StreamListParams = {}) {
      const result = (await request('deadLetters.list', { ...params, stream })) as { entries: (WireEntry & { stream?: string })[]; nextCursor: string | null };
      return {
        entries: result.entries.map((w) => ({ ...toEntry(w), stream: String(w.stream ?? stream) })),
        nextCursor: result.nextCursor ?? null,
      };
    },
    async replayInStream(stream: string, id: string): Promise<ReplayResult> {
      const result = (await request('deadLetters.replay', { id, stream })) as { outcome: ReplayResult['kind']; recipientPath?: string; malformed?: unknown };
      return replayAnswer(result);
    },
    get maxPage() {
      return maxPage;
    },
    async query(q: LetterQuery): Promise<LetterPage> {
      const params: Record<string, unknown> = { limit: Math.max(1, Math.min(maxPage, Math.floor(q.limit))) };
      if (q.recipient) params.recipient = q.recipient;
      if (q.text) params.text = q.text;
      if (q.sinceMs !== undefined) params.sinceMs = q.sinceMs;
      if (q.untilMs !== undefined) params.untilMs = q.untilMs;
      if (q.cursor) params.cursor = q.cursor;
      const result = (await request('deadLetters.list', params)) as { entries: WireEntry[]; nextCursor: string | null };
      return { entries: result.entries.map(toEntry), nextCursor: result.nextCursor ?? null };
    },
    async sample(list: ListRequest): Promise<Sample> {
      const fresh = rowsFresh;
      rowsFresh = false;
      let out: DeadLetterEntry[] | null = null;
      if (list.kind !== 'none' || entriesChanged) {
        if (entriesChanged) {
          sorted = resort ? [...entries.values()].sort(newerFirst) : patchSorted();
          entriesChanged = false;
          resort = false;
          dropped = false;
          captures = [];
        }
        out = sorted;
      }
      return {
        atMs: now(),
        actors: [...rows.values()],
        actorsFresh: fresh,
        settings,
        entries: out,
        entriesMode: 'full',
        metricsText,
        costMs: 0,
        deadLetterStats: stats,
      };
    },
    async replay(id: string, altPath?: string): Promise<ReplayResult> {
      const params: Record<string, unknown> = { id };
      if (altPath !== undefined) params.path = altPath;
      const result = (await request('deadLetters.replay', params)) as { outcome: ReplayResult['kind']; recipientPath?: string; malformed?: unknown };
      return replayAnswer(result);
    },
    async remove(ids: readonly string[]) {
      const result = (await request('deadLetters.remove', { ids: [...ids] })) as { results: { id: string; outcome: string }[] };
      return result.results.map((r) => ({ id: String(r.id), outcome: String(r.outcome) }));
    },
    async release(id: string) {
      const result = (await request('deadLetters.release', { id })) as { outcome: string };
      return { kind: String(result.outcome) };
    },
    async preview(action: 'replay' | 'remove', ids: readonly string[], path?: string): Promise<DryRunAnswer> {
      const params: Record<string, unknown> = { action, ids: [...ids] };
      if (path !== undefined) params.path = path;
      const result = (await request('deadLetters.preview', params)) as {
        results: { id: string; outcome: string; recipientPath?: string; malformed?: unknown }[];
        mailboxes?: ActorSnapshot[];
      };
      return {
        results: result.results.map((r) => ({
          id: String(r.id),
          outcome: String(r.outcome),
          ...(r.recipientPath ? { recipientPath: String(r.recipientPath) } : {}),
          ...malformedOf(r),
        })),
        mailboxes: result.mailboxes ?? [],
      };
    },
    onDeadLetter(fn) {
      letterListeners.add(fn);
      return () => letterListeners.delete(fn);
    },
    dispose() {
      offFrame();
      offStatus();
      letterListeners.clear();
      transport.close();
    },
  };
}

export function isProtocolSource(x: unknown): x is ProtocolSource {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'protocol';
}
