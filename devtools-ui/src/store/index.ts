// The panel store: per-concern signal stores composed into one, the replay
// preview derived from them, and the single typed `emit` for UI intents.
import { batch, computed, signal } from '@preact/signals';
import { createDeadLetterStore } from './deadLetters';
import { createMailboxStore } from './mailboxes';
import { createMetricsStore } from './metrics';
import { createUiStore, type View } from './ui';
import { createLetterHold } from './letterHold';
import { createBulkStore } from './bulk';
import type { Intent, OutboundIntent } from './intents';
import { applyEvent } from './reducer';
import { leaveImport } from './session';
import { buildExport, ImportError, parseExport, type ExportFile } from './exportFile';
import { isUserActor, localPath } from '../paths';
import type { ActorSnapshot, DeadLetterEntry } from '../types';
import { COLUMNS } from '../components/columns';

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
  /** The target's mailbox as the runtime's dry run read it (fresher than the snapshot); null until it answered. */
  targetRow: ActorSnapshot | null;
  /** The dry run's outcome for this letter and target ('replayed', 'unresolved-recipient', ...); null until it answered. */
  dryRunOutcome: string | null;
  /** With unresolved-recipient: why the core's dry run found the redirect path malformed; null otherwise. */
  malformed: string | null;
  /** "3 / 100 queued", "full (reject): …"; what the target can take now. */
  headroomText: string;
  /** Why the replay will be refused before it is sent, if the panel can tell. */
  blocked: string | null;
  /** Non-blocking caution (e.g. a full reject mailbox). */
  warning: string | null;
  /** What is wrong with the target text: nothing typed, or the core's dry run found it malformed. */
  problem: TargetProblem | null;
  /** A redirect whose target the runtime has not answered for yet (the dry run is on its way). */
  checking: boolean;
  /** Why the runtime's dry run could not be asked (it failed, or the system has none); null otherwise. */
  dryRunError: string | null;
  /** Live user actors whose path starts with what was typed (redirect only). */
  suggestions: readonly string[];
}

/**
 * What the panel says about a target as typed: 'empty' (nothing typed yet) or 'malformed'
 * (the core's verdict, ActorPath::malformation, from the dry run). The panel holds no
 * path rule of its own: anything else is the runtime's to answer by name.
 */
export type TargetProblem = 'empty' | 'malformed';

const SUGGESTIONS = 8;

/** The runtime's dry run of one replay (key: entry id and target text). */
export interface ReplayDryRun {
  key: string;
  /** The outcome the replay would have now; null when the dry run could not be asked (see `error`). */
  outcome: string | null;
  /** The core's reason when it found the path malformed. */
  malformed?: string;
  row: ActorSnapshot | null;
  /** Why there is no answer (the request failed, or the system has no dry run). */
  error?: string;
}

export function replayKey(entryId: string, target: string): string {
  return `${entryId}\n${target}`;
}

const FULL_MEANS: Record<string, string> = {
  reject: 'the letter would be refused (rejected) and stay in the queue',
  'drop-new': 'the letter would be dropped by drop-new (and dead-letter again)',
  'drop-head': 'the oldest queued message would be dropped to make room',
};

/** What a mailbox can take now, in words: "3 / 100 queued", "full (reject): …", "12 queued, unbounded". */
export function headroomText(row: ActorSnapshot | null): string {
  if (!row) return '—';
  const n = (v: number) => v.toLocaleString('en-US');
  if (row.capacity === null) return `${n(row.userDepth)} queued, unbounded`;
  if (row.userDepth < row.capacity) return `${n(row.userDepth)} / ${n(row.capacity)} queued`;
  return `full, ${n(row.userDepth)} / ${n(row.capacity)} (${row.overflow ?? 'no policy'}): ${FULL_MEANS[row.overflow ?? ''] ?? 'the mailbox decides'}`;
}

