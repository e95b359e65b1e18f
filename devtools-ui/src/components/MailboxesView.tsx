// Mailboxes view: every actor as a row (tree or flat), sortable by any column,
// filtered by the token language, virtualised, order frozen while hovered or
// while a row is selected.
import { Fragment } from 'preact';
import type { PanelStore } from '../store';
import type { MailboxRow, SortKey } from '../store/mailboxes';
import { localPath, nameOf } from '../paths';
import { DepthBar } from './DepthBar';
import { FilterBar } from './FilterBar';
import { FilteredList } from './FilteredList';
import { Icon } from './Icon';
import { Sparkline } from './Sparkline';
import { MailboxDetail } from './MailboxDetail';
import { ColumnChooser } from './ColumnChooser';
import { MAILBOX_COLUMNS, hiddenTracks, type MailboxColumn } from './columns';
import { memoRow } from './memoRow';

const ROW_HEIGHT = 26;

const SORTABLE: { key: SortKey; label: string; title: string }[] = [
  { key: 'path', label: 'Path', title: 'Actor path' },
  { key: 'className', label: 'Class', title: 'Actor class' },
  { key: 'mailboxKind', label: 'Kind', title: 'Mailbox kind' },
  { key: 'overflow', label: 'Policy', title: 'Overflow policy' },
  { key: 'userDepth', label: 'Depth', title: 'User messages waiting, against capacity' },
  { key: 'fill', label: 'Fill', title: 'Depth / capacity' },
  { key: 'systemDepth', label: 'Sys', title: 'System messages waiting' },
  { key: 'stashSize', label: 'Stash', title: 'Stashed messages' },
  { key: 'dropped', label: 'Dropped', title: 'Messages shed by the overflow policy (change since last sample)' },
  { key: 'suspended', label: 'State', title: 'Suspended mailboxes' },
  { key: 'processedRate', label: 'Msg/s', title: 'Messages processed per second' },
  { key: 'growth', label: 'Growth', title: 'Depth change per second' },
];

function fmtRate(v: number): string {
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}

