// The WebSocket transport to a native process's DevTools server (/api/ws?token=...).
// Reconnects after the server goes away (a restarted process), with backoff.
import { listeners, type Transport, type TransportStatus } from './transport';

/** A native process's DevTools server takes writes only when started with allow-writes. */
export const NATIVE_WRITES_SWITCH =
  'start the process with allow-writes (HOCON mailroom.devtools.allow-writes = true, DevtoolsOptions::allow_writes in C++, --allow-writes for the examples)';

export interface WebSocketTransportOptions {
  /** How the far end takes writes, if not the native server's switch (see Transport.writesSwitch). */
  writesSwitch?: string;
  /** First reconnect delay; doubles up to maxReconnectMs. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** For tests or non-browser hosts. */
  WebSocketImpl?: typeof WebSocket;
}

export function webSocketTransport(url: string, options: WebSocketTransportOptions = {}): Transport {
  const Impl = options.WebSocketImpl ?? globalThis.WebSocket;
  if (typeof Impl !== 'function') throw new Error('webSocketTransport: no WebSocket in this environment');
  const frames = listeners<string>();
  const statuses = listeners<TransportStatus>();
  const first = options.reconnectMs ?? 250;
  const max = options.maxReconnectMs ?? 5_000;
  let delay = first;
  let socket: WebSocket | null = null;
  let status: TransportStatus = 'connecting';
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const setStatus = (next: TransportStatus) => {
    if (status === next) return;
    status = next;
    statuses.emit(next);
  };

  function connect() {
    timer = null;
    if (closed) return;
    setStatus('connecting');
    const ws = new Impl(url);
    socket = ws;
    ws.onopen = () => {
      delay = first;
      setStatus('open');
    };
    ws.onmessage = (event) => {
      if (typeof event.data === 'string') frames.emit(event.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      setStatus('closed');
      if (!closed) {
        timer = setTimeout(connect, delay);
        delay = Math.min(max, delay * 2);
      }
    };
    ws.onerror = () => {
      /* onclose follows and schedules the reconnect */
    };
  }
  connect();

  return {
    send(frame) {
      if (socket && socket.readyState === 1) socket.send(frame);
    },
    onFrame: frames.add,
    onStatus: statuses.add,
    get status() {
      return status;
    },
    writesSwitch: options.writesSwitch ?? NATIVE_WRITES_SWITCH,
    close() {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      socket?.close();
      socket = null;
      setStatus('closed');
      frames.clear();
      statuses.clear();
    },
  };
}