/** Why an entry cannot be replayed at all, whatever the target; null when it can. */
export function replayBlockedReason(entry: DeadLetterEntry, maxReplays: number | null): string | null {
  if (entry.payload.kind === 'degraded') {
    return `Degraded entry: only its origin was kept (${entry.payload.className}: ${entry.payload.reason}), so there is nothing to send.`;
  }
  if (entry.quarantined) {
    return `Quarantined: already replayed ${entry.replayCount} time${entry.replayCount === 1 ? '' : 's'}${
      maxReplays !== null ? ` (max-replays ${maxReplays})` : ''
    }; the queue refuses further replays.`;
  }
  return null;
}

/** Live user actors (from the mailboxes stream) whose path starts with what was typed, then those containing it. */
export function suggestPaths(store: { mailboxes: { rows: { value: readonly { path: string }[] } } }, typedText: string): string[] {
  const typed = localPath(typedText.trim());
  const starts: string[] = [];
  const contains: string[] = [];
  for (const r of store.mailboxes.rows.value) {
    const p = localPath(r.path);
    if (!isUserActor(p) || p === typed) continue;
    if (p.startsWith(typed)) starts.push(p);
    else if (typed.length > 1 && contains.length < SUGGESTIONS && p.includes(typed.slice(typed.lastIndexOf('/') + 1))) contains.push(p);
    if (starts.length >= SUGGESTIONS) break;
  }
  return [...starts, ...contains].slice(0, SUGGESTIONS);
}