function Row({ row, store, selected, tabStop }: { row: MailboxRow; store: PanelStore; selected: boolean; tabStop: boolean }) {
  const { emit } = store;
  const local = localPath(row.path);
  const letters = store.deadLetters.countByRecipient.value.get(local) ?? 0;
  const hidden = store.ui.hiddenColumns.value.mailboxes;
  // Each cell sits in its own column's track (mr-cN), so a hidden column moves nothing.
  // A plain function, not a component: a component made per render would remount every cell.
  const cell = (id: MailboxColumn, index: number) => {
    const at = { role: 'gridcell', 'aria-colindex': index } as const;
    const c = `mr-cell mr-c${index}`;
    switch (id) {
      case 'path':
        return (
          <span {...at} class={`${c} mr-path`} style={{ paddingLeft: `${6 + row.level * 14}px` }} title={local}>
            {store.mailboxes.mode.value === 'tree' ? nameOf(local) : local}
          </span>
        );
      case 'className':
        return <span {...at} class={`${c} mr-muted`} title={row.className}>{row.className || '—'}</span>;
      case 'mailboxKind':
        return <span {...at} class={c}><span class={`mr-kind mr-kind-${row.mailboxKind}`}>{row.mailboxKind}</span></span>;
      case 'overflow':
        return <span {...at} class={c}>{row.overflow ?? <span class="mr-muted">—</span>}</span>;
      case 'userDepth':
        return <span {...at} class={c} data-testid="mailbox-depth"><DepthBar depth={row.userDepth} capacity={row.capacity} /></span>;
      case 'fill':
        return <span {...at} class={`${c} mr-num`}>{row.fill === null ? '—' : `${Math.round(row.fill * 100)}%`}</span>;
      case 'systemDepth':
        return <span {...at} class={`${c} mr-num`}>{row.systemDepth}</span>;
      case 'stashSize':
        return <span {...at} class={`${c} mr-num`}>{row.stashSize}</span>;
      case 'dropped':
        return (
          <span {...at} class={`${c} mr-num`} data-testid="mailbox-dropped">
            {row.dropped}
            {row.droppedDelta > 0 && <span class="mr-delta"> +{row.droppedDelta}</span>}
          </span>
        );
      case 'suspended':
        return <span {...at} class={c}>{row.suspended ? <span class="mr-badge mr-badge-warn">suspended</span> : <span class="mr-muted">running</span>}</span>;
      case 'processedRate':
        return <span {...at} class={`${c} mr-num`}>{fmtRate(row.processedRate)}</span>;
      case 'growth':
        return <span {...at} class={`${c} mr-num${row.growth > 0 ? ' mr-up' : ''}`}>{row.growth > 0 ? '+' : ''}{fmtRate(row.growth)}</span>;
      case 'history':
        return <span {...at} class={`${c} mr-spark-cell`}><Sparkline values={row.history} /></span>;
      case 'links':
        return (
          <span {...at} class={c}>
            <button
              class="mr-link"
              data-testid="mailbox-to-dead-letters"
              title="Dead letters addressed to this actor"
              aria-label={`Dead letters addressed to ${local}`}
              onClick={(e) => {
                e.stopPropagation();
                emit({ type: 'link/dead-letters', path: row.path });
              }}
            >
              <Icon name="envelope" />
              {letters > 0 && (
                <span class="mr-count" data-testid="mailbox-letter-count" aria-label={`${letters} dead letters`}>
                  {letters.toLocaleString('en-US')}
                </span>
              )}
            </button>
          </span>
        );
    }
  };
  return (
    <div
      class={`mr-row mr-mb-grid${selected ? ' mr-selected' : ''}`}
      data-testid="mailbox-row"
      data-path={local}
      role="row"
      aria-selected={selected}
      tabIndex={tabStop ? 0 : -1}
      onClick={() => emit({ type: 'mailboxes/select', path: row.path })}
      onDblClick={() => emit({ type: 'link/dead-letters', path: row.path })}
    >
      {MAILBOX_COLUMNS.map((c, i) => (hidden.includes(c.id) ? null : <Fragment key={c.id}>{cell(c.id, i + 1)}</Fragment>))}
    </div>
  );
}

const MemoRow = memoRow(Row, 'row');

