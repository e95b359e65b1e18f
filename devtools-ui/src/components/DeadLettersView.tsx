// Dead-letter inspector: store state first, then summary, filters, arrival
// histogram, the virtualised newest-first list and the detail pane.
import { useState } from 'preact/hooks';
import type { PanelStore } from '../store';
import type { HoldReason } from '../store/letterHold';
import { causeOf, WINDOW_MINUTES, type DeadLetterView } from '../store/deadLetters';
import { causeLabel, CAUSE_HELP } from './causes';
import { localPath } from '../paths';
import { DeadLetterDetail } from './DeadLetterDetail';
import { FilterBar } from './FilterBar';
import { FilteredList } from './FilteredList';
import { Histogram } from './Histogram';
import { ColumnChooser } from './ColumnChooser';
import { DEAD_LETTER_COLUMNS, hiddenTracks, type DeadLetterColumn } from './columns';
import { Icon } from './Icon';
import { formatAgo, formatClock } from './format';
import type { CopyFn } from './JsonTree';
import { memoRow } from './memoRow';

const ROW_HEIGHT = 26;
const LIMITS = [null, 20, 100, 1000] as const;

function StoreOffState({ store }: { store: 'off' | 'metrics' }) {
  return (
    <div class="mr-empty mr-empty-state" data-testid="dl-store-off">
      <h3>{store === 'off' ? 'The dead-letter queue is off' : 'The dead-letter queue only counts'}</h3>
      <p>
        {store === 'off'
          ? 'This system keeps no dead letters (store "off", the default). They are still published on the event stream, but nothing is kept to inspect or replay.'
          : 'Store "metrics" counts dead letters in actor_dead_letters_total (see the Metrics tab) but keeps no payloads, so there is nothing to list or replay.'}
      </p>
      <p>Turn it on when you create the system:</p>
      <pre class="mr-code">{`ActorSystem.create('app', ActorSystemOptions.create()
  .withDeadLetters(DeadLetterQueueOptions.create()
    .withStore('memory')        // or 'persistent' to survive restarts
    .withMaxEntries(1_000)
    .withMaxReplays(3)));`}</pre>
      <p class="mr-muted">or in HOCON: mailroom.dead-letters {'{'} store = "memory", max-entries = 1000 {'}'}</p>
    </div>
  );
}

const HOLD_TEXT: Record<HoldReason, string> = {
  pointer: 'pointer over the list',
  focus: 'keyboard focus in the list',
  selection: 'a letter is selected',
  scrolled: 'scrolled down',
};