export function createStore(options: StoreOptions = {}) {
  const ui = createUiStore(options.allowReplay === true);
  const mailboxes = createMailboxStore();
  const deadLetters = createDeadLetterStore();
  const metrics = createMetricsStore();
  const letterHold = createLetterHold(deadLetters);
  const outbound = new Set<(intent: OutboundIntent) => void>();
  /** Why no write can be sent from this panel now; null when it can. */
  const writeBlocked = computed(() =>
    !ui.allowReplay.value
      ? `Writes are off: ${ui.writesSwitch.value} to enable replay and purge.`
      : ui.imported.value
        ? 'Imported data is read-only.'
        : null,
  );
  const bulk = createBulkStore({
    entries: deadLetters.entries,
    matching: deadLetters.visible,
    shown: letterHold.shown,
    writable: writeBlocked,
  });

  const replayDryRun = signal<ReplayDryRun | null>(null);
  const replayPreview = computed<ReplayPreview | null>(() => {
    const draft = deadLetters.draft.value;
    if (!draft) return null;
    const entry = deadLetters.find(draft.entryId);
    const redirect = draft.altPath !== null;
    const target = draft.altPath ?? entry?.recipientPath ?? '';
    const local = localPath(target);
    // Only the answer for this very text counts: one for an earlier text is another verdict.
    const answer = replayDryRun.value?.key === replayKey(draft.entryId, target) ? replayDryRun.value : null;
    const run = answer && answer.outcome !== null ? answer : null;
    const malformed = run?.malformed ?? null;
    const problem: TargetProblem | null = redirect && target === '' ? 'empty' : malformed !== null ? 'malformed' : null;
    // A typed target is the core's to judge: until its dry run answered (or could not be asked)
    // the snapshot's row is shown as a reading, but no verdict (blocked or warning) on the path.
    const checking = redirect && problem === null && answer === null;
    const snapshotRow = problem === null ? (mailboxes.rows.value.find((r) => localPath(r.path) === local) ?? null) : null;
    // The dry run's read of the target wins over the last snapshot's (it is fresher, and the core's).
    const row = problem !== null ? null : run ? run.row : snapshotRow;
    const headroom = row && row.capacity !== null ? Math.max(0, row.capacity - row.userDepth) : null;
    let blocked: string | null = null;
    if (!ui.allowReplay.value) blocked = 'Replay is disabled for this panel.';
    else if (ui.imported.value) blocked = 'Imported data is read-only.';
    else if (!entry) blocked = 'The entry is no longer in the queue.';
    else blocked = replayBlockedReason(entry, deadLetters.settings.value?.maxReplays ?? null);
    if (blocked === null && problem === 'empty') blocked = 'Enter a target path, e.g. /user/checkout.';
    if (blocked === null && malformed !== null) blocked = `The runtime says the path is malformed: ${malformed}`;
    // The runtime has the last word; the panel only predicts and lets it answer by name.
    let warning: string | null = null;
    if (blocked === null && !checking) {
      if (!row) warning = `Nothing lives at ${local} now: expect unresolved-recipient (the entry stays).`;
      else if (headroom === 0) warning = `The target mailbox is ${headroomText(row)}.`;
    }
    const suggestions: string[] = redirect ? suggestPaths({ mailboxes }, draft.altPath!) : [];
    return {
      entryId: draft.entryId,
      target,
      redirect,
      resolves: run ? run.outcome === 'replayed' : row !== null,
      mailboxKind: row?.mailboxKind ?? null,
      headroom,
      targetRow: run?.row ?? null,
      dryRunOutcome: run?.outcome ?? null,
      malformed,
      headroomText: headroomText(row),
      blocked,
      warning,
      problem,
      checking,
      dryRunError: answer?.error ?? null,
      suggestions,
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
      const list = letterHold.shown.value;
      if (list.length === 0) return;
      const i = list.findIndex((e) => e.id === deadLetters.selectedId.value);
      const next = i < 0 ? (delta > 0 ? 0 : list.length - 1) : Math.min(list.length - 1, Math.max(0, i + delta));
      deadLetters.selectedId.value = list[next].id;
      letterHold.update();
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
          // The list that was left gets no pointer-leave or blur: it is not looked at any more.
          letterHold.set('pointer', false);
          letterHold.set('focus', false);
          letterHold.set('scrolled', false);
          mailboxes.freeze(false);
          mailboxes.setFocus(false);
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
        case 'columns/toggle': {
          const def = COLUMNS[intent.list].find((c) => c.id === intent.id);
          if (!def || def.required) break;
          const hidden = ui.hiddenColumns.value[intent.list];
          const next = hidden.includes(intent.id) ? hidden.filter((id) => id !== intent.id) : [...hidden, intent.id];
          ui.hiddenColumns.value = { ...ui.hiddenColumns.value, [intent.list]: next };
          break;
        }
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
          if (bulk.draft.value) bulk.close();
          else if (deadLetters.draft.value) deadLetters.draft.value = null;
          else if (ui.view.value === 'dead-letters' && bulk.checked.value.size > 0) bulk.clear();
          else if (ui.view.value === 'mailboxes' && mailboxes.selectedPath.value !== null) mailboxes.select(null);
          else if (deadLetters.detailOpen.value) deadLetters.detailOpen.value = false;
          else if (ui.view.value === 'dead-letters' && deadLetters.selectedId.value !== null) {
            deadLetters.selectedId.value = null;
            letterHold.update();
          } else if (ui.notice.value) ui.notice.value = null;
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
        case 'mailboxes/focus':
          mailboxes.setFocus(intent.on);
          break;
        case 'mailboxes/resort':
          mailboxes.resort();
          break;
        case 'dead-letters/filter':
          if (intent.recipient !== undefined) deadLetters.recipient.value = intent.recipient;
          if (intent.window !== undefined) deadLetters.timeWindow.value = intent.window;
          if (intent.limit !== undefined) deadLetters.limit.value = intent.limit;
          if (intent.search !== undefined) deadLetters.search.value = intent.search;
          if (intent.cause !== undefined) deadLetters.cause.value = intent.cause;
          letterHold.refilter();
          send(intent);
          break;
        case 'dead-letters/select':
          deadLetters.selectedId.value = intent.id;
          if (intent.open !== undefined) deadLetters.detailOpen.value = intent.open && intent.id !== null;
          letterHold.update();
          break;
        case 'dead-letters/hold':
          letterHold.set(intent.reason, intent.on);
          break;
        case 'dead-letters/release':
          letterHold.release();
          break;
        case 'dead-letters/more':
          send(intent);
          break;
        case 'dead-letters/time-mode':
          deadLetters.timeMode.value = intent.mode;
          break;
        case 'dead-letters/order':
          deadLetters.order.value = intent.order;
          // A new order is asked for: the rows move now, not on the next arrival.
          letterHold.refilter();
          break;
        case 'replay/prepare':
          if (!ui.allowReplay.value) break;
          deadLetters.draft.value = { entryId: intent.id, altPath: intent.altPath };
          send({ type: 'replay/preview' });
          break;
        case 'replay/shortcut': {
          const entry = deadLetters.find(intent.id);
          if (!entry) break;
          const why = !ui.allowReplay.value
            ? `Replay is off: ${ui.writesSwitch.value} to enable it.`
            : ui.imported.value
              ? 'Imported data is read-only.'
              : replayBlockedReason(entry, deadLetters.settings.value?.maxReplays ?? null);
          if (why) ui.notice.value = `Cannot replay #${entry.id}: ${why}`;
          else {
            deadLetters.draft.value = { entryId: entry.id, altPath: intent.redirect ? localPath(entry.recipientPath) : null };
            send({ type: 'replay/preview' });
          }
          break;
        }
        case 'replay/target':
          if (deadLetters.draft.value) {
            deadLetters.draft.value = { ...deadLetters.draft.value, altPath: intent.altPath };
            send({ type: 'replay/preview', typed: true });
          }
          break;
        case 'replay/cancel':
          deadLetters.draft.value = null;
          break;
        case 'replay/confirm': {
          const preview = replayPreview.value;
          if (!preview || preview.blocked || deadLetters.busy.value) break;
          deadLetters.busy.value = true;
          letterHold.expectBack(preview.entryId);
          send(intent);
          break;
        }
        case 'bulk/click':
          bulk.click(intent.id, intent.mode);
          if (intent.mode === 'only') {
            deadLetters.selectedId.value = intent.id;
            deadLetters.detailOpen.value = true;
            letterHold.update();
          }
          break;
        case 'bulk/all':
          bulk.checkAllMatching();
          break;
        case 'bulk/clear':
          bulk.clear();
          break;
        case 'bulk/prepare':
          bulk.prepare(intent.action);
          // The runtime's dry run says what will happen (the sampler asks it).
          if (bulk.draft.value) send({ type: 'bulk/preview' });
          break;
        case 'bulk/target':
          bulk.setTarget(intent.altPath);
          if (bulk.draft.value) send({ type: 'bulk/preview', typed: true });
          break;
        case 'bulk/confirm': {
          const preview = bulk.preview.value;
          if (!preview || preview.blocked || preview.dryRun === 'pending' || bulk.busy.value || bulk.summary.value) break;
          bulk.busy.value = true;
          if (preview.action !== 'purge') for (const id of bulk.draft.value!.ids) letterHold.expectBack(id);
          send(intent);
          break;
        }
        case 'bulk/close':
          bulk.close();
          break;
        case 'release':
          if (writeBlocked.value === null && !deadLetters.busy.value) send(intent);
          break;
        case 'link/mailbox':
          ui.view.value = 'mailboxes';
          mailboxes.setFilter(`path:${localPath(intent.path)}`);
          mailboxes.select(mailboxes.rows.value.find((r) => localPath(r.path) === localPath(intent.path))?.path ?? null);
          break;
        case 'link/dead-letters':
          ui.view.value = 'dead-letters';
          deadLetters.recipient.value = localPath(intent.path);
          deadLetters.detailOpen.value = false;
          letterHold.refilter();
          break;
        case 'link/letter':
          ui.view.value = 'dead-letters';
          deadLetters.recipient.value = localPath(intent.path);
          deadLetters.selectedId.value = intent.id;
          deadLetters.detailOpen.value = true;
          letterHold.refilter();
          break;
        case 'import':
          importText(intent.text, intent.name);
          break;
        case 'live':
          leaveImport(store);
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
    return buildExport(deadLetters.settings.value, mailboxes.visible.value, letterHold.shown.value, atMs, deadLetters.attempts.value);
  }

  function onIntent(fn: (intent: OutboundIntent) => void): () => void {
    outbound.add(fn);
    return () => outbound.delete(fn);
  }

  const store = { ui, mailboxes, deadLetters, letterHold, bulk, metrics, replayPreview, replayDryRun, writeBlocked, emit, onIntent, exportView };
  return store;
}

export type PanelStore = ReturnType<typeof createStore>;
export type { View };
