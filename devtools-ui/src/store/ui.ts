// Panel-wide concern: current view, theme, sampling rate and pause, the
// panel's own cost, errors, read-only import state, transient notices.
import { signal } from '@preact/signals';

export type View = 'mailboxes' | 'dead-letters' | 'metrics';
export type ThemeChoice = 'system' | 'light' | 'dark';
export const DEFAULT_SAMPLE_HZ = 4;
export const SAMPLE_RATES = [1, 2, 4, 10] as const;

export interface ImportedInfo {
  name: string;
  exportedAtMs: number;
}

/** The switch for a panel mounted on a system (not over the protocol): the mount option. */
export const MOUNT_WRITES_SWITCH = 'mount the panel with { allowReplay: true }';

export interface HiddenColumns {
  deadLetters: readonly string[];
  mailboxes: readonly string[];
}

export function createUiStore(allowReplay: boolean) {
  return {
    view: signal<View>('mailboxes'),
    theme: signal<ThemeChoice>('system'),
    sampleHz: signal<number>(DEFAULT_SAMPLE_HZ),
    paused: signal(false),
    /** Set by the sampler while the page or panel is not visible. */
    hidden: signal(false),
    allowReplay: signal(allowReplay),
    /** What turns writes on for this panel's source, for the read-only texts (set by mountDevtools). */
    writesSwitch: signal<string>(MOUNT_WRITES_SWITCH),
    sampleCostMs: signal(0),
    samples: signal(0),
    error: signal<string | null>(null),
    imported: signal<ImportedInfo | null>(null),
    notice: signal<string | null>(null),
    /** Incremented to ask the current view's filter box to take focus. */
    focusFilter: signal(0),
    /** Columns the user hid with the column chooser, per list (kept in the preferences). */
    hiddenColumns: signal<HiddenColumns>({ deadLetters: [], mailboxes: [] }),
  };
}
export type UiStore = ReturnType<typeof createUiStore>;
