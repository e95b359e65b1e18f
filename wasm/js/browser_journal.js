// Browser persistence: the core's default file journal folder
// (/mailroom/journal) is an IndexedDB-backed folder (IDBFS), loaded at import
// and saved after captures and at terminate. In Node this does nothing (the
// folder stays in memory, shared by the systems of one process; a real folder
// is ActorSystemOptions.withJournalDir).
import { core, runningInNode } from './core_loader.js';

export const BROWSER_JOURNAL_DIR = '/mailroom/journal';

const haveIndexedDb = !runningInNode && typeof indexedDB !== 'undefined';

function sync(populate) {
  return new Promise((resolve) => {
    core.FS.syncfs(populate, (error) => {
      if (error) console.warn('mailroom: IndexedDB journal sync failed', error);
      resolve();
    });
  });
}

if (haveIndexedDb) {
  for (const dir of ['/mailroom', BROWSER_JOURNAL_DIR]) {
    try {
      core.FS.mkdir(dir);
    } catch {
      // already there
    }
  }
  core.FS.mount(core.IDBFS, {}, BROWSER_JOURNAL_DIR);
  await sync(true);
}

// Whether entries written to the journal folder must be synced to IndexedDB.
export const browserPersistence = haveIndexedDb;

let pending = null;
// Save the IndexedDB folder (coalesced: one sync at a time).
export function persistBrowserJournal() {
  if (!haveIndexedDb) return Promise.resolve();
  pending ??= sync(false).finally(() => {
    pending = null;
  });
  return pending;
}
