// this.log / system.log: levelled lines that go through the core's logger, so
// the core's one rule decides what passes the system's log level (natively and
// here alike); what passes is published as a LogEvent and handed to the
// system's JS logger (ActorSystemOptions.withLogger, default the console).
import { core } from './core_loader.js';

export class Logger {
  // actorKey: the actor whose path names the source (0: the system itself).
  constructor(system, actorKey = 0) {
    Object.defineProperty(this, '_system', { value: system });
    Object.defineProperty(this, '_key', { value: actorKey });
  }
  _write(level, args) {
    const text = args.map((a) => (typeof a === 'string' ? a : safeString(a))).join(' ');
    core.systemLog(this._system._id, this._key, level, text);
  }
  debug(...args) {
    this._write('debug', args);
  }
  info(...args) {
    this._write('info', args);
  }
  warn(...args) {
    this._write('warn', args);
  }
  error(...args) {
    this._write('error', args);
  }
}

// The default logger: "[info] /user/worker: processed 1" on the console
// method of the level (as the native default prints to stdout / stderr).
export class ConsoleLogger {
  debug(message, meta) {
    console.debug(line('debug', message, meta));
  }
  info(message, meta) {
    console.info(line('info', message, meta));
  }
  warn(message, meta) {
    console.warn(line('warn', message, meta));
  }
  error(message, meta) {
    console.error(line('error', message, meta));
  }
}

// Drops every line (tests, benchmarks, quiet embeddings).
export class NoopLogger {
  debug() {}
  info() {}
  warn() {}
  error() {}
}

export const consoleLogger = new ConsoleLogger();

function line(level, message, meta) {
  return `[${level}] ${meta?.source ?? ''}: ${message}`;
}

// Called by the core's log sink for a line that passed the level. A logger
// that throws must not break the actor that logged.
export function deliverLog(logger, level, source, message, timestampMs) {
  try {
    logger[level](message, { level, source, timestampMs });
  } catch (error) {
    try {
      console.error('mailroom: the logger threw:', error);
    } catch {
      // nothing left to report to
    }
  }
}

function safeString(value) {
  if (value instanceof Error) return value.stack ?? String(value);
  try {
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  } catch {
    return String(value);
  }
}
