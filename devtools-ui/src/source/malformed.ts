// The core's `malformed` reason on replay and preview answers (outcome
// unresolved-recipient: why the redirect path cannot name an actor). Kept only
// as a non-empty string; shown as text, never as markup.
import type { ReplayResult } from '../types';

export function malformedOf(r: { malformed?: unknown }): { malformed?: string } {
  return typeof r.malformed === 'string' && r.malformed !== '' ? { malformed: r.malformed } : {};
}

/** A deadLetters.replay answer as the panel keeps it. */
export function replayAnswer(r: { outcome: ReplayResult['kind']; recipientPath?: string; malformed?: unknown }): ReplayResult {
  return { kind: r.outcome, recipientPath: r.recipientPath, ...malformedOf(r) };
}
