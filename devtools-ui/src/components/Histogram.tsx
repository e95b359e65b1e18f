// Arrivals over time as small bars; drag (or click) across bars to pick a time range.
import { useState } from 'preact/hooks';

export interface HistogramProps {
  counts: readonly number[];
  fromMs: number;
  toMs: number;
  selected: { fromMs: number; toMs: number } | null;
  onBrush: (range: { fromMs: number; toMs: number }) => void;
}

export function Histogram({ counts, fromMs, toMs, selected, onBrush }: HistogramProps) {
  const [anchor, setAnchor] = useState<number | null>(null);
  const [hover, setHover] = useState<number | null>(null);
  const max = Math.max(1, ...counts);
  const width = (toMs - fromMs) / counts.length;
  const bucketRange = (a: number, b: number) => ({
    fromMs: fromMs + Math.min(a, b) * width,
    toMs: fromMs + (Math.max(a, b) + 1) * width,
  });
  const inBrush = (i: number) => {
    if (anchor !== null && hover !== null) return i >= Math.min(anchor, hover) && i <= Math.max(anchor, hover);
    if (!selected) return false;
    const t = fromMs + (i + 0.5) * width;
    return t >= selected.fromMs && t <= selected.toMs;
  };
  return (
    <div class="mr-histo" data-testid="dl-histogram" title="Drag across bars to filter by arrival time" onMouseLeave={() => setAnchor(null)}>
      {counts.map((c, i) => (
        <span
          key={i}
          class={`mr-histo-bar${inBrush(i) ? ' mr-on' : ''}`}
          data-testid="dl-histogram-bar"
          title={`${c} letter${c === 1 ? '' : 's'}`}
          onMouseDown={() => {
            setAnchor(i);
            setHover(i);
          }}
          onMouseEnter={() => setHover(i)}
          onMouseUp={() => {
            onBrush(bucketRange(anchor ?? i, i));
            setAnchor(null);
          }}
        >
          <span style={{ height: `${(c / max) * 100}%` }} />
        </span>
      ))}
    </div>
  );
}
