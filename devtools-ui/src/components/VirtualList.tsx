// Fixed-height row virtualisation: only the rows in view (plus a margin) exist
// in the DOM, so 100,000 entries cost as much as a screenful. The row elements
// are a pool: an item keeps its element while it stays in the window, and the
// element of an item that left is reused for one that arrived (a filter
// keystroke patches text instead of building a screen of new rows).
import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  renderRow: (item: T, index: number) => ComponentChildren;
  /** The item's identity: which pooled element shows it. */
  keyOf: (item: T) => string;
  /** An item whose element is never handed to another item (the selected row: focus stays with it). */
  pinnedKey?: string | null;
  /** Kept in view when it changes (keyboard navigation). */
  selectedIndex?: number;
  testId?: string;
  /** Shown inside the list while it has no items: the list stays mounted and measured. */
  empty?: ComponentChildren;
  onMouseEnter?: () => void;
  onMouseLeave?: () => void;
  /** Told when the list leaves (true) or returns to (false) its top. */
  onScrolledAway?: (away: boolean) => void;
  /** Each new value scrolls the list back to its top. */
  scrollToTop?: number;
}

const OVERSCAN = 4;

/**
 * Slot numbers for the window's items: the ones already shown keep theirs, the
 * newcomers take the slots freed by the ones that left (in order), else new ones.
 */
export function assignSlots(previous: ReadonlyMap<string, number>, keys: readonly string[], pinned: string | null, next: { n: number }): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) {
    const slot = previous.get(k);
    if (slot !== undefined) out.set(k, slot);
  }
  const free: number[] = [];
  for (const [k, slot] of previous) if (!out.has(k) && k !== pinned) free.push(slot);
  free.sort((a, b) => a - b);
  let f = 0;
  for (const k of keys) if (!out.has(k)) out.set(k, f < free.length ? free[f++] : next.n++);
  return out;
}
/** Used before layout (and in DOMs without layout, e.g. tests). */
const FALLBACK_HEIGHT = 480;

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { items, rowHeight, renderRow, selectedIndex = -1 } = props;
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(FALLBACK_HEIGHT);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (typeof ResizeObserver === 'undefined') {
      setHeight(el.clientHeight || FALLBACK_HEIGHT);
      return;
    }
    // The observer reports the height once layout has run (first right after mounting):
    // reading clientHeight here would force an extra layout on every mount.
    const ro = new ResizeObserver((records) => setHeight(records[records.length - 1].contentRect.height || FALLBACK_HEIGHT));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el || selectedIndex < 0) return;
    const top = selectedIndex * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + height) el.scrollTop = top + rowHeight - height;
  }, [selectedIndex, rowHeight, height]);

  const away = useRef(false);
  const onScroll = (e: Event) => {
    const top = (e.currentTarget as HTMLDivElement).scrollTop;
    setScrollTop(top);
    if (top > 0 !== away.current) {
      away.current = top > 0;
      props.onScrolledAway?.(away.current);
    }
  };
  const resetTick = useRef(props.scrollToTop);
  useEffect(() => {
    if (props.scrollToTop === resetTick.current) return;
    resetTick.current = props.scrollToTop;
    if (ref.current) ref.current.scrollTop = 0;
    setScrollTop(0);
    if (away.current) {
      away.current = false;
      props.onScrolledAway?.(false);
    }
  }, [props.scrollToTop]);

  const total = items.length;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(total, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const keys: string[] = [];
  for (let i = first; i < last; i++) keys.push(props.keyOf(items[i]));
  const slots = useRef(new Map<string, number>());
  const nextSlot = useRef({ n: 0 });
  slots.current = assignSlots(slots.current, keys, props.pinnedKey ?? null, nextSlot.current);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) rows.push(<Fragment key={slots.current.get(keys[i - first])}>{renderRow(items[i], i)}</Fragment>);

  return (
    <div
      class="mr-vlist"
      ref={ref}
      data-testid={props.testId}
      data-total={total}
      onScroll={onScroll}
      onMouseEnter={props.onMouseEnter}
      onMouseLeave={props.onMouseLeave}
    >
      {total === 0 && props.empty !== undefined ? (
        props.empty
      ) : (
        <div style={{ height: `${total * rowHeight}px`, position: 'relative' }}>
          <div style={{ transform: `translateY(${first * rowHeight}px)` }}>{rows}</div>
        </div>
      )}
    </div>
  );
}
