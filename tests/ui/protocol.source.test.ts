// The panel's protocol client (devtools-ui/src/source/protocolSource.ts) fed
// frames of docs/devtools-protocol.md through an in-memory transport: the
// handshake, snapshot-then-delta streams, an incomplete snapshot read on page by
// page, a gap that resubscribes, evictions taken from the queue's stats, payload
// decoding and replay answers.
import { describe, expect, it } from 'vitest';
import { createProtocolSource } from '../../devtools-ui/src/source/protocolSource';
import { listeners, type Transport, type TransportStatus } from '../../devtools-ui/src/transport/transport';
import { createStore } from '../../devtools-ui/src/store';
import { applyEvent } from '../../devtools-ui/src/store/reducer';

function fakeTransport() {
  const frames = listeners<string>();
  const statuses = listeners<TransportStatus>();
  const sent: Record<string, unknown>[] = [];
  let status: TransportStatus = 'connecting';
  const transport: Transport = {
    send: (f) => sent.push(JSON.parse(f)),
    onFrame: frames.add,
    onStatus: statuses.add,
    get status() {
      return status;
    },
    close: () => undefined,
  };
  return {
    transport,
    sent,
    open() {
      status = 'open';
      statuses.emit('open');
    },
    closeFromServer() {
      status = 'closed';
      statuses.emit('closed');
    },
    push(frame: object) {
      frames.emit(JSON.stringify(frame));
    },
  };
}

const row = (path: string, userDepth = 0) => ({
  path,
  className: 'Worker',
  mailboxKind: 'bounded',
  capacity: 10,
  overflow: 'drop-new',
  userDepth,
  systemDepth: 0,
  stashSize: 0,
  dropped: 0,
  suspended: false,
  processed: 0,
  deadLetterDrops: false,
});
const entry = (id: string, at: number, payload: object = { kind: 'captured', type: 'std::string', tag: 'string', value: `letter ${id}` }) => ({
  id,
  timestampMs: at,
  recipientPath: '/user/a',
  senderPath: null,
  replayCount: 0,
  quarantined: false,
  payload,
});
const settings = { store: 'memory', maxEntries: 2, retentionMs: null, maxReplays: 3 };
const stats = (evicted: number, agedOut = 0) => ({ size: 2, captured: 3, returned: 0, evicted, agedOut, replayed: 0, replayFailed: 0, restored: 0, captureFailures: 0 });

function attached() {
  const t = fakeTransport();
  const source = createProtocolSource(t.transport);
  t.open();
  t.push({ type: 'welcome', protocol: 'mailroom-devtools', version: 1, system: 'live', node: 'live', writes: true, futureField: 1 });
  return { t, source };
}

