// A dead-letter list that holds still. While the user is looking at it (pointer
// over the list, keyboard focus in it, a row selected, or scrolled away from the
// newest), the rows on screen keep their order and new letters wait behind a
// "N new" pill instead of pushing the rows down. Updates to entries on screen
// still show in place; filters the user changes apply at once (and are then held).
import { computed, effect, signal, untracked } from '@preact/signals';
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
  /**
   * Letters the user replayed from this panel: one that dead-letters again is the user's
   * own doing and expected back, so it shows (at the top) instead of waiting behind the pill.
   */
  const replayed = signal<ReadonlySet<string>>(new Set());

  /** The rows as displayed. */
  const shown = computed<readonly DeadLetterView[]>(() => {
    const snap = snapshot.value;
    const visible = dl.visible.value;
    if (!snap || snap.from === visible) return visible;
    // Held: the snapshot's entries in the snapshot's order, each as its latest view.
    const byId = new Map<string, DeadLetterView>();
    for (const e of dl.matching.value) byId.set(e.id, e);
    const out: DeadLetterView[] = [];
    const own = replayed.value;
    if (own.size > 0) for (const e of visible) if (own.has(e.id) && !snap.known.has(e.id)) out.push(e);
    for (const id of snap.ids) {
      const e = byId.get(id);
      if (e) out.push(e);
    }
    return out;
  });

  const reasons = computed<readonly HoldReason[]>(() => {
    const out: HoldReason[] = [];
    if (pointer.value) out.push('pointer');
    if (focus.value) out.push('focus');
    // A selection holds the list only while it is on screen: one filtered out or gone holds nothing.
    const id = dl.selectedId.value;
    if (id !== null && shown.value.some((e) => e.id === id)) out.push('selection');
    if (scrolled.value) out.push('scrolled');
    return out;
  });

  /** Letters that arrived (or came back) while held, not on screen yet. */
  const pending = computed(() => {
    const snap = snapshot.value;
    const visible = dl.visible.value;
    if (!snap || snap.from === visible) return 0;
    const own = replayed.value;
    let n = 0;
    for (const e of visible) if (!snap.known.has(e.id) && !own.has(e.id)) n++;
    return n;
  });

  function take() {
    const from = dl.visible.value;
    const ids = from.map((e) => e.id);
    snapshot.value = { ids, known: new Set(ids), from };
  }

  /** Starts holding when a reason appears, lets the list go live when the last one ends. */
  function update() {
    const on = reasons.value.length > 0;
    untracked(() => {
      if (!on) snapshot.value = null;
      else if (snapshot.value === null) take();
    });
  }
  // Reasons also end with the data (the selected letter leaves the queue): follow them, not only events.
  effect(update);

  /** Brings the waiting letters in (the pill), and holds again if still looked at. */
  function release() {
    snapshot.value = null;
    update();
  }

  /** A filter changed while its letters are the core's to find: the answer is the list asked for. */
  let awaitingAnswer = false;
  /** A list the user asked for (a filter changed) applies at once. */
  function refilter() {
    if (snapshot.value !== null) take();
    awaitingAnswer = dl.queryState.value === 'pending';
    update();
  }
  // The core's answer to a changed filter comes after the change: a held list takes it when it
  // comes, as the panel's own filter applied at once (else it waited, unseen, behind the pill).
  effect(() => {
    const state = dl.queryState.value;
    if (state === 'pending' || !awaitingAnswer) return;
    awaitingAnswer = false;
    untracked(() => {
      if (snapshot.value !== null) take();
    });
  });

  /** The user confirmed a replay of `id` (see `replayed`). */
  function expectBack(id: string) {
    if (!replayed.value.has(id)) replayed.value = new Set([...replayed.value, id]);
  }

  function set(which: 'pointer' | 'focus' | 'scrolled', on: boolean) {
    const s = which === 'pointer' ? pointer : which === 'focus' ? focus : scrolled;
    if (s.value === on) return;
    s.value = on;
    update();
  }

  return { reasons, shown, pending, expectBack, held: computed(() => snapshot.value !== null), set, update, release, refilter };
}
export type LetterHold = ReturnType<typeof createLetterHold>;
