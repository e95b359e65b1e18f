// The loopback transport: the protocol to a system in the same page, through
// its DevtoolsSession compiled into wasm (wasm/js/devtools.js,
// openDevtoolsSession). Same frames as the WebSocket, no socket. Frames are
// delivered asynchronously, like a socket's, and the session is polled on its
// own schedule (plus a short beat so dead letters arrive promptly).
import { listeners, type Transport, type TransportStatus } from './transport';

export interface LoopbackSession {
  receive(frame: string): string[];
  poll(): string[];
  nextPollInMs(): number;
  close(): void;
}

export interface LoopbackOptions {
  /** How often the dead-letter revision is looked at between scheduled polls. */
  beatMs?: number;
  /** How the session takes writes, if not openDevtoolsSession's option (see Transport.writesSwitch). */
  writesSwitch?: string;
}

/** An in-page session takes writes only when opened with allowWrites. */
export const LOOPBACK_WRITES_SWITCH = 'open the session with openDevtoolsSession(system, { allowWrites: true })';

export function loopbackTransport(session: LoopbackSession, options: LoopbackOptions = {}): Transport {
  const frames = listeners<string>();
  const statuses = listeners<TransportStatus>();
  const beat = options.beatMs ?? 100;
  let status: TransportStatus = 'connecting';
  let timer: ReturnType<typeof setTimeout> | null = null;

  const deliver = (out: string[]) => {
    if (out.length === 0) return;
    queueMicrotask(() => {
      if (status !== 'open') return;
      for (const frame of out) frames.emit(frame);
    });
  };
  const schedule = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (status !== 'open') return;
    const next = session.nextPollInMs();
    if (next < 0) return; // nothing subscribed: nothing runs
    timer = setTimeout(() => {
      timer = null;
      deliver(session.poll());
      schedule();
    }, Math.min(next, beat));
  };

  queueMicrotask(() => {
    if (status !== 'connecting') return;
    status = 'open';
    statuses.emit('open');
  });

  return {
    send(frame) {
      if (status !== 'open') return;
      deliver(session.receive(frame));
      schedule();
    },
    onFrame: frames.add,
    onStatus: statuses.add,
    get status() {
      return status;
    },
    writesSwitch: options.writesSwitch ?? LOOPBACK_WRITES_SWITCH,
    close() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      status = 'closed';
      statuses.emit('closed');
      session.close();
      frames.clear();
      statuses.clear();
    },
  };
}
