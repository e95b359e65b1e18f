// A transport carries DevTools protocol frames (docs/devtools-protocol.md) as
// text, one frame per message: a WebSocket to a native process, or the
// loopback to a system in the same page. The protocol client on top does not
// know which.
export type TransportStatus = 'connecting' | 'open' | 'closed';

export interface Transport {
  /** Dropped while not open: the client greets again after each open. */
  send(frame: string): void;
  onFrame(fn: (frame: string) => void): () => void;
  onStatus(fn: (status: TransportStatus) => void): () => void;
  readonly status: TransportStatus;
  /**
   * What turns writes (replay, purge) on at the far end, as an instruction the
   * panel's read-only text completes ("Writes are off: <this> to enable ..."):
   * a native process and an in-page session have different switches.
   */
  readonly writesSwitch?: string;
  close(): void;
}

/** Listener sets shared by the transports. */
export function listeners<T>() {
  const set = new Set<(value: T) => void>();
  return {
    add(fn: (value: T) => void): () => void {
      set.add(fn);
      return () => set.delete(fn);
    },
    emit(value: T) {
      for (const fn of [...set]) fn(value);
    },
    clear: () => set.clear(),
  };
}
