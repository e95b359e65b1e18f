// Bulk actions on dead letters: the checked set (click with Ctrl/Cmd toggles,
// Shift extends from the anchor, "all matching" takes the filtered list), one
// draft (replay, redirect or purge) with a preview of what will happen to each
// letter grouped by kind, and the summary of the outcomes the runtime named.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { ActorSnapshot } from '../types';
import type { DeadLetterView } from './deadLetters';
import type { TargetProblem } from './index';

export type BulkAction = 'replay' | 'redirect' | 'purge';

export interface BulkDraft {
  action: BulkAction;
  ids: readonly string[];
  /** The redirect target (action 'redirect' only). */
  altPath: string | null;
}

/** One group of the preview: how many letters the runtime's dry run gave `kind`, and what it means. */
export interface BulkGroup {
  kind: string;
  count: number;
  note: string;
}

/**
 * The runtime's dry run for one draft (`key`): the queue runs the checks the real
 * replay or purge runs, so the preview cannot disagree with the outcome.
 */
export type DryRun =
  | { key: string; state: 'pending' }
  | { key: string; state: 'done'; results: readonly BulkOutcome[]; mailboxes: readonly ActorSnapshot[] }
  | { key: string; state: 'unavailable' }
  | { key: string; state: 'error'; message: string };

export interface BulkPreview {
  action: BulkAction;
  total: number;
  /** The dry run's outcomes, most frequent first (empty until it answered). */
  groups: readonly BulkGroup[];
  /** 'pending' while the runtime answers; 'unavailable' when it has no dry run. */
  dryRun: DryRun['state'] | null;
  /** Why the dry run failed, when it did. */
  dryRunError: string | null;
  /** Why nothing can be sent at all (read-only panel, import, no target, a target the core found malformed); null when it can. */
  blocked: string | null;
  problem: TargetProblem | null;
  /** The redirect target as typed (sent as is: the core judges it). */
  target: string | null;
  /** The key a dry run must carry to describe this draft. */
  key: string;
}

export interface BulkOutcome {
  id: string;
  outcome: string;
  /** unresolved-recipient: why the core found the redirect path malformed. */
  malformed?: string;
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
  writable: ReadonlySignal<string | null>;
}

// What each outcome the runtime names means (its words, explained; not a prediction).
const OUTCOME_NOTES: Record<string, string> = {
  replayed: 'pass every check: delivered on confirm (only a full mailbox that rejects can still refuse one)',
  'unresolved-recipient': 'nothing lives at the target now: these stay in the queue',
  quarantined: 'already replayed max-replays times: the queue refuses them',
  'degraded-payload': 'only their origin was kept: nothing to send',
  'control-message': 'a stop() or kill() that outlived its actor: never delivered, it would stop the actor there now',
  'unknown-entry': 'no longer in the queue (or listed twice)',
  'in-flight': 'a replay is delivering them right now',
  removed: 'leave the queue for good on confirm (journaled)',
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
  const dryRun = signal<DryRun | null>(null);
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

  let drafts = 0;
  const draftSerial = new WeakMap<BulkDraft, number>();
  function setDraft(next: BulkDraft | null) {
    if (next) draftSerial.set(next, ++drafts);
    draft.value = next;
  }

  function prepare(action: BulkAction) {
    const ids = checkedHeld.value;
    if (ids.length === 0) return;
    summary.value = null;
    dryRun.value = null;
    setDraft({ action, ids, altPath: action === 'redirect' ? '/user/' : null });
  }

  function setTarget(altPath: string) {
    if (draft.value) setDraft({ ...draft.value, altPath });
  }

  const preview = computed<BulkPreview | null>(() => {
    const d = draft.value;
    if (!d) return null;
    const redirect = d.action === 'redirect';
    const key = `${draftSerial.get(d) ?? 0}`;
    const run = dryRun.value?.key === key ? dryRun.value : null;
    // The path is the same for every letter: one malformed answer is the core's verdict on it.
    const malformed = run?.state === 'done' ? (run.results.find((r) => r.malformed)?.malformed ?? null) : null;
    const problem: TargetProblem | null = redirect && (d.altPath ?? '') === '' ? 'empty' : malformed !== null ? 'malformed' : null;
    const typed =
      problem === 'empty' ? 'Enter a target path, e.g. /user/checkout.' : malformed !== null ? `The runtime says the path is malformed: ${malformed}` : null;
    const blocked = deps.writable.value ?? typed;
    const groups =
      run?.state === 'done'
        ? countByKind(run.results).map(([kind, count]) => {
            // The core's own reason beats the generic note (one target: one reason).
            const why = run.results.find((r) => r.outcome === kind && r.malformed)?.malformed;
            const note = why ? `the runtime says the path is malformed: ${why}` : (OUTCOME_NOTES[kind] ?? kind);
            return { kind, count, note };
          })
        : [];
    // Blocked before asking (writes off, nothing typed): no dry run. A malformed verdict is one.
    const asked = deps.writable.value === null && problem !== 'empty';
    return {
      action: d.action,
      total: d.ids.length,
      groups,
      dryRun: asked ? (run?.state ?? 'pending') : null,
      dryRunError: run?.state === 'error' ? run.message : null,
      blocked,
      problem,
      target: redirect ? (d.altPath ?? '') : null,
      key,
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
    setDraft(null);
    summary.value = null;
    busy.value = false;
    dryRun.value = null;
  }

  return { checked, checkedHeld, draft, busy, summary, preview, dryRun, click, checkAllMatching, clear, prepare, setTarget, finish, close };
}
export type BulkStore = ReturnType<typeof createBulkStore>;
