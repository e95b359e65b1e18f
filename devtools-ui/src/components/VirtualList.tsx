// Fixed-height row virtualisation: only the rows in view (plus a margin) exist
// in the DOM, so 100,000 entries cost as much as a screenful.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  /** Each row carries its own key. */
  renderRow: (item: T, index: number) => ComponentChildren;
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
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) rows.push(renderRow(items[i], i));

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
