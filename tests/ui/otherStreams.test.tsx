// The dead-letter tab's "Other streams" view (devtools-ui/src/components/
// OtherStreamsView.tsx): the letters other processes keep in the same
// database, listed over this panel's connection (deadLetters.streams,
// deadLetters.list {stream}), read-only; a replay goes only to the owning
// process's connection, and is off, naming the owner, when there is none.
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/preact';
import { mountDevtools, type DevtoolsHandle } from '../../devtools-ui/src';
import { createProtocolSource, type ProtocolSource } from '../../devtools-ui/src/source/protocolSource';
import { listeners, type Transport, type TransportStatus } from '../../devtools-ui/src/transport/transport';
import { manualEnv } from './panelHarness';

type Frame = Record<string, any>;

const letter = (id: string, at: number, recipientPath: string, value: string, replayCount = 0) => ({
  id,
  timestampMs: at,
  recipientPath,
  senderPath: null,
  replayCount,
  quarantined: null,
  cause: 'unhandled',
  dropPolicy: null,
  payload: { kind: 'captured', type: 'std::string', tag: 'string', value },
});

/**
 * A process on the far side of a transport that answers like the native server: its own stream,
 * the store's streams, another stream's letters and replays of its own (not-owner otherwise).
 */
function fakeProcess(system: string, writes: boolean, store: Record<string, ReturnType<typeof letter>[]>) {
  const frames = listeners<string>();
  const statuses = listeners<TransportStatus>();
  const received: Frame[] = [];
  const own = `mailroom-dead-letters-${system}`;
  let status: TransportStatus = 'connecting';
  const reply = (f: Frame) => queueMicrotask(() => frames.emit(JSON.stringify(f)));
  const transport: Transport = {
    send(text) {
      const f = JSON.parse(text) as Frame;
      received.push(f);
      if (f.type === 'hello') {
        reply({ type: 'welcome', protocol: 'mailroom-devtools', version: 1, system, node: system, writes, deadLetterStream: own });
      } else if (f.type === 'request') {
        const params = f.params ?? {};
        const answer = (result: unknown) => reply({ type: 'response', id: f.id, method: f.method, result });
        const refuse = (code: string) => reply({ type: 'error', id: f.id, code, message: code });
        if (f.method === 'deadLetters.streams') {
          answer({ own, streams: Object.keys(store).sort().map((s) => ({ stream: s, system: s.replace('mailroom-dead-letters-', ''), size: store[s]!.length, own: s === own })) });
        } else if (f.method === 'deadLetters.list') {
          answer({ stream: params.stream, own: false, entries: (store[params.stream] ?? []).map((e) => ({ ...e, stream: params.stream })), nextCursor: null });
        } else if (f.method === 'deadLetters.replay') {
          if (params.stream !== own) return refuse('not-owner');
          if (!writes) return refuse('unavailable');
          const held = store[own]!.find((e) => e.id === params.id);
          if (held) held.replayCount += 1;
          answer({ outcome: 'replayed', recipientPath: held?.recipientPath ?? '' });
        }
      }
    },
    onFrame: frames.add,
    onStatus: statuses.add,
    get status() {
      return status;
    },
    close: () => undefined,
  };
  return {
    transport,
    received,
    open() {
      status = 'open';
      statuses.emit('open');
    },
  };
}

/** One shared database: the shop's and billing's streams. */
function sharedStore() {
  return {
    'mailroom-dead-letters-billing': [letter('4', 40, '/user/orders', 'order billing 2'), letter('1', 10, '/user/gone', 'lost billing')],
    'mailroom-dead-letters-shop': [letter('1', 20, '/user/cart', 'cart 1')],
  };
}

let mounted: { handle: DevtoolsHandle; container: HTMLElement }[] = [];
afterEach(() => {
  for (const { handle, container } of mounted) {
    handle.destroy();
    container.remove();
  }
  mounted = [];
  localStorage.clear();
});

/** The panel attached to the shop, with `peers` as the page's other connections. */
async function attachShop(peers: { system: string; writes: boolean }[] = []) {
  const store = sharedStore();
  const shop = fakeProcess('shop', false, store);
  const shopSource = createProtocolSource(shop.transport);
  const others = peers.map((p) => {
    const process = fakeProcess(p.system, p.writes, store);
    return { process, source: createProtocolSource(process.transport) };
  });
  const sources: ProtocolSource[] = [shopSource, ...others.map((o) => o.source)];
  const container = document.createElement('div');
  document.body.appendChild(container);
  const handle = mountDevtools(container, shopSource, { env: manualEnv, storage: null, peers: () => sources });
  mounted.push({ handle, container });
  await act(async () => {
    shop.open();
    for (const o of others) o.process.open();
    await new Promise((r) => setTimeout(r, 0));
  });
  await act(async () => handle.store.emit({ type: 'view', view: 'dead-letters' }));
  return { store, shop, others, handle };
}

