// Metrics concern: the scrape (parsed only when a view reads it), the
// dead-letter capture rate over the last samples, and drops per policy.
import { computed, signal } from '@preact/signals';
import { groupBy, parsePrometheus } from './prometheus';

export const RATE_HISTORY = 60;
const CAPTURED = /^actor_dead_letters_total\{[^}]*outcome="captured"[^}]*\}\s+(\S+)/gm;

export interface RatePoint {
  atMs: number;
  perSecond: number;
}

/** The captured-letters total without parsing the whole scrape (it has a line per actor). */
export function capturedTotal(text: string): number {
  let total = 0;
  for (const m of text.matchAll(CAPTURED)) total += Number(m[1]) || 0;
  return total;
}

export function createMetricsStore() {
  const text = signal('');
  const deadLetterRate = signal<readonly RatePoint[]>([]);
  let lastCaptured: { atMs: number; total: number } | null = null;

  const families = computed(() => parsePrometheus(text.value));
  const dropsPerPolicy = computed(() => groupBy(families.value, 'actor_mailbox_dropped_total', 'policy'));
  const deadLettersByOutcome = computed(() => groupBy(families.value, 'actor_dead_letters_total', 'outcome'));

  function apply(scrape: string, atMs: number) {
    text.value = scrape;
    const total = capturedTotal(scrape);
    if (lastCaptured && atMs > lastCaptured.atMs) {
      const perSecond = Math.max(0, total - lastCaptured.total) / ((atMs - lastCaptured.atMs) / 1000);
      deadLetterRate.value = [...deadLetterRate.value.slice(-(RATE_HISTORY - 1)), { atMs, perSecond }];
    }
    lastCaptured = { atMs, total };
  }

  /** Set aside while an import is viewed: the rate never spans live and imported totals. */
  function saveSession() {
    return { text: text.value, rate: deadLetterRate.value, lastCaptured };
  }

  function restoreSession(saved: ReturnType<typeof saveSession>) {
    text.value = saved.text;
    deadLetterRate.value = saved.rate;
    lastCaptured = saved.lastCaptured;
  }

  return { saveSession, restoreSession, text, families, deadLetterRate, dropsPerPolicy, deadLettersByOutcome, apply };
}
export type MetricsStore = ReturnType<typeof createMetricsStore>;
