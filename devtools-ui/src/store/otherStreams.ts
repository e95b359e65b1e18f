// The other processes' dead-letter streams of a shared store (issue 18): which
// streams the database holds (deadLetters.streams) and one chosen stream's
// letters (deadLetters.list {stream}), read over this panel's own connection,
// read-only. A replay goes only to the process that owns the letter: a peer
// connection (another node of this page) whose welcome names that stream as
// its own; without one, or when that process is read-only, there is no replay
// here and the view says who owns it. Nothing here writes another stream.
import { signal, type Signal } from '@preact/signals';
import type { ProtocolSource, StreamLetter, StreamSummary } from '../source/protocolSource';

const PAGE = 200;

/** Who can replay a stream's letters: the owner's connection, if this page has one. */
export type StreamOwner =
  | { kind: 'attached'; node: string; source: ProtocolSource }
  | { kind: 'read-only'; node: string }
  | { kind: 'not-attached'; system: string };

export interface OtherStreamsModel {
  /** This process's own stream (null: its store is not persistent). */
  readonly own: Signal<string | null>;
  /** The store's other streams, sorted. */
  readonly streams: Signal<StreamSummary[]>;
  readonly selected: Signal<string | null>;
  /** The selected stream's letters, newest first (pages appended by more()). */
  readonly letters: Signal<StreamLetter[]>;
  readonly nextCursor: Signal<string | null>;
  readonly loading: Signal<boolean>;
  readonly error: Signal<string | null>;
  /** The last replay outcome per letter id of the selected stream (the owner's answer). */
  readonly outcomes: Signal<ReadonlyMap<string, string>>;
  refresh(): Promise<void>;
  select(stream: string | null): Promise<void>;
  more(): Promise<void>;
  owner(stream: string): StreamOwner;
  replay(letter: StreamLetter): Promise<void>;
  dispose(): void;
}

export function systemOfStream(stream: string): string {
  const prefix = 'mailroom-dead-letters-';
  return stream.startsWith(prefix) ? stream.slice(prefix.length) : stream;
}

export function createOtherStreams(source: ProtocolSource, peers: () => readonly ProtocolSource[] = () => []): OtherStreamsModel {
  const own = signal<string | null>(null);
  const streams = signal<StreamSummary[]>([]);
  const selected = signal<string | null>(null);
  const letters = signal<StreamLetter[]>([]);
  const nextCursor = signal<string | null>(null);
  const loading = signal(false);
  const error = signal<string | null>(null);
  const outcomes = signal<ReadonlyMap<string, string>>(new Map());
  let generation = 0; // a later select/refresh wins over an answer still in flight
  let disposed = false;

  async function loadLetters(stream: string, mine: number) {
    const page = await source.listStream(stream, { limit: PAGE });
    if (mine !== generation || disposed) return;
    letters.value = page.entries;
    nextCursor.value = page.nextCursor;
  }

  async function refresh() {
    const mine = ++generation;
    loading.value = true;
    try {
      const answer = await source.streams();
      if (mine !== generation || disposed) return;
      own.value = answer.own;
      streams.value = answer.streams.filter((s) => !s.own);
      const stream = selected.value;
      if (stream !== null) await loadLetters(stream, mine);
      error.value = null;
    } catch (e) {
      if (mine === generation && !disposed) error.value = (e as Error).message;
    } finally {
      if (mine === generation) loading.value = false;
    }
  }

  async function select(stream: string | null) {
    selected.value = stream;
    letters.value = [];
    nextCursor.value = null;
    outcomes.value = new Map();
    if (stream === null) return;
    const mine = ++generation;
    loading.value = true;
    try {
      await loadLetters(stream, mine);
      if (mine === generation) error.value = null;
    } catch (e) {
      if (mine === generation && !disposed) error.value = (e as Error).message;
    } finally {
      if (mine === generation) loading.value = false;
    }
  }

  async function more() {
    const stream = selected.value;
    const cursor = nextCursor.value;
    if (stream === null || cursor === null) return;
    const mine = generation;
    try {
      const page = await source.listStream(stream, { limit: PAGE, cursor });
      if (mine !== generation || disposed) return;
      letters.value = [...letters.value, ...page.entries];
      nextCursor.value = page.nextCursor;
    } catch (e) {
      error.value = (e as Error).message;
    }
  }

  function owner(stream: string): StreamOwner {
    const peer = peers().find((p) => p !== source && p.deadLetterStream.value === stream && p.welcome.value !== null);
    if (!peer) return { kind: 'not-attached', system: systemOfStream(stream) };
    const welcome = peer.welcome.value!;
    return welcome.writes ? { kind: 'attached', node: welcome.node, source: peer } : { kind: 'read-only', node: welcome.node };
  }

  async function replay(letter: StreamLetter) {
    const who = owner(letter.stream);
    if (who.kind !== 'attached') return; // the view offers no replay then
    let outcome: string;
    try {
      outcome = (await who.source.replayInStream(letter.stream, letter.id)).kind;
    } catch (e) {
      outcome = `failed: ${(e as Error).message}`;
    }
    if (disposed) return;
    const next = new Map(outcomes.value);
    next.set(letter.id, outcome);
    outcomes.value = next;
  }

  // Each (re)attach reads the store's streams afresh (the process may have restarted).
  const offWelcome = source.welcome.subscribe((w) => {
    if (w) void refresh();
  });

  return {
    own,
    streams,
    selected,
    letters,
    nextCursor,
    loading,
    error,
    outcomes,
    refresh,
    select,
    more,
    owner,
    replay,
    dispose() {
      disposed = true;
      offWelcome();
    },
  };
}
