// The one inbound reducer: every runtime sample and event goes through applyEvent.
import { batch } from '@preact/signals';
import type { ReplayOutcome, ReplayResult } from '../types';
import type { Sample } from '../source/systemSource';
import type { ExportFile } from './exportFile';
import type { BulkAction, BulkOutcome } from './bulk';
import type { PanelStore } from './index';
import { enterImport } from './session';

export type InboundEvent =
  | { type: 'snapshot'; sample: Sample }
  | { type: 'sample-error'; message: string }
  | { type: 'hidden'; hidden: boolean }
  | {
      type: 'replay-result';
      id: string;
      target: string;
      redirect: boolean;
      atMs: number;
      result: ReplayResult | { error: string };
    }
  | {
      type: 'bulk-result';
      action: BulkAction;
      /** The redirect target (local form), or null: each letter's recorded recipient. */
      target: string | null;
      atMs: number;
      results: readonly (BulkOutcome & { recipientPath?: string; detail?: string })[];
    }
  | { type: 'release-result'; id: string; atMs: number; result: { kind: string } | { error: string } }
  | { type: 'imported'; file: ExportFile; name: string };

export function applyEvent(store: PanelStore, event: InboundEvent): void {
  batch(() => {
    switch (event.type) {
      case 'snapshot': {
        // A live sample that lands while an import is shown (taken before it opened) is not mixed in.
        if (store.ui.imported.value !== null) break;
        const { sample } = event;
        if (sample.actorsFresh !== false) store.mailboxes.apply(sample.actors, sample.atMs);
        if (sample.entries !== null && sample.entriesMode === 'since') {
          store.deadLetters.merge(sample.entries, sample.settings, sample.atMs);
        } else if (sample.entries !== null) store.deadLetters.apply(sample.entries, sample.settings, sample.atMs);
        else {
          store.deadLetters.settings.value = sample.settings;
          store.deadLetters.now.value = sample.atMs;
        }
        // The protocol says what the queue evicted and aged out; no diffing of lists.
        if (sample.deadLetterStats) {
          store.deadLetters.evicted.value = sample.deadLetterStats.evicted + sample.deadLetterStats.agedOut;
        }
        store.metrics.apply(sample.metricsText, sample.atMs);
        store.ui.sampleCostMs.value = sample.costMs;
        store.ui.samples.value += 1;
        store.ui.error.value = null;
        break;
      }
      case 'sample-error':
        store.ui.error.value = event.message;
        break;
      case 'hidden':
        store.ui.hidden.value = event.hidden;
        break;
      case 'replay-result': {
        const outcome = 'error' in event.result ? 'error' : event.result.kind;
        const detail = 'error' in event.result ? event.result.error : event.result.recipientPath;
        const malformed = 'error' in event.result ? undefined : event.result.malformed;
        store.deadLetters.recordAttempt(event.id, {
          atMs: event.atMs,
          target: event.target,
          redirect: event.redirect,
          outcome,
          detail,
          ...(malformed ? { malformed } : {}),
        });
        store.deadLetters.busy.value = false;
        store.ui.notice.value =
          `Replay of #${event.id}: ${outcome}${detail ? ` (${detail})` : ''}` + (malformed ? `: malformed path: ${malformed}` : '');
        break;
      }
      case 'bulk-result': {
        const { action, results } = event;
        if (action === 'purge') {
          store.deadLetters.forget(results.filter((r) => r.outcome === 'removed').map((r) => r.id));
        } else {
          for (const r of results) {
            const entry = store.deadLetters.entries.value.find((e) => e.id === r.id);
            store.deadLetters.recordAttempt(r.id, {
              atMs: event.atMs,
              target: r.recipientPath ?? event.target ?? entry?.recipientPath ?? '',
              redirect: action === 'redirect',
              outcome: r.outcome as ReplayOutcome | 'error',
              ...(r.detail ? { detail: r.detail } : {}),
              ...(r.malformed ? { malformed: r.malformed } : {}),
            });
          }
        }
        store.bulk.finish(action, results);
        const parts = store.bulk.summary.value?.byKind.map(([k, n]) => `${n} ${k}`).join(', ') ?? '';
        store.ui.notice.value = `${action === 'purge' ? 'Purge' : 'Replay'} of ${results.length} letter${results.length === 1 ? '' : 's'}: ${parts}`;
        break;
      }
      case 'release-result': {
        const what = 'error' in event.result ? `error (${event.result.error})` : event.result.kind;
        if (!('error' in event.result) && event.result.kind === 'released') {
          const entry = store.deadLetters.entries.value.find((e) => e.id === event.id);
          store.deadLetters.recordAttempt(event.id, { atMs: event.atMs, target: entry?.recipientPath ?? '', redirect: false, outcome: 'released' });
        }
        store.ui.notice.value = `Release of #${event.id}: ${what}`;
        break;
      }
      case 'imported':
        enterImport(store, event.file, event.name);
        break;
    }
  });
}

/** The convenience form used by the sampler and tests. */
export function applySnapshot(store: PanelStore, sample: Sample): void {
  applyEvent(store, { type: 'snapshot', sample });
}
