// Imported data is its own session: entering an import sets the live session
// aside (rows with their depth history, letters, attempts, the metrics rate)
// and starts the import from nothing, so no sparkline, growth rate or count
// ever joins live samples to imported points; leaving puts the live session back.
import type { ExportFile } from './exportFile';
import type { PanelStore } from './index';

type Saved = {
  mailboxes: ReturnType<PanelStore['mailboxes']['saveSession']>;
  deadLetters: ReturnType<PanelStore['deadLetters']['saveSession']>;
  metrics: ReturnType<PanelStore['metrics']['saveSession']>;
};

const liveSessions = new WeakMap<PanelStore, Saved>();

export function enterImport(store: PanelStore, file: ExportFile, name: string): void {
  // A second import replaces the first; the live session set aside stays the live one.
  if (!liveSessions.has(store)) {
    liveSessions.set(store, {
      mailboxes: store.mailboxes.saveSession(),
      deadLetters: store.deadLetters.saveSession(),
      metrics: store.metrics.saveSession(),
    });
  }
  store.ui.imported.value = { name, exportedAtMs: file.exportedAtMs };
  // A file is not a queue: its filters run over what it holds.
  store.deadLetters.importedView.value = true;
  store.mailboxes.restoreSession({ rows: [], lastSampleAt: null, selectedPath: null });
  store.mailboxes.apply(file.mailboxes, file.exportedAtMs);
  const settings = file.settings ?? { store: 'memory', maxEntries: file.deadLetters.length, retentionMs: null, maxReplays: 0 };
  store.deadLetters.restoreSession({
    settings,
    entries: [],
    evicted: 0,
    attempts: new Map(),
    selectedId: null,
    detailOpen: false,
    now: file.exportedAtMs,
  });
  store.deadLetters.apply(file.deadLetters, settings, file.exportedAtMs);
  store.deadLetters.attempts.value = new Map(Object.entries(file.attempts ?? {}));
  store.metrics.restoreSession({ text: '', rate: [], lastCaptured: null });
  store.letterHold.release();
  // Checks name live letters: they mean nothing in an import (and the reverse).
  store.bulk.close();
  store.bulk.clear();
}

/** Back to the live session as it was when the import was opened. */
export function leaveImport(store: PanelStore): void {
  const saved = liveSessions.get(store);
  store.ui.imported.value = null;
  store.deadLetters.importedView.value = false;
  if (!saved) return;
  liveSessions.delete(store);
  store.mailboxes.restoreSession(saved.mailboxes);
  store.deadLetters.restoreSession(saved.deadLetters);
  store.metrics.restoreSession(saved.metrics);
  store.letterHold.release();
  store.bulk.close();
  store.bulk.clear();
}
