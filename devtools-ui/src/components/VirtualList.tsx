// Fixed-height row virtualisation: only the rows in view (plus a margin) exist
// in the DOM, so 100,000 entries cost as much as a screenful.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface VirtualListProps<T> {
  items: readonly T[];
  rowHeight: number;
  renderRow: (item: T, index: number) => ComponentChildren;
  /** Kept in view when it changes (keyboard navigation). */
  selectedIndex?: number;
  testId?: string;
  onMouseEnter?: () => void;
  onMouseLeave?: () => void;
}

const OVERSCAN = 8;
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
    const measure = () => setHeight(el.clientHeight || FALLBACK_HEIGHT);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
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
      onScroll={(e) => setScrollTop((e.currentTarget as HTMLDivElement).scrollTop)}
      onMouseEnter={props.onMouseEnter}
      onMouseLeave={props.onMouseLeave}
    >
      <div style={{ height: `${total * rowHeight}px`, position: 'relative' }}>
        <div style={{ transform: `translateY(${first * rowHeight}px)` }}>{rows}</div>
      </div>
    </div>
  );
}
