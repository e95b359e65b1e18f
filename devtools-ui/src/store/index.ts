// The panel store: per-concern signal stores composed into one, the replay
// preview derived from them, and the single typed `emit` for UI intents.
import { batch, computed } from '@preact/signals';
import { createDeadLetterStore } from './deadLetters';
import { createMailboxStore } from './mailboxes';
import { createMetricsStore } from './metrics';
import { createUiStore, type View } from './ui';
import type { Intent, OutboundIntent } from './intents';
import { applyEvent } from './reducer';
import { buildExport, ImportError, parseExport, type ExportFile } from './exportFile';
import { localPath } from '../source/paths';

export interface StoreOptions {
  allowReplay?: boolean;
}

export interface ReplayPreview {
  entryId: string;
  target: string;
  redirect: boolean;
  resolves: boolean;
  mailboxKind: string | null;
  /** Free user slots in the target mailbox; null when unbounded or unknown. */
  headroom: number | null;
  /** Why the replay will be refused before it is sent, if the panel can tell. */
  blocked: string | null;
  /** Non-blocking caution (e.g. a full reject mailbox). */
  warning: string | null;
}

export function createStore(options: StoreOptions = {}) {
  const ui = createUiStore(options.allowReplay === true);
  const mailboxes = createMailboxStore();
  const deadLetters = createDeadLetterStore();
  const metrics = createMetricsStore();
  const outbound = new Set<(intent: OutboundIntent) => void>();

  const replayPreview = computed<ReplayPreview | null>(() => {
    const draft = deadLetters.draft.value;
    if (!draft) return null;
    const entry = deadLetters.entries.value.find((e) => e.id === draft.entryId);
    const target = draft.altPath ?? entry?.recipientPath ?? '';
    const local = localPath(target);
    const row = mailboxes.rows.value.find((r) => localPath(r.path) === local) ?? null;
    const headroom = row && row.capacity !== null ? Math.max(0, row.capacity - row.userDepth) : null;
    let blocked: string | null = null;
    if (!ui.allowReplay.value) blocked = 'Replay is disabled for this panel.';
    else if (ui.imported.value) blocked = 'Imported data is read-only.';
    else if (!entry) blocked = 'The entry is no longer in the queue.';
    else if (target.trim() === '') blocked = 'Enter a target path.';
    // The runtime has the last word; the panel only predicts and lets it answer by name.
    let warning: string | null = null;
    if (blocked === null) {
      if (entry?.payload.kind === 'degraded') warning = 'Degraded entry: there is nothing to send; expect degraded-payload.';
      else if (entry?.quarantined) warning = 'Already replayed the maximum number of times; expect quarantined.';
      else if (!row) warning = 'No actor lives at this path now: expect unresolved-recipient.';
      else if (headroom === 0) {
        warning =
          row.overflow === 'reject'
            ? 'The target mailbox is full and rejects: expect rejected.'
            : 'The target mailbox is full: the replay will shed a message.';
      }
    }
    return {
      entryId: draft.entryId,
      target,
      redirect: draft.altPath !== null,
      resolves: row !== null,
      mailboxKind: row?.mailboxKind ?? null,
      headroom,
      blocked,
      warning,
    };
  });

  function send(intent: OutboundIntent) {
    for (const fn of outbound) fn(intent);
  }

  function move(delta: number) {
    if (ui.view.value === 'mailboxes') {
      const list = mailboxes.visible.value;
      if (list.length === 0) return;
      const i = list.findIndex((r) => r.path === mailboxes.selectedPath.value);
      const next = i < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, i + delta));
      mailboxes.select(list[next].path);
    } else if (ui.view.value === 'dead-letters') {
      const list = deadLetters.visible.value;
      if (list.length === 0) return;
      const i = list.findIndex((e) => e.id === deadLetters.selectedId.value);
      const next = i < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, i + delta));
      deadLetters.selectedId.value = list[next].id;
    }
  }

  function importText(text: string, name: string) {
    let file: ExportFile;
    try {
      file = parseExport(text);
    } catch (e) {
      ui.notice.value = `Import failed: ${e instanceof ImportError ? e.message : String(e)}`;
      return;
    }
    applyEvent(store, { type: 'imported', file, name });
  }

  function emit(intent: Intent): void {
    batch(() => {
      switch (intent.type) {
        case 'view':
          ui.view.value = intent.view;
          break;
        case 'theme':
          ui.theme.value = intent.theme;
          break;
        case 'sample-rate':
          ui.sampleHz.value = Math.min(60, Math.max(0.2, intent.hz));
          send(intent);
          break;
        case 'pause':
          ui.paused.value = intent.paused;
          send(intent);
          break;
        case 'focus-filter':
          ui.focusFilter.value += 1;
          break;
        case 'move':
          move(intent.delta);
          break;
        case 'open':
          if (ui.view.value === 'dead-letters' && deadLetters.selectedId.value !== null) deadLetters.detailOpen.value = true;
          else if (ui.view.value === 'mailboxes' && mailboxes.selectedPath.value !== null) {
            emit({ type: 'link/dead-letters', path: mailboxes.selectedPath.value });
          }
          break;
        case 'close':
          if (deadLetters.draft.value) deadLetters.draft.value = null;
          else if (ui.view.value === 'mailboxes' && mailboxes.selectedPath.value !== null) mailboxes.select(null);
          else if (deadLetters.detailOpen.value) deadLetters.detailOpen.value = false;
          else if (ui.notice.value) ui.notice.value = null;
          break;
        case 'dismiss-notice':
          ui.notice.value = null;
          break;
        case 'mailboxes/filter':
          mailboxes.setFilter(intent.text);
          send(intent);
          break;
        case 'mailboxes/sort':
          mailboxes.toggleSort(intent.key);
          break;
        case 'mailboxes/mode':
          mailboxes.setMode(intent.mode);
          break;
        case 'mailboxes/select':
          mailboxes.select(intent.path);
          break;
        case 'mailboxes/freeze':
          mailboxes.freeze(intent.on);
          break;
        case 'dead-letters/filter':
          if (intent.recipient !== undefined) deadLetters.recipient.value = intent.recipient;
          if (intent.window !== undefined) deadLetters.timeWindow.value = intent.window;
          if (intent.limit !== undefined) deadLetters.limit.value = intent.limit;
          if (intent.search !== undefined) deadLetters.search.value = intent.search;
          send(intent);
          break;
        case 'dead-letters/select':
          deadLetters.selectedId.value = intent.id;
          if (intent.open !== undefined) deadLetters.detailOpen.value = intent.open && intent.id !== null;
          break;
        case 'dead-letters/time-mode':
          deadLetters.timeMode.value = intent.mode;
          break;
        case 'replay/prepare':
          if (!ui.allowReplay.value) break;
          deadLetters.draft.value = { entryId: intent.id, altPath: intent.altPath };
          break;
        case 'replay/target':
          if (deadLetters.draft.value) deadLetters.draft.value = { ...deadLetters.draft.value, altPath: intent.altPath };
          break;
        case 'replay/cancel':
          deadLetters.draft.value = null;
          break;
        case 'replay/confirm': {
          const preview = replayPreview.value;
          if (!preview || preview.blocked || deadLetters.busy.value) break;
          deadLetters.busy.value = true;
          send(intent);
          break;
        }
        case 'link/mailbox':
          ui.view.value = 'mailboxes';
          mailboxes.setFilter(`path:${localPath(intent.path)}`);
          mailboxes.select(mailboxes.rows.value.find((r) => localPath(r.path) === localPath(intent.path))?.path ?? null);
          break;
        case 'link/dead-letters':
          ui.view.value = 'dead-letters';
          deadLetters.recipient.value = localPath(intent.path);
          deadLetters.detailOpen.value = false;
          break;
        case 'import':
          importText(intent.text, intent.name);
          break;
        case 'live':
          ui.imported.value = null;
          send(intent);
          break;
        case 'refresh':
          send(intent);
          break;
      }
    });
  }

  /** The current filtered view of both lists, as an export file. */
  function exportView(atMs = Date.now()): ExportFile {
    return buildExport(deadLetters.settings.value, mailboxes.visible.value, deadLetters.visible.value, atMs);
  }

  function onIntent(fn: (intent: OutboundIntent) => void): () => void {
    outbound.add(fn);
    return () => outbound.delete(fn);
  }

  const store = { ui, mailboxes, deadLetters, metrics, replayPreview, emit, onIntent, exportView };
  return store;
}

export type PanelStore = ReturnType<typeof createStore>;
export type { View };
