// Metrics view: the Prometheus counters as a table, the dead-letter capture
// rate over the last samples, and mailbox drops per policy.
import type { PanelStore } from '../store';
import type { RatePoint } from '../store/metrics';
import { formatNumber } from './format';

function RateChart({ points }: { points: readonly RatePoint[] }) {
  const width = 360;
  const height = 80;
  if (points.length < 2) return <p class="mr-muted">Collecting samples…</p>;
  const max = Math.max(1, ...points.map((p) => p.perSecond));
  const step = width / (points.length - 1);
  const line = points.map((p, i) => `${(i * step).toFixed(1)},${(height - (p.perSecond / max) * (height - 4)).toFixed(1)}`).join(' ');
  const last = points[points.length - 1].perSecond;
  return (
    <figure class="mr-chart" data-testid="metrics-rate-chart">
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label="Dead letters per second">
        <polyline points={`0,${height} ${line} ${width},${height}`} class="mr-chart-area" />
        <polyline points={line} class="mr-chart-line" fill="none" />
      </svg>
      <figcaption>
        now <b>{formatNumber(last)}</b>/s · peak {formatNumber(max)}/s · last {points.length} samples
      </figcaption>
    </figure>
  );
}

function Bars({ data, testId }: { data: ReadonlyMap<string, number>; testId: string }) {
  const entries = [...data.entries()];
  if (entries.length === 0) return <p class="mr-muted" data-testid={testId}>None yet.</p>;
  const max = Math.max(1, ...entries.map(([, v]) => v));
  return (
    <table class="mr-bars" data-testid={testId}>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th>{k || '—'}</th>
            <td class="mr-bar-cell">
              <span class="mr-bar">
                <span class="mr-bar-fill" style={{ width: `${(v / max) * 100}%` }} />
              </span>
            </td>
            <td class="mr-num">{formatNumber(v)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function MetricsView({ store }: { store: PanelStore }) {
  const { metrics } = store;
  const families = metrics.families.value;
  const counters = families.filter((f) => f.type === 'counter');
  const gauges = families.filter((f) => f.type !== 'counter');
  return (
    <section class="mr-view mr-metrics" data-testid="metrics-view">
      <div class="mr-metrics-grid">
        <div class="mr-card">
          <h3>Dead letters per second</h3>
          <RateChart points={metrics.deadLetterRate.value} />
          <Bars data={metrics.deadLettersByOutcome.value} testId="metrics-dl-outcomes" />
        </div>
        <div class="mr-card">
          <h3>Mailbox drops per policy</h3>
          <Bars data={metrics.dropsPerPolicy.value} testId="metrics-drops-per-policy" />
        </div>
      </div>
      <div class="mr-card">
        <h3>Counters</h3>
        {counters.length === 0 ? (
          <p class="mr-muted">No counters in the scrape (metrics may be turned off).</p>
        ) : (
          <table class="mr-table" data-testid="metrics-table">
            <thead>
              <tr>
                <th>metric</th>
                <th>labels</th>
                <th class="mr-num">value</th>
              </tr>
            </thead>
            <tbody>
              {counters.flatMap((f) =>
                f.samples.map((s, i) => (
                  <tr key={`${f.name}:${i}`} title={f.help}>
                    <td>{s.name}</td>
                    <td class="mr-muted">
                      {Object.entries(s.labels)
                        .map(([k, v]) => `${k}="${v}"`)
                        .join(', ')}
                    </td>
                    <td class="mr-num">{formatNumber(s.value)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        )}
        {gauges.length > 0 && (
          <p class="mr-muted">
            Gauges: {gauges.map((g) => `${g.name} (${g.samples.length} series)`).join(', ')} — per-actor depths are in the Mailboxes view.
          </p>
        )}
      </div>
    </section>
  );
}
