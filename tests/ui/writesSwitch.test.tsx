// The read-only text names the switch that is off for the panel's source: a
// native process over a WebSocket (allow-writes / DevtoolsOptions /
// --allow-writes), an in-page session through the loopback (openDevtoolsSession's
// allowWrites), or the host's mount option (allowReplay). The transport says
// which (Transport.writesSwitch); the protocol source passes it on.
import { afterEach, describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/preact';
import { mountDevtools, type DevtoolsHandle } from '../../devtools-ui/src';
import { createProtocolSource } from '../../devtools-ui/src/source/protocolSource';
import { webSocketTransport } from '../../devtools-ui/src/transport/webSocket';
import { loopbackTransport, type LoopbackSession } from '../../devtools-ui/src/transport/loopback';
import type { Transport } from '../../devtools-ui/src/transport/transport';
import { manualEnv } from './panelHarness';

type Frame = Record<string, unknown>;

const welcome = (writes: boolean) => ({ type: 'welcome', protocol: 'mailroom-devtools', version: 1, system: 'shop', node: 'shop', writes });
const snapshot = {
  type: 'event',
  stream: 'deadLetters',
  seq: 1,
  kind: 'snapshot',
  timeMs: 1_000,
  revision: 1,
  settings: { store: 'memory', maxEntries: 10, retentionMs: null, maxReplays: 3 },
  entries: [
    {
      id: '7',
      timestampMs: 900,
      recipientPath: '/user/ledger',
      senderPath: null,
      replayCount: 0,
      quarantined: false,
      payload: { kind: 'captured', type: 'std::string', tag: 'string', value: 'poison' },
    },
  ],
};

/** A browser WebSocket the test drives: the server side answers hello with `answer`. */
function fakeWebSocket(answer: (frame: Frame) => Frame[]) {
  return class FakeSocket {
    readyState = 0;
    onopen: (() => void) | null = null;
    onmessage: ((e: { data: string }) => void) | null = null;
    onclose: (() => void) | null = null;
    onerror: (() => void) | null = null;
    constructor(_url: string) {
      queueMicrotask(() => {
        this.readyState = 1;
        this.onopen?.();
      });
    }
    send(text: string) {
      for (const out of answer(JSON.parse(text) as Frame)) queueMicrotask(() => this.onmessage?.({ data: JSON.stringify(out) }));
    }
    close() {
      this.readyState = 3;
    }
  } as unknown as typeof WebSocket;
}

const process = (writes: boolean) => (f: Frame): Frame[] =>
  f.type === 'hello' ? [welcome(writes)] : f.type === 'subscribe' && f.stream === 'deadLetters' ? [snapshot] : [];

function loopbackSession(writes: boolean): LoopbackSession {
  return {
    receive: (text) => process(writes)(JSON.parse(text) as Frame).map((f) => JSON.stringify(f)),
    poll: () => [],
    nextPollInMs: () => -1,
    close: () => undefined,
  };
}

let mounted: { handle: DevtoolsHandle; container: HTMLElement }[] = [];
afterEach(() => {
  for (const { handle, container } of mounted) {
    handle.destroy();
    container.remove();
  }
  mounted = [];
});

/** Mounts the panel over `transport`, lets the handshake run and opens the letter's detail. */
async function readOnlyText(transport: Transport, allowReplay?: boolean): Promise<string> {
  const container = document.createElement('div');
  document.body.appendChild(container);
  const handle = mountDevtools(container, createProtocolSource(transport), { env: manualEnv, storage: null, allowReplay });
  mounted.push({ handle, container });
  await act(async () => {
    for (let i = 0; i < 5; ++i) await new Promise((r) => setTimeout(r, 0));
    await handle.refresh();
  });
  await act(async () => {
    handle.store.emit({ type: 'view', view: 'dead-letters' });
    handle.store.emit({ type: 'dead-letters/select', id: '7', open: true });
  });
  return (await screen.findByTestId('dl-replay-off')).textContent ?? '';
}

describe('The read-only text names the switch of the source', () => {
  it('says allow-writes for a native process over a WebSocket, not the mount option', async () => {
    const transport = webSocketTransport('ws://127.0.0.1:1/api/ws?token=t', { WebSocketImpl: fakeWebSocket(process(false)) });
    expect(createProtocolSource(transport).writesSwitch).toMatch(/allow-writes/);
    const text = await readOnlyText(transport);
    expect(text).toMatch(/mailroom\.devtools\.allow-writes = true/);
    expect(text).toMatch(/DevtoolsOptions::allow_writes/);
    expect(text).toMatch(/--allow-writes/);
    expect(text).not.toMatch(/allowReplay/);
  });

  it("says openDevtoolsSession's allowWrites for an in-page session through the loopback", async () => {
    const text = await readOnlyText(loopbackTransport(loopbackSession(false)));
    expect(text).toMatch(/openDevtoolsSession\(system, \{ allowWrites: true \}\)/);
    expect(text).not.toMatch(/allow-writes|allowReplay/);
  });

  it('names the host option when the process takes writes but the page mounted the panel read-only', async () => {
    const text = await readOnlyText(loopbackTransport(loopbackSession(true)), false);
    expect(text).toMatch(/allowReplay: false/);
    expect(text).not.toMatch(/allowWrites|allow-writes/);
  });
});
