// The attempt history (replays and releases made from the panel) kept across
// reloads in localStorage, per system. Only for a persistent queue: its ids
// continue after a restart, so an id still names the same letter; a memory
// queue starts again at #1 and its old history would name other letters.
// Read back as untrusted input (each attempt checked), bounded, and never
// written while an import is shown (an import's history is not the system's).
import { effect } from '@preact/signals';
import type { PanelStore } from './index';
import type { Attempt } from './deadLetters';
import { isAttempt } from './exportFile';

export const ATTEMPTS_KEY = 'mailroom-devtools/attempts/';
const VERSION = 1;
const MAX_IDS = 500;
const MAX_PER_ID = 50;

export function parseAttempts(raw: string | null): Map<string, Attempt[]> {
  const out = new Map<string, Attempt[]>();
  if (raw === null) return out;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return out;
  }
  const d = data as { version?: unknown; attempts?: unknown } | null;
  if (typeof d !== 'object' || d === null || d.version !== VERSION || typeof d.attempts !== 'object' || d.attempts === null) return out;
  for (const [id, list] of Object.entries(d.attempts as Record<string, unknown>)) {
    if (!/^\d{1,20}$/.test(id) || !Array.isArray(list)) continue;
    const valid = list.filter(isAttempt).slice(-MAX_PER_ID);
    if (valid.length > 0) out.set(id, valid);
    if (out.size >= MAX_IDS) break;
  }
  return out;
}

/** The newest MAX_IDS ids' histories (by their latest attempt), each bounded. */
function bounded(attempts: ReadonlyMap<string, readonly Attempt[]>): Record<string, Attempt[]> {
  const ids = [...attempts.entries()]
    .filter(([, list]) => list.length > 0)
    .sort((a, b) => b[1][b[1].length - 1].atMs - a[1][a[1].length - 1].atMs)
    .slice(0, MAX_IDS);
  return Object.fromEntries(ids.map(([id, list]) => [id, list.slice(-MAX_PER_ID)]));
}

/**
 * Restores the history of `systemName()` once the queue is known to be persistent and
 * keeps it saved; `systemName` may be null until known (the protocol's welcome).
 */
export function persistAttempts(
  store: PanelStore,
  storage: Pick<Storage, 'getItem' | 'setItem'> | null,
  systemName: () => string | null,
): () => void {
  if (!storage) return () => undefined;
  const { deadLetters: dl, ui } = store;
  let restoredFor: string | null = null;
  let last = '';
  return effect(() => {
    const name = systemName();
    const persistent = dl.settings.value?.store === 'persistent';
    if (name === null || !persistent || ui.imported.value !== null) return;
    const key = ATTEMPTS_KEY + name;
    if (restoredFor !== key) {
      restoredFor = key;
      let saved = new Map<string, Attempt[]>();
      try {
        saved = parseAttempts(storage.getItem(key));
      } catch {
        // Unreadable storage: start with what this page recorded.
      }
      if (saved.size > 0) {
        // What this page already recorded comes after what was saved.
        const merged = new Map(saved);
        for (const [id, list] of dl.attempts.peek()) merged.set(id, [...(saved.get(id) ?? []), ...list]);
        dl.attempts.value = merged;
      }
    }
    const json = JSON.stringify({ version: VERSION, attempts: bounded(dl.attempts.value) });
    if (json === last) return;
    last = json;
    try {
      storage.setItem(key, json);
    } catch {
      // Full or refused: the history is a convenience, the panel goes on.
    }
  });
}
