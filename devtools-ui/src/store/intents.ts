// Every UI intent, as one typed union carried by `emit`.
import type { SortKey, ViewMode } from './mailboxes';
import type { TimeWindow } from './deadLetters';
import type { ThemeChoice, View } from './ui';
import type { BulkAction } from './bulk';

export type Intent =
  | { type: 'view'; view: View }
  | { type: 'theme'; theme: ThemeChoice }
  | { type: 'sample-rate'; hz: number }
  | { type: 'pause'; paused: boolean }
  | { type: 'focus-filter' }
  /** The column chooser: show or hide one column of a list. */
  | { type: 'columns/toggle'; list: 'deadLetters' | 'mailboxes'; id: string }
  | { type: 'move'; delta: number }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'dismiss-notice' }
  | { type: 'mailboxes/filter'; text: string }
  | { type: 'mailboxes/sort'; key: SortKey }
  | { type: 'mailboxes/mode'; mode: ViewMode }
  | { type: 'mailboxes/select'; path: string | null }
  | { type: 'mailboxes/freeze'; on: boolean }
  | { type: 'mailboxes/resort' }
  | { type: 'mailboxes/focus'; on: boolean }
  | { type: 'dead-letters/filter'; recipient?: string; window?: TimeWindow; limit?: number | null; search?: string; cause?: string | null }
  | { type: 'dead-letters/select'; id: string | null; open?: boolean }
  | { type: 'dead-letters/time-mode'; mode: 'absolute' | 'relative' }
  /** The list's order: newest first, or grouped by cause (largest group first). */
  | { type: 'dead-letters/order'; order: 'time' | 'cause' }
  | { type: 'dead-letters/hold'; reason: 'pointer' | 'focus' | 'scrolled'; on: boolean }
  | { type: 'dead-letters/release' }
  /** The next page of the core's answer to the recipient and text filters. */
  | { type: 'dead-letters/more' }
  | { type: 'replay/prepare'; id: string; altPath: string | null }
  /** The `r` key: opens the dialog, or says why this entry cannot be replayed. */
  | { type: 'replay/shortcut'; id: string; redirect: boolean }
  | { type: 'replay/target'; altPath: string | null }
  | { type: 'replay/cancel' }
  /**
   * Ask the runtime's dry run for the replay draft (sent by the store: resolution, the core's
   * malformed verdict and the target's headroom now). `typed`: after a keystroke, so it waits
   * for typing to pause.
   */
  | { type: 'replay/preview'; typed?: boolean }
  | { type: 'replay/confirm' }
  /** Row clicks: plain (select one), toggle (Ctrl/Cmd), range (Shift). */
  | { type: 'bulk/click'; id: string; mode: 'only' | 'toggle' | 'range' }
  | { type: 'bulk/all' }
  | { type: 'bulk/clear' }
  | { type: 'bulk/prepare'; action: BulkAction }
  | { type: 'bulk/target'; altPath: string }
  | { type: 'bulk/confirm' }
  /** Ask the runtime's dry run for the current bulk draft (sent by the store, not the UI); `typed` as for replay/preview. */
  | { type: 'bulk/preview'; typed?: boolean }
  | { type: 'bulk/close' }
  /** Lift the quarantine of one letter (the core resets its replay count, journaled). */
  | { type: 'release'; id: string }
  | { type: 'link/mailbox'; path: string }
  | { type: 'link/dead-letters'; path: string }
  /** One letter of an actor's detail, shown in the inspector (its recipient filter set). */
  | { type: 'link/letter'; id: string; path: string }
  | { type: 'import'; text: string; name: string }
  | { type: 'live' }
  | { type: 'refresh' };

/** Intents that leave the store: the mount controller acts on these (the sampler gives way to filter typing). */
export type OutboundIntent = Extract<
  Intent,
  { type: 'replay/confirm' | 'replay/preview' | 'bulk/confirm' | 'bulk/preview' | 'release' | 'sample-rate' | 'pause' | 'refresh' | 'live' | 'mailboxes/filter' | 'dead-letters/filter' | 'dead-letters/more' }
>;