describe('Protocol source', () => {
  it('greets on open and subscribes to every stream after welcome', () => {
    // hello first; the three subscriptions only once the server answered.
    const t = fakeTransport();
    const source = createProtocolSource(t.transport);
    t.open();
    expect(t.sent).toEqual([{ type: 'hello', protocol: 'mailroom-devtools', version: 1, client: 'mailroom-panel' }]);
    t.push({ type: 'welcome', system: 'live', node: 'node-a', writes: false });
    expect(t.sent.slice(1).map((f) => f.stream)).toEqual(['mailboxes', 'deadLetters', 'metrics']);
    expect(source.welcome.value).toEqual({ system: 'live', node: 'node-a', writes: false });
  });

  it('applies mailbox snapshot then deltas of changed rows and removed paths', async () => {
    const { t, source } = attached();
    t.push({ type: 'event', stream: 'mailboxes', seq: 1, kind: 'snapshot', rows: [row('/user/a'), row('/user/b')] });
    t.push({ type: 'event', stream: 'mailboxes', seq: 2, kind: 'delta', changed: [row('/user/a', 7)], removed: ['/user/b'] });
    const sample = await source.sample({ kind: 'none' });
    expect(sample.actors.map((a) => [a.path, a.userDepth])).toEqual([['/user/a', 7]]);
  });

  it('keeps dead letters by id from captured/removed deltas and takes evictions from the stats', async () => {
    // Nothing is re-derived: the removed delta and the queue's evicted count say it.
    const { t, source } = attached();
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 2, settings, stats: stats(0), entries: [entry('2', 20), entry('1', 10)], complete: true });
    t.push({ type: 'event', stream: 'deadLetters', seq: 2, kind: 'delta', revision: 4, captured: [entry('3', 30)], updated: [], removed: [{ id: '1', reason: 'evicted' }], stats: stats(1) });
    const store = createStore();
    applyEvent(store, { type: 'snapshot', sample: await source.sample({ kind: 'full' }) });
    expect(store.deadLetters.entries.value.map((e) => e.id)).toEqual(['3', '2']);
    expect(store.deadLetters.evicted.value).toBe(1);
    expect(store.deadLetters.settings.value?.maxEntries).toBe(2);
  });

  it('reads the entries older than an incomplete snapshot page by page with deadLetters.list, deltas applied in between', async () => {
    // The snapshot holds the first page only (complete: false): the rest is walked by the
    // list's own cursor from a fresh first page as long as the snapshot's, maxPage a page;
    // a delta between pages is kept.
    const { t, source } = attached();
    const tick = async () => {
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
    };
    const lastRequest = () => t.sent[t.sent.length - 1] as { id: string; method: string; params: Record<string, unknown> };
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 9, settings, stats: stats(0), entries: [entry('9', 90), entry('8', 80)], complete: false });
    await tick();
    expect(lastRequest()).toMatchObject({ method: 'deadLetters.list', params: { limit: 2 } });
    expect(lastRequest().params).not.toHaveProperty('untilMs');
    t.push({ type: 'response', id: lastRequest().id, result: { entries: [entry('9', 90), entry('8', 80)], nextCursor: 'q1.8' } });
    await tick();
    expect(lastRequest()).toMatchObject({ method: 'deadLetters.list', params: { cursor: 'q1.8', limit: 1000 } });
    t.push({ type: 'response', id: lastRequest().id, result: { entries: [entry('7', 70), entry('6', 70)], nextCursor: 'q1.6' } });
    t.push({ type: 'event', stream: 'deadLetters', seq: 2, kind: 'delta', revision: 10, captured: [entry('10', 100)], updated: [], removed: [{ id: '7', reason: 'purged' }], stats: stats(0) });
    await tick();
    expect(lastRequest()).toMatchObject({ method: 'deadLetters.list', params: { cursor: 'q1.6', limit: 1000 } });
    const sentBefore = t.sent.length;
    t.push({ type: 'response', id: lastRequest().id, result: { entries: [entry('5', 70), entry('4', 40)], nextCursor: null } });
    await tick();
    expect(t.sent.length).toBe(sentBefore);
    const sample = await source.sample({ kind: 'full' });
    expect(sample.entries?.map((e) => e.id)).toEqual(['10', '9', '8', '6', '5', '4']);
  });

  it('reads every older entry after the clock went back (letters further down with newer times)', async () => {
    // The queue in its capture order, newest first: 9 and 8 were captured after the clock
    // stepped back, 7 and 6 before it, so they are further down with newer times. A process
    // answering deadLetters.list as the core does (time bounds, position cursor, limit):
    const queue = [entry('9', 5), entry('8', 4), entry('7', 100), entry('6', 90)];
    const answer = (p: Record<string, unknown>) => {
      const at = typeof p.cursor === 'string' ? queue.findIndex((e) => e.id === (p.cursor as string).slice(3)) + 1 : 0;
      const fit = queue.slice(at).filter((e) => (p.untilMs === undefined || e.timestampMs <= (p.untilMs as number)) && (p.sinceMs === undefined || e.timestampMs >= (p.sinceMs as number)));
      const page = fit.slice(0, p.limit as number);
      return { entries: page, nextCursor: fit.length > page.length ? `q1.${page[page.length - 1].id}` : null };
    };
    const { t, source } = attached();
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 9, settings, stats: stats(0), entries: [entry('9', 5)], complete: false });
    // Each list request is answered as it comes, until none is left.
    const answered = new Set<string>();
    for (;;) {
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
      const open = (t.sent as { id?: string; method?: string; params: Record<string, unknown> }[]).filter((f) => f.method === 'deadLetters.list' && !answered.has(f.id!));
      if (open.length === 0) break;
      for (const f of open) {
        answered.add(f.id!);
        t.push({ type: 'response', id: f.id, result: answer(f.params) });
      }
    }
    expect((await source.sample({ kind: 'full' })).entries?.map((e) => e.id)).toEqual(['7', '6', '9', '8']);
  });

  it('stops paging an older snapshot when a new snapshot arrives', async () => {
    const { t, source } = attached();
    const tick = async () => {
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
    };
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 9, settings, stats: stats(0), entries: [entry('9', 90)], complete: false });
    await tick();
    const stale = t.sent[t.sent.length - 1] as { id: string };
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 12, settings, stats: stats(0), entries: [entry('12', 120)], complete: true });
    t.push({ type: 'response', id: stale.id, result: { entries: [entry('3', 30)], nextCursor: '30:3' } });
    await tick();
    expect(t.sent[t.sent.length - 1]).toBe(stale);
    expect((await source.sample({ kind: 'full' })).entries?.map((e) => e.id)).toEqual(['12']);
  });

  it('keeps the entries newest first across captures, removals and a capture older than what it holds', async () => {
    const { t, source } = attached();
    const ids = async () => (await source.sample({ kind: 'full' })).entries?.map((e) => e.id);
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 2, settings, stats: stats(0), entries: [entry('2', 20), entry('1', 10)], complete: true });
    expect(await ids()).toEqual(['2', '1']);
    t.push({ type: 'event', stream: 'deadLetters', seq: 2, kind: 'delta', revision: 4, captured: [entry('3', 30), entry('4', 40)], updated: [], removed: [{ id: '2', reason: 'purged' }], stats: stats(0) });
    expect(await ids()).toEqual(['4', '3', '1']);
    // The clock stepped back: a capture older than the newest held entry still sorts into place.
    t.push({ type: 'event', stream: 'deadLetters', seq: 3, kind: 'delta', revision: 5, captured: [entry('5', 15)], updated: [], removed: [], stats: stats(0) });
    expect(await ids()).toEqual(['4', '3', '5', '1']);
    t.push({ type: 'event', stream: 'deadLetters', seq: 4, kind: 'delta', revision: 6, captured: [], updated: [], removed: [{ id: '4', reason: 'replayed' }], stats: stats(0) });
    expect(await ids()).toEqual(['3', '5', '1']);
  });

  it('resubscribes a stream whose sequence numbers skip (lost frames)', () => {
    const { t } = attached();
    t.push({ type: 'event', stream: 'metrics', seq: 1, kind: 'snapshot', text: 'a 1\n' });
    const before = t.sent.length;
    t.push({ type: 'event', stream: 'metrics', seq: 3, kind: 'delta', text: 'a 2\n' });
    expect(t.sent.slice(before)).toEqual([{ type: 'subscribe', stream: 'metrics' }]);
  });

  it('decodes JS payloads in $t form and shows unencodable ones by type and reason', async () => {
    const { t, source } = attached();
    const js = { kind: 'captured', type: 'JsValue', tag: 'js', value: { $t: 'object', v: { when: { $t: 'date', v: 0 }, tags: { $t: 'set', v: ['x'] }, n: { $t: 'bigint', v: '12' } } } };
    const opaque = { kind: 'captured', type: 'Secret', tag: null, value: null, reason: 'no codec for Secret' };
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 1, settings, stats: stats(0), entries: [entry('2', 20, js), entry('1', 10, opaque)] });
    const [first, second] = (await source.sample({ kind: 'full' })).entries!;
    const message = (first.payload as { message: { when: Date; tags: Set<string>; n: bigint } }).message;
    expect(message.when).toBeInstanceOf(Date);
    expect([...message.tags]).toEqual(['x']);
    expect(message.n).toBe(12n);
    expect(second.payload).toEqual({ kind: 'degraded', className: 'Secret', reason: 'no codec for Secret' });
  });

  it('decodes the journal codec\'s newer tags: RegExp, Error, bytes, holes, refs, shared objects in the side table', async () => {
    const { t, source } = attached();
    const shared = { $t: 'object', v: { id: 1 } };
    const value = {
      $t: 'graph', n: [shared],
      v: {
        $t: 'object', k: ['re', 'err', 'bytes', 'sparse', 'ref', 'a', 'b'],
        v: {
          re: { $t: 'regexp', v: 'a+', f: 'gi' },
          err: { $t: 'error', c: 'TypeError', m: 'bad', v: { code: 'E1' } },
          bytes: { $t: 'typed', c: 'Float64Array', b: 'AAAAAAAA+H8=' },
          sparse: { $t: 'array', n: 3, v: { 1: 'x' } },
          ref: { $t: 'actorref', v: 'mailroom://demo/user/a' },
          a: { $t: 'node', i: 0 },
          b: { $t: 'node', i: 0 },
        },
      },
    };
    t.push({ type: 'event', stream: 'deadLetters', seq: 1, kind: 'snapshot', revision: 1, settings, stats: stats(0), entries: [entry('1', 10, { kind: 'captured', type: 'Object', tag: 'js', value })] });
    const [first] = (await source.sample({ kind: 'full' })).entries!;
    const message = (first.payload as { message: Record<string, unknown> }).message;
    expect(Object.keys(message)).toEqual(['re', 'err', 'bytes', 'sparse', 'ref', 'a', 'b']);
    expect(message.re).toEqual(/a+/gi);
    expect(message.err).toBeInstanceOf(Error);
    expect((message.err as Error).name).toBe('TypeError');
    expect((message.err as Error).message).toBe('bad');
    expect(Number.isNaN((message.bytes as Float64Array)[0])).toBe(true);
    expect(1 in (message.sparse as unknown[])).toBe(true);
    expect(0 in (message.sparse as unknown[])).toBe(false);
    expect(message.ref).toBe('mailroom://demo/user/a');
    expect(message.a).toEqual({ id: 1 });
    expect(message.a).toBe(message.b);
  });

  it('answers replay from the response, and rejects with the error code when read-only', async () => {
    const { t, source } = attached();
    const ok = source.replay('5', '/user/b');
    const request = t.sent[t.sent.length - 1];
    expect(request).toMatchObject({ type: 'request', method: 'deadLetters.replay', params: { id: '5', path: '/user/b' } });
    t.push({ type: 'response', id: request.id, result: { outcome: 'replayed', recipientPath: '/user/b' } });
    await expect(ok).resolves.toEqual({ kind: 'replayed', recipientPath: '/user/b' });
    const refused = source.replay('6');
    t.push({ type: 'error', id: t.sent[t.sent.length - 1].id, code: 'unavailable', message: 'read-only' });
    await expect(refused).rejects.toThrow('unavailable: read-only');
  });

  it('asks the core for a dry run (deadLetters.preview) and hands back its outcomes and target rows', async () => {
    const { t, source } = attached();
    const asked = source.preview!('replay', ['5', '6'], '/user/b');
    const request = t.sent[t.sent.length - 1];
    expect(request).toMatchObject({ type: 'request', method: 'deadLetters.preview', params: { action: 'replay', ids: ['5', '6'], path: '/user/b' } });
    const row = { path: '/user/b', userDepth: 3, capacity: 100 };
    t.push({
      type: 'response',
      id: request.id,
      result: { action: 'replay', results: [{ id: '5', outcome: 'replayed', recipientPath: '/user/b' }, { id: '6', outcome: 'unknown-entry', recipientPath: '' }], mailboxes: [row] },
    });
    await expect(asked).resolves.toEqual({
      results: [{ id: '5', outcome: 'replayed', recipientPath: '/user/b' }, { id: '6', outcome: 'unknown-entry' }],
      mailboxes: [row],
    });
    const purge = source.preview!('remove', ['7']);
    expect(t.sent[t.sent.length - 1].params).toEqual({ action: 'remove', ids: ['7'] });
    t.push({ type: 'response', id: t.sent[t.sent.length - 1].id, result: { action: 'remove', results: [{ id: '7', outcome: 'removed' }], mailboxes: [] } });
    await expect(purge).resolves.toEqual({ results: [{ id: '7', outcome: 'removed' }], mailboxes: [] });
  });

  it("keeps the core's malformed reason on replay and preview answers (a non-empty string only)", async () => {
    const { t, source } = attached();
    const replay = source.replay('5', '/user/ b');
    t.push({
      type: 'response',
      id: t.sent[t.sent.length - 1].id,
      result: { outcome: 'unresolved-recipient', recipientPath: '/user/ b', malformed: 'a name holds whitespace' },
    });
    await expect(replay).resolves.toEqual({ kind: 'unresolved-recipient', recipientPath: '/user/ b', malformed: 'a name holds whitespace' });
    const asked = source.preview!('replay', ['5', '6'], '/user/ b');
    t.push({
      type: 'response',
      id: t.sent[t.sent.length - 1].id,
      result: {
        action: 'replay',
        results: [
          { id: '5', outcome: 'unresolved-recipient', recipientPath: '/user/ b', malformed: 'a name holds whitespace' },
          { id: '6', outcome: 'unknown-entry', malformed: '' },
        ],
        mailboxes: [],
      },
    });
    await expect(asked).resolves.toEqual({
      results: [
        { id: '5', outcome: 'unresolved-recipient', recipientPath: '/user/ b', malformed: 'a name holds whitespace' },
        { id: '6', outcome: 'unknown-entry' },
      ],
      mailboxes: [],
    });
  });

  it('forgets the welcome on disconnect and greets again when the transport reopens', () => {
    const { t, source } = attached();
    t.closeFromServer();
    expect(source.welcome.value).toBeNull();
    const before = t.sent.length;
    t.open();
    expect(t.sent[before]).toMatchObject({ type: 'hello' });
  });
});
