// A filtered list: its virtualised rows, or why there are none (nothing yet,
// or nothing passes the filters). Rows are keyed by item, so a row element
// always shows the same item while it exists; the selected row is marked here.
import { Fragment, type ComponentChildren } from 'preact';
import { VirtualList, type VirtualListProps } from './VirtualList';

export interface FilteredListProps<T> extends Omit<VirtualListProps<T>, 'renderRow' | 'selectedIndex' | 'empty'> {
  /** How many items there are before filtering. */
  total: number;
  emptyTestId: string;
  /** Shown when there is nothing at all. */
  emptyText: string;
  /** Shown when there are items but the filters hide every one. */
  noMatchText: string;
  keyOf: (item: T) => string;
  /** The selected item's key, kept in view when it changes. */
  selectedKey: string | null;
  renderRow: (item: T, selected: boolean) => ComponentChildren;
}

export function FilteredList<T>(props: FilteredListProps<T>) {
  const { total, emptyTestId, emptyText, noMatchText, keyOf, selectedKey, renderRow, ...list } = props;
  // Without a selection there is nothing to find: no scan of a long list.
  const selectedIndex = selectedKey === null ? -1 : list.items.findIndex((item) => keyOf(item) === selectedKey);
  return (
    <VirtualList
      {...list}
      selectedIndex={selectedIndex}
      renderRow={(item) => {
        const key = keyOf(item);
        return <Fragment key={key}>{renderRow(item, key === selectedKey)}</Fragment>;
      }}
      empty={
        <div class="mr-empty" data-testid={emptyTestId}>
          {total === 0 ? emptyText : noMatchText}
        </div>
      }
    />
  );
}
