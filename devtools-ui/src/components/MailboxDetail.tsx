// The detail of one actor's mailbox: its options, counters, a depth chart over
// the recent samples, and the dead letters addressed to it (each links to the
// letter in the inspector, which links back here).
import type { PanelStore } from '../store';
import { causeOf } from '../store/deadLetters';
import { localPath } from '../paths';
import { formatClock } from './format';
import { Icon } from './Icon';

const LETTERS_SHOWN = 10;

function DepthChart({ values, capacity }: { values: readonly number[]; capacity: number | null }) {
  const width = 320;
  const height = 64;
  const max = Math.max(1, capacity ?? 0, ...values);
  if (values.length < 2) return <p class="mr-muted" data-testid="mb-chart-empty">Collecting samples…</p>;
  const step = width / (values.length - 1);
  const y = (v: number) => (height - 1 - (v / max) * (height - 2)).toFixed(1);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${y(v)}`).join(' ');
  return (
    <figure class="mr-depth-chart" data-testid="mb-depth-chart">
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Depth over the last ${values.length} samples, now ${values[values.length - 1]}, peak ${Math.max(...values)}`}>
        {capacity !== null && <line x1="0" x2={width} y1={y(capacity)} y2={y(capacity)} class="mr-chart-cap" stroke-dasharray="4 3" />}
        <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" />
      </svg>
      <figcaption class="mr-muted">
        depth over the last {values.length} samples · peak {Math.max(...values)}
        {capacity !== null ? ` · capacity ${capacity} (dashed)` : ''}
      </figcaption>
    </figure>
  );
}

export function MailboxDetail({ store, path }: { store: PanelStore; path: string }) {
  const { mailboxes, deadLetters: dl, emit } = store;
  const row = mailboxes.rows.value.find((r) => r.path === path) ?? null;
  const local = localPath(path);
  const letters = dl.entries.value.filter((e) => e.recipientLocal === local);
  return (
    <aside class="mr-detail" data-testid="mb-detail" aria-label={`Actor ${local}`}>
      <header class="mr-detail-head">
        <b>{local}</b>
        <button class="mr-link" data-testid="mb-detail-close" title="Close (Esc)" aria-label="Close" onClick={() => emit({ type: 'mailboxes/select', path: null })}>
          <Icon name="close" />
        </button>
      </header>
      {!row ? (
        <p class="mr-muted" data-testid="mb-detail-gone">This actor is gone (stopped since it was selected).</p>
      ) : (
        <>
          <h4>Options</h4>
          <dl class="mr-meta" data-testid="mb-options">
            <dt>class</dt>
            <dd>{row.className || '—'}</dd>
            <dt>mailbox</dt>
            <dd>{row.mailboxKind}</dd>
            <dt>capacity</dt>
            <dd>{row.capacity ?? 'unbounded'}</dd>
            <dt>overflow</dt>
            <dd>{row.overflow ?? '—'}</dd>
            <dt>drops become dead letters</dt>
            <dd>{row.deadLetterDrops ? 'yes' : 'no'}</dd>
          </dl>
          <h4>Counters</h4>
          <dl class="mr-meta" data-testid="mb-counters">
            <dt>user depth</dt>
            <dd data-testid="mb-depth">{row.userDepth}{row.capacity !== null ? ` / ${row.capacity}` : ''}</dd>
            <dt>system depth</dt>
            <dd>{row.systemDepth}</dd>
            <dt>stash</dt>
            <dd>{row.stashSize}</dd>
            <dt>dropped</dt>
            <dd data-testid="mb-dropped">{row.dropped}</dd>
            <dt>processed</dt>
            <dd>{row.processed.toLocaleString('en-US')} ({row.processedRate.toFixed(1)}/s)</dd>
            <dt>state</dt>
            <dd>{row.suspended ? 'suspended' : 'running'}</dd>
          </dl>
          <h4>Depth</h4>
          <DepthChart values={row.history} capacity={row.capacity} />
        </>
      )}
      <h4>
        Dead letters <span class="mr-count" data-testid="mb-letter-count">{letters.length}</span>
      </h4>
      {letters.length === 0 ? (
        <p class="mr-muted">None kept for this actor.</p>
      ) : (
        <>
          <ol class="mr-mb-letters" data-testid="mb-letters">
            {letters.slice(0, LETTERS_SHOWN).map((e) => (
              <li key={e.id}>
                <button class="mr-link" data-testid="mb-letter" data-id={e.id} title="Show this letter in the dead-letter inspector" onClick={() => emit({ type: 'link/letter', id: e.id, path })}>
                  #{e.id}
                </button>{' '}
                <span class="mr-muted">{formatClock(e.timestampMs)}</span> {e.type} · {causeOf(e)}
              </li>
            ))}
          </ol>
          <button class="mr-link" data-testid="mb-all-letters" onClick={() => emit({ type: 'link/dead-letters', path })}>
            all {letters.length.toLocaleString('en-US')} in the inspector
          </button>
        </>
      )}
    </aside>
  );
}