function Row({ entry, store, selected, tabStop }: { entry: DeadLetterView; store: PanelStore; selected: boolean; tabStop: boolean }) {
  const { deadLetters, emit } = store;
  const checked = store.bulk.checked.value.has(entry.id);
  // Grouped by cause: the first row of each group carries the group's count.
  const group = deadLetters.groupStarts.value.get(entry.id);
  const time =
    deadLetters.timeMode.value === 'absolute' ? formatClock(entry.timestampMs) : formatAgo(entry.timestampMs, deadLetters.now.value);
  const hidden = store.ui.hiddenColumns.value.deadLetters;
  const show = (id: DeadLetterColumn) => !hidden.includes(id);
  return (
    <div
      class={`mr-row mr-dl-grid${selected ? ' mr-selected' : ''}${checked ? ' mr-checked' : ''}`}
      role="row"
      aria-selected={selected}
      tabIndex={tabStop ? 0 : -1}
      data-testid="dl-row"
      data-id={entry.id}
      data-checked={checked ? 'true' : 'false'}
      onMouseDown={(e) => {
        // Shift+click checks a range: keep the browser from selecting the text between.
        if (e.shiftKey) e.preventDefault();
      }}
      onClick={(e) => {
        if ((e.target as HTMLElement).closest('input')) return;
        emit({ type: 'bulk/click', id: entry.id, mode: e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'only' });
      }}
    >
      {show('id') && (
        <span class="mr-cell mr-num mr-muted mr-id mr-c1" role="gridcell" aria-colindex={1}>
          <input
            type="checkbox"
            class="mr-check"
            tabIndex={-1}
            checked={checked}
            aria-label={`Check #${entry.id} for a bulk action`}
            data-testid="dl-check"
            onClick={(e) => emit({ type: 'bulk/click', id: entry.id, mode: (e as MouseEvent).shiftKey ? 'range' : 'toggle' })}
          />
          #{entry.id}
        </span>
      )}
      {show('time') && (
        <span class="mr-cell mr-num mr-c2" role="gridcell" aria-colindex={2} title={new Date(entry.timestampMs).toISOString()}>
          {time}
        </span>
      )}
      {show('type') && (
        <span class="mr-cell mr-type mr-c3" role="gridcell" aria-colindex={3} title={entry.type}>
          {entry.type}
        </span>
      )}
      {show('cause') && (
        <span
          class={`mr-cell mr-cause mr-cause-${causeOf(entry)} mr-c4`}
          role="gridcell"
          aria-colindex={4}
          data-testid="dl-cause"
          title={CAUSE_HELP[causeOf(entry)] ?? causeOf(entry)}
        >
          {group && (
            <b class="mr-group-count" data-testid="dl-group-count" title={`${group.count} ${group.cause} letters in this group`}>
              {group.count.toLocaleString('en-US')}
            </b>
          )}
          {causeLabel(entry)}
        </span>
      )}
      <span class="mr-cell mr-path mr-c5" role="gridcell" aria-colindex={5} title={entry.recipientPath}>
        {localPath(entry.recipientPath)}
      </span>
      {show('sender') && (
        <span class="mr-cell mr-path mr-muted mr-c6" role="gridcell" aria-colindex={6}>
          {entry.senderPath ? localPath(entry.senderPath) : '—'}
        </span>
      )}
      {show('replays') && (
        <span class="mr-cell mr-num mr-c7" role="gridcell" aria-colindex={7} data-testid="dl-replays">
          {entry.replayCount}
        </span>
      )}
      {show('state') && (
        <span class="mr-cell mr-c8" role="gridcell" aria-colindex={8}>
          {entry.quarantined && <span class="mr-badge mr-badge-bad" data-testid="dl-quarantined">quarantined</span>}
          {entry.payload.kind === 'degraded' && <span class="mr-badge">degraded</span>}
        </span>
      )}
    </div>
  );
}

/** Appears once letters are checked: what to do with all of them, behind one confirmation. */
function BulkBar({ store }: { store: PanelStore }) {
  const { bulk, deadLetters: dl, emit } = store;
  const count = bulk.checkedHeld.value.length;
  if (count === 0) return null;
  const matching = dl.visible.value.length;
  // The core's answer may hold more pages than are loaded: "all" is what is loaded, and says so.
  const more = dl.queryState.value === 'done' && dl.served.value?.more === true;
  const off = store.writeBlocked.value;
  return (
    <div class="mr-bulk-bar" role="toolbar" aria-label="Bulk actions" data-testid="dl-bulk-bar">
      <b data-testid="dl-checked-count">{count.toLocaleString('en-US')}</b> checked
      {count < matching && (
        <button class="mr-link" data-testid="dl-check-matching" onClick={() => emit({ type: 'bulk/all' })}>
          check all {matching.toLocaleString('en-US')} {more ? 'loaded' : 'matching'}
        </button>
      )}
      <button class="mr-btn mr-primary" data-testid="bulk-replay" disabled={off !== null} title={off ?? 'Replay each to its recorded recipient'} onClick={() => emit({ type: 'bulk/prepare', action: 'replay' })}>
        Replay
      </button>
      <button class="mr-btn" data-testid="bulk-redirect" disabled={off !== null} title={off ?? 'Replay all to one other path'} onClick={() => emit({ type: 'bulk/prepare', action: 'redirect' })}>
        Replay to path…
      </button>
      <button class="mr-btn mr-danger" data-testid="bulk-purge" disabled={off !== null} title={off ?? 'Remove them from the queue for good (journaled)'} onClick={() => emit({ type: 'bulk/prepare', action: 'purge' })}>
        Purge
      </button>
      <button class="mr-link" data-testid="bulk-clear" title="Uncheck all (Esc)" onClick={() => emit({ type: 'bulk/clear' })}>
        uncheck
      </button>
      {off && <span class="mr-muted" data-testid="bulk-off">{off}</span>}
    </div>
  );
}