export function MailboxesView({ store }: { store: PanelStore }) {
  const { mailboxes, emit } = store;
  const rows = mailboxes.visible.value;
  const sort = mailboxes.sort.value;
  const selectedPath = mailboxes.selectedPath.value;
  const stale = mailboxes.orderStale.value;
  const holdReasons = mailboxes.holdReasons.value;
  const hidden = store.ui.hiddenColumns.value.mailboxes;
  return (
    <section class="mr-view" data-testid="mailboxes-view">
      <FilterBar
        store={store}
        value={mailboxes.filterText.value}
        placeholder="Filter: path:/user/** kind:bounded policy:drop-head dropped>0 suspended:true text"
        testId="mailbox-filter"
        errors={mailboxes.parsedFilter.value.errors}
        onInput={(text) => emit({ type: 'mailboxes/filter', text })}
      >
        <div class="mr-seg" role="group" aria-label="Layout">
          {(['tree', 'flat'] as const).map((m) => (
            <button
              key={m}
              class={mailboxes.mode.value === m ? 'mr-on' : ''}
              data-testid={`mailbox-mode-${m}`}
              onClick={() => emit({ type: 'mailboxes/mode', mode: m })}
            >
              {m}
            </button>
          ))}
        </div>
        <span class="mr-muted" data-testid="mailbox-count">
          {rows.length} of {mailboxes.rows.value.length} actors
        </span>
        {/* Fixed-width slots: hovering the list never reflows the toolbar above it. */}
        <span
          class={`mr-held mr-held-mb${holdReasons.length > 0 ? ' mr-on' : ''}`}
          data-testid="mailbox-held"
          data-held={holdReasons.length > 0 ? 'true' : 'false'}
          title={
            holdReasons.length > 0
              ? `Order held: ${holdReasons.map((r) => (r === 'pointer' ? 'pointer over the list' : r === 'focus' ? 'keyboard focus in the list' : 'row selected')).join(', ')}${selectedPath !== null ? '. Esc releases' : ''}. Rows keep their places so nothing moves under the pointer; sorting, filtering and the layout still apply.`
              : 'Live order: rows follow the sort'
          }
        >
          {holdReasons.length > 0 ? 'order held' : 'live order'}
        </span>
        <button
          class={`mr-btn mr-resort${stale ? '' : ' mr-slot-idle'}`}
          data-testid="mailbox-resort"
          disabled={!stale}
          aria-hidden={!stale}
          title="The rows moved out of sort order while held: sort them now"
          onClick={() => emit({ type: 'mailboxes/resort' })}
        >
          re-sort now
        </button>
        <ColumnChooser store={store} list="mailboxes" />
      </FilterBar>
      <div class="mr-split">
      <div class="mr-split-main">
      <div
        class="mr-mb-scroll"
        role="grid"
        aria-label="Mailboxes"
        aria-rowcount={rows.length}
        aria-colcount={MAILBOX_COLUMNS.length}
        data-testid="mailbox-grid"
        style={hiddenTracks('mailboxes', new Set(hidden))}
      >
      <div class="mr-mb-grid mr-head" role="row">
        {MAILBOX_COLUMNS.map((col, i) => {
          if (hidden.includes(col.id)) return null;
          const c = SORTABLE.find((x) => x.key === col.id);
          if (!c) {
            return (
              <span key={col.id} class={`mr-cell mr-c${i + 1}${col.id === 'history' ? ' mr-muted' : ''}`} role="columnheader" aria-colindex={i + 1} aria-label={col.id === 'links' ? 'Links' : undefined}>
                {col.id === 'history' ? col.label : ''}
              </span>
            );
          }
          const on = sort.key === c.key;
          // While held out of order the header says so: the arrow is the order asked for, not the one shown.
          const ariaSort = !on || stale ? 'none' : sort.dir === 'asc' ? 'ascending' : 'descending';
          return (
            <span key={c.key} role="columnheader" aria-colindex={i + 1} aria-sort={ariaSort} class={`mr-cell mr-colhead mr-c${i + 1}`}>
              <button
                class={`mr-sort${on ? ' mr-on' : ''}${on && stale ? ' mr-stale' : ''}`}
                title={on && stale ? `${c.title}. Order held: rows are not re-sorted while you look at them` : c.title}
                data-testid={`sort-${c.key}`}
                data-stale={on && stale ? 'true' : undefined}
                onClick={() => emit({ type: 'mailboxes/sort', key: c.key })}
              >
                {c.label}
                {on ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                {on && stale ? ' held' : ''}
              </button>
            </span>
          );
        })}
      </div>
      <FilteredList
        label="Mailboxes"
        items={rows}
        total={mailboxes.rows.value.length}
        emptyTestId="mailboxes-empty"
        emptyText="No actors yet."
        noMatchText="No actor matches the filter."
        rowHeight={ROW_HEIGHT}
        testId="mailbox-list"
        keyOf={(row) => row.path}
        selectedKey={selectedPath}
        onMouseEnter={() => emit({ type: 'mailboxes/freeze', on: true })}
        onMouseLeave={() => emit({ type: 'mailboxes/freeze', on: false })}
        onFocusChange={(on) => emit({ type: 'mailboxes/focus', on })}
        renderRow={(row, selected, tabStop) => <MemoRow row={row} store={store} selected={selected} tabStop={tabStop} />}
      />
      </div>
      </div>
      {selectedPath !== null && <MailboxDetail store={store} path={selectedPath} />}
      </div>
    </section>
  );
}