async function chooseStream(stream: string) {
  await act(async () => {
    fireEvent.change(screen.getByTestId('dl-stream'), { target: { value: stream } });
    await new Promise((r) => setTimeout(r, 0));
  });
}

describe('Other streams of a shared store', () => {
  it('lists the other processes’ streams with their counts, not the own one', async () => {
    await attachShop();
    const options = screen.getAllByTestId('dl-stream-option').map((o) => [o.getAttribute('value'), o.textContent]);
    expect(options).toEqual([['mailroom-dead-letters-billing', 'billing (2)']]);
  });

  it('shows the chosen stream’s letters, read over this connection, newest first', async () => {
    const { shop } = await attachShop();
    await chooseStream('mailroom-dead-letters-billing');
    const rows = screen.getAllByTestId('os-row');
    expect(rows.map((r) => [r.getAttribute('data-id'), r.getAttribute('data-stream')])).toEqual([
      ['4', 'mailroom-dead-letters-billing'],
      ['1', 'mailroom-dead-letters-billing'],
    ]);
    expect(within(rows[0]!).getByTestId('os-recipient').textContent).toBe('/user/orders');
    expect(within(rows[0]!).getByTestId('os-payload').textContent).toBe('"order billing 2"');
    expect(shop.received.filter((f) => f.method === 'deadLetters.list').map((f) => f.params.stream)).toEqual(['mailroom-dead-letters-billing']);
  });

  it('offers no replay when the owner is not attached, and says who owns the letter', async () => {
    const { shop } = await attachShop();
    await chooseStream('mailroom-dead-letters-billing');
    const row = screen.getAllByTestId('os-row')[0]!;
    expect((within(row).getByTestId('os-replay') as HTMLButtonElement).disabled).toBe(true);
    expect(within(row).getByTestId('os-replay-off').textContent).toBe('owned by billing: not attached');
    expect(screen.getByTestId('os-owner').getAttribute('data-owner')).toBe('not-attached');
    expect(screen.getByTestId('os-owner').textContent).toContain('attach the panel to that process to replay');
    // Nothing was written anywhere: the shop's connection carried no replay.
    expect(shop.received.some((f) => f.method === 'deadLetters.replay')).toBe(false);
  });

  it('offers no replay when the owner is attached read-only', async () => {
    await attachShop([{ system: 'billing', writes: false }]);
    await chooseStream('mailroom-dead-letters-billing');
    const row = screen.getAllByTestId('os-row')[0]!;
    expect((within(row).getByTestId('os-replay') as HTMLButtonElement).disabled).toBe(true);
    expect(within(row).getByTestId('os-replay-off').textContent).toBe('billing is read-only');
  });

  it('routes a replay to the owner’s connection, never to this process', async () => {
    const { shop, others } = await attachShop([{ system: 'billing', writes: true }]);
    await chooseStream('mailroom-dead-letters-billing');
    const row = screen.getAllByTestId('os-row')[0]!;
    const button = within(row).getByTestId('os-replay') as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(button.textContent).toBe('Replay in billing');
    await act(async () => {
      fireEvent.click(button);
      await new Promise((r) => setTimeout(r, 0));
    });
    const billing = others[0]!.process;
    expect(billing.received.filter((f) => f.method === 'deadLetters.replay').map((f) => f.params)).toEqual([
      { id: '4', stream: 'mailroom-dead-letters-billing' },
    ]);
    expect(shop.received.some((f) => f.method === 'deadLetters.replay')).toBe(false);
    expect(within(screen.getAllByTestId('os-row')[0]!).getByTestId('os-outcome').getAttribute('data-outcome')).toBe('replayed');
    // Refreshing reads the owner's stream again: the letter came back with its replay count.
    await act(async () => {
      fireEvent.click(screen.getByTestId('dl-streams-refresh'));
      await new Promise((r) => setTimeout(r, 0));
    });
    expect(within(screen.getAllByTestId('os-row')[0]!).getByTestId('os-replays').textContent).toBe('1');
  });

  it('shows nothing extra for a store only this process writes', async () => {
    const store = { 'mailroom-dead-letters-shop': [letter('1', 20, '/user/cart', 'cart 1')] };
    const shop = fakeProcess('shop', false, store);
    const source = createProtocolSource(shop.transport);
    const container = document.createElement('div');
    document.body.appendChild(container);
    const handle = mountDevtools(container, source, { env: manualEnv, storage: null });
    mounted.push({ handle, container });
    await act(async () => {
      shop.open();
      await new Promise((r) => setTimeout(r, 0));
    });
    await act(async () => handle.store.emit({ type: 'view', view: 'dead-letters' }));
    expect(shop.received.some((f) => f.method === 'deadLetters.streams')).toBe(true);
    expect(screen.queryByTestId('dl-streams')).toBeNull();
  });
});
