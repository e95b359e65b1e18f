// A filtered list: its virtualised rows, or why there are none (nothing yet,
// or nothing passes the filters). A row element shows the same item while that
// item stays in view (VirtualList's pool), and the selected item's element is
// never handed to another; the selected row is marked here.
// One row is the list's tab stop (roving tab index: the selected one, else the
// first); when the selection moves while focus is in the list, focus follows.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { VirtualList, type VirtualListProps } from './VirtualList';

export interface FilteredListProps<T> extends Omit<VirtualListProps<T>, 'renderRow' | 'selectedIndex' | 'empty' | 'keyOf' | 'pinnedKey'> {
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
  /** `tabStop`: give the row tabIndex 0 (else -1). */
  renderRow: (item: T, selected: boolean, tabStop: boolean) => ComponentChildren;
  /** Accessible name of the grid. */
  label: string;
  /** Told when keyboard focus enters (true) or leaves (false) the list. */
  onFocusChange?: (inside: boolean) => void;
}

export function FilteredList<T>(props: FilteredListProps<T>) {
  const { total, emptyTestId, emptyText, noMatchText, keyOf, selectedKey, renderRow, label, onFocusChange, ...list } = props;
  const box = useRef<HTMLDivElement>(null);
  // Without a selection there is nothing to find: no scan of a long list.
  const selectedIndex = selectedKey === null ? -1 : list.items.findIndex((item) => keyOf(item) === selectedKey);
  const focusWanted = useRef<string | null>(null);
  const lastKey = useRef(selectedKey);
  if (lastKey.current !== selectedKey) {
    lastKey.current = selectedKey;
    const active = typeof document === 'undefined' ? null : document.activeElement;
    if (selectedKey !== null && active && box.current?.contains(active)) focusWanted.current = selectedKey;
  }
  // After each render: the wanted row may only exist once the list has scrolled to it.
  useEffect(() => {
    if (focusWanted.current === null) return;
    const row = box.current?.querySelector<HTMLElement>('[role=row][aria-selected=true]');
    if (row) {
      focusWanted.current = null;
      if (document.activeElement !== row) row.focus();
    }
  });
  return (
    <div
      class="mr-grid-body"
      ref={box}
      role="rowgroup"
      aria-label={label}
      onFocusIn={() => onFocusChange?.(true)}
      onFocusOut={(e) => {
        const next = (e as FocusEvent).relatedTarget as Node | null;
        if (!next || !box.current?.contains(next)) onFocusChange?.(false);
      }}
    >
      <VirtualList
        {...list}
        selectedIndex={selectedIndex}
        keyOf={keyOf}
        pinnedKey={selectedKey}
        renderRow={(item, index) => {
          const selected = keyOf(item) === selectedKey;
          return renderRow(item, selected, selected || (selectedIndex < 0 && index === 0));
        }}
        empty={
          <div class="mr-empty" data-testid={emptyTestId}>
            {total === 0 ? emptyText : noMatchText}
          </div>
        }
      />
    </div>
  );
}
