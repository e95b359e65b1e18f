// Confirmation before a replay: target, whether it resolves, mailbox kind and
// headroom, as the runtime's dry run reads them now (read again with every sample
// while open; a plain replay shows the latest snapshot until it answered). A typed
// redirect target is judged by the core alone: its dry run says whether the path
// is malformed, in its words. Nothing is sent until confirmed.
// A real modal: focus moves in (the path field in a redirect), stays in, Esc
// closes, Enter confirms, and focus goes back to what opened it.
import { useRef } from 'preact/hooks';
import type { PanelStore } from '../store';
import { useModalFocus } from './useModalFocus';
import { PathField } from './PathField';

function DialogBody({ store }: { store: PanelStore }) {
  const { emit } = store;
  const preview = store.replayPreview.value!;
  const draft = store.deadLetters.draft.value!;
  const busy = store.deadLetters.busy.value;
  const box = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const entryId = preview.entryId;
  useModalFocus({
    box,
    initial: () => inputRef.current ?? (confirmRef.current?.disabled === false ? confirmRef.current : null),
    onClose: () => emit({ type: 'replay/cancel' }),
    fallback: () =>
      document.querySelector<HTMLElement>(`[data-testid=dl-row][data-id="${CSS.escape(entryId)}"]`) ??
      document.querySelector<HTMLElement>('[data-testid=devtools]'),
  });
  const canConfirm = preview.blocked === null && !busy;
  const titleId = `mr-replay-title-${entryId}`;
  const problemId = `mr-replay-problem-${entryId}`;
  return (
    <div
      class="mr-modal"
      data-testid="replay-dialog"
      onMouseDown={(e) => {
        // A press on the backdrop keeps focus in the dialog instead of moving it to the page.
        if (e.target === e.currentTarget) e.preventDefault();
      }}
    >
      <div class="mr-modal-box" ref={box} role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h3 id={titleId}>
          {preview.redirect ? 'Replay to another path' : 'Replay'} #{entryId}
        </h3>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (canConfirm) emit({ type: 'replay/confirm' });
          }}
        >
          {preview.redirect && (
            <label class="mr-field" for={`mr-replay-target-${entryId}`}>
              Target path
              <PathField
                id={`mr-replay-target-${entryId}`}
                inputRef={inputRef}
                testId="replay-target"
                value={draft.altPath ?? ''}
                suggestions={preview.suggestions}
                problem={preview.problem}
                describedBy={problemId}
                onInput={(altPath) => emit({ type: 'replay/target', altPath })}
                onSubmit={() => canConfirm && emit({ type: 'replay/confirm' })}
              />
            </label>
          )}
          <dl class="mr-meta" data-testid="replay-preview">
            <dt>target</dt>
            <dd data-testid="replay-preview-target">{preview.target || '—'}</dd>
            <dt>resolves</dt>
            <dd data-testid="replay-preview-resolves">{preview.resolves ? 'yes' : 'no'}</dd>
            <dt>mailbox</dt>
            <dd>{preview.mailboxKind ?? '—'}</dd>
            <dt>headroom</dt>
            <dd data-testid="replay-preview-headroom" data-source={preview.targetRow ? 'dry-run' : 'snapshot'}>
              {preview.resolves ? preview.headroomText : '—'}
            </dd>
          </dl>
          <div id={problemId} class="mr-dialog-messages" aria-live="polite">
            {preview.blocked && (
              <p class="mr-error" data-testid="replay-blocked" data-problem={preview.problem ?? ''}>
                {preview.blocked}
              </p>
            )}
            {preview.checking && (
              <p class="mr-muted" data-testid="replay-checking">
                Asking the runtime about this path…
              </p>
            )}
            {preview.dryRunError && (
              <p class="mr-muted" data-testid="replay-dry-run-error">
                No dry run ({preview.dryRunError}): the replay itself will answer by name.
              </p>
            )}
            {preview.warning && (
              <p class="mr-warning" data-testid="replay-warning">
                {preview.warning}
              </p>
            )}
          </div>
          <div class="mr-actions">
            <button type="button" class="mr-btn" data-testid="replay-cancel" onClick={() => emit({ type: 'replay/cancel' })}>
              Cancel
            </button>
            <button ref={confirmRef} type="submit" class="mr-btn mr-primary" data-testid="replay-confirm" disabled={!canConfirm}>
              {busy ? 'Replaying…' : 'Confirm replay'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}

export function ReplayDialog({ store }: { store: PanelStore }) {
  if (!store.replayPreview.value || !store.deadLetters.draft.value) return null;
  // Keyed by entry, so each opening is a fresh modal that records its own opener.
  return <DialogBody key={store.deadLetters.draft.value.entryId} store={store} />;
}
