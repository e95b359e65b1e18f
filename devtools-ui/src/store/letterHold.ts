// A dead-letter list that holds still. While the user is looking at it (pointer
// over the list, keyboard focus in it, a row selected, or scrolled away from the
// newest), the rows on screen keep their order and new letters wait behind a
// "N new" pill instead of pushing the rows down. Updates to entries on screen
// still show in place; filters the user changes apply at once (and are then held).
import { computed, signal } from '@preact/signals';
import type { DeadLetterStore, DeadLetterView } from './deadLetters';

export type HoldReason = 'pointer' | 'focus' | 'selection' | 'scrolled';

interface Snapshot {
  ids: readonly string[];
  known: ReadonlySet<string>;
  /** The list the snapshot was taken from: while it is still current, nothing has moved. */
  from: readonly DeadLetterView[];
}

export function createLetterHold(dl: DeadLetterStore) {
  const pointer = signal(false);
  const focus = signal(false);
  const scrolled = signal(false);
  const snapshot = signal<Snapshot | null>(null);

  const reasons = computed<readonly HoldReason[]>(() => {
    const out: HoldReason[] = [];
    if (pointer.value) out.push('pointer');
    if (focus.value) out.push('focus');
    if (dl.selectedId.value !== null) out.push('selection');
    if (scrolled.value) out.push('scrolled');
    return out;
  });

  /** The rows as displayed. */
  const shown = computed<readonly DeadLetterView[]>(() => {
    const snap = snapshot.value;
    const visible = dl.visible.value;
    if (!snap || snap.from === visible) return visible;
    // Held: the snapshot's entries in the snapshot's order, each as its latest view.
    const byId = new Map<string, DeadLetterView>();
    for (const e of dl.matching.value) byId.set(e.id, e);
    const out: DeadLetterView[] = [];
    for (const id of snap.ids) {
      const e = byId.get(id);
      if (e) out.push(e);
    }
    return out;
  });

  /** Letters that arrived (or came back) while held, not on screen yet. */
  const pending = computed(() => {
    const snap = snapshot.value;
    const visible = dl.visible.value;
    if (!snap || snap.from === visible) return 0;
    let n = 0;
    for (const e of visible) if (!snap.known.has(e.id)) n++;
    return n;
  });

  function take() {
    const from = dl.visible.value;
    const ids = from.map((e) => e.id);
    snapshot.value = { ids, known: new Set(ids), from };
  }

  /** Starts holding when a reason appears, lets the list go live when the last one ends. */
  function update() {
    if (reasons.value.length === 0) snapshot.value = null;
    else if (snapshot.value === null) take();
  }

  /** Brings the waiting letters in (the pill), and holds again if still looked at. */
  function release() {
    snapshot.value = null;
    update();
  }

  /** A list the user asked for (a filter changed) applies at once. */
  function refilter() {
    if (snapshot.value !== null) take();
  }

  function set(which: 'pointer' | 'focus' | 'scrolled', on: boolean) {
    const s = which === 'pointer' ? pointer : which === 'focus' ? focus : scrolled;
    if (s.value === on) return;
    s.value = on;
    update();
  }

  return { reasons, shown, pending, held: computed(() => snapshot.value !== null), set, update, release, refilter };
}
export type LetterHold = ReturnType<typeof createLetterHold>;
