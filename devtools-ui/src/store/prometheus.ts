// A small reader for the Prometheus text exposition format (what scrape() returns).

export interface MetricSample {
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: string;
  help: string;
  samples: MetricSample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(?:\s+\S+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/g;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function parseValue(text: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}

/** Families in order of first appearance; malformed lines are skipped. */
export function parsePrometheus(text: string): MetricFamily[] {
  const families = new Map<string, MetricFamily>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) {
      f = { name, type: 'untyped', help: '', samples: [] };
      families.set(name, f);
    }
    return f;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
      if (m) {
        const f = family(m[2]);
        if (m[1] === 'TYPE') f.type = m[3];
        else f.help = unescape(m[3]);
      }
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const value = parseValue(m[4]);
    if (Number.isNaN(value) && m[4] !== 'NaN') continue;
    const labels: Record<string, string> = {};
    if (m[3]) for (const l of m[3].matchAll(LABEL)) labels[l[1]] = unescape(l[2]);
    const base = m[1].replace(/_(bucket|sum|count)$/, '');
    const f = families.has(m[1]) ? family(m[1]) : families.has(base) ? family(base) : family(m[1]);
    f.samples.push({ name: m[1], labels, value });
  }
  return [...families.values()];
}

/** Sum of a family's samples, optionally only those whose labels match. */
export function sumOf(families: readonly MetricFamily[], name: string, match: Record<string, string> = {}): number {
  const f = families.find((x) => x.name === name);
  if (!f) return 0;
  let total = 0;
  for (const s of f.samples) {
    if (Object.entries(match).every(([k, v]) => s.labels[k] === v)) total += s.value;
  }
  return total;
}

/** Totals of a family grouped by one label. */
export function groupBy(families: readonly MetricFamily[], name: string, label: string): Map<string, number> {
  const out = new Map<string, number>();
  const f = families.find((x) => x.name === name);
  for (const s of f?.samples ?? []) {
    const key = s.labels[label] ?? '';
    out.set(key, (out.get(key) ?? 0) + s.value);
  }
  return out;
}