const MemoRow = memoRow(Row, 'entry');

export function DeadLettersView({ store, onCopy }: { store: PanelStore; onCopy: CopyFn }) {
  const { deadLetters: dl, letterHold: hold, emit } = store;
  const [scrollTick, setScrollTick] = useState(0);
  const settings = dl.settings.value;
  if (settings && (settings.store === 'off' || settings.store === 'metrics')) return <StoreOffState store={settings.store} />;
  const list = hold.shown.value;
  const pending = hold.pending.value;
  const reasons = hold.reasons.value;
  const timeWindow = dl.timeWindow.value;
  const histogram = dl.histogram.value;
  const search = dl.search.value.trim();
  // The core answers the recipient and text filters (deadLetters.list), page by page.
  const queryState = dl.queryState.value;
  const served = dl.served.value;
  const more = queryState === 'done' && served !== null && served.more;
  const searching = queryState === 'pending' && served !== null && served.key === dl.queryKey.value && served.searching;
  const selectedId = dl.selectedId.value;
  const checkedCount = store.bulk.checkedHeld.value.length;
  const byCause = dl.order.value === 'cause';
  const hiddenCols = store.ui.hiddenColumns.value.deadLetters;
  const show = (id: DeadLetterColumn) => !hiddenCols.includes(id);
  return (
    <section class="mr-view mr-dl" data-testid="dead-letters-view">
      <FilterBar
        store={store}
        value={dl.recipient.value}
        placeholder="Recipient subtree, e.g. /user/checkout"
        testId="dl-recipient"
        onInput={(recipient) => emit({ type: 'dead-letters/filter', recipient })}
      >
        <input
          class="mr-filter"
          type="search"
          placeholder="Search payloads"
          value={dl.search.value}
          data-testid="dl-search"
          onInput={(e) => emit({ type: 'dead-letters/filter', search: (e.currentTarget as HTMLInputElement).value })}
        />
        {search !== '' && (
          <span class="mr-muted" data-testid="dl-match-count">
            {dl.matching.value.length}
            {more ? '+' : ''} match{dl.matching.value.length === 1 && !more ? '' : 'es'}
          </span>
        )}
        <div class="mr-seg" role="group" aria-label="Time window">
          <button class={timeWindow.kind === 'all' ? 'mr-on' : ''} onClick={() => emit({ type: 'dead-letters/filter', window: { kind: 'all' } })}>
            all
          </button>
          {WINDOW_MINUTES.map((m) => (
            <button
              key={m}
              data-testid={`dl-window-${m}`}
              class={timeWindow.kind === 'last' && timeWindow.minutes === m ? 'mr-on' : ''}
              onClick={() => emit({ type: 'dead-letters/filter', window: { kind: 'last', minutes: m } })}
            >
              {m}m
            </button>
          ))}
          {timeWindow.kind === 'range' && (
            <button class="mr-on" data-testid="dl-window-clear" title="Clear the range picked on the histogram" onClick={() => emit({ type: 'dead-letters/filter', window: { kind: 'all' } })}>
              range
              <Icon name="close" />
            </button>
          )}
        </div>
        <label class="mr-muted">
          limit{' '}
          <select
            data-testid="dl-limit"
            value={String(dl.limit.value ?? '')}
            onChange={(e) => {
              const v = (e.currentTarget as HTMLSelectElement).value;
              emit({ type: 'dead-letters/filter', limit: v === '' ? null : Number(v) });
            }}
          >
            {LIMITS.map((l) => (
              <option key={String(l)} value={l === null ? '' : String(l)}>
                {l === null ? 'none' : l}
              </option>
            ))}
          </select>
        </label>
        <button
          class="mr-btn"
          data-testid="dl-time-mode"
          onClick={() => emit({ type: 'dead-letters/time-mode', mode: dl.timeMode.value === 'absolute' ? 'relative' : 'absolute' })}
        >
          {dl.timeMode.value === 'absolute' ? 'clock time' : 'relative time'}
        </button>
        <ColumnChooser store={store} list="deadLetters" />
      </FilterBar>
      <div class="mr-summary" data-testid="dl-summary">
        <span>
          <b data-testid="dl-shown">{list.length}</b> shown
        </span>
        {queryState !== null && (
          <span class="mr-query" data-testid="dl-query" data-state={queryState} aria-live="polite">
            {queryState === 'pending'
              ? searching
                ? ` · searching the queue… (${served!.entries.length.toLocaleString('en-US')} found so far)`
                : ' · asking the queue…'
              : queryState === 'error'
                ? ` · the queue could not answer (${served?.error})`
                : more
                  ? ' · more match in the queue'
                  : ' · all matches'}
            {more && queryState === 'done' && (
              <button class="mr-link" data-testid="dl-more" onClick={() => emit({ type: 'dead-letters/more' })}>
                load more
              </button>
            )}
          </span>
        )}
        {/* A fixed-width slot: the state changing never reflows the bar (a press would land elsewhere). */}
        <span
          class={`mr-held mr-held-dl${hold.held.value ? ' mr-on' : ''}`}
          data-testid="dl-held"
          data-held={hold.held.value ? 'true' : 'false'}
          title={hold.held.value ? `Held: ${reasons.map((r) => HOLD_TEXT[r]).join(', ')}. New letters wait behind the pill.` : 'Live: new letters appear at the top'}
        >
          {hold.held.value ? 'held' : 'live'}
        </span>
        <span>
          · <b>{dl.entries.value.length}</b> kept of {settings ? settings.maxEntries.toLocaleString('en-US') : '?'}
        </span>
        <span>
          · <b>{dl.evicted.value}</b> evicted since opened
        </span>
        {settings && <span class="mr-muted"> · store {settings.store} · max {settings.maxReplays} replays</span>}
        <span class="mr-causes" role="group" aria-label="Filter by cause" data-testid="dl-causes">
          {dl.causeCounts.value.map(([c, n]) => (
            <button
              key={c}
              class={`mr-chip${dl.cause.value === c ? ' mr-on' : ''}`}
              aria-pressed={dl.cause.value === c}
              data-testid={`dl-cause-${c}`}
              title={`${CAUSE_HELP[c] ?? c}. Click to show only these (again: all).`}
              onClick={() => emit({ type: 'dead-letters/filter', cause: dl.cause.value === c ? null : c })}
            >
              {c} <b>{n.toLocaleString('en-US')}</b>
            </button>
          ))}
        </span>
        <Histogram
          counts={histogram.counts}
          fromMs={histogram.fromMs}
          toMs={histogram.toMs}
          selected={timeWindow.kind === 'range' ? timeWindow : null}
          onBrush={(r) => emit({ type: 'dead-letters/filter', window: { kind: 'range', ...r } })}
        />
      </div>
      <BulkBar store={store} />
      <div class="mr-split">
        <div
          class="mr-split-main"
          role="grid"
          aria-label={byCause ? 'Dead letters, grouped by cause' : 'Dead letters, newest first'}
          aria-rowcount={list.length}
          aria-colcount={DEAD_LETTER_COLUMNS.length}
          aria-multiselectable="true"
          data-testid="dl-grid"
          style={hiddenTracks('deadLetters', new Set(hiddenCols))}
        >
          <div class="mr-dl-grid mr-head" role="row">
            {show('id') && (
              <span class="mr-cell mr-id mr-c1" role="columnheader" aria-colindex={1}>
                <input
                  type="checkbox"
                  class="mr-check"
                  data-testid="dl-check-all"
                  aria-label="Check every letter matching the filters"
                  title="Check every letter matching the filters (again: none)"
                  checked={checkedCount > 0 && checkedCount >= dl.visible.value.length}
                  onClick={() => emit({ type: checkedCount > 0 && checkedCount >= dl.visible.value.length ? 'bulk/clear' : 'bulk/all' })}
                />
                Id
              </span>
            )}
            {show('time') && (
              <span class="mr-cell mr-colhead mr-c2" role="columnheader" aria-colindex={2} aria-sort={byCause ? 'none' : 'descending'}>
                <button
                  class={`mr-sort${byCause ? '' : ' mr-on'}`}
                  data-testid="dl-sort-time"
                  title="Newest first"
                  onClick={() => emit({ type: 'dead-letters/order', order: 'time' })}
                >
                  Time{byCause ? '' : ' ▼'}
                </button>
              </span>
            )}
            {show('type') && (
              <span class="mr-cell mr-c3" role="columnheader" aria-colindex={3}>
                Type
              </span>
            )}
            {show('cause') && (
              <span class="mr-cell mr-colhead mr-c4" role="columnheader" aria-colindex={4} aria-sort={byCause ? 'other' : 'none'}>
                <button
                  class={`mr-sort${byCause ? ' mr-on' : ''}`}
                  data-testid="dl-sort-cause"
                  title="Group by cause: the largest group first, newest first within each (the count heads each group)"
                  onClick={() => emit({ type: 'dead-letters/order', order: byCause ? 'time' : 'cause' })}
                >
                  Cause{byCause ? ' ▤' : ''}
                </button>
              </span>
            )}
            <span class="mr-cell mr-c5" role="columnheader" aria-colindex={5}>
              Recipient
            </span>
            {show('sender') && (
              <span class="mr-cell mr-c6" role="columnheader" aria-colindex={6}>
                Sender
              </span>
            )}
            {show('replays') && (
              <span class="mr-cell mr-c7" role="columnheader" aria-colindex={7}>
                Replays
              </span>
            )}
            {show('state') && (
              <span class="mr-cell mr-c8" role="columnheader" aria-colindex={8}>
                State
              </span>
            )}
          </div>
          {/* The pill sits inside the hover area: reaching for it must not release the hold. */}
          <div
            class="mr-grid-area"
            data-testid="dl-list-area"
            onMouseEnter={() => emit({ type: 'dead-letters/hold', reason: 'pointer', on: true })}
            onMouseLeave={() => emit({ type: 'dead-letters/hold', reason: 'pointer', on: false })}
          >
          {pending > 0 && (
            <button
              class="mr-pill"
              data-testid="dl-new-pill"
              title="New letters wait here while you look at the list; click to show them"
              onClick={() => {
                emit({ type: 'dead-letters/release' });
                setScrollTick((t) => t + 1);
              }}
            >
              {pending.toLocaleString('en-US')} new ▲
            </button>
          )}
          <FilteredList
            label="Dead letters"
            scrollToTop={scrollTick}
            onScrolledAway={(away) => emit({ type: 'dead-letters/hold', reason: 'scrolled', on: away })}
            onFocusChange={(on) => emit({ type: 'dead-letters/hold', reason: 'focus', on })}
            items={list}
            total={dl.entries.value.length}
            emptyTestId="dl-empty"
            emptyText="No dead letters kept yet."
            noMatchText={
              queryState === 'pending'
                ? 'Asking the queue for the letters these filters match…'
                : queryState === 'error'
                  ? `The queue could not answer these filters (${served?.error}).`
                  : 'No dead letter matches the filters.'
            }
            rowHeight={ROW_HEIGHT}
            testId="dl-list"
            keyOf={(entry) => entry.id}
            selectedKey={selectedId}
            renderRow={(entry, selected, tabStop) => <MemoRow entry={entry} store={store} selected={selected} tabStop={tabStop} />}
          />
          </div>
        </div>
        {dl.detailOpen.value && selectedId !== null && <DeadLetterDetail store={store} id={selectedId} onCopy={onCopy} />}
      </div>
    </section>
  );
}
