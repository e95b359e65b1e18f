// Confirmation before a replay: target, whether it resolves, mailbox kind and
// headroom, taken from the latest snapshot. Nothing is sent until confirmed.
import type { PanelStore } from '../store';

export function ReplayDialog({ store }: { store: PanelStore }) {
  const { emit } = store;
  const preview = store.replayPreview.value;
  const draft = store.deadLetters.draft.value;
  if (!preview || !draft) return null;
  const busy = store.deadLetters.busy.value;
  return (
    <div class="mr-modal" role="dialog" aria-modal="true" aria-label="Confirm replay" data-testid="replay-dialog">
      <div class="mr-modal-box">
        <h3>{preview.redirect ? 'Replay to another path' : 'Replay'} #{preview.entryId}</h3>
        {preview.redirect && (
          <label class="mr-field">
            Target path
            <input
              class="mr-filter"
              data-testid="replay-target"
              value={draft.altPath ?? ''}
              spellcheck={false}
              onInput={(e) => emit({ type: 'replay/target', altPath: (e.currentTarget as HTMLInputElement).value })}
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
          <dd>{preview.resolves ? (preview.headroom === null ? 'unbounded' : preview.headroom) : '—'}</dd>
        </dl>
        {preview.blocked && <p class="mr-error" data-testid="replay-blocked">{preview.blocked}</p>}
        {preview.warning && <p class="mr-warning" data-testid="replay-warning">{preview.warning}</p>}
        <div class="mr-actions">
          <button class="mr-btn" data-testid="replay-cancel" onClick={() => emit({ type: 'replay/cancel' })}>
            Cancel
          </button>
          <button
            class="mr-btn mr-primary"
            data-testid="replay-confirm"
            disabled={preview.blocked !== null || busy}
            onClick={() => emit({ type: 'replay/confirm' })}
          >
            {busy ? 'Replaying…' : 'Confirm replay'}
          </button>
        </div>
      </div>
    </div>
  );
}
