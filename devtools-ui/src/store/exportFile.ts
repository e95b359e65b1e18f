// The export/import file: the current filtered view as plain JSON. Payloads are
// written through the bounded serializer, so hostile values export safely too.
import type { ActorSnapshot, DeadLetterEntry, DeadLetterSettings } from '../types';
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
): ExportFile {
  return {
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
  data.mailboxes.forEach((m, i) => {
    if (!isObject(m) || typeof m.path !== 'string') throw new ImportError(`mailboxes[${i}] is not a mailbox row`);
  });
  return data as unknown as ExportFile;
}
