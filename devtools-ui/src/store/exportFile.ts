// The export/import file: the current filtered view as plain JSON. Payloads are
// written through the bounded serializer, so hostile values export safely too.
import { REPLAY_OUTCOMES, type ActorSnapshot, type DeadLetterEntry, type DeadLetterSettings } from '../types';
import type { Attempt } from './deadLetters';
import { safeStringify } from '../payload/serialize';

export const EXPORT_FORMAT = 'mailroom-devtools-export';
export const EXPORT_VERSION = 1;

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: number;
  exportedAtMs: number;
  settings: DeadLetterSettings | null;
  mailboxes: ActorSnapshot[];
  deadLetters: DeadLetterEntry[];
  /** Replay attempts made from the panel, per exported entry id (optional: older files lack it). */
  attempts?: Record<string, Attempt[]>;
}

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

function jsonSafe(value: unknown): unknown {
  const text = safeStringify(value, { maxDepth: 200, maxChars: 5_000_000 });
  try {
    return JSON.parse(text);
  } catch {
    return text; // truncated: keep what fitted, as text
  }
}

const ACTOR_FIELDS: (keyof ActorSnapshot)[] = [
  'path', 'className', 'mailboxKind', 'capacity', 'overflow', 'userDepth', 'systemDepth',
  'stashSize', 'dropped', 'suspended', 'processed', 'deadLetterDrops',
];

export function buildExport(
  settings: DeadLetterSettings | null,
  mailboxes: readonly ActorSnapshot[],
  deadLetters: readonly DeadLetterEntry[],
  atMs: number,
  attempts: ReadonlyMap<string, readonly Attempt[]> = new Map(),
): ExportFile {
  const history: Record<string, Attempt[]> = {};
  for (const e of deadLetters) {
    const list = attempts.get(e.id);
    if (list && list.length > 0) history[e.id] = list.map((a) => ({ ...a }));
  }
  return {
    attempts: history,
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAtMs: atMs,
    settings,
    mailboxes: mailboxes.map((m) => Object.fromEntries(ACTOR_FIELDS.map((k) => [k, m[k]])) as unknown as ActorSnapshot),
    deadLetters: deadLetters.map((e) => ({
      id: e.id,
      timestampMs: e.timestampMs,
      recipientPath: e.recipientPath,
      senderPath: e.senderPath,
      replayCount: e.replayCount,
      quarantined: e.quarantined,
      ...(e.cause !== undefined ? { cause: e.cause } : {}),
      ...(e.dropPolicy !== undefined ? { dropPolicy: e.dropPolicy } : {}),
      payload: e.payload.kind === 'captured' ? { kind: 'captured', message: jsonSafe(e.payload.message) } : { ...e.payload },
    })),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One attempt of the history, as read back from a file or storage (untrusted). */
export function isAttempt(a: unknown): a is Attempt {
  return (
    isObject(a) &&
    typeof a.atMs === 'number' &&
    typeof a.target === 'string' &&
    typeof a.redirect === 'boolean' &&
    (a.outcome === 'error' || a.outcome === 'released' || (REPLAY_OUTCOMES as readonly unknown[]).includes(a.outcome)) &&
    (a.detail === undefined || typeof a.detail === 'string')
  );
}

/** Parses and checks an export file; anything else is an ImportError naming what is wrong. */
export function parseExport(text: string): ExportFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ImportError(`not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObject(data) || data.format !== EXPORT_FORMAT) throw new ImportError(`not a ${EXPORT_FORMAT} file`);
  if (data.version !== EXPORT_VERSION) throw new ImportError(`unsupported version ${String(data.version)}`);
  if (!Array.isArray(data.mailboxes) || !Array.isArray(data.deadLetters)) {
    throw new ImportError('mailboxes and deadLetters must be arrays');
  }
  data.deadLetters.forEach((e, i) => {
    if (!isObject(e) || typeof e.id !== 'string' || typeof e.recipientPath !== 'string' || !isObject(e.payload)) {
      throw new ImportError(`deadLetters[${i}] is not an entry`);
    }
  });
  if (data.attempts !== undefined) {
    if (!isObject(data.attempts)) throw new ImportError('attempts must be an object of lists');
    for (const [id, list] of Object.entries(data.attempts)) {
      if (!Array.isArray(list)) throw new ImportError(`attempts["${id}"] is not a list`);
      list.forEach((a, i) => {
        if (!isAttempt(a)) throw new ImportError(`attempts["${id}"][${i}] is not a replay attempt`);
      });
    }
  }
  data.mailboxes.forEach((m, i) => {
    if (!isObject(m) || typeof m.path !== 'string') throw new ImportError(`mailboxes[${i}] is not a mailbox row`);
  });
  return data as unknown as ExportFile;
}
