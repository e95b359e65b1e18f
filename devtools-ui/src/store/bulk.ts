// Bulk actions on dead letters: the checked set (click with Ctrl/Cmd toggles,
// Shift extends from the anchor, "all matching" takes the filtered list), one
// draft (replay, redirect or purge) with a preview of what will happen to each
// letter grouped by kind, and the summary of the outcomes the runtime named.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { DeadLetterSettings } from '../types';
import type { DeadLetterView } from './deadLetters';
import { checkTargetPath, type TargetProblem } from './targetPath';
import { localPath } from '../paths';

export type BulkAction = 'replay' | 'redirect' | 'purge';

export interface BulkDraft {
  action: BulkAction;
  ids: readonly string[];
  /** The redirect target (action 'redirect' only). */
  altPath: string | null;
}

/** One group of the preview: what the panel expects for `count` letters, and why. */
export interface BulkGroup {
  kind: string;
  count: number;
  note: string;
}

export interface BulkPreview {
  action: BulkAction;
  total: number;
  /** Expected outcomes, most frequent first. */
  groups: readonly BulkGroup[];
  /** Why nothing can be sent at all (read-only panel, import, bad target); null when it can. */
  blocked: string | null;
  problem: TargetProblem | null;
  /** The redirect target in local form, when well formed. */
  target: string | null;
}

export interface BulkOutcome {
  id: string;
  outcome: string;
}

export interface BulkSummary {
  action: BulkAction;
  total: number;
  /** Outcomes as the runtime named them, most frequent first. */
  byKind: readonly (readonly [string, number])[];
}

interface Deps {
  entries: ReadonlySignal<readonly DeadLetterView[]>;
  /** What the filters match now (the "select all matching" set). */
  matching: ReadonlySignal<readonly DeadLetterView[]>;
  /** The rows in the order they are shown (for Shift ranges). */
  shown: ReadonlySignal<readonly DeadLetterView[]>;
  settings: ReadonlySignal<DeadLetterSettings | null>;
  /** Live user actors' local paths. */
  livePaths: ReadonlySignal<ReadonlySet<string>>;
  writable: ReadonlySignal<string | null>;
}

const PREDICTION_NOTES: Record<string, string> = {
  replayed: 'will be delivered (a letter that fails again comes back as the same entry)',
  'unresolved-recipient': 'nothing lives at the target now: these stay in the queue',
  quarantined: 'already replayed max-replays times: the queue refuses them',
  'degraded-payload': 'only their origin was kept: nothing to send',
  'unknown-entry': 'no longer in the queue',
  removed: 'will leave the queue for good (journaled)',
};

export function countByKind(results: readonly BulkOutcome[]): (readonly [string, number])[] {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

export function createBulkStore(deps: Deps) {
  const checked = signal<ReadonlySet<string>>(new Set());
  let anchor: string | null = null;
  const draft = signal<BulkDraft | null>(null);
  const busy = signal(false);
  const summary = signal<BulkSummary | null>(null);
  /** Checked ids still in the queue (a letter that left is not acted on twice). */
  const checkedHeld = computed(() => {
    const ids = checked.value;
    if (ids.size === 0) return [] as string[];
    return deps.entries.value.filter((e) => ids.has(e.id)).map((e) => e.id);
  });

  function set(next: Set<string>) {
    checked.value = next;
  }

  /**
   * A plain click selects one letter and clears the checks (it becomes the anchor);
   * Ctrl/Cmd toggles one (the first also takes the letter already selected, as in a
   * file list); Shift checks the range from the anchor in the order shown.
   */
  function click(id: string, mode: 'only' | 'toggle' | 'range') {
    if (mode === 'toggle') {
      const next = new Set(checked.value);
      if (next.size === 0 && anchor !== null && anchor !== id && deps.entries.value.some((e) => e.id === anchor)) next.add(anchor);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      anchor = id;
      set(next);
      return;
    }
    if (mode === 'range' && anchor !== null) {
      const list = deps.shown.value;
      const a = list.findIndex((e) => e.id === anchor);
      const b = list.findIndex((e) => e.id === id);
      if (a >= 0 && b >= 0) {
        const next = new Set(checked.value);
        for (let i = Math.min(a, b); i <= Math.max(a, b); i++) next.add(list[i].id);
        set(next);
        return;
      }
    }
    if (mode === 'range') {
      anchor = id;
      set(new Set([id]));
      return;
    }
    anchor = id;
    if (checked.value.size > 0) set(new Set());
  }

  function checkAllMatching() {
    set(new Set(deps.matching.value.map((e) => e.id)));
  }

  function clear() {
    anchor = null;
    if (checked.value.size > 0) set(new Set());
  }

  function prepare(action: BulkAction) {
    const ids = checkedHeld.value;
    if (ids.length === 0) return;
    summary.value = null;
    draft.value = { action, ids, altPath: action === 'redirect' ? '/user/' : null };
  }

  const preview = computed<BulkPreview | null>(() => {
    const d = draft.value;
    if (!d) return null;
    const byId = new Map<string, DeadLetterView>();
    const wanted = new Set(d.ids);
    for (const e of deps.entries.value) if (wanted.has(e.id)) byId.set(e.id, e);
    const check = d.action === 'redirect' ? checkTargetPath(d.altPath ?? '') : null;
    const maxReplays = deps.settings.value?.maxReplays ?? Infinity;
    const live = deps.livePaths.value;
    const counts = new Map<string, number>();
    const add = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
    for (const id of d.ids) {
      const e = byId.get(id);
      if (!e) add('unknown-entry');
      else if (d.action === 'purge') add('removed');
      else if (e.payload.kind === 'degraded') add('degraded-payload');
      else if (e.quarantined || e.replayCount >= maxReplays) add('quarantined');
      else {
        const target = check ? check.local : localPath(e.recipientPath);
        add(target !== null && live.has(target) ? 'replayed' : 'unresolved-recipient');
      }
    }
    const groups = [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([kind, count]) => ({ kind, count, note: PREDICTION_NOTES[kind] ?? kind }));
    const blocked = deps.writable.value ?? (check?.problem ? check.message : null);
    return {
      action: d.action,
      total: d.ids.length,
      groups,
      blocked,
      problem: check?.problem ?? null,
      target: check?.local ?? null,
    };
  });

  /** The runtime's answers: the summary by kind; the acted-on letters leave the checked set. */
  function finish(action: BulkAction, results: readonly BulkOutcome[]) {
    busy.value = false;
    summary.value = { action, total: results.length, byKind: countByKind(results) };
    const gone = new Set(results.filter((r) => r.outcome === 'removed' || r.outcome === 'replayed').map((r) => r.id));
    if (gone.size > 0) set(new Set([...checked.value].filter((id) => !gone.has(id))));
  }

  function close() {
    draft.value = null;
    summary.value = null;
    busy.value = false;
  }

  return { checked, checkedHeld, draft, busy, summary, preview, click, checkAllMatching, clear, prepare, finish, close };
}
export type BulkStore = ReturnType<typeof createBulkStore>;
