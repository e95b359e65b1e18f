// The detail pane of one dead letter: origin, actions, attempt history and the
// payload tree (or, for a degraded entry, its class and reason only).
import { replayBlockedReason, type PanelStore } from '../store';
import { localPath } from '../paths';
import { safeStringify } from '../payload/serialize';
import { formatClock } from './format';
import { causeLabel, CAUSE_HELP } from './causes';
import { causeOf } from '../store/deadLetters';
import { JsonTree, type CopyFn } from './JsonTree';
import { Icon } from './Icon';

export function DeadLetterDetail({ store, id, onCopy }: { store: PanelStore; id: string; onCopy: CopyFn }) {
  const { deadLetters: dl, emit, ui } = store;
  const entry = dl.selected.value;
  const attempts = dl.attempts.value.get(id) ?? [];
  const entryBlock = entry ? replayBlockedReason(entry, dl.settings.value?.maxReplays ?? null) : null;
  const replayTitle = !ui.allowReplay.value
    ? `Replay is off: ${ui.writesSwitch.value} to enable it`
    : ui.imported.value
      ? 'Imported data is read-only'
      : (entryBlock ?? undefined);
  const canReplay = replayTitle === undefined;
  const reasonId = `mr-replay-off-${id}`;
  return (
    <aside class="mr-detail" data-testid="dl-detail" aria-label={`Dead letter ${id}`}>
      <header class="mr-detail-head">
        <b>Dead letter #{id}</b>
        <button
          class="mr-link"
          data-testid="dl-detail-close"
          title="Close (Esc)"
          aria-label="Close"
          onClick={() => emit({ type: 'dead-letters/select', id, open: false })}
        >
          <Icon name="close" />
        </button>
      </header>
      {!entry ? (
        <p class="mr-muted" data-testid="dl-detail-gone">This entry has left the queue.</p>
      ) : (
        <>
          <dl class="mr-meta">
            <dt>time</dt>
            <dd>
              {formatClock(entry.timestampMs)} <span class="mr-muted">{new Date(entry.timestampMs).toISOString()}</span>
            </dd>
            <dt>recipient</dt>
            <dd>
              <button class="mr-link" data-testid="dl-to-mailbox" title="Show this actor's mailbox" onClick={() => emit({ type: 'link/mailbox', path: entry.recipientPath })}>
                {localPath(entry.recipientPath)}
              </button>
            </dd>
            <dt>sender</dt>
            <dd>{entry.senderPath ? localPath(entry.senderPath) : <span class="mr-muted">none</span>}</dd>
            <dt>replays</dt>
            <dd>
              {entry.replayCount}
              {entry.quarantined && <span class="mr-badge mr-badge-bad"> quarantined</span>}
            </dd>
            <dt>type</dt>
            <dd>{entry.type}</dd>
            <dt>cause</dt>
            <dd data-testid="dl-detail-cause">
              {causeLabel(entry)} <span class="mr-muted">— {CAUSE_HELP[causeOf(entry)] ?? 'not recorded by this system'}</span>
            </dd>
          </dl>
          <div class="mr-actions">
            <button
              class="mr-btn mr-primary"
              data-testid="dl-replay"
              disabled={!canReplay}
              title={replayTitle ?? 'Replay to the recorded recipient (r)'}
              aria-describedby={canReplay ? undefined : reasonId}
              onClick={() => emit({ type: 'replay/prepare', id, altPath: null })}
            >
              Replay
            </button>
            <button
              class="mr-btn"
              data-testid="dl-redirect"
              disabled={!canReplay}
              title={replayTitle ?? 'Replay to another path (Shift+R)'}
              aria-describedby={canReplay ? undefined : reasonId}
              onClick={() => emit({ type: 'replay/prepare', id, altPath: localPath(entry.recipientPath) })}
            >
              Replay to path…
            </button>
            <button
              class="mr-btn"
              data-testid="dl-copy-entry"
              onClick={() => onCopy(safeStringify(entry, { indent: 2, maxDepth: 64 }), 'entry')}
            >
              Copy entry as JSON
            </button>
          </div>
          {!canReplay && (
            <p class="mr-replay-off" id={reasonId} data-testid="dl-replay-off">
              {replayTitle}
            </p>
          )}
          {entry.quarantined && entry.payload.kind === 'captured' && store.writeBlocked.value === null && (
            <div class="mr-actions">
              <button
                class="mr-btn"
                data-testid="dl-release"
                title="Reset its replay count to 0 (journaled), so it can be replayed max-replays more times"
                onClick={() => emit({ type: 'release', id })}
              >
                Release quarantine
              </button>
            </div>
          )}
        </>
      )}
      {attempts.length > 0 && (
        <div class="mr-attempts">
          <h4>Attempt history</h4>
          <ol data-testid="dl-attempts">
            {attempts.map((a, i) => (
              <li key={i} data-testid="dl-attempt" data-outcome={a.outcome}>
                <span class="mr-muted">{formatClock(a.atMs)}</span>{' '}
                <span class={`mr-outcome mr-outcome-${a.outcome}`}>{a.outcome}</span>{' '}
                {a.outcome === 'released' ? '(quarantine lifted: replay count 0)' : `${a.redirect ? '→ redirect to ' : '→ '}${localPath(a.target)}`}
                {a.outcome === 'error' && a.detail ? ` (${a.detail})` : ''}
                {a.malformed && <span data-testid="dl-attempt-malformed">{` (malformed path: ${a.malformed})`}</span>}
              </li>
            ))}
          </ol>
        </div>
      )}
      {entry && (
        <div class="mr-payload" data-testid="dl-payload">
          <h4>Payload</h4>
          {entry.payload.kind === 'captured' ? (
            <JsonTree key={`${entry.id}:${entry.replayCount}`} value={entry.payload.message} rootPath="message" onCopy={onCopy} />
          ) : (
            <div class="mr-degraded" data-testid="dl-degraded">
              <p>
                Degraded entry: the payload could not be journaled, so only its origin was kept. It cannot be replayed.
              </p>
              <dl class="mr-meta">
                <dt>class</dt>
                <dd data-testid="dl-degraded-class">{entry.payload.className}</dd>
                <dt>reason</dt>
                <dd data-testid="dl-degraded-reason">{entry.payload.reason}</dd>
              </dl>
            </div>
          )}
        </div>
      )}
    </aside>
  );
}
