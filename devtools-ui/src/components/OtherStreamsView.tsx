// "Other streams" in the dead-letter tab: the letters other processes keep in
// the same database (read-only over this panel's connection), one stream at a
// time. Replay goes to the owner only: enabled when this page is attached to
// the owning process and it takes writes; otherwise the button is off and says
// which process owns the letter.
import type { OtherStreamsModel, StreamOwner } from '../store/otherStreams';
import type { StreamLetter } from '../source/protocolSource';
import { safeStringify } from '../payload/serialize';
import { formatClock } from './format';

function payloadText(letter: StreamLetter): string {
  const p = letter.payload;
  return p.kind === 'captured' ? safeStringify(p.message, { maxChars: 160, maxDepth: 4 }) : `${p.className} (degraded: ${p.reason})`;
}

function ownerText(owner: StreamOwner, stream: string): string {
  switch (owner.kind) {
    case 'attached':
      return `Owned by ${owner.node} (stream ${stream}), attached here: replays go to that process.`;
    case 'read-only':
      return `Owned by ${owner.node} (stream ${stream}), attached read-only: it takes no replays.`;
    case 'not-attached':
      return `Owned by process "${owner.system}" (stream ${stream}): attach the panel to that process to replay. Read-only here.`;
  }
}

function ReplayCell({ model, letter, owner }: { model: OtherStreamsModel; letter: StreamLetter; owner: StreamOwner }) {
  const outcome = model.outcomes.value.get(letter.id);
  if (owner.kind !== 'attached') {
    const why = owner.kind === 'read-only' ? `${owner.node} is read-only` : `owned by ${owner.system}: not attached`;
    return (
      <td>
        <button class="mr-btn" data-testid="os-replay" disabled title={ownerText(owner, letter.stream)}>
          Replay
        </button>{' '}
        <span class="mr-muted" data-testid="os-replay-off">
          {why}
        </span>
      </td>
    );
  }
  return (
    <td>
      <button class="mr-btn" data-testid="os-replay" title={`Replay in ${owner.node}, the process that owns it`} onClick={() => void model.replay(letter)}>
        Replay in {owner.node}
      </button>
      {outcome && (
        <span class="mr-muted" data-testid="os-outcome" data-outcome={outcome}>
          {' '}
          {outcome}
        </span>
      )}
    </td>
  );
}

export function OtherStreamsView({ model }: { model: OtherStreamsModel }) {
  const streams = model.streams.value;
  const selected = model.selected.value;
  if (streams.length === 0 && selected === null) return null; // a store of one process: nothing to add
  const owner = selected !== null ? model.owner(selected) : null;
  return (
    <section class="mr-other-streams" data-testid="dl-streams" aria-label="Other processes' dead letters" style={{ padding: '4px 8px', borderBottom: '1px solid var(--line)' }}>
      <label>
        Other streams in this store{' '}
        <select
          data-testid="dl-stream"
          value={selected ?? ''}
          onChange={(e) => {
            const v = (e.currentTarget as HTMLSelectElement).value;
            void model.select(v === '' ? null : v);
          }}
        >
          <option value="">— none (this process only) —</option>
          {streams.map((s) => (
            <option key={s.stream} value={s.stream} data-testid="dl-stream-option">
              {s.system} ({s.size.toLocaleString('en-US')})
            </option>
          ))}
        </select>
      </label>{' '}
      <button class="mr-btn" data-testid="dl-streams-refresh" title="Read the store's streams and letters again (they are not pushed)" onClick={() => void model.refresh()}>
        refresh
      </button>
      {model.loading.value && <span class="mr-muted"> reading…</span>}
      {model.error.value && (
        <span class="mr-banner-bad" data-testid="dl-streams-error">
          {' '}
          {model.error.value}
        </span>
      )}
      {selected !== null && owner !== null && (
        <div data-testid="os-view" data-stream={selected} style={{ maxHeight: '35vh', overflow: 'auto' }}>
          <p class="mr-muted" data-testid="os-owner" data-owner={owner.kind}>
            {ownerText(owner, selected)}
          </p>
          <table class="mr-table">
            <thead>
              <tr>
                <th>Id</th>
                <th>Time</th>
                <th>Recipient</th>
                <th>Cause</th>
                <th>Replays</th>
                <th>Payload</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {model.letters.value.map((letter) => (
                <tr key={letter.id} data-testid="os-row" data-id={letter.id} data-stream={letter.stream}>
                  <td class="mr-num">{letter.id}</td>
                  <td>{formatClock(letter.timestampMs)}</td>
                  <td data-testid="os-recipient">{letter.recipientPath}</td>
                  <td>{letter.cause ?? ''}</td>
                  <td data-testid="os-replays">{letter.replayCount}</td>
                  <td data-testid="os-payload">{payloadText(letter)}</td>
                  <ReplayCell model={model} letter={letter} owner={owner} />
                </tr>
              ))}
            </tbody>
          </table>
          {model.letters.value.length === 0 && !model.loading.value && <p class="mr-muted" data-testid="os-empty">No letters in this stream.</p>}
          {model.nextCursor.value !== null && (
            <button class="mr-btn" data-testid="os-more" onClick={() => void model.more()}>
              more
            </button>
          )}
        </div>
      )}
    </section>
  );
}
