// How the panel names why a letter died (the core's DeadLetterCause strings).
import type { DeadLetterEntry } from '../types';
import { causeOf } from '../store/deadLetters';

export const CAUSE_HELP: Record<string, string> = {
  stopped: 'Told to, or still queued for, an actor that had stopped',
  'no-recipient': 'Nobody lived at the path or selection it was sent to',
  unhandled: 'The behaviour declared it unhandled',
  dropped: 'Shed by a full bounded mailbox with deadLetterDrops on',
  restarted: 'Stashed by an instance that a restart replaced',
  published: 'Sent to the dead letters by hand',
  unknown: 'Not recorded (an older journal or system)',
};

/** "dropped (drop-head)" for a drop, else the cause itself. */
export function causeLabel(entry: DeadLetterEntry): string {
  const cause = causeOf(entry);
  return cause === 'dropped' && entry.dropPolicy ? `dropped (${entry.dropPolicy})` : cause;
}
