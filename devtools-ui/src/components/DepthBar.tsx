// Depth against capacity; the bar turns to the warning colour above 85% full.
import { WARN_FILL } from '../store/mailboxes';

export function DepthBar({ depth, capacity }: { depth: number; capacity: number | null }) {
  if (capacity === null) {
    return (
      <span class="mr-depth" title="unbounded">
        <span class="mr-depth-num">{depth}</span>
        <span class="mr-muted"> / ∞</span>
      </span>
    );
  }
  const fill = capacity > 0 ? depth / capacity : 0;
  const warn = fill > WARN_FILL;
  return (
    <span class={`mr-depth${warn ? ' mr-warn' : ''}`} title={`${Math.round(fill * 100)}% full`} data-warn={warn}>
      <span class="mr-bar">
        <span class="mr-bar-fill" style={{ width: `${Math.min(100, fill * 100)}%` }} />
      </span>
      <span class="mr-depth-num">{depth}</span>
      <span class="mr-muted"> / {capacity}</span>
    </span>
  );
}
