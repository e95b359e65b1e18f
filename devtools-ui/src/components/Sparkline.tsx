// Depth over the last samples as a tiny SVG line; scale is per row.
export function Sparkline({ values, width = 90, height = 18 }: { values: readonly number[]; width?: number; height?: number }) {
  if (values.length < 2) return <svg class="mr-spark" width={width} height={height} aria-hidden="true" />;
  const max = Math.max(1, ...values);
  const step = width / (values.length - 1);
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 1 - (v / max) * (height - 2)).toFixed(1)}`).join(' ');
  return (
    <svg class="mr-spark" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.2" />
    </svg>
  );
}
