// One confirmation for a bulk replay, redirect or purge: what will happen to
// the checked letters, grouped by expected outcome; after it ran, the outcomes
// the runtime named, by kind. The same modal focus rules as the replay dialog.
import { useRef } from 'preact/hooks';
import type { PanelStore } from '../store';
import { useModalFocus } from './useModalFocus';
import { PathField } from './PathField';
import { suggestPaths } from '../store';

const TITLE = { replay: 'Replay', redirect: 'Replay to another path', purge: 'Purge' } as const;

function BulkBody({ store }: { store: PanelStore }) {
  const { emit, bulk } = store;
  const preview = bulk.preview.value!;
  const draft = bulk.draft.value!;
  const summary = bulk.summary.value;
  const busy = bulk.busy.value;
  const box = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useModalFocus({
    box,
    initial: () => inputRef.current ?? (confirmRef.current?.disabled === false ? confirmRef.current : closeRef.current),
    onClose: () => emit({ type: 'bulk/close' }),
    fallback: () => document.querySelector<HTMLElement>('[data-testid=dl-bulk-bar] button') ?? document.querySelector<HTMLElement>('[data-testid=devtools]'),
  });
  // Confirm waits for the dry run (a few ms): the user sees what will happen first.
  const waiting = preview.dryRun === 'pending';
  const canConfirm = preview.blocked === null && !waiting && !busy && summary === null;
  const n = preview.total;
  const letters = `${n.toLocaleString('en-US')} letter${n === 1 ? '' : 's'}`;
  const confirm = () => {
    if (canConfirm) emit({ type: 'bulk/confirm' });
  };
  return (
    <div class="mr-modal" data-testid="bulk-dialog" onMouseDown={(e) => e.target === e.currentTarget && e.preventDefault()}>
      <div class="mr-modal-box" ref={box} role="dialog" aria-modal="true" aria-labelledby="mr-bulk-title">
        <h3 id="mr-bulk-title">
          {TITLE[preview.action]} {letters}
        </h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            confirm();
          }}
        >
          {preview.action === 'redirect' && (
            <label class="mr-field" for="mr-bulk-target">
              Target path
              <PathField
                id="mr-bulk-target"
                inputRef={inputRef}
                testId="bulk-target"
                value={draft.altPath ?? ''}
                suggestions={suggestPaths(store, draft.altPath ?? '')}
                problem={preview.problem}
                describedBy="mr-bulk-problem"
                disabled={summary !== null}
                onInput={(altPath) => emit({ type: 'bulk/target', altPath })}
                onSubmit={confirm}
              />
            </label>
          )}
          {summary === null ? (
            <>
              <p class="mr-muted" data-testid="bulk-dry-run" data-state={preview.dryRun ?? 'blocked'}>
                {preview.dryRun === 'pending'
                  ? 'Asking the runtime for a dry run…'
                  : preview.dryRun === 'unavailable'
                    ? 'This runtime has no dry run: each outcome is named once the action ran.'
                    : preview.dryRun === 'error'
                      ? `The dry run failed (${preview.dryRunError}): each outcome is named once the action ran.`
                      : preview.dryRun === 'done'
                        ? 'The runtime\'s dry run, by the checks the action itself runs (nothing was sent):'
                        : ''}
              </p>
              <table class="mr-bulk-table" data-testid="bulk-preview" aria-busy={preview.dryRun === 'pending'}>
                <tbody>
                  {preview.groups.map((g) => (
                    <tr key={g.kind} data-testid="bulk-group" data-kind={g.kind}>
                      <td class="mr-num">
                        <b>{g.count.toLocaleString('en-US')}</b>
                      </td>
                      <td>
                        <span class={`mr-outcome mr-outcome-${g.kind}`}>{g.kind}</span>
                      </td>
                      <td class="mr-muted">{g.note}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : (
            <>
              <p>Done: what the runtime answered for each of the {summary.total.toLocaleString('en-US')} letters.</p>
              <table class="mr-bulk-table" data-testid="bulk-summary">
                <tbody>
                  {summary.byKind.map(([kind, count]) => (
                    <tr key={kind} data-testid="bulk-outcome" data-kind={kind}>
                      <td class="mr-num">
                        <b>{count.toLocaleString('en-US')}</b>
                      </td>
                      <td>
                        <span class={`mr-outcome mr-outcome-${kind}`}>{kind}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <div id="mr-bulk-problem" class="mr-dialog-messages" aria-live="polite">
            {preview.blocked && summary === null && (
              <p class="mr-error" data-testid="bulk-blocked" data-problem={preview.problem ?? ''}>
                {preview.blocked}
              </p>
            )}
          </div>
          <div class="mr-actions">
            <button ref={closeRef} type="button" class="mr-btn" data-testid="bulk-cancel" onClick={() => emit({ type: 'bulk/close' })}>
              {summary === null ? 'Cancel' : 'Close'}
            </button>
            {summary === null && (
              <button
                ref={confirmRef}
                type="submit"
                class={`mr-btn ${preview.action === 'purge' ? 'mr-danger' : 'mr-primary'}`}
                data-testid="bulk-confirm"
                // While the dry run answers the button stays focusable (aria-disabled), so focus lands on it.
                disabled={!canConfirm && !(waiting && preview.blocked === null && !busy)}
                aria-disabled={!canConfirm}
              >
                {busy ? 'Working…' : `${preview.action === 'purge' ? 'Purge' : 'Replay'} ${letters}`}
              </button>
            )}
          </div>
        </form>
      </div>
    </div>
  );
}

export function BulkDialog({ store }: { store: PanelStore }) {
  if (!store.bulk.draft.value || !store.bulk.preview.value) return null;
  return <BulkBody store={store} />;
}
